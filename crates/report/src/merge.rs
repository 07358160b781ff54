//! `sqsguard report merge`: the JSON documents of audit shards read back
//! into one outcome (findings, notes, unaudited pairs, API calls), so any
//! reporter prints it and the exit status is the whole audit's.
//!
//! Audit documents only: a lint finding's place is a span of a file's text,
//! which a JSON document does not carry.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use sqsguard_finding::{Finding, FindingContext, FindingData, Note, Severity};
use sqsguard_lint::outcome::{Outcome, ShardOf, Unaudited};
use sqsguard_model::Origin;

/// Documents that cannot be merged: exit 2, naming the file when one is
/// to blame.
#[derive(Debug)]
pub struct Unmergeable {
    pub path: Option<PathBuf>,
    pub message: String,
}

impl std::fmt::Display for Unmergeable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{}: {}", path.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

#[derive(Deserialize)]
struct Document {
    version: u32,
    findings: Vec<JsonFinding>,
    summary: JsonSummary,
    #[serde(default)]
    notes: Vec<JsonNote>,
}

#[derive(Deserialize)]
struct JsonFinding {
    rule: String,
    severity: Severity,
    file: Option<String>,
    resource: String,
    account: Option<String>,
    region: Option<String>,
    /// Absent from outputs older than it: the name is then the URL's end.
    #[serde(default)]
    resource_name: Option<String>,
    message: String,
    fix: String,
}

#[derive(Deserialize)]
struct JsonSummary {
    files: usize,
    skipped: usize,
    #[serde(default)]
    suppressed: usize,
    /// Present in every audit output (and in no lint output).
    api_calls: usize,
    #[serde(default)]
    account_regions: Option<usize>,
    #[serde(default)]
    shard: Option<ShardOf>,
    #[serde(default)]
    api_calls_by_account: std::collections::BTreeMap<String, usize>,
    #[serde(default)]
    unaudited: Vec<Unaudited>,
}

#[derive(Deserialize)]
struct JsonNote {
    account: Option<String>,
    region: Option<String>,
    message: String,
}

/// The documents at `paths`, merged. Findings keep their rule's name and
/// the severity they were reported with.
pub fn merge(paths: &[PathBuf]) -> Result<Outcome, Unmergeable> {
    let mut outcome = Outcome { api_calls: Some(0), ..Outcome::default() };
    let mut version = None;
    // The slices seen, when the documents are shards of one audit.
    let mut shards: Vec<(ShardOf, &PathBuf)> = Vec::new();
    let mut unsharded = None;
    for path in paths {
        let doc = read(path)?;
        let bad = |message: String| Unmergeable { path: Some(path.clone()), message };
        match version {
            None => version = Some((doc.version, path.clone())),
            Some((v, ref first)) if v != doc.version => {
                return Err(bad(format!("version {} differs from {}'s version {v}", doc.version, first.display())));
            }
            Some(_) => {}
        }
        for f in doc.findings {
            if f.file.is_some() {
                return Err(bad("holds lint findings: report merge combines `sqsguard audit` outputs".into()));
            }
            outcome.findings.push(finding(f).map_err(bad)?);
        }
        for n in doc.notes {
            outcome.notes.push(Note { origin: Origin::live(String::new(), n.account, n.region), message: n.message });
        }
        let s = doc.summary;
        match s.shard {
            Some(shard) => {
                if let Some((first, first_path)) = shards.first()
                    && (first.count, &first.of, &first.digest) != (shard.count, &shard.of, &shard.digest)
                {
                    return Err(bad(format!(
                        "shard {}/{} of another audit than {}'s shard {}/{} (other accounts, Regions or shard count)",
                        shard.index,
                        shard.count,
                        first_path.display(),
                        first.index,
                        first.count
                    )));
                }
                if let Some((_, twin)) = shards.iter().find(|(s, _)| s.index == shard.index) {
                    return Err(bad(format!(
                        "shard {}/{} again ({} is that shard)",
                        shard.index,
                        shard.count,
                        twin.display()
                    )));
                }
                shards.push((shard, path));
            }
            None => unsharded = Some(path),
        }
        outcome.files += s.files;
        outcome.skipped += s.skipped;
        outcome.suppressed += s.suppressed;
        outcome.api_calls = outcome.api_calls.map(|n| n + s.api_calls);
        if let Some(n) = s.account_regions {
            outcome.account_regions = Some(outcome.account_regions.unwrap_or_default() + n);
        }
        for (account, calls) in s.api_calls_by_account {
            *outcome.api_calls_by_account.entry(account).or_default() += calls;
        }
        outcome.unaudited.extend(s.unaudited);
    }
    every_shard(&shards, unsharded)?;
    // As one audit orders them: by account and Region.
    outcome.unaudited.sort();
    outcome.unaudited.dedup();
    outcome.notes.sort_by(|a, b| a.origin.account_region().cmp(&b.origin.account_region()));
    // Severities and the selection were applied by each shard.
    outcome.finish();
    Ok(outcome)
}

/// An audit finding of a document, with its rule found in the catalog;
/// `Err` names a rule this build does not know.
fn finding(f: JsonFinding) -> Result<Finding, String> {
    let Some(rule) = sqsguard_rules::ALL.iter().find(|r| r.id.code == f.rule) else {
        return Err(format!("unknown rule {}", f.rule));
    };
    Ok(Finding::from(FindingData {
        rule: &rule.id,
        severity: f.severity,
        origin: {
            let mut origin = Origin::live(f.resource.clone(), f.account, f.region);
            if let Origin::Live(live) = &mut origin {
                live.name = f.resource_name;
            }
            origin
        },
        resource: f.resource,
        related: Vec::new(),
        // The text as the report printed it, context and all: a report
        // does not keep the parts apart.
        message: f.message,
        fix: f.fix.into(),
        remedy: None,
        autofix: None,
        context: FindingContext::default(),
    }))
}

/// Shards of one audit: all of them, or the merge would look cleaner
/// than the audit was; and no document that is not a shard among them.
fn every_shard(shards: &[(ShardOf, &PathBuf)], unsharded: Option<&PathBuf>) -> Result<(), Unmergeable> {
    if let (Some((first, _)), Some(path)) = (shards.first(), unsharded) {
        return Err(Unmergeable {
            path: Some(path.clone()),
            message: format!("not a shard, merged with shards of {}", first.count),
        });
    }
    if let Some((first, _)) = shards.first() {
        let missing: Vec<String> = (1..=first.count)
            .filter(|i| !shards.iter().any(|(s, _)| s.index == *i))
            .map(|i| format!("{i}/{}", first.count))
            .collect();
        if !missing.is_empty() {
            return Err(Unmergeable {
                path: None,
                message: format!("shard {} missing: merge every shard", missing.join(", ")),
            });
        }
    }
    Ok(())
}

fn read(path: &Path) -> Result<Document, Unmergeable> {
    let bad = |message: String| Unmergeable { path: Some(path.to_path_buf()), message };
    // A FIFO or device is refused unopened (it would block, or never end),
    // and no more than a plan's limit is read of a file that grows.
    let (file, _) = sqsguard_source::open_regular(path).map_err(|e| bad(e.to_string()))?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut std::io::Read::take(file, sqsguard_source::MAX_PLAN_BYTES + 1), &mut text)
        .map_err(|e| bad(sqsguard_source::plain_io_error(&e)))?;
    if text.len() as u64 > sqsguard_source::MAX_PLAN_BYTES {
        return Err(bad(format!("larger than the {} MiB sqsguard reads", sqsguard_source::MAX_PLAN_BYTES / 1048576)));
    }
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| bad(format!("not an sqsguard JSON document (not JSON: {e})")))?;
    if !value.get("version").is_some_and(serde_json::Value::is_u64)
        || !value.get("findings").is_some_and(|f| f.is_array())
    {
        return Err(bad("not an sqsguard JSON document (no version and findings)".into()));
    }
    if value.pointer("/summary/api_calls").is_none() {
        return Err(bad("not an `sqsguard audit` output (no summary.api_calls): report merge combines audits".into()));
    }
    serde_json::from_value(value).map_err(|e| bad(format!("not an sqsguard JSON document: {e}")))
}
