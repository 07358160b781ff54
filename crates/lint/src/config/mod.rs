//! `.sqsguard.yaml`: which rules, how strict, which files, and payload
//! declarations by queue name. Validated against
//! `schemas/config.schema.json`; every error points at its line.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobMatcher, GlobSet, GlobSetBuilder};

use sqsguard_finding::Severity;
use sqsguard_finding::error::Error;
pub use sqsguard_frontend::stage::Stage;
use sqsguard_model::{Origin, Payload, Value, payload};
use sqsguard_rules::{self as rules, Filter, Options};
use sqsguard_source::{Source, SourceFile, Span};
use sqsguard_syntax::{Node, duration, yaml};

mod nearest;
pub mod samconfig;

pub use nearest::{Nearest, nearest};

/// The file name looked for, walking up from a file's folder (or the
/// working folder) to the repository's root.
pub const FILE_NAME: &str = ".sqsguard.yaml";
pub const SCHEMA: &str = include_str!("../../../../schemas/config.schema.json");

/// A project's settings; [`Default`] is a run without a config file.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The file the settings came from.
    pub path: Option<PathBuf>,
    pub filter: Filter,
    /// Per-rule severity overrides.
    pub severity: Vec<(&'static str, Severity)>,
    pub options: Options,
    pub files: FileFilter,
    pub payloads: Vec<PayloadRule>,
    /// The config file's `stage:`, linted when the command line names
    /// none (the run's stage is [`crate::session::Inputs::stage`]).
    pub stage: Stage,
}

/// `include`/`exclude`, relative to the config file's folder.
#[derive(Clone, Debug, Default)]
pub struct FileFilter {
    base: Option<PathBuf>,
    include: Option<GlobSet>,
    exclude: Option<GlobSet>,
}

/// One `payloads:` entry.
#[derive(Clone, Debug)]
pub struct PayloadRule {
    pub pattern: GlobMatcher,
    pub payload: Value<Payload>,
    /// The entry in the config file.
    pub origin: Origin,
}

impl Config {
    /// The config with the command line's `--select` (which replaces its
    /// `select:`) and `--ignore` (added to its `ignore:`) over it.
    pub fn overridden(mut self, cli: &Filter) -> Config {
        if !cli.select.is_empty() {
            self.filter.select = cli.select.clone();
        }
        self.filter.ignore.extend(cli.ignore.iter().cloned());
        self
    }

    /// The severity a finding of `code` gets in this project.
    pub fn severity_of(&self, code: &str, default: Severity) -> Severity {
        self.severity.iter().find(|(c, _)| *c == code).map_or(default, |(_, s)| *s)
    }

    /// The payload declared for a queue with this name (or logical ID,
    /// address, URL): the first matching entry.
    pub(crate) fn payload_for<'a>(&'a self, names: &[&str]) -> Option<&'a PayloadRule> {
        self.payloads.iter().find(|p| names.iter().any(|n| p.pattern.is_match(n)))
    }
}

impl FileFilter {
    /// Whether a file is linted: not excluded, and included when
    /// `include` is set (`explicit` files, named on the command line, need
    /// not match `include`).
    pub(crate) fn keeps(&self, path: &Path, explicit: bool) -> bool {
        let Some(base) = &self.base else { return true };
        if self.include.is_none() && self.exclude.is_none() {
            return true;
        }
        let Some(rel) = path.canonicalize().ok().and_then(|p| p.strip_prefix(base).ok().map(Path::to_path_buf)) else {
            return true;
        };
        if self.exclude.as_ref().is_some_and(|g| g.is_match(&rel)) {
            return false;
        }
        explicit || self.include.as_ref().is_none_or(|g| g.is_match(&rel))
    }
}

/// `.sqsguard.yaml` in `start` or the nearest folder above it, up to the
/// repository's root.
pub fn discover(start: &Path) -> Option<PathBuf> {
    nearest(&start.canonicalize().ok()?, Path::is_file)
}

/// What to do about an invalid config, for every problem.
pub const HELP: &str = "`sqsguard schema config` prints the schema; sqsguard's docs/configuration.md explains each key";

/// Read and validate a config file.
pub fn load(path: &Path) -> Result<Config, Error> {
    let text = sqsguard_source::read_named(path).map_err(|e| Error::io(path, e))?;
    load_text(path, text)
}

/// Validate a config file's text (an editor's unsaved buffer, say).
pub fn load_text(path: &Path, text: String) -> Result<Config, Error> {
    let file = SourceFile::new(path.to_path_buf(), text);
    let located =
        |problems: Vec<(Span, String)>| Error::Invalid { what: "invalid config", file: file.clone(), problems };
    let root = yaml::parse(&file).map_err(|e| located(vec![(e.span, e.message)]))?;
    // An empty file is an empty config.
    if matches!(root.kind, sqsguard_syntax::Kind::Null) {
        return Ok(Config { path: Some(path.to_path_buf()), ..Config::default() });
    }
    let problems = sqsguard_syntax::schema::validate(SCHEMA, &root, "the config");
    if !problems.is_empty() {
        return Err(located(problems));
    }
    read(&file, &root).map_err(located)
}

/// A config the schema accepted; what the schema cannot say (codes that
/// name no rule, globs that do not parse) is checked here.
fn read(file: &Source, root: &Node) -> Result<Config, Vec<(Span, String)>> {
    let mut problems = Vec::new();
    let base = file.path.parent().and_then(|d| {
        let d = if d.as_os_str().is_empty() { Path::new(".") } else { d };
        d.canonicalize().ok()
    });
    let mut config = Config { path: Some(file.path.clone()), ..Config::default() };

    let codes = |key: &str, problems: &mut Vec<(Span, String)>| -> Vec<String> {
        let mut out = Vec::new();
        for item in root.get(key).and_then(Node::as_seq).unwrap_or_default() {
            let code = item.as_str().unwrap_or_default();
            if rules::selects_any(code) {
                out.push(code.to_string());
            } else {
                problems.push((item.span, format!("`{code}` matches no rule code; `sqsguard rules` lists them")));
            }
        }
        out
    };
    config.filter.select = codes("select", &mut problems);
    config.filter.ignore = codes("ignore", &mut problems);

    for entry in root.get("severity").and_then(Node::as_map).unwrap_or_default() {
        let Some(rule) = rules::by_code(&entry.key) else {
            problems.push((entry.key_span, format!("`{}` is no rule code; `sqsguard rules` lists them", entry.key)));
            continue;
        };
        let severity = match entry.value.as_str() {
            Some("error") => Severity::Error,
            Some("warning") => Severity::Warning,
            _ => Severity::Info,
        };
        config.severity.push((rule.id.code, severity));
    }

    // Each rule declares what options it takes and of what kind; its check
    // reads them back as its own struct.
    for rule in rules::ALL.iter() {
        let Some(given) = root.get("rules").and_then(|r| r.get(rule.id.code)) else { continue };
        for spec in rule.options {
            let Some(node) = given.get(spec.name) else { continue };
            match spec.kind {
                rules::OptionKind::Integer { .. } => {
                    if let Some(n) = number(node) {
                        config.options.give(rule.id.code, spec.name, n);
                    }
                }
                rules::OptionKind::Duration => match duration::of_node(node) {
                    Some(s) => config.options.give(rule.id.code, spec.name, s),
                    None => problems.push((node.span, "the SLA is not a duration (300, 5m, 2h)".to_string())),
                },
            }
        }
    }

    if let Some(stage) = root.get("stage").and_then(Node::as_str) {
        config.stage.name = Some(stage.to_string());
        // The file's name, not its path: a finding's words stay the same
        // wherever the repository is checked out.
        let named_in = format!("stage: {stage} of {FILE_NAME}");
        config.stage.named_in = Some(std::sync::Arc::from(named_in));
    }

    let globs = |key: &str, problems: &mut Vec<(Span, String)>| -> Option<GlobSet> {
        let items = root.get(key).and_then(Node::as_seq)?;
        let mut set = GlobSetBuilder::new();
        for item in items {
            let text = item.as_str().unwrap_or_default();
            match Glob::new(text) {
                Ok(g) => {
                    set.add(g);
                    // `legacy/` and `legacy` mean the whole folder, as in .gitignore.
                    if let Ok(g) = Glob::new(&format!("{}/**", text.trim_end_matches('/'))) {
                        set.add(g);
                    }
                }
                Err(e) => problems.push((item.span, format!("`{text}` is not a glob: {}", e.kind()))),
            }
        }
        set.build().ok()
    };
    config.files =
        FileFilter { include: globs("include", &mut problems), exclude: globs("exclude", &mut problems), base };

    for entry in root.get("payloads").and_then(Node::as_seq).unwrap_or_default() {
        let Some(pattern) = entry.get("queue") else { continue };
        let text = pattern.as_str().unwrap_or_default();
        let matcher = match Glob::new(text) {
            Ok(g) => g.compile_matcher(),
            Err(e) => {
                problems.push((pattern.span, format!("`{text}` is not a glob: {}", e.kind())));
                continue;
            }
        };
        let payload = match (entry.get("deterministic"), entry.get("schema")) {
            (Some(d), _) => match d.kind {
                sqsguard_syntax::Kind::Bool(true) => Value::Known(Payload::Deterministic),
                _ => Value::Known(Payload::NonDeterministic(vec!["declared non-deterministic".to_string()])),
            },
            (None, Some(schema)) => match payload::from_schema_file(&file.path, schema) {
                Value::Unknown(why) => {
                    problems.push((schema.span, why));
                    continue;
                }
                known => known,
            },
            (None, None) => Value::Known(payload::from_fields(entry)),
        };
        config.payloads.push(PayloadRule { pattern: matcher, payload, origin: Origin::file(file, entry.span) });
    }

    if problems.is_empty() { Ok(config) } else { Err(problems) }
}

/// A whole number the schema accepted (`4`, `1e2`).
fn number(node: &Node) -> Option<u64> {
    match &node.kind {
        sqsguard_syntax::Kind::Number(n) => n.parse().ok().or_else(|| {
            let f: f64 = n.parse().ok()?;
            (f.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(&f)).then_some(f as u64)
        }),
        _ => None,
    }
}
