//! The languages the code front-end reads: which files are in which, the
//! tree-sitter grammar of each, and the patterns it is searched with.
//!
//! The patterns are tree-sitter queries kept as data beside the rules,
//! one file per pattern and language (`rules/code/LANGUAGE/PATTERN.scm`):
//! a fifth language is a folder of queries and a line in each table here.
//! TypeScript and TSX are searched with the JavaScript queries (their
//! grammars extend JavaScript's).

use std::path::Path;
use std::sync::OnceLock;

use tree_sitter::Query;

pub use sqsguard_model::code::Language;

/// What a query finds. Each names the captures it sets in its file's
/// header comment; the readers read them by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// Function and method definitions: `@definition`, `@name`.
    Definitions,
    /// Calls of a function or method: `@call`, `@callee` (the last name).
    Calls,
    /// Keys of maps, objects and subscripts the code writes: `@key` (the
    /// text of the key), `@value` (what it is set to, when there is one).
    ResponseKeys,
    /// What returns batch item failures by itself: a batch utility, a
    /// response type: `@utility`.
    BatchUtility,
    /// A return of what a call returns: `@returned` (the callee).
    Returns,
    /// Calls of the SQS API: `@call`, `@operation` (the method or command
    /// name), `@receiver` (what a method is called on, when it is).
    SdkCalls,
    /// Values that differ on every call (a clock, a UUID, a random
    /// number): `@source`.
    Nondeterministic,
    /// Reads of an environment variable: `@read`, `@variable` (its name).
    EnvReads,
    /// Names bound to a value: `@assignment`, `@name`, `@value`, and
    /// `@destructure` when the name is taken out of an object.
    Assignments,
    /// Where names come from other files: `@source` (the module), `@name`,
    /// `@alias`, `@namespace`, `@star`; for Go, `@package`.
    Imports,
}

const PATTERNS: [Pattern; 10] = [
    Pattern::Definitions,
    Pattern::Calls,
    Pattern::ResponseKeys,
    Pattern::BatchUtility,
    Pattern::Returns,
    Pattern::SdkCalls,
    Pattern::Nondeterministic,
    Pattern::EnvReads,
    Pattern::Assignments,
    Pattern::Imports,
];

/// The folder of queries a language is searched with.
fn folder(language: Language) -> &'static str {
    match language {
        Language::Python => "python",
        Language::JavaScript | Language::TypeScript | Language::Tsx => "javascript",
        Language::Go => "go",
        Language::Java => "java",
    }
}

macro_rules! queries {
    ($lang:literal) => {
        [
            include_str!(concat!("../../../rules/code/", $lang, "/definitions.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/calls.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/response-keys.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/batch-utility.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/returns.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/sdk-calls.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/nondeterministic.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/env-reads.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/assignments.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/imports.scm")),
        ]
    };
}

/// The text of each pattern's query, in [`PATTERNS`] order.
fn sources(language: Language) -> [&'static str; 10] {
    match folder(language) {
        "python" => queries!("python"),
        "go" => queries!("go"),
        "java" => queries!("java"),
        _ => queries!("javascript"),
    }
}

/// The grammar of a language.
pub(crate) fn grammar(language: Language) -> tree_sitter::Language {
    match language {
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        Language::Go => tree_sitter_go::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
    }
}

const LANGUAGES: [Language; 6] =
    [Language::Python, Language::JavaScript, Language::TypeScript, Language::Tsx, Language::Go, Language::Java];

/// The compiled queries of a language, in [`PATTERNS`] order, compiled
/// once per run and only for the languages met (compiling a query over a
/// large grammar such as TypeScript's takes milliseconds). A query that
/// does not compile is a bug of the query files (the tests compile every
/// one): that pattern then finds nothing.
fn compiled(language: Language) -> &'static [Option<Query>] {
    static ALL: [OnceLock<Vec<Option<Query>>>; LANGUAGES.len()] = [const { OnceLock::new() }; LANGUAGES.len()];
    let i = LANGUAGES.iter().position(|&l| l == language).unwrap_or(0);
    ALL[i].get_or_init(|| sources(language).iter().map(|text| Query::new(&grammar(language), text).ok()).collect())
}

/// The query of `pattern` for `language`.
pub(crate) fn query(language: Language, pattern: Pattern) -> Option<&'static Query> {
    let i = PATTERNS.iter().position(|&p| p == pattern)?;
    compiled(language).get(i)?.as_ref()
}

/// The language of a file, by its extension.
pub fn of_path(path: &Path) -> Option<Language> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "py" => Language::Python,
        "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        "tsx" => Language::Tsx,
        "go" => Language::Go,
        "java" => Language::Java,
        _ => return None,
    })
}

/// The language family a Lambda runtime runs: Python, JavaScript (whose
/// handler may be TypeScript before the build), Java or Go.
pub(crate) fn of_runtime(runtime: &str) -> Option<Language> {
    let r = runtime.to_ascii_lowercase();
    if r.starts_with("python") {
        Some(Language::Python)
    } else if r.starts_with("nodejs") {
        Some(Language::JavaScript)
    } else if r.starts_with("java") {
        Some(Language::Java)
    } else if r.starts_with("go") || r.starts_with("provided") {
        Some(Language::Go)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles_against_its_grammar() {
        for &language in &LANGUAGES {
            for (pattern, text) in PATTERNS.iter().zip(sources(language)) {
                if let Err(e) = Query::new(&grammar(language), text) {
                    panic!("rules/code/{}/{pattern:?} does not compile for {language:?}: {e}", folder(language));
                }
            }
        }
    }

    #[test]
    fn languages_come_from_extensions_and_runtimes() {
        assert_eq!(of_path(Path::new("src/app.py")), Some(Language::Python));
        assert_eq!(of_path(Path::new("index.MJS")), Some(Language::JavaScript));
        assert_eq!(of_path(Path::new("view.tsx")), Some(Language::Tsx));
        assert_eq!(of_path(Path::new("README.md")), None);
        assert_eq!(of_runtime("python3.12"), Some(Language::Python));
        assert_eq!(of_runtime("provided.al2023"), Some(Language::Go));
        assert_eq!(of_runtime("dotnet8"), None);
    }
}
