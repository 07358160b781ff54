//! The one normalized model every front-end fills and every rule reads.
//!
//! CloudFormation/SAM templates, Terraform modules, plan JSON and the live
//! audit fill the same structures, so a rule written once fires for all of
//! them. Links between resources (a mapping's queue, a redrive target) are
//! resolved by the front-end into [`Target`]s; [`Index`] answers the
//! questions rules ask about those links in constant time. [`field`] is the
//! one table of attribute names, defaults and ranges.

pub mod build;
pub mod code;
pub mod field;
mod field_cdk;
mod index;
pub mod key;
pub mod module;
pub mod payload;
pub mod policy;
pub(crate) mod producer;
pub mod statements;
mod suppression;
mod value;

pub use build::{Fact, Facts, ReadFields};
pub use field::{Dialect, Field, Scalar};
pub use field_cdk::CdkOwner;
pub use index::{ConsumerRead, DlqLink, Feed, Index, Watch, queue_alts};
pub use module::ModuleSource;
pub use policy::{QueuePolicy, Statement};
pub use producer::{Producer, ReadLinks, Service};
pub use suppression::{Scope, Suppression, Written};
pub use value::{Alt, Attr, Live, Origin, Value, When};

/// Index of a queue in [`Model::queues`].
pub type QueueIdx = usize;
/// Index of a function in [`Model::functions`].
pub type FunctionIdx = usize;
/// Index of a consumer in [`Model::consumers`].
pub(crate) type ConsumerIdx = usize;

/// What a reference points at, once resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Queue(QueueIdx),
    Function(FunctionIdx),
    /// Something outside the analysed set (an ARN, a name), kept for messages.
    External(String),
}

/// How a reference to a queue is written where AWS expects the queue's
/// ARN (an event source, a `deadLetterTargetArn`). Linking ignores it: a
/// queue named by its URL is still that queue, so every rule about the
/// link still runs; SQS018 reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Via {
    /// An ARN, a name, or anything else that is no queue URL.
    Arn,
    /// A reference to the URL of a queue of the analysed set
    /// (CloudFormation `Ref` or `Fn::GetAtt Q.QueueUrl`, Terraform `.id`
    /// or `.url`, a registry module's `queue_url` or `queue_id`).
    UrlReference {
        queue: QueueIdx,
        /// The attribute referenced: `Ref`, `QueueUrl`, `id`, `url`.
        attribute: String,
    },
    /// A queue URL written as text (`https://sqs.us-east-1.amazonaws.com/123456789012/jobs`,
    /// or a `Fn::Sub` of that shape), with unknown parts as `${...}`.
    UrlText(String),
}

/// A resource name that may be only partly known (`${AWS::StackName}-jobs.fifo`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    /// The name with unknown parts written as `${...}`.
    pub text: String,
    /// True when the end of the name is literal, so suffix checks are safe.
    pub suffix_known: bool,
}

#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Whose vocabulary findings about this model use.
    pub dialect: Dialect,
    pub queues: Vec<Queue>,
    pub functions: Vec<Function>,
    pub consumers: Vec<Consumer>,
    pub alarms: Vec<Alarm>,
    pub policies: Vec<QueuePolicy>,
    /// What delivers to queues: SNS subscriptions, EventBridge targets, S3
    /// notifications, pipes.
    pub producers: Vec<Producer>,
    /// Customer managed KMS keys, with their key policies.
    pub keys: Vec<key::Key>,
    /// The handlers of the functions, read from their code.
    pub handlers: Vec<code::Handler>,
    /// The SQS API calls of the code read.
    pub calls: Vec<code::SdkCall>,
    /// Producers whose queue could not be resolved: maybe a queue of the
    /// analysed set, so said in a note.
    pub unknown_producers: Vec<UnknownSource>,
    /// Dead-letter targets that are not queue RedrivePolicies: Lambda
    /// DeadLetterConfig, SNS subscription RedrivePolicy, EventBridge target
    /// DeadLetterConfig, SAM DeadLetterQueue, ESM on-failure destinations.
    pub dlq_refs: Vec<DlqRef>,
    /// Another name a resource is known by where it was written: the CDK
    /// construct path (`Metadata` `aws:cdk:path`) of a synthesized
    /// template's logical ID.
    pub construct_paths: std::collections::HashMap<String, std::sync::Arc<str>>,
    /// Event source mappings whose source could not be resolved: maybe
    /// consumers of a queue, maybe of a stream, so not in `consumers`.
    pub unknown_sources: Vec<UnknownSource>,
}

/// An event source mapping whose source is only known at deploy time.
#[derive(Clone, Debug)]
pub struct UnknownSource {
    pub resource: String,
    /// Where the source is written.
    pub origin: Origin,
    pub why: String,
}

#[derive(Clone, Debug)]
pub struct Queue {
    /// Logical ID, Terraform address or queue URL.
    pub resource: String,
    /// The resource's key (or block, or ARN).
    pub origin: Origin,
    /// The explicit QueueName, absent when AWS generates one.
    pub name: Attr<Name>,
    /// Terraform's `name_prefix`: the start of the name the provider
    /// generates when `name` is absent (absent elsewhere).
    pub name_prefix: Attr<String>,
    pub fifo: Attr<bool>,
    pub content_based_dedup: Attr<bool>,
    pub visibility_timeout: Attr<i64>,
    pub receive_wait_time: Attr<i64>,
    pub retention_period: Attr<i64>,
    pub delay_seconds: Attr<i64>,
    pub sse_enabled: Attr<bool>,
    pub kms_key: Attr<String>,
    /// Which key `kms_key` names, when it is a key SQS020 can judge.
    pub key: Attr<key::KeyRef>,
    pub fifo_throughput_limit: Attr<String>,
    pub deduplication_scope: Attr<String>,
    pub redrive: Attr<Redrive>,
    // The three below are rare, and boxed: each would add 70-90 bytes to
    // every queue (13 MB for the 62,000 queues of a 200 MB plan).
    pub payload: Option<Box<PayloadDecl>>,
    /// What a live account says about the queue now (audit only).
    pub live: Option<Box<LiveQueue>>,
    /// Not declared but created by a tool from something else (SAM's queue
    /// for `SqsSubscription: true`): how to get hold of its settings.
    pub created: Option<&'static str>,
    /// The registry module call that creates this queue from its inputs,
    /// when it is one sqsguard models: advice names the call's inputs.
    pub module: Option<Box<ModuleCall>>,
}

/// A call of a registry module that creates resources from its inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleCall {
    /// The call's address: `module.jobs`, `module.queues["orders"]`.
    pub call: String,
    /// The registry module: `terraform-aws-modules/sqs/aws`.
    pub source: ModuleSource,
    /// What the inputs that set this resource's settings start with:
    /// `dlq_` for the SQS module's dead-letter queue
    /// (`dlq_message_retention_seconds`), empty for its queue.
    pub inputs: &'static str,
}

/// A live queue's counters and CloudWatch statistics. `None`: not read
/// (the call failed or was not made), so rules that need it stay silent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveQueue {
    /// ApproximateNumberOfMessages.
    pub visible: Option<u64>,
    /// ApproximateNumberOfMessagesNotVisible (in flight).
    pub in_flight: Option<u64>,
    /// Maximum ApproximateAgeOfOldestMessage over the lookback, seconds.
    pub oldest_age_max: Option<f64>,
    /// Sum of NumberOfEmptyReceives over the lookback.
    pub empty_receives: Option<f64>,
    /// Sum of NumberOfMessagesReceived over the lookback.
    pub received: Option<f64>,
    /// The lookback window, in seconds.
    pub lookback_seconds: u64,
}

/// A queue's RedrivePolicy.
#[derive(Clone, Debug)]
pub struct Redrive {
    pub target: Attr<Target>,
    /// How `target` is written (its alternatives are `target`'s).
    pub target_via: Attr<Via>,
    pub max_receive_count: Attr<i64>,
}

/// What the payload declaration says about deduplication by content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    Deterministic,
    /// Non-deterministic, with the reasons (field names, "unstable key order").
    NonDeterministic(Vec<String>),
}

#[derive(Clone, Debug)]
pub struct PayloadDecl {
    pub payload: Value<Payload>,
    pub origin: Origin,
    /// Where the declaration was found, for messages.
    pub source: &'static str,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub resource: String,
    pub origin: Origin,
    /// Timeout in seconds (absent: Lambda's default of 3 s).
    pub timeout: Attr<i64>,
    /// Reserved concurrency (absent, or Terraform's -1: none).
    pub reserved_concurrency: Attr<i64>,
    /// Where its code is, when the template says so in a way sqsguard reads.
    pub code: Option<code::CodeRef>,
}

/// A Lambda event source mapping reading a queue.
#[derive(Clone, Debug)]
pub struct Consumer {
    /// The mapping's logical ID (for SAM events: the function's logical ID).
    pub resource: String,
    pub origin: Origin,
    pub queue: Attr<Target>,
    /// How `queue` is written (its alternatives are `queue`'s).
    pub queue_via: Attr<Via>,
    pub function: Attr<Target>,
    pub batch_size: Attr<i64>,
    pub batching_window: Attr<i64>,
    pub response_types: Attr<Vec<String>>,
    /// `ScalingConfig.MaximumConcurrency`: how many function instances the
    /// pollers invoke at most (absent: no limit of the mapping's own).
    pub maximum_concurrency: Attr<i64>,
    /// Whether Lambda polls the queue (absent: it does).
    pub enabled: Attr<bool>,
    /// The parameters that apply only to streams and Kafka (SQS024);
    /// `None` when the mapping sets none of them, as nearly every mapping
    /// of a queue does (eight attributes kept for each mapping cost 5% of
    /// a 24,000-mapping lint's time and memory).
    pub stream: Option<Box<StreamParameters>>,
}

/// A mapping's parameters that apply only to stream and Kafka sources.
#[derive(Clone, Debug)]
pub struct StreamParameters {
    pub starting_position: Attr<String>,
    pub starting_position_timestamp: Attr<String>,
    /// Known true when `DestinationConfig` holds anything.
    pub destination_config: Attr<bool>,
    pub maximum_retry_attempts: Attr<i64>,
    pub maximum_record_age: Attr<i64>,
    pub bisect_batch: Attr<bool>,
    pub parallelization_factor: Attr<i64>,
    pub tumbling_window: Attr<i64>,
}

impl StreamParameters {
    /// Whether any of them is written or unknown: otherwise the mapping
    /// sets none and keeps no copy of them.
    pub(crate) fn any(&self) -> bool {
        fn set<T>(attr: &Attr<T>) -> bool {
            attr.alts.iter().any(|alt| !matches!(alt.value, Value::Absent))
        }
        set(&self.starting_position)
            || set(&self.starting_position_timestamp)
            || set(&self.destination_config)
            || set(&self.maximum_retry_attempts)
            || set(&self.maximum_record_age)
            || set(&self.bisect_batch)
            || set(&self.parallelization_factor)
            || set(&self.tumbling_window)
    }
}

/// A CloudWatch alarm; only the parts the rules read.
#[derive(Clone, Debug)]
pub struct Alarm {
    pub resource: String,
    pub origin: Origin,
    pub metrics: Vec<AlarmMetric>,
    pub comparison: Attr<String>,
    pub threshold: Attr<f64>,
}

#[derive(Clone, Debug)]
pub struct AlarmMetric {
    pub namespace: Value<String>,
    pub metric_name: Value<String>,
    /// The queue named by the QueueName dimension.
    pub queue: Value<Target>,
}

/// Something other than a RedrivePolicy that sends failures to a queue.
#[derive(Clone, Debug)]
pub struct DlqRef {
    pub target: Attr<Target>,
}
