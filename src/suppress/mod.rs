//! Suppressions: a comment `# sqsguard:ignore SQS004 reason` on a
//! resource's line or the line above it (YAML and HCL, `//` too in HCL),
//! and CloudFormation resource Metadata
//! `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}` (JSON templates
//! have no comments). Codes or rule names (`missing-dlq`) both work.
//!
//! A suppression silences the findings of its rules about the resource it
//! is attached to (the finding's `resource`, or one it is related to: the
//! policy of an SQS017, the consumer of an SQS001), or located on its
//! line. One without a reason still works and gets a note; one that names
//! no rule gets a note; and a rule of it that silences nothing anywhere in
//! the run gets a note, so stale ones are cleaned up.

mod comment;

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use crate::finding::{Finding, Note};
use crate::lint::Filter;
use crate::model::{Model, Origin};
use crate::report::origin_location;
use crate::source::Source;

pub(crate) use comment::code_of;
pub use comment::scan;

#[derive(Clone, Debug)]
pub struct Suppression {
    /// Rule codes, upper case; empty when the suppression names no rule
    /// (it then silences nothing and gets a note).
    pub codes: Vec<String>,
    pub reason: Option<String>,
    /// Where it is written.
    pub origin: Origin,
    pub scope: Scope,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A comment: what is declared on, or located on, this 1-based line of
    /// the comment's file.
    Line(usize),
    /// Metadata: the resource with this logical ID.
    Resource(String),
}

/// One rule of one suppression: (file, byte offset, code). A module's
/// file is checked once per caller, so staleness is judged over the run.
pub type Key = (PathBuf, usize, String);

/// What is left after suppressions.
#[derive(Debug, Default)]
pub struct Applied {
    pub findings: Vec<Finding>,
    pub suppressed: usize,
    /// Suppressions without a reason, or naming no rule.
    pub notes: Vec<Note>,
    /// Rules of suppressions that silenced something here.
    pub used: Vec<Key>,
    /// Rules of suppressions that silenced nothing here, with the note to
    /// give when nothing else in the run used them either.
    pub unused: Vec<(Key, Note)>,
}

/// Apply the suppressions written in the model's files and `sources`
/// (comments) and declared in it (Metadata) to `findings`. `filter` tells
/// which rules run, so a suppression of a rule switched off is not stale.
pub fn apply(model: &Model, findings: Vec<Finding>, filter: &Filter, sources: &[Source]) -> Applied {
    let mut suppressions = model.suppressions.clone();
    for source in files(model, &findings, sources) {
        suppressions.extend(scan(&source));
    }
    let mut out = Applied::default();
    if suppressions.is_empty() {
        out.findings = findings;
        return out;
    }
    let declared = declared_on(model);
    let mut used: Vec<Vec<bool>> = suppressions.iter().map(|s| vec![false; s.codes.len()]).collect();
    for finding in findings {
        // A rule switched off is dropped later; it is no suppressed finding.
        if !filter.keeps(finding.code) {
            out.findings.push(finding);
            continue;
        }
        // Every suppression that covers the finding counts as used: two
        // comments saying the same are redundant, not stale.
        let mut hit = false;
        for (i, s) in suppressions.iter().enumerate() {
            if let Some(c) = s.codes.iter().position(|c| c == finding.code)
                && covers(s, &finding, &declared)
            {
                used[i][c] = true;
                hit = true;
            }
        }
        if hit {
            out.suppressed += 1;
        } else {
            out.findings.push(finding);
        }
    }
    for (s, used) in suppressions.iter().zip(used) {
        if s.codes.is_empty() {
            out.notes.push(Note {
                origin: s.origin.clone(),
                message: "sqsguard:ignore names no rule: write `sqsguard:ignore SQS004 reason` (a code or a rule name)"
                    .to_string(),
            });
            continue;
        }
        if used.iter().any(|u| *u) && s.reason.is_none() {
            out.notes.push(Note {
                origin: s.origin.clone(),
                message: format!("sqsguard:ignore {} gives no reason; say why after the code", s.codes.join(", ")),
            });
        }
        for (code, used) in s.codes.iter().zip(used) {
            let key = key(s, code);
            if used {
                out.used.push(key);
            } else if filter.keeps(code) {
                let note = Note {
                    origin: s.origin.clone(),
                    message: format!("sqsguard:ignore {code} silences no finding here; remove it"),
                };
                out.unused.push((key, note));
            }
        }
    }
    out
}

fn key(s: &Suppression, code: &str) -> Key {
    match &s.origin {
        Origin::File { file, span } => (file.path.clone(), span.start, code.to_string()),
        Origin::Live { id, .. } => (PathBuf::from(id), 0, code.to_string()),
    }
}

/// The stale-suppression notes of a run: those no model used.
pub fn stale(used: &[Key], unused: Vec<(Key, Note)>) -> Vec<Note> {
    let used: HashSet<&Key> = used.iter().collect();
    let mut seen = HashSet::new();
    unused.into_iter().filter(|(k, _)| !used.contains(k) && seen.insert(k.clone())).map(|(_, n)| n).collect()
}

/// (file, line) -> the resources declared there.
type Declared = BTreeMap<(PathBuf, usize), Vec<String>>;

fn declared_on(model: &Model) -> Declared {
    let mut out = Declared::new();
    for (resource, origin) in resources(model) {
        if let Origin::File { file, .. } = origin
            && let Some(l) = origin_location(origin)
        {
            out.entry((file.path.clone(), l.line)).or_default().push(resource.clone());
        }
    }
    out
}

fn resources(model: &Model) -> impl Iterator<Item = (&String, &Origin)> {
    model
        .queues
        .iter()
        .map(|q| (&q.resource, &q.origin))
        .chain(model.functions.iter().map(|f| (&f.resource, &f.origin)))
        .chain(model.consumers.iter().map(|c| (&c.resource, &c.origin)))
        .chain(model.alarms.iter().map(|a| (&a.resource, &a.origin)))
        .chain(model.policies.iter().map(|p| (&p.resource, &p.origin)))
}

fn covers(s: &Suppression, finding: &Finding, declared: &Declared) -> bool {
    let about = |name: &String| *name == finding.resource || finding.related.contains(name);
    match &s.scope {
        Scope::Resource(id) => about(id),
        Scope::Line(line) => {
            let Origin::File { file, .. } = &s.origin else { return false };
            let on_line = declared.get(&(file.path.clone(), *line)).is_some_and(|r| r.iter().any(about));
            let at = match &finding.origin {
                Origin::File { file: f, .. } if f.path == file.path => origin_location(&finding.origin),
                _ => None,
            };
            on_line || at.is_some_and(|l| l.line == *line)
        }
    }
}

/// Every file the model's resources and the findings come from, and `extra`.
fn files(model: &Model, findings: &[Finding], extra: &[Source]) -> Vec<Source> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let from_model =
        resources(model).map(|(_, o)| o).chain(findings.iter().map(|f| &f.origin)).filter_map(|o| match o {
            Origin::File { file, .. } => Some(file),
            Origin::Live { .. } => None,
        });
    for file in extra.iter().chain(from_model) {
        if seen.insert(file.path.clone()) {
            out.push(file.clone());
        }
    }
    out
}
