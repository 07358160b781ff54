//! Lint files: read, parse, build the model, run the rules, in parallel
//! across files. A file that cannot be read or parsed becomes an SQS000
//! finding when it looks like infrastructure, and never stops the others.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::Config;
use crate::discover;
use crate::finding::{Finding, Note, Severity};
use crate::model::Origin;
use crate::rules::{self, UNPARSABLE_FILE};
use crate::source::{Source, SourceFile, Span};
use crate::syntax::{self, Node};

/// Files larger than this are not parsed. CloudFormation itself accepts
/// template bodies of at most 1 MB (S3-hosted); CDK output stays well below.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Which rules to report.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Code prefixes to keep (empty: all).
    pub select: Vec<String>,
    /// Code prefixes to drop.
    pub ignore: Vec<String>,
}

impl Filter {
    pub fn keeps(&self, code: &str) -> bool {
        let matches = |p: &String| crate::rules::selects(p, code);
        (self.select.is_empty() || self.select.iter().any(matches)) && !self.ignore.iter().any(matches)
    }
}

/// The result of linting a set of paths.
#[derive(Debug, Default)]
pub struct Outcome {
    pub findings: Vec<Finding>,
    /// Files linted.
    pub files: usize,
    /// Files seen and not linted (not a template, or not yet supported).
    pub skipped: usize,
    pub notes: Vec<Note>,
    /// Findings silenced by a suppression (not in `findings`).
    pub suppressed: usize,
    /// With `--baseline`: findings the baseline records (not in `findings`).
    pub baselined: Option<usize>,
    /// Audit only: AWS operations sent.
    pub api_calls: Option<usize>,
    /// The display path of every file linted (`files` of them), sorted:
    /// reporters that list clean files too (JUnit) need their names.
    pub linted: Vec<String>,
}

/// What linting one file, or one Terraform module, gave.
#[derive(Default)]
pub(crate) struct JobResult {
    pub files: usize,
    pub skipped: usize,
    pub findings: Vec<Finding>,
    /// Terraform: the local module folders this module called (canonical).
    pub called: Vec<PathBuf>,
    pub notes: Vec<Note>,
    pub suppressed: usize,
    /// The display paths of the files linted (`files` of them).
    pub linted: Vec<String>,
    /// Suppression rules used, and not used, by this job's model.
    pub used: Vec<crate::suppress::Key>,
    pub unused: Vec<(crate::suppress::Key, Note)>,
}

impl JobResult {
    fn linted(path: &Path, findings: Vec<Finding>) -> Self {
        JobResult { files: 1, findings, linted: vec![crate::source::display_path(path)], ..Default::default() }
    }

    /// One file whose model was checked.
    fn checked(path: &Path, checked: crate::check::Checked) -> Self {
        JobResult {
            files: 1,
            linted: vec![crate::source::display_path(path)],
            findings: checked.findings,
            notes: checked.notes,
            suppressed: checked.suppressed,
            used: checked.used,
            unused: checked.unused,
            ..Default::default()
        }
    }

    fn skipped() -> Self {
        JobResult { skipped: 1, ..Default::default() }
    }
}

/// A unit of work: one template, or one folder of `.tf` files (a module is
/// linted whole even when only one of its files was named).
enum Job {
    File(PathBuf),
    Module(PathBuf),
}

pub fn lint_paths(paths: &[PathBuf], config: &Config) -> Outcome {
    let mut jobs = Vec::new();
    let mut modules = std::collections::BTreeSet::new();
    for c in discover::candidates(paths) {
        if !config.files.keeps(&c.path, c.explicit) {
            continue;
        }
        if is_terraform(&c.path) && c.path.is_file() {
            let dir = c.path.parent().map(Path::to_path_buf).unwrap_or_default();
            if modules.insert(dir.clone()) {
                jobs.push(Job::Module(dir));
            }
        } else {
            jobs.push(Job::File(c.path));
        }
    }
    let results: Vec<(Option<PathBuf>, JobResult)> = jobs
        .par_iter()
        .map(|job| match job {
            Job::File(path) => (None, lint_file(path, config)),
            Job::Module(dir) => (dir.canonicalize().ok(), crate::terraform::lint_module(dir, config)),
        })
        .collect();
    // A module folder that another module of the walk calls was linted as
    // part of its caller, with the caller's arguments: don't lint it again
    // on its own (its variables would mostly be unknown).
    let called: std::collections::HashSet<PathBuf> = results.iter().flat_map(|(_, r)| r.called.clone()).collect();
    let mut outcome = Outcome::default();
    let (mut used, mut unused) = (Vec::new(), Vec::new());
    for (dir, result) in results {
        if dir.is_some_and(|d| called.contains(&d)) {
            continue;
        }
        outcome.files += result.files;
        outcome.skipped += result.skipped;
        outcome.notes.extend(result.notes);
        outcome.suppressed += result.suppressed;
        outcome.linted.extend(result.linted);
        outcome.findings.extend(result.findings);
        used.extend(result.used);
        unused.extend(result.unused);
    }
    outcome.notes.extend(crate::suppress::stale(&used, unused));
    outcome.linted.sort();
    debug_assert_eq!(outcome.linted.len(), outcome.files, "every file counted is named");
    finish(&mut outcome, config);
    outcome
}

/// What every run ends with, lint or audit: the config's rule selection
/// and severity overrides, and findings in file order.
pub fn finish(outcome: &mut Outcome, config: &Config) {
    // A module's file is read once per caller: say each note once.
    let mut seen = std::collections::HashSet::new();
    outcome.notes.retain(|n| {
        let at = crate::report::origin_location(&n.origin).map(|l| (l.file, l.line, l.column));
        seen.insert((at, n.message.clone()))
    });
    outcome.findings.retain(|f| config.filter.keeps(f.code));
    for f in &mut outcome.findings {
        f.severity = config.severity_of(f.code, f.severity);
    }
    outcome.findings.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
}

/// A `.tf` file, or a variables file (`.tfvars`, `.tfvars.json`): either
/// makes its folder's module load, so a pre-commit hook that passes only a
/// changed tfvars file still checks the values it sets.
fn is_terraform(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    name.ends_with(".tf") || name.ends_with(".tfvars") || name.ends_with(".tfvars.json")
}

fn sort_key(f: &Finding) -> (String, usize, &'static str, String) {
    match &f.origin {
        Origin::File { file, span } => (file.display_path(), span.start, f.code, f.message.clone()),
        Origin::Live { id, .. } => (id.clone(), 0, f.code, f.message.clone()),
    }
}

/// Lint one file's text with the default settings (the generator's
/// self-check). `None`: not a CloudFormation template.
pub fn lint_source(file: &Source) -> Option<Vec<Finding>> {
    let root = parse(file).ok()?;
    let model = crate::cfn::load(file, &root)?;
    Some(rules::check(&model, &rules::Options::default()))
}

fn parse(file: &SourceFile) -> Result<Node, syntax::ParseError> {
    let is_json = match file.path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("json") => true,
        Some(e) if e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml") => false,
        _ => file.text.trim_start().starts_with('{'),
    };
    if is_json { syntax::json::parse(file) } else { syntax::yaml::parse(file) }
}

/// A file's text. `Err(Some(_))`: it looks like infrastructure but cannot
/// be read (an SQS000); `Err(None)`: it is not worth a word (skip it).
pub(crate) fn read_source(path: &Path) -> Result<Source, Option<Box<Finding>>> {
    let bytes = match read_limited(path) {
        Ok(Contents::All(bytes)) => bytes,
        Ok(Contents::TooLarge { size, head }) => {
            if !looks_like_infrastructure(path, &head) {
                return Err(None);
            }
            let message = format!(
                "file is {:.1} MiB, larger than the {} MiB sqsguard reads; it was not parsed",
                size as f64 / 1048576.0,
                MAX_FILE_BYTES / 1048576
            );
            return Err(Some(Box::new(broken(path, String::new(), Span::default(), message))));
        }
        Err(message) => {
            if !discover::has_infra_extension(path) {
                return Err(None);
            }
            return Err(Some(Box::new(broken(path, String::new(), Span::default(), message))));
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(path.to_path_buf(), text)),
        Err(e) => {
            let bad = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            if !looks_like_infrastructure(path, &bytes) {
                return Err(None);
            }
            let message = format!("file is not valid UTF-8 (byte 0x{:02x})", bytes[bad]);
            let text = String::from_utf8_lossy(&bytes).into_owned();
            // The lossy text is identical up to the bad byte.
            Err(Some(Box::new(broken(path, text, Span::new(bad, bad), message))))
        }
    }
}

fn lint_file(path: &Path, config: &Config) -> JobResult {
    let file = match read_source(path) {
        Ok(file) => file,
        Err(Some(finding)) => return JobResult::linted(path, vec![*finding]),
        Err(None) => return JobResult::skipped(),
    };
    match parse(&file) {
        Ok(root) => match crate::terraform::plan::load(&file, &root).or_else(|| crate::cfn::load(&file, &root)) {
            Some(model) => JobResult::checked(path, crate::check::model(model, config, std::slice::from_ref(&file))),
            None => JobResult::skipped(),
        },
        Err(e) if looks_like_infrastructure(path, file.text.as_bytes()) => {
            JobResult::linted(path, vec![unparsable(&file, e.span, e.message)])
        }
        Err(_) => JobResult::skipped(),
    }
}

fn broken(path: &Path, text: String, span: Span, message: String) -> Finding {
    let file = SourceFile::new(path.to_path_buf(), text);
    unparsable(&file, span, message)
}

pub(crate) fn unparsable(file: &Source, span: Span, message: String) -> Finding {
    Finding {
        code: UNPARSABLE_FILE.code,
        name: UNPARSABLE_FILE.name,
        severity: Severity::Error,
        resource: file.display_path(),
        related: Vec::new(),
        origin: Origin::file(file, span),
        message,
        fix: "fix the file so it parses (the location is where the parser stopped); other files were still linted"
            .to_string(),
    }
}

enum Contents {
    All(Vec<u8>),
    TooLarge { size: u64, head: Vec<u8> },
}

/// Read a file unless it is over [`MAX_FILE_BYTES`] (then only its head,
/// to tell whether it is worth an error). Errors are plain sentences.
fn read_limited(path: &Path) -> Result<Contents, String> {
    let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
    let meta = f.metadata().map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
    if meta.is_dir() {
        return Err("is a directory, not a file".to_string());
    }
    if meta.len() > MAX_FILE_BYTES {
        let mut head = vec![0; 64 * 1024];
        let n = f.read(&mut head).unwrap_or(0);
        head.truncate(n);
        return Ok(Contents::TooLarge { size: meta.len(), head });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    f.by_ref()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        let size = bytes.len() as u64;
        bytes.truncate(64 * 1024);
        return Ok(Contents::TooLarge { size, head: bytes });
    }
    Ok(Contents::All(bytes))
}

fn plain_io_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::IsADirectory => "is a directory, not a file".to_string(),
        _ => e.to_string(),
    }
}

/// RULES.md: a `.tf`, or YAML/JSON mentioning AWSTemplateFormatVersion,
/// `AWS::`, Transform, or `service:` with `provider:`.
fn looks_like_infrastructure(path: &Path, bytes: &[u8]) -> bool {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("tf")) {
        return true;
    }
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    has(b"AWSTemplateFormatVersion") || has(b"AWS::") || has(b"Transform") || (has(b"service:") && has(b"provider:"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_matches_code_prefixes() {
        let f = Filter { select: vec!["SQS00".into()], ignore: vec!["sqs004".into()] };
        assert!(f.keeps("SQS001"));
        assert!(!f.keeps("SQS004"));
        assert!(!f.keeps("SQS012"));
        assert!(Filter::default().keeps("SQS017"));
    }

    #[test]
    fn infrastructure_is_recognised_by_content() {
        let p = Path::new("x.yaml");
        assert!(looks_like_infrastructure(p, b"Resources:\n  Q:\n    Type: AWS::SQS::Queue"));
        assert!(looks_like_infrastructure(p, b"service: x\nprovider:\n  name: aws"));
        assert!(!looks_like_infrastructure(p, b"name: ci\non: push"));
        assert!(looks_like_infrastructure(Path::new("main.tf"), b""));
    }
}
