//! Reporters: the same findings printed for people (`pretty`) and for
//! programs (`json`). SARIF, JUnit and GitHub annotations plug in here.

pub mod json;
pub mod pretty;

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::lint::Outcome;
use crate::model::Origin;

/// The totals every format ends with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub files: usize,
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub suppressed: usize,
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
            suppressed: 0,
            api_calls: outcome.api_calls,
        }
    }
}

/// Where a finding points, 1-based, end inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
}

pub fn location(f: &Finding) -> Option<Location> {
    origin_location(&f.origin)
}

pub fn origin_location(origin: &Origin) -> Option<Location> {
    match origin {
        Origin::File { file, span } => {
            let (start, end) = file.range(*span);
            Some(Location {
                file: file.display_path(),
                line: start.line,
                column: start.column,
                end_line: end.line,
                end_column: end.column,
            })
        }
        Origin::Live { .. } => None,
    }
}
