//! What a run gives, lint or audit: the findings and notes, and the counts
//! every output format ends with.

use std::borrow::Cow;

use crate::config::Config;
use crate::finding::{Finding, Note, Severity};
use crate::model::Origin;

/// The result of linting a set of paths, or of an audit.
#[derive(Debug, Default)]
pub struct Outcome {
    pub findings: Vec<Finding>,
    /// Files linted (audit: queues read).
    pub files: usize,
    /// Files seen and not linted (not a template, or not yet supported).
    pub skipped: usize,
    /// Files named on the command line that may be infrastructure and were
    /// not linted (each has a note): they fail the run like a finding
    /// (CLI.md: fail closed).
    pub unlinted: Vec<String>,
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

impl Outcome {
    /// What every run ends with: the config's rule selection and severity
    /// overrides, each note once, and findings in file order.
    pub fn finish(&mut self, config: &Config) {
        // A module's file is read once per caller: say each note once.
        let mut seen = std::collections::HashSet::new();
        self.notes.retain(|n| {
            let at = n.origin.location().map(|l| (l.file, l.line, l.column));
            seen.insert((at, n.message.clone()))
        });
        self.findings.retain(|f| config.filter.keeps(f.code));
        for f in &mut self.findings {
            f.severity = config.severity_of(f.code, f.severity);
        }
        self.findings.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    }

    /// Whether a finding is at or above `threshold`, or a file named on the
    /// command line went unlinted (the exit status).
    pub fn fails(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| !self.unlinted.is_empty() || self.findings.iter().any(|f| f.severity >= t))
    }
}

/// File order: by path, offset, rule and words (borrowed, not copied: a
/// large plan has a hundred thousand findings).
fn sort_key(f: &Finding) -> (Cow<'_, str>, usize, &'static str, &str) {
    match &f.origin {
        Origin::File { file, span } => (file.path.to_string_lossy(), span.start, f.code, &f.message),
        Origin::Live(live) => (Cow::Borrowed(live.id.as_str()), 0, f.code, &f.message),
    }
}
