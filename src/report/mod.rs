//! Reporters: the same findings printed for people (`pretty`), for
//! programs (`json`), for code scanning (`sarif`), for test dashboards
//! (`junit`) and for GitHub Actions logs (`github`).

pub mod github;
pub mod json;
pub mod junit;
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

/// The whole output of a run, in `format`.
pub fn render(format: Format, outcome: &Outcome) -> String {
    match format {
        Format::Pretty(style) => pretty::render(outcome, style),
        Format::Json => json::render(outcome),
        Format::Sarif => sarif::render(outcome),
        Format::Junit => junit::render(outcome),
        Format::Github => github::render(outcome),
    }
}

/// The totals every format ends with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
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
        }
    }
}

/// Where a finding points, 1-based, end inclusive; `None` for a live one.
pub fn location(f: &Finding) -> Option<Location> {
    f.origin.location()
}
