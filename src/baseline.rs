//! Baselines: `--write-baseline FILE` records today's findings,
//! `--baseline FILE` reports only the others. Findings are matched by
//! fingerprint (rule, file, resource, message without numbers; see
//! `crate::fingerprint`), so moving or reformatting code keeps them
//! baselined; each recorded finding absorbs one finding.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::fingerprint::Identity;
use crate::outcome::Outcome;

const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    findings: Vec<Entry>,
}

/// One recorded finding; all but the fingerprint are there for people
/// reviewing the file.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    fingerprint: String,
    rule: String,
    file: String,
    resource: String,
    message: String,
}

/// Recorded fingerprints, with how many findings each still absorbs.
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    counts: HashMap<String, usize>,
}

/// Write the findings of `outcome` to `path` (atomically).
pub fn write(path: &Path, outcome: &Outcome) -> Result<usize, Error> {
    let mut findings: Vec<Entry> = outcome
        .findings
        .iter()
        .map(|f| {
            let id = Identity::of(f);
            Entry {
                fingerprint: id.hash(),
                rule: id.rule,
                file: id.file,
                resource: id.resource,
                message: f.message.clone(),
            }
        })
        .collect();
    findings.sort_by(|a, b| {
        (&a.file, &a.resource, &a.rule, &a.fingerprint).cmp(&(&b.file, &b.resource, &b.rule, &b.fingerprint))
    });
    let n = findings.len();
    let text = serde_json::to_string_pretty(&Document { version: VERSION, findings })
        .map_err(|e| Error::io(path, e.into()))?
        + "\n";
    crate::source::write_atomic(path, text.as_bytes()).map_err(|e| Error::io(path, e))?;
    Ok(n)
}

/// Read a baseline; the error is one line naming the file and the problem.
pub fn load(path: &Path) -> Result<Baseline, Error> {
    let text = crate::source::read_named(path).map_err(|e| Error::io(path, e))?;
    let unusable = |message: String| Error::Unusable { path: path.to_path_buf(), message };
    let doc: Document = serde_json::from_str(&text)
        .map_err(|e| unusable(format!("line {}, column {}: not a sqsguard baseline: {e}", e.line(), e.column())))?;
    if doc.version != VERSION {
        return Err(unusable(format!("baseline version {} is not {VERSION}", doc.version)));
    }
    let mut counts = HashMap::new();
    for entry in doc.findings {
        *counts.entry(entry.fingerprint).or_insert(0) += 1;
    }
    Ok(Baseline { counts })
}

impl Baseline {
    /// Drop the findings the baseline records; returns how many it dropped.
    pub fn apply(mut self, outcome: &mut Outcome) -> usize {
        let before = outcome.findings.len();
        outcome.findings.retain(|f| match self.counts.get_mut(&Identity::of(f).hash()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        });
        before - outcome.findings.len()
    }
}
