//! What a rule reports: where, about which resource, in words, and, as
//! data, what would make it go away.

use serde::Serialize;

pub mod error;

pub use sqsguard_edit::{Applicability, Edit, Fix, NewResource, Op, Remedy, Statement, Unfixable};
use sqsguard_model::Origin;

/// How bad a finding is; ordered so `Error > Warning > Info`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
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

/// A rule's identity, declared once, in the rule's own file: a finding
/// knows its rule by it, and code compares rules by it, never by a code
/// spelled again elsewhere.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct RuleId {
    /// `SQS001`: the code a user selects, ignores and suppresses.
    pub code: &'static str,
    /// `visibility-timeout-below-6x`: the kebab-case name, also accepted.
    pub name: &'static str,
}

/// One rule violation, located.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The rule that found it.
    pub rule: &'static RuleId,
    pub severity: Severity,
    /// Logical ID, Terraform address, queue URL, ...
    pub resource: String,
    /// Other resources the finding is about (the policy of an SQS017, the
    /// consumer of an SQS001): a suppression on them silences it too.
    pub related: Vec<String>,
    pub origin: Origin,
    /// What is wrong, with the numbers involved, in the dialect's words.
    pub message: String,
    /// How to fix it, for people.
    pub fix: String,
    /// How to fix it, for programs: `None` when it takes a design decision.
    pub remedy: Option<Remedy>,
    /// The remedy as edits of the file, made once by the writer of the
    /// front-end that read it (see [`sqsguard_edit`]), or why
    /// there are none: `None` when there is no remedy, or before the
    /// findings are checked.
    pub autofix: Option<Result<Fix, Unfixable>>,
}

impl Finding {
    /// Its rule's code (`SQS001`).
    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    /// Its rule's kebab-case name.
    pub fn name(&self) -> &'static str {
        self.rule.name
    }

    /// Whether it is a finding of the rule `id`.
    pub fn is(&self, id: &RuleId) -> bool {
        self.rule == id
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    /// Also about these resources (see [`Finding::related`]).
    pub fn with_related(mut self, related: &[&str]) -> Self {
        self.related = related.iter().map(|r| r.to_string()).collect();
        self
    }

    pub fn with_remedy(mut self, remedy: Remedy) -> Self {
        self.remedy = Some(remedy);
        self
    }

    /// Its fix, when it has one.
    pub fn fix_edits(&self) -> Option<&Fix> {
        self.autofix.as_ref().and_then(|a| a.as_ref().ok())
    }
}

/// Something the user should know that is not a rule violation (a module
/// that was not analysed, say). Notes never change the exit status.
#[derive(Clone, Debug)]
pub struct Note {
    pub origin: Origin,
    pub message: String,
}
