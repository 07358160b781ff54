//! What a rule reports: where, about which resource, in words, and, as
//! data, what would make it go away.

use serde::Serialize;

use crate::model::policy::SourceId;
use crate::model::{Field, Origin, Scalar, Service};
use crate::source::{Source, Span};

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
    /// front-end that read it (see [`crate::frontend::write`]), or why
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

/// Replace `span` of `file` with `replacement` (an insertion when the
/// span is empty).
#[derive(Clone, Debug)]
pub struct Edit {
    pub file: Source,
    pub span: Span,
    pub replacement: String,
}

/// A finding's fix: its edits and whether `--fix` may apply it alone.
#[derive(Clone, Debug)]
pub struct Fix {
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

/// Why a finding with a remedy has no fix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unfixable(pub &'static str);

/// The field of a resource that should hold another value, and that value.
#[derive(Clone, Debug)]
pub struct Remedy {
    /// The resource whose field changes: the queue, the mapping, or for an
    /// SQS007 the dead-letter queue (not the source the finding names).
    pub resource: String,
    pub field: Field,
    pub want: Want,
    /// Where the field's value is written, or the resource when the field
    /// is absent (then it is added).
    pub at: Origin,
    /// The field is not written anywhere: the fix adds it.
    pub absent: bool,
    /// The value is one branch of a condition (`!If`, a Terraform
    /// conditional): changing it changes what the condition means, so
    /// there is no fix.
    pub conditional: bool,
    /// The value was given for the run (`--parameter-overrides`,
    /// `--stage`, `--param`), not written in a file: there is nothing
    /// to edit, so there is no fix (editing a Parameter's Default would
    /// not change what the override deploys).
    pub given: Option<std::sync::Arc<str>>,
    pub applicability: Applicability,
}

/// The value a field should hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// Exactly this value.
    Value(Scalar),
    /// A new dead-letter queue of the same type, and a RedrivePolicy to it.
    DeadLetterQueue { max_receive_count: i64, retention_seconds: i64 },
    /// The name with (`true`) or without (`false`) this suffix.
    NameSuffix(&'static str, bool),
    /// The same queue's ARN where its URL is referenced: `!Ref Q` becomes
    /// `!GetAtt Q.Arn`, `aws_sqs_queue.q.url` becomes `.arn`, a registry
    /// module's `queue_url` its `queue_arn`.
    QueueArn,
    /// `field: value` inside the map `within` of the node at the remedy's
    /// span (an EventBridge target in a rule's list), with that map added
    /// when it is absent.
    Within { within: Field, value: Scalar },
    /// A statement letting `service` send to the queue (the remedy's
    /// resource) from `source` only: appended to `policy`, the queue's one
    /// policy, or in a new policy beside the queue when it has none (the
    /// remedy's span is then the queue's key).
    AllowProducer { service: Service, source: SourceId, sid: String, policy: Option<String> },
}

/// Whether a fix may be applied without a person deciding (docs/fixing.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    /// Needs a matching change elsewhere, replaces a resource, or edits a
    /// value other resources may share.
    Unsafe,
}

/// Something the user should know that is not a rule violation (a module
/// that was not analysed, say). Notes never change the exit status.
#[derive(Clone, Debug)]
pub struct Note {
    pub origin: Origin,
    pub message: String,
}
