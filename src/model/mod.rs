//! The one normalized model every front-end fills and every rule reads.
//!
//! CloudFormation/SAM templates fill it today; Terraform modules, plan JSON,
//! Serverless and the live audit fill the same structures, so a rule written
//! once fires for all of them. Links between resources (a mapping's queue, a
//! redrive target) are resolved by the front-end into [`Target`]s.

mod value;

pub use value::{Alt, Attr, Origin, Value, When};

/// Index of a queue in [`Model::queues`].
pub type QueueIdx = usize;
/// Index of a function in [`Model::functions`].
pub type FunctionIdx = usize;

/// What a reference points at, once resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Queue(QueueIdx),
    Function(FunctionIdx),
    /// Something outside the analysed set (an ARN, a name), kept for messages.
    External(String),
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
    /// Dead-letter targets that are not queue RedrivePolicies: Lambda
    /// DeadLetterConfig, SNS subscription RedrivePolicy, EventBridge target
    /// DeadLetterConfig, SAM DeadLetterQueue, ESM on-failure destinations.
    pub dlq_refs: Vec<DlqRef>,
    /// Suppressions the source declares in its data (CloudFormation
    /// Metadata); comments are read from the files by `crate::suppress`.
    pub suppressions: Vec<crate::suppress::Suppression>,
}

#[derive(Clone, Debug)]
pub struct Queue {
    /// Logical ID, Terraform address or queue URL.
    pub resource: String,
    /// The resource's key (or block, or ARN).
    pub origin: Origin,
    /// The explicit QueueName, absent when AWS generates one.
    pub name: Attr<Name>,
    pub fifo: Attr<bool>,
    pub content_based_dedup: Attr<bool>,
    pub visibility_timeout: Attr<i64>,
    pub receive_wait_time: Attr<i64>,
    pub retention_period: Attr<i64>,
    pub delay_seconds: Attr<i64>,
    pub sse_enabled: Attr<bool>,
    pub kms_key: Attr<String>,
    pub fifo_throughput_limit: Attr<String>,
    pub deduplication_scope: Attr<String>,
    pub redrive: Attr<Redrive>,
    pub payload: Option<PayloadDecl>,
    /// What a live account says about the queue now (audit only).
    pub live: Option<LiveQueue>,
}

/// A live queue's counters and CloudWatch statistics. `None`: not read
/// (the call failed or was not made), so rules that need it stay silent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveQueue {
    /// ApproximateNumberOfMessages.
    pub visible: Option<u64>,
    /// ApproximateNumberOfMessagesNotVisible (in flight).
    pub in_flight: Option<u64>,
    /// ApproximateNumberOfMessagesDelayed.
    pub delayed: Option<u64>,
    /// Maximum ApproximateAgeOfOldestMessage over the lookback, seconds.
    pub oldest_age_max: Option<f64>,
    /// Sum of NumberOfEmptyReceives over the lookback.
    pub empty_receives: Option<f64>,
    /// Sum of NumberOfMessagesReceived over the lookback.
    pub received: Option<f64>,
    /// The lookback window, in seconds.
    pub lookback_seconds: u64,
}

impl Queue {
    /// A queue with every attribute absent (AWS defaults), located at `origin`.
    pub fn new(resource: impl Into<String>, origin: Origin) -> Self {
        fn absent<T>(origin: &Origin) -> Attr<T> {
            Attr::absent(origin.clone())
        }
        Queue {
            resource: resource.into(),
            name: absent(&origin),
            fifo: absent(&origin),
            content_based_dedup: absent(&origin),
            visibility_timeout: absent(&origin),
            receive_wait_time: absent(&origin),
            retention_period: absent(&origin),
            delay_seconds: absent(&origin),
            sse_enabled: absent(&origin),
            kms_key: absent(&origin),
            fifo_throughput_limit: absent(&origin),
            deduplication_scope: absent(&origin),
            redrive: absent(&origin),
            payload: None,
            live: None,
            origin,
        }
    }
}

/// A queue's RedrivePolicy.
#[derive(Clone, Debug)]
pub struct Redrive {
    pub target: Attr<Target>,
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
    pub name: Attr<String>,
    /// Timeout in seconds (absent: Lambda's default of 3 s).
    pub timeout: Attr<i64>,
}

/// How a consumer was declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConsumerKind {
    /// AWS::Lambda::EventSourceMapping / aws_lambda_event_source_mapping.
    EventSourceMapping,
    /// A SAM function's `Events: {Type: SQS}` entry (the event's name).
    SamEvent(String),
}

/// A Lambda event source mapping reading a queue.
#[derive(Clone, Debug)]
pub struct Consumer {
    /// The mapping's logical ID (for SAM events: the function's logical ID).
    pub resource: String,
    pub origin: Origin,
    pub kind: ConsumerKind,
    pub queue: Attr<Target>,
    pub function: Attr<Target>,
    pub batch_size: Attr<i64>,
    pub batching_window: Attr<i64>,
    pub response_types: Attr<Vec<String>>,
    pub enabled: Attr<bool>,
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

#[derive(Clone, Debug)]
pub struct QueuePolicy {
    pub resource: String,
    pub origin: Origin,
    /// The queues the policy applies to.
    pub queues: Vec<Value<Target>>,
    pub statements: Vec<Statement>,
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub origin: Origin,
    pub when: When,
    pub allow: Value<bool>,
    /// Principal is `*` or `{AWS: "*"}`.
    pub public_principal: Value<bool>,
    pub has_condition: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DlqKind {
    LambdaDeadLetterConfig,
    SnsSubscription,
    EventBridgeTarget,
    SamDeadLetterQueue,
    EventSourceMappingOnFailure,
    Other,
}

#[derive(Clone, Debug)]
pub struct DlqRef {
    pub resource: String,
    pub kind: DlqKind,
    pub target: Attr<Target>,
}

impl Model {
    /// Consumers whose queue may be `queue` (some alternative names it).
    pub fn consumers_of(&self, queue: QueueIdx) -> impl Iterator<Item = &Consumer> {
        self.consumers.iter().filter(move |c| c.queue.any_known(|t| *t == Target::Queue(queue)))
    }

    /// Queues whose RedrivePolicy may send to `dlq`.
    pub fn redrive_sources_of(&self, dlq: QueueIdx) -> impl Iterator<Item = (QueueIdx, &Queue)> {
        self.queues.iter().enumerate().filter(move |(_, q)| {
            q.redrive.alts.iter().any(|a| match &a.value {
                Value::Known(r) => r.target.any_known(|t| *t == Target::Queue(dlq)),
                _ => false,
            })
        })
    }

    /// True when `queue` receives dead letters from anything in the model.
    pub fn is_dead_letter_target(&self, queue: QueueIdx) -> bool {
        self.redrive_sources_of(queue).next().is_some()
            || self.dlq_refs.iter().any(|d| d.target.any_known(|t| *t == Target::Queue(queue)))
    }
}

/// The vocabulary findings speak: CloudFormation property names, or the
/// Terraform attribute names the user wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    #[default]
    CloudFormation,
    Terraform,
}

/// The attributes rules talk about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    VisibilityTimeout,
    ReceiveWaitTime,
    RetentionPeriod,
    DelaySeconds,
    FifoQueue,
    ContentBasedDedup,
    SqsManagedSse,
    KmsMasterKeyId,
    FifoThroughputLimit,
    DeduplicationScope,
    RedrivePolicy,
    BatchSize,
    BatchingWindow,
    FunctionResponseTypes,
}

impl Dialect {
    pub fn name(self, field: Field) -> &'static str {
        use Field::*;
        match (self, field) {
            (Dialect::CloudFormation, VisibilityTimeout) => "VisibilityTimeout",
            (Dialect::CloudFormation, ReceiveWaitTime) => "ReceiveMessageWaitTimeSeconds",
            (Dialect::CloudFormation, RetentionPeriod) => "MessageRetentionPeriod",
            (Dialect::CloudFormation, DelaySeconds) => "DelaySeconds",
            (Dialect::CloudFormation, FifoQueue) => "FifoQueue",
            (Dialect::CloudFormation, ContentBasedDedup) => "ContentBasedDeduplication",
            (Dialect::CloudFormation, SqsManagedSse) => "SqsManagedSseEnabled",
            (Dialect::CloudFormation, KmsMasterKeyId) => "KmsMasterKeyId",
            (Dialect::CloudFormation, FifoThroughputLimit) => "FifoThroughputLimit",
            (Dialect::CloudFormation, DeduplicationScope) => "DeduplicationScope",
            (Dialect::CloudFormation, RedrivePolicy) => "RedrivePolicy",
            (Dialect::CloudFormation, BatchSize) => "BatchSize",
            (Dialect::CloudFormation, BatchingWindow) => "MaximumBatchingWindowInSeconds",
            (Dialect::CloudFormation, FunctionResponseTypes) => "FunctionResponseTypes",
            (Dialect::Terraform, VisibilityTimeout) => "visibility_timeout_seconds",
            (Dialect::Terraform, ReceiveWaitTime) => "receive_wait_time_seconds",
            (Dialect::Terraform, RetentionPeriod) => "message_retention_seconds",
            (Dialect::Terraform, DelaySeconds) => "delay_seconds",
            (Dialect::Terraform, FifoQueue) => "fifo_queue",
            (Dialect::Terraform, ContentBasedDedup) => "content_based_deduplication",
            (Dialect::Terraform, SqsManagedSse) => "sqs_managed_sse_enabled",
            (Dialect::Terraform, KmsMasterKeyId) => "kms_master_key_id",
            (Dialect::Terraform, FifoThroughputLimit) => "fifo_throughput_limit",
            (Dialect::Terraform, DeduplicationScope) => "deduplication_scope",
            (Dialect::Terraform, RedrivePolicy) => "redrive_policy",
            (Dialect::Terraform, BatchSize) => "batch_size",
            (Dialect::Terraform, BatchingWindow) => "maximum_batching_window_in_seconds",
            (Dialect::Terraform, FunctionResponseTypes) => "function_response_types",
        }
    }

    /// `Name: value` / `name = value`, for fix hints.
    pub fn assign(self, field: Field, value: &str) -> String {
        match self {
            Dialect::CloudFormation => format!("{}: {value}", self.name(field)),
            Dialect::Terraform => format!("{} = {value}", self.name(field)),
        }
    }
}
