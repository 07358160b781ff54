//! The languages the code front-end reads: which files are in which, the
//! tree-sitter grammar of each, and the patterns it is searched with.
//!
//! The patterns are tree-sitter queries kept as data beside the rules,
//! one file per pattern and language (`rules/code/LANGUAGE/PATTERN.scm`):
//! a fifth language is a folder of queries and a line in each table here.
//! Python's and JavaScript's are flat (one node kind, and conditions on
//! its text and its fields' text), matched by a walk ([`flat`](crate::flat))
//! that compiles nothing but their regexes; Go's and Java's are compiled
//! as a tree-sitter query.
//! TypeScript and TSX are searched with the JavaScript queries (their
//! grammars extend JavaScript's).

use std::sync::OnceLock;

use tree_sitter::Query;

use super::check::{self, Check};
use super::flat;

pub use sqsguard_model::code::Language;

/// What a query finds. Each names the captures it sets in its file's
/// header comment; the readers read them by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pattern {
    /// Function and method definitions: `@definition`, and `@name` or the
    /// definition's own [`defined_name`](crate::fields::defined_name).
    Definitions,
    /// Calls of a function or method: `@call`, `@callee` (the last name;
    /// when a pattern leaves it out, the names the match calls,
    /// [`calls`](crate::fields::calls)).
    Calls,
    /// Keys of maps, objects and subscripts the code writes: `@key` (the
    /// text of the key), `@value` (what it is set to, when there is one),
    /// or `@written`, a node whose [`written_keys`](crate::fields::written_keys) are the keys.
    ResponseKeys,
    /// What returns batch item failures by itself: a batch utility, a
    /// response type: `@utility`, or a node that names it
    /// (`@utility_call`, `@utility_decorator`, `@utility_require`,
    /// `@utility_import`).
    BatchUtility,
    /// A return of what a call returns: `@returned` (the callee),
    /// `@returned_call` (the call, whose [`callee_name`](crate::fields::callee_name) is the callee), or
    /// `@returned_from` (a return, whose [`returned_calls`](crate::fields::returned_calls) are the calls).
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
    /// `@destructure` when the name is taken out of an object; or
    /// `@assignment` alone, whose [`bindings`](crate::fields::bindings) are those.
    Assignments,
    /// Where a handler ends with an error (a raise, a throw, Go's return of
    /// an error): `@raise`.
    Raises,
    /// Where names come from other files: `@source` (the module), `@name`,
    /// `@alias`, `@namespace`, `@star`; for Go, `@package`; or the
    /// statement (`@from_import`, `@module_import`, `@es_import`,
    /// `@es_export`) or `require` call (`@required`), read by `imports`.
    Imports,
}

pub(crate) const PATTERNS: [Pattern; 11] = [
    Pattern::Definitions,
    Pattern::Calls,
    Pattern::ResponseKeys,
    Pattern::BatchUtility,
    Pattern::Returns,
    Pattern::SdkCalls,
    Pattern::Nondeterministic,
    Pattern::EnvReads,
    Pattern::Assignments,
    Pattern::Raises,
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
            include_str!(concat!("../../../rules/code/", $lang, "/raises.scm")),
            include_str!(concat!("../../../rules/code/", $lang, "/imports.scm")),
        ]
    };
}

/// The text of each pattern's query, in [`PATTERNS`] order.
fn sources(language: Language) -> [&'static str; 11] {
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

/// A language's patterns, compiled once: matched by a walk over the tree
/// when every one is flat ([`flat`](crate::flat)), else as one query (the
/// pattern files one after another, and which file each of the query's
/// patterns came from).
///
/// One query, not one per file: compiling a query costs a fixed part that
/// grows with the grammar (0.7 ms for Python, 1.8 ms for TypeScript on this
/// project's machine) on top of each pattern's own analysis, and each query
/// is a walk over the tree when it runs (docs/speed.md has the figures).
pub(crate) enum Compiled {
    Flat(flat::Patterns),
    Query {
        query: Query,
        /// The pattern file of each of the query's patterns, by pattern index.
        of: Vec<Pattern>,
        /// The conditions left to the reader of each pattern, by pattern index.
        checks: Vec<Vec<Check>>,
    },
}

impl Compiled {
    fn new(language: Language) -> Option<Self> {
        let files = sources(language);
        if let Some(flat) = flat::parse(&grammar(language), &files).ok()? {
            return Some(Compiled::Flat(flat));
        }
        let (query, of, checks) = as_query(language)?;
        Some(Compiled::Query { query, of, checks })
    }

    /// How many patterns there are.
    #[cfg(test)]
    pub(crate) fn pattern_count(&self) -> usize {
        match self {
            Compiled::Flat(flat) => flat.len(),
            Compiled::Query { query, .. } => query.pattern_count(),
        }
    }

    /// The pattern file the pattern `index` came from.
    #[cfg(test)]
    pub(crate) fn pattern(&self, index: usize) -> Option<Pattern> {
        match self {
            Compiled::Flat(flat) => flat.file(index).and_then(|f| PATTERNS.get(f).copied()),
            Compiled::Query { of, .. } => of.get(index).copied(),
        }
    }
}

/// A language's pattern files compiled as one tree-sitter query, the file
/// of each of its patterns and their conditions.
pub(crate) fn as_query(language: Language) -> Option<(Query, Vec<Pattern>, Vec<Vec<Check>>)> {
    let mut text = String::new();
    let mut starts = Vec::with_capacity(PATTERNS.len());
    for source in sources(language) {
        starts.push(text.len());
        // Without the files' comments: tree-sitter's binding counts the
        // lines before each pattern, over the whole text, for each one.
        for line in source.lines().filter(|l| !l.trim_start().starts_with(';')) {
            text.push_str(line);
            text.push('\n');
        }
    }
    let query = Query::new(&grammar(language), &text).ok()?;
    let of = (0..query.pattern_count())
        .map(|i| {
            let start = query.start_byte_for_pattern(i);
            let file = starts.iter().rposition(|&s| s <= start).unwrap_or(0);
            PATTERNS.get(file).copied().unwrap_or(Pattern::Definitions)
        })
        .collect();
    let checks = check::checks(&query).ok()?;
    Some((query, of, checks))
}

/// The pattern file of each file index.
pub(crate) fn file_pattern(file: usize) -> Option<Pattern> {
    PATTERNS.get(file).copied()
}

/// The compiled patterns of a language, compiled once per run and only for
/// the languages met. The query not compiling is a bug of the pattern
/// files (the tests compile every one): the language's code then finds
/// nothing.
pub(crate) fn compiled(language: Language) -> Option<&'static Compiled> {
    static ALL: [OnceLock<Option<Compiled>>; LANGUAGES.len()] = [const { OnceLock::new() }; LANGUAGES.len()];
    let i = LANGUAGES.iter().position(|&l| l == language).unwrap_or(0);
    ALL[i].get_or_init(|| Compiled::new(language)).as_ref()
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
                let checked =
                    Query::new(&grammar(language), text).map_err(|e| e.to_string()).and_then(|q| check::checks(&q));
                if let Err(e) = checked {
                    panic!("rules/code/{}/{pattern:?} does not compile for {language:?}: {e}", folder(language));
                }
            }
            assert!(compiled(language).is_some(), "the {language:?} pattern files do not compile together");
        }
    }

    /// Compiling even flat patterns as a query costs the grammar's whole
    /// parse table (docs/speed.md): these languages' patterns are kept flat,
    /// and matched by a walk.
    #[test]
    fn python_and_javascript_patterns_are_flat() {
        for language in [Language::Python, Language::JavaScript, Language::TypeScript, Language::Tsx] {
            assert!(
                matches!(compiled(language), Some(Compiled::Flat(_))),
                "a pattern of rules/code/{} is not flat: one node kind, its captures and conditions",
                folder(language)
            );
        }
    }

    #[test]
    fn each_pattern_of_the_query_knows_its_file() {
        for &language in &LANGUAGES {
            let Some(compiled) = compiled(language) else { panic!("{language:?} does not compile") };
            let mut index = 0;
            for (pattern, text) in PATTERNS.iter().zip(sources(language)) {
                let Ok(alone) = Query::new(&grammar(language), text) else { panic!("{pattern:?}") };
                for _ in 0..alone.pattern_count() {
                    assert_eq!(compiled.pattern(index), Some(*pattern), "{language:?} pattern {index}");
                    index += 1;
                }
            }
            assert_eq!(index, compiled.pattern_count(), "{language:?}");
        }
    }

    /// What compiling each query costs: `benches/queries.sh` runs this in
    /// the release profile and docs/speed.md quotes it.
    #[test]
    #[ignore = "a measurement, not a check: benches/queries.sh runs it"]
    fn query_compile_times() {
        println!("{:<12} {:<18} {:>9} {:>9}", "language", "pattern", "patterns", "ms");
        for &language in &LANGUAGES {
            let mut total = 0.0;
            for (pattern, text) in PATTERNS.iter().zip(sources(language)) {
                let best = (0..5)
                    .map(|_| {
                        let start = std::time::Instant::now();
                        let query = Query::new(&grammar(language), text);
                        (start.elapsed().as_secs_f64() * 1000.0, query.map(|q| q.pattern_count()).unwrap_or(0))
                    })
                    .fold((f64::MAX, 0), |a, b| if b.0 < a.0 { b } else { a });
                total += best.0;
                println!(
                    "{:<12} {:<18} {:>9} {:>9.2}",
                    format!("{language:?}"),
                    format!("{pattern:?}"),
                    best.1,
                    best.0
                );
            }
            println!("{:<12} {:<18} {:>9} {:>9.2}", format!("{language:?}"), "(sum of files)", "", total);
            let best = (0..5)
                .map(|_| {
                    let start = std::time::Instant::now();
                    let query = Compiled::new(language);
                    (start.elapsed().as_secs_f64() * 1000.0, query.map(|c| c.pattern_count()).unwrap_or(0))
                })
                .fold((f64::MAX, 0), |a, b| if b.0 < a.0 { b } else { a });
            println!("{:<12} {:<18} {:>9} {:>9.2}", format!("{language:?}"), "(compiled)", best.1, best.0);
        }
    }

    #[test]
    fn languages_come_from_extensions_and_runtimes() {
        assert_eq!(Language::of_path(std::path::Path::new("src/app.py")), Some(Language::Python));
        assert_eq!(Language::of_path(std::path::Path::new("index.MJS")), Some(Language::JavaScript));
        assert_eq!(Language::of_path(std::path::Path::new("view.tsx")), Some(Language::Tsx));
        assert_eq!(Language::of_path(std::path::Path::new("README.md")), None);
        assert_eq!(of_runtime("python3.12"), Some(Language::Python));
        assert_eq!(of_runtime("provided.al2023"), Some(Language::Go));
        assert_eq!(of_runtime("dotnet8"), None);
    }
}
