//! Reporters: the same findings printed for people (`pretty`), for
//! programs (`json`), for code scanning (`sarif`), for test dashboards
//! (`junit`) and for GitHub Actions logs (`github`).

pub mod github;
pub mod json;
pub mod junit;
pub mod merge;
pub mod pretty;
pub mod sarif;

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::outcome::Outcome;
pub use crate::source::Location;

/// An output format of `lint` and `audit`.
#[derive(Clone, Copy, Debug)]
pub enum Format {
    Pretty(pretty::Style),
    Json,
    Sarif,
    Junit,
    Github,
}

/// Write the whole output of a run, in `format`.
pub fn write(format: Format, outcome: &Outcome, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let text = match format {
        Format::Json => return json::write(outcome, out),
        Format::Sarif => return sarif::write(outcome, out),
        Format::Junit => return junit::write(outcome, out),
        Format::Pretty(style) => pretty::render(outcome, style),
        Format::Github => github::render(outcome),
    };
    out.write_all(text.as_bytes())
}

/// The whole output of a run, in `format`, as text.
pub fn render(format: Format, outcome: &Outcome) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail; serialization of our own types neither.
    let _ = write(format, outcome, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The totals every format ends with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub suppressed: usize,
    /// With `--baseline`: findings the baseline absorbed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<usize>,
    /// Audit only: AWS operations sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_calls: Option<usize>,
    /// Files named on the command line that may be infrastructure and were
    /// not linted (they fail the run).
    #[serde(skip_serializing_if = "is_zero")]
    pub not_linted: usize,
    /// Audit only: operations sent with each account's credentials.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub api_calls_by_account: std::collections::BTreeMap<String, usize>,
    /// Audit only: pairs not read, or read in part (they fail the run).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unaudited: Vec<crate::outcome::Unaudited>,
    /// Audit only, with `--shard`: the slice this report is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<crate::outcome::ShardOf>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    pub fn of(outcome: &Outcome) -> Self {
        let count = |s: Severity| outcome.findings.iter().filter(|f| f.severity == s).count();
        Summary {
            files: outcome.files,
            skipped: outcome.skipped,
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            suppressed: outcome.suppressed,
            baselined: outcome.baselined,
            api_calls: outcome.api_calls,
            not_linted: outcome.unlinted.len(),
            api_calls_by_account: outcome.api_calls_by_account.clone(),
            unaudited: outcome.unaudited.clone(),
            shard: outcome.shard.clone(),
        }
    }
}

/// Where a finding points, 1-based, end inclusive; `None` for a live one.
pub fn location(f: &Finding) -> Option<Location> {
    f.origin.location()
}
