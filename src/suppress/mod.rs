//! Suppressions: a comment `# sqsguard:ignore SQS004 reason` on a
//! resource's line or the line above it (YAML and HCL, `//` too in HCL),
//! and CloudFormation resource Metadata
//! `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}` (JSON templates
//! have no comments).
//!
//! A suppression silences the findings of its rules about the resource it
//! is attached to (the finding's `resource`), or located on its line. One
//! without a reason still works and gets a note; one that silences nothing
//! gets a note too, so stale ones are cleaned up.

mod comment;

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use crate::finding::{Finding, Note};
use crate::lint::Filter;
use crate::model::{Model, Origin};
use crate::report::origin_location;
use crate::source::Source;

pub use comment::scan;

#[derive(Clone, Debug)]
pub struct Suppression {
    /// Rule codes, upper case.
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

/// What is left after suppressions.
#[derive(Debug, Default)]
pub struct Applied {
    pub findings: Vec<Finding>,
    pub suppressed: usize,
    pub notes: Vec<Note>,
}

/// Apply the suppressions written in the model's files (comments) and
/// declared in it (Metadata) to `findings`. `filter` tells which rules
/// run, so a suppression of a rule switched off is not called stale.
pub fn apply(model: &Model, findings: Vec<Finding>, filter: &Filter) -> Applied {
    let mut suppressions = model.suppressions.clone();
    for source in sources(model, &findings) {
        suppressions.extend(scan(&source));
    }
    if suppressions.is_empty() {
        return Applied { findings, ..Applied::default() };
    }
    let declared = declared_on(model);
    let mut used = vec![false; suppressions.len()];
    let mut out = Applied::default();
    for finding in findings {
        let hit = suppressions
            .iter()
            .position(|s| s.codes.iter().any(|c| c == finding.code) && covers(s, &finding, &declared));
        match hit {
            Some(i) => {
                used[i] = true;
                out.suppressed += 1;
            }
            None => out.findings.push(finding),
        }
    }
    for (s, used) in suppressions.iter().zip(used) {
        let codes = s.codes.join(", ");
        if !used && s.codes.iter().any(|c| filter.keeps(c)) {
            out.notes.push(Note {
                origin: s.origin.clone(),
                message: format!("sqsguard:ignore {codes} silences no finding here; remove it"),
            });
        } else if used && s.reason.is_none() {
            out.notes.push(Note {
                origin: s.origin.clone(),
                message: format!("sqsguard:ignore {codes} gives no reason; say why after the code"),
            });
        }
    }
    out
}

/// (file, line) -> the resources declared there.
type Declared = BTreeMap<(PathBuf, usize), Vec<String>>;

fn declared_on(model: &Model) -> Declared {
    let mut out = Declared::new();
    let items = model
        .queues
        .iter()
        .map(|q| (&q.resource, &q.origin))
        .chain(model.functions.iter().map(|f| (&f.resource, &f.origin)))
        .chain(model.consumers.iter().map(|c| (&c.resource, &c.origin)))
        .chain(model.alarms.iter().map(|a| (&a.resource, &a.origin)))
        .chain(model.policies.iter().map(|p| (&p.resource, &p.origin)));
    for (resource, origin) in items {
        if let Origin::File { file, .. } = origin
            && let Some(l) = origin_location(origin)
        {
            out.entry((file.path.clone(), l.line)).or_default().push(resource.clone());
        }
    }
    out
}

fn covers(s: &Suppression, finding: &Finding, declared: &Declared) -> bool {
    match &s.scope {
        Scope::Resource(id) => *id == finding.resource,
        Scope::Line(line) => {
            let Origin::File { file, .. } = &s.origin else { return false };
            let on_line = declared.get(&(file.path.clone(), *line)).is_some_and(|r| r.contains(&finding.resource));
            let at = match &finding.origin {
                Origin::File { file: f, .. } if f.path == file.path => origin_location(&finding.origin),
                _ => None,
            };
            on_line || at.is_some_and(|l| l.line == *line)
        }
    }
}

/// Every file the model's resources and the findings come from.
fn sources(model: &Model, findings: &[Finding]) -> Vec<Source> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let origins = model
        .queues
        .iter()
        .map(|q| &q.origin)
        .chain(model.functions.iter().map(|f| &f.origin))
        .chain(model.consumers.iter().map(|c| &c.origin))
        .chain(model.alarms.iter().map(|a| &a.origin))
        .chain(model.policies.iter().map(|p| &p.origin))
        .chain(findings.iter().map(|f| &f.origin));
    for origin in origins {
        if let Origin::File { file, .. } = origin
            && seen.insert(file.path.clone())
        {
            out.push(file.clone());
        }
    }
    out
}
