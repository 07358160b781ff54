//! The languages a CDK app is written in: those of the code reader, and
//! C#, which only constructs are located in.

use std::path::Path;

use sqsguard_model::code::Language;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    Code(Language),
    CSharp,
}

impl Syntax {
    /// By a file's extension (`.cs` for C#).
    pub(crate) fn of_path(path: &Path) -> Option<Syntax> {
        if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("cs")) {
            return Some(Syntax::CSharp);
        }
        Language::of_path(path).map(Syntax::Code)
    }

    pub(crate) fn is(self, language: Language) -> bool {
        self == Syntax::Code(language)
    }

    /// Its tree, within the code reader's bounds but its depth, which the
    /// index's walk bounds itself ([`sqsguard_code::unit::MAX_DEPTH`]).
    pub(crate) fn parse(
        self,
        source: &sqsguard_source::Source,
    ) -> Result<tree_sitter::Tree, sqsguard_code::unit::Unparsed> {
        match self {
            Syntax::Code(language) => sqsguard_code::unit::parse_tree_unmeasured(source, language),
            Syntax::CSharp => {
                let grammar: tree_sitter::Language = tree_sitter_c_sharp::LANGUAGE.into();
                sqsguard_code::unit::parse_tree_in(source, &grammar, "C#", false, false)
            }
        }
    }
}
