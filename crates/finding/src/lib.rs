//! What a rule reports: where, about which resource, in words, and, as
//! data, what would make it go away; and, apart from the rule's words,
//! what the run knows about it (its [`FindingContext`]), which the reporters
//! render.

use std::borrow::Cow;
use std::sync::Arc;

use serde::Serialize;

pub mod error;

pub use sqsguard_edit::{Applicability, Edit, Fix, NewFifo, NewQueue, NewResource, Op, Remedy, Statement, Unfixable};
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

/// One rule violation, located: its [`FindingData`], boxed, which it
/// derefs to (`finding.message`).
///
/// Boxed because a run's findings are gathered from every rule into one
/// list: a list of 336-byte findings was, for a moment, two (each rule's,
/// with room to grow, and the whole), the peak of a large plan's run
/// (124,000 findings, 86 MB at once; `benches/plan.sh`). A list of boxes
/// is 8 bytes a finding, and the findings themselves are never moved.
#[derive(Clone, Debug)]
pub struct Finding(Box<FindingData>);

impl From<FindingData> for Finding {
    fn from(data: FindingData) -> Self {
        Finding(Box::new(data))
    }
}

impl std::ops::Deref for Finding {
    type Target = FindingData;

    fn deref(&self) -> &FindingData {
        &self.0
    }
}

impl std::ops::DerefMut for Finding {
    fn deref_mut(&mut self) -> &mut FindingData {
        &mut self.0
    }
}

/// What a [`Finding`] says.
#[derive(Clone, Debug)]
pub struct FindingData {
    /// The rule that found it.
    pub rule: &'static RuleId,
    pub severity: Severity,
    /// Logical ID, Terraform address, queue URL, ...
    pub resource: String,
    /// Other resources the finding is about (the policy of an SQS017, the
    /// consumer of an SQS001): a suppression on them silences it too.
    pub related: Vec<String>,
    pub origin: Origin,
    /// What is wrong, with the numbers involved, in the dialect's words:
    /// as the rule wrote it. What people read is [`Finding::full_message`].
    pub message: String,
    /// How to fix it, for people, as the rule wrote it. What people read
    /// is [`Finding::full_fix`]. Shared: a rule's fix is often the same
    /// words for each of its findings (see `sqsguard_rules::Findings`).
    pub fix: Arc<str>,
    /// What the run adds to the rule's words: where a value came from, the
    /// queue's creator, the CDK construct.
    pub context: FindingContext,
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

    /// The message people read: the rule's, then where its value was given
    /// (`(QueueName from --stage prod)`), then the CDK construct
    /// (`(CDK construct App/Stack/Jobs)`). Every reporter, the baseline
    /// and the fingerprint read this, never the parts.
    pub fn full_message(&self) -> Cow<'_, str> {
        self.composed(self.context.stale)
    }

    /// [`Finding::full_message`] without the words a stale CDK assembly
    /// adds: what a finding's identity is made of, which must not change
    /// while the user edits the source and synthesizes again.
    pub fn message_for_identity(&self) -> Cow<'_, str> {
        self.composed(false)
    }

    fn composed(&self, stale: bool) -> Cow<'_, str> {
        let FindingContext { given, construct, .. } = &self.context;
        if given.is_none() && construct.is_none() {
            return Cow::Borrowed(&self.message);
        }
        let mut text = self.message.clone();
        if let Some(Given { field, from }) = given {
            text.push_str(&format!(" ({field} from {from})"));
        }
        if let Some(path) = construct {
            text.push_str(&format!(" (CDK construct {path})"));
        }
        if stale {
            text.push_str(" (stale: the source changed after the last cdk synth; synthesize again)");
        }
        Cow::Owned(text)
    }

    /// The fix people read: how to get hold of a queue a tool created, when
    /// one did, then the rule's fix.
    pub fn full_fix(&self) -> Cow<'_, str> {
        match self.context.created_by {
            Some(how) => Cow::Owned(format!("{how}; then {}", self.fix)),
            None => Cow::Borrowed(&self.fix),
        }
    }
}

/// What a finding's rule did not write but the run knows: set after the
/// rules ran, kept apart from the rule's words so a reporter can tell them
/// apart, and composed by [`Finding::full_message`] and
/// [`Finding::full_fix`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FindingContext {
    /// The value at fault was given for the run, not written in a file
    /// (unless the rule's message already names where from).
    pub given: Option<Given>,
    /// The queue is not declared but created by a tool from something
    /// else: how to get hold of its settings.
    pub created_by: Option<&'static str>,
    /// The path of the CDK construct the resource was synthesized from,
    /// shared by the findings on that resource.
    pub construct: Option<Arc<str>>,
    /// Where the finding was in the synthesized template, when it was
    /// moved to the construct in a CDK app's source (`sqsguard_cdk`).
    pub synthesized: Option<sqsguard_source::Location>,
    /// The source it was moved to changed after the synth: what the
    /// template says may no longer be what the source says.
    pub stale: bool,
}

/// A value given for the run: the field, as the dialect names it, and
/// where its value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// `VisibilityTimeout`, `visibility_timeout_seconds`, ...
    pub field: &'static str,
    /// `--stage prod`, `--parameter-overrides`, `--param timeout=3`, ...
    pub from: Arc<str>,
}

/// Something the user should know that is not a rule violation (a module
/// that was not analysed, say). Notes never change the exit status.
#[derive(Clone, Debug)]
pub struct Note {
    pub origin: Origin,
    pub message: String,
}
