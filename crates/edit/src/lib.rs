//! The edit layer: what a rule's fix is (a [`Remedy`], a recipe of
//! [`Op`]s built in the rule's own file from model facts) and the one
//! implementation of each operation per syntax tree a front-end parsed
//! ([`Writer`]: CloudFormation, SAM and Serverless YAML and JSON, HCL
//! through hcl-edit, Terraform JSON, and the code of workers and
//! handlers), touching only the bytes it must
//! (docs/fixing.md, "How a fix is written").
//!
//! It sits between the model and the front-ends: it knows syntax trees
//! and the model's fields and values, never a rule. A front-end hands it
//! the trees it parsed; check asks it for each finding's fix.

mod add_resource;
mod add_resource_terraform;
pub mod cdk;
mod code;
mod insert;
mod locate;
mod remove;
mod render;
mod retarget;
mod statement;
mod statement_terraform;
mod terraform;
mod within;
mod writer;

use serde::Serialize;

use sqsguard_model::policy::SourceId;
use sqsguard_model::{Field, Origin, Scalar, Service};
use sqsguard_source::{Source, Span};

pub use locate::is_fixable_document;
pub use writer::Writer;

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

/// Whether a fix may be applied without a person deciding (docs/fixing.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    Safe,
    /// Needs a matching change elsewhere, replaces a resource, or edits a
    /// value other resources may share.
    Unsafe,
}

/// A fix as a recipe: the operations that make a finding go away, on the
/// field `field` of `resource`, written where `at` is. The rule builds it
/// from what the model resolved; the [`Writer`] carries it out in the
/// tree the value was read from, all operations or none.
#[derive(Clone, Debug)]
pub struct Remedy {
    /// The resource whose field changes: the queue, the mapping, or for an
    /// SQS007 the dead-letter queue (not the source the finding names).
    pub resource: String,
    /// The field the operations are about; `None` for a fix of code,
    /// whose operations name what they change.
    pub field: Option<Field>,
    /// What to do, in order.
    pub ops: Vec<Op>,
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

/// The vocabulary of fixes: each operation is implemented once per syntax
/// tree (see [`Writer`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// The field holds `value`: the literal where it is written is
    /// replaced (a Parameter's or variable's default when it is written
    /// there), or the key is added to the resource when it is absent.
    Set(Scalar),
    /// The literal written at the remedy's span, which reads `old` (the
    /// value the model resolved), becomes `new`; nothing when the file
    /// writes anything else there (an expression, `!Sub`).
    Replace { old: String, new: Scalar },
    /// `field: value` inside the map `map` of the node at the remedy's
    /// span (an EventBridge target in a rule's list), the map added when
    /// it is absent.
    SetWithin { map: Field, value: Scalar },
    /// The field goes: a YAML key with its lines, an HCL attribute with
    /// its line (the run of aligned attributes around it padded again, as
    /// `terraform fmt` would), a JSON member with its comma. Only a
    /// literal written under the field's own key: a reference or an
    /// expression, or a Parameter's or variable's default, is refused.
    Remove,
    /// A new resource beside the remedy's, and the field pointing at it.
    AddResource(NewResource),
    /// The reference written at the remedy's span names the resource's
    /// ARN instead of its URL: `!Ref Q` becomes `!GetAtt Q.Arn`,
    /// `aws_sqs_queue.q.url` becomes `.arn`, a registry module's
    /// `queue_url` its `queue_arn`.
    RetargetToArn,
    /// A statement appended to a policy.
    AppendStatement(Statement),
    /// Code, alone in its recipe: the name written at the remedy's span (a key in its quotes,
    /// a property, a field, a getter) names the API's `to` instead, spelt
    /// as the name is: `"MessageId"` and `msg.MessageId` become
    /// `ReceiptHandle`, `messageId()` `receiptHandle()`, `getBody()`
    /// `getReceiptHandle()`, boto3's `message.message_id`
    /// `message.receipt_handle`.
    Rename { to: &'static str },
}

/// A resource a fix adds beside the remedy's resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewResource {
    /// A queue, and the remedy's field (the queue's RedrivePolicy) pointing
    /// at it.
    Queue(NewQueue),
}

/// A new queue as the rule decided it from the model's facts: the writer
/// only writes it (where, indented how, in which syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewQueue {
    /// Its name; `None`: the provider names it (with `.fifo` for a FIFO
    /// queue).
    pub name: Option<String>,
    pub fifo: NewFifo,
    /// How long it keeps messages.
    pub retention_seconds: i64,
    /// The redrive link: the remedy's resource moves a message to the new
    /// queue after this many receives.
    pub max_receive_count: i64,
}

/// Whether a new queue is FIFO, and how that is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NewFifo {
    /// A standard queue: no FIFO flag is written.
    Standard,
    /// Of the type of the queue whose flag is written at `at` in the same
    /// file, which the model resolved to `known`: a literal written there
    /// is written `true` (nothing when `false`), an expression
    /// (`!Ref IsFifo`) is copied, so the new queue is of the same type
    /// whatever it resolves to. A literal the model does not know, or an
    /// expression the tree cannot copy, leaves no fix.
    Same { known: Option<bool>, at: Span },
}

/// A statement letting `service` send to the queue (the remedy's resource)
/// from `source` only: appended to `policy`, the queue's one policy, or in
/// a new policy beside the queue when it has none (the remedy's span is
/// then the queue's key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub service: Service,
    pub source: SourceId,
    pub sid: String,
    pub policy: Option<String>,
}
