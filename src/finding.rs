//! What a rule reports.

use serde::Serialize;

use crate::model::Origin;

/// How bad a finding is; ordered so `Error > Warning > Info`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One rule violation, located.
#[derive(Clone, Debug)]
pub struct Finding {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// Logical ID, Terraform address, queue URL, ...
    pub resource: String,
    /// Other resources the finding is about (the policy of an SQS017, the
    /// consumer of an SQS001): a suppression on them silences it too.
    pub related: Vec<String>,
    pub origin: Origin,
    /// What is wrong, with the numbers involved.
    pub message: String,
    /// How to fix it.
    pub fix: String,
}

/// Something the user should know that is not a rule violation (a module
/// that was not analysed, say). Notes never change the exit status.
#[derive(Clone, Debug)]
pub struct Note {
    pub origin: Origin,
    pub message: String,
}
