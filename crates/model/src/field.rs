//! The one table of the attributes sqsguard reads: what each is called in
//! every dialect, AWS's default when it is absent, and the range AWS
//! accepts. Front-ends read attributes by these names, the audit reads the
//! API's, rules phrase findings with them, SQS012 checks the ranges and the
//! generator sizes what it writes from the same numbers.
//!
//! It is over 400 lines because the table is one: every attribute is named
//! in one place, in the order of [`Field`] (a test keeps them aligned), so
//! a new attribute is a variant and a row here, not a file of its own.

use std::ops::RangeInclusive;

/// An attribute of a queue, an event source mapping, a function, a
/// producer or a CloudWatch alarm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    // Queues.
    QueueName,
    FifoQueue,
    ContentBasedDedup,
    VisibilityTimeout,
    ReceiveWaitTime,
    RetentionPeriod,
    DelaySeconds,
    SqsManagedSse,
    KmsMasterKeyId,
    FifoThroughputLimit,
    DeduplicationScope,
    RedrivePolicy,
    // Inside a RedrivePolicy (a JSON document: the same keys everywhere).
    DeadLetterTarget,
    MaxReceiveCount,
    // Event source mappings.
    EventSource,
    MappingFunction,
    BatchSize,
    BatchingWindow,
    FunctionResponseTypes,
    /// `ScalingConfig`, which holds `MaximumConcurrency`.
    ScalingConfig,
    MaximumConcurrency,
    /// Whether Lambda polls the queue (the API reports it as `State`).
    MappingEnabled,
    // Mapping parameters that apply only to streams and Kafka (SQS024).
    StartingPosition,
    StartingPositionTimestamp,
    /// `DestinationConfig` (its `OnFailure`): read as whether it holds anything.
    DestinationConfig,
    /// A mapping's `MaximumRetryAttempts` (EventBridge's is inside `RetryPolicy`).
    MappingRetryAttempts,
    MaximumRecordAge,
    BisectBatch,
    ParallelizationFactor,
    TumblingWindow,
    // Functions.
    FunctionName,
    Timeout,
    ReservedConcurrency,
    // Producers: SNS topics and subscriptions, EventBridge targets, S3
    // notifications, pipes.
    TopicArn,
    Protocol,
    SubscriptionEndpoint,
    FifoTopic,
    TargetArn,
    /// An EventBridge pipe's `Target`.
    PipeTarget,
    /// `SqsParameters`, which holds `MessageGroupId`.
    SqsParameters,
    MessageGroupId,
    RoleArn,
    /// A queue policy's document.
    Policy,
    /// SNS: the body delivered without the SNS envelope.
    RawMessageDelivery,
    /// EventBridge: `RetryPolicy`, which holds the next two.
    RetryPolicy,
    MaximumRetryAttempts,
    MaximumEventAge,
    // CloudWatch alarms, and each metric they watch.
    MetricName,
    Namespace,
    /// A metric's dimensions, among them the `QueueName` of the queue it
    /// watches (a list of `Name`/`Value` pairs, or a map in Terraform).
    Dimensions,
    /// A metric-math alarm's metrics (Terraform: its `metric_query` blocks).
    Metrics,
    ComparisonOperator,
    Threshold,
    /// An S3 bucket's queue configuration: the queue it notifies.
    NotificationQueue,
    /// An EventBridge target's `Id`, which messages name it by.
    TargetId,
    /// An EventBridge target's `DeadLetterConfig`, which holds the next.
    TargetDeadLetterConfig,
    /// The queue an EventBridge target's failed deliveries go to.
    TargetDeadLetter,
}

/// A field's value when it is a plain scalar: AWS defaults, and the value
/// a finding says the field should hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scalar {
    Int(i64),
    Bool(bool),
    Str(String),
    List(Vec<String>),
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct FieldSpec {
    /// The row's own field: the table's test checks that each row sits at
    /// its field's index, which is how `spec` finds it without a search.
    #[cfg_attr(not(test), allow(dead_code, reason = "only the table's test reads it"))]
    pub field: Field,
    /// CloudFormation property (SAM event properties use the same names).
    pub cloudformation: &'static str,
    /// Terraform argument of `aws_sqs_queue` / `aws_lambda_event_source_mapping` / `aws_lambda_function`
    /// / `aws_cloudwatch_metric_alarm` (and the producers' resources).
    pub terraform: &'static str,
    /// The API's name (GetQueueAttributes, ListEventSourceMappings, GetFunctionConfiguration,
    /// DescribeAlarms).
    pub api: &'static str,
    /// Serverless Framework key of an `events: - sqs:` entry or a function,
    /// where the Framework has its own name for it.
    pub serverless: Option<&'static str>,
    /// AWS's value when the attribute is absent (`None`: no default that a
    /// rule may assume).
    pub default: Option<i64>,
    /// The values AWS accepts (SQS012).
    pub range: Option<RangeInclusive<i64>>,
}

const fn row(
    field: Field,
    cloudformation: &'static str,
    terraform: &'static str,
    api: &'static str,
    serverless: Option<&'static str>,
    default: Option<i64>,
    range: Option<RangeInclusive<i64>>,
) -> FieldSpec {
    FieldSpec { field, cloudformation, terraform, api, serverless, default, range }
}

/// A mapping parameter of streams and Kafka: the API names it as
/// CloudFormation does; no default, no range.
const fn stream(field: Field, cloudformation: &'static str, terraform: &'static str) -> FieldSpec {
    row(field, cloudformation, terraform, cloudformation, None, None, None)
}

use Field::*;

/// Every field, in the order of [`Field`] (a test keeps them aligned).
pub(crate) static FIELDS: [FieldSpec; 57] = [
    row(QueueName, "QueueName", "name", "QueueName", None, None, None),
    // Booleans default to false (0).
    row(FifoQueue, "FifoQueue", "fifo_queue", "FifoQueue", None, Some(0), None),
    row(
        ContentBasedDedup,
        "ContentBasedDeduplication",
        "content_based_deduplication",
        "ContentBasedDeduplication",
        None,
        Some(0),
        None,
    ),
    row(
        VisibilityTimeout,
        "VisibilityTimeout",
        "visibility_timeout_seconds",
        "VisibilityTimeout",
        None,
        Some(30),
        Some(0..=43_200),
    ),
    row(
        ReceiveWaitTime,
        "ReceiveMessageWaitTimeSeconds",
        "receive_wait_time_seconds",
        "ReceiveMessageWaitTimeSeconds",
        None,
        Some(0),
        Some(0..=20),
    ),
    row(
        RetentionPeriod,
        "MessageRetentionPeriod",
        "message_retention_seconds",
        "MessageRetentionPeriod",
        None,
        Some(345_600),
        Some(60..=1_209_600),
    ),
    row(DelaySeconds, "DelaySeconds", "delay_seconds", "DelaySeconds", None, Some(0), Some(0..=900)),
    row(SqsManagedSse, "SqsManagedSseEnabled", "sqs_managed_sse_enabled", "SqsManagedSseEnabled", None, None, None),
    row(KmsMasterKeyId, "KmsMasterKeyId", "kms_master_key_id", "KmsMasterKeyId", None, None, None),
    row(FifoThroughputLimit, "FifoThroughputLimit", "fifo_throughput_limit", "FifoThroughputLimit", None, None, None),
    row(DeduplicationScope, "DeduplicationScope", "deduplication_scope", "DeduplicationScope", None, None, None),
    row(RedrivePolicy, "RedrivePolicy", "redrive_policy", "RedrivePolicy", None, None, None),
    row(DeadLetterTarget, "deadLetterTargetArn", "deadLetterTargetArn", "deadLetterTargetArn", None, None, None),
    row(MaxReceiveCount, "maxReceiveCount", "maxReceiveCount", "maxReceiveCount", None, None, Some(1..=1000)),
    row(EventSource, "EventSourceArn", "event_source_arn", "EventSourceArn", Some("arn"), None, None),
    row(MappingFunction, "FunctionName", "function_name", "FunctionArn", None, None, None),
    row(BatchSize, "BatchSize", "batch_size", "BatchSize", Some("batchSize"), Some(10), Some(1..=10_000)),
    row(
        BatchingWindow,
        "MaximumBatchingWindowInSeconds",
        "maximum_batching_window_in_seconds",
        "MaximumBatchingWindowInSeconds",
        Some("maximumBatchingWindow"),
        Some(0),
        Some(0..=300),
    ),
    row(
        FunctionResponseTypes,
        "FunctionResponseTypes",
        "function_response_types",
        "FunctionResponseTypes",
        Some("functionResponseType"),
        None,
        None,
    ),
    row(ScalingConfig, "ScalingConfig", "scaling_config", "ScalingConfig", None, None, None),
    // No default: without it the pollers scale to the function's limits.
    row(
        MaximumConcurrency,
        "MaximumConcurrency",
        "maximum_concurrency",
        "MaximumConcurrency",
        Some("maximumConcurrency"),
        None,
        Some(2..=1000),
    ),
    // A mapping polls unless told not to.
    row(MappingEnabled, "Enabled", "enabled", "Enabled", Some("enabled"), Some(1), None),
    // Stream and Kafka parameters: no default or range a rule of a queue's
    // mapping may assume (SQS024 reads only whether they are set).
    stream(StartingPosition, "StartingPosition", "starting_position"),
    stream(StartingPositionTimestamp, "StartingPositionTimestamp", "starting_position_timestamp"),
    stream(DestinationConfig, "DestinationConfig", "destination_config"),
    stream(MappingRetryAttempts, "MaximumRetryAttempts", "maximum_retry_attempts"),
    stream(MaximumRecordAge, "MaximumRecordAgeInSeconds", "maximum_record_age_in_seconds"),
    stream(BisectBatch, "BisectBatchOnFunctionError", "bisect_batch_on_function_error"),
    stream(ParallelizationFactor, "ParallelizationFactor", "parallelization_factor"),
    stream(TumblingWindow, "TumblingWindowInSeconds", "tumbling_window_in_seconds"),
    row(FunctionName, "FunctionName", "function_name", "FunctionName", None, None, None),
    // Lambda's default timeout.
    row(Timeout, "Timeout", "timeout", "Timeout", Some("timeout"), Some(3), Some(1..=900)),
    // No default: absent (Terraform: -1) is no reservation.
    row(
        ReservedConcurrency,
        "ReservedConcurrentExecutions",
        "reserved_concurrent_executions",
        "ReservedConcurrentExecutions",
        Some("reservedConcurrency"),
        None,
        None,
    ),
    row(TopicArn, "TopicArn", "topic_arn", "TopicArn", None, None, None),
    row(Protocol, "Protocol", "protocol", "Protocol", None, None, None),
    row(SubscriptionEndpoint, "Endpoint", "endpoint", "Endpoint", None, None, None),
    // A topic is standard unless it says otherwise.
    row(FifoTopic, "FifoTopic", "fifo_topic", "FifoTopic", None, Some(0), None),
    row(TargetArn, "Arn", "arn", "Arn", None, None, None),
    row(PipeTarget, "Target", "target", "Target", None, None, None),
    row(SqsParameters, "SqsParameters", "sqs_target", "SqsParameters", None, None, None),
    row(MessageGroupId, "MessageGroupId", "message_group_id", "MessageGroupId", None, None, None),
    row(RoleArn, "RoleArn", "role_arn", "RoleArn", None, None, None),
    row(Policy, "PolicyDocument", "policy", "Policy", None, None, None),
    row(RawMessageDelivery, "RawMessageDelivery", "raw_message_delivery", "RawMessageDelivery", None, Some(0), None),
    row(RetryPolicy, "RetryPolicy", "retry_policy", "RetryPolicy", None, None, None),
    // EventBridge's defaults: 185 retries over 24 hours.
    row(
        MaximumRetryAttempts,
        "MaximumRetryAttempts",
        "maximum_retry_attempts",
        "MaximumRetryAttempts",
        None,
        Some(185),
        None,
    ),
    row(
        MaximumEventAge,
        "MaximumEventAgeInSeconds",
        "maximum_event_age_in_seconds",
        "MaximumEventAgeInSeconds",
        None,
        Some(86_400),
        None,
    ),
    row(MetricName, "MetricName", "metric_name", "MetricName", None, None, None),
    row(Namespace, "Namespace", "namespace", "Namespace", None, None, None),
    row(Dimensions, "Dimensions", "dimensions", "Dimensions", None, None, None),
    row(Metrics, "Metrics", "metric_query", "Metrics", None, None, None),
    row(ComparisonOperator, "ComparisonOperator", "comparison_operator", "ComparisonOperator", None, None, None),
    row(Threshold, "Threshold", "threshold", "Threshold", None, None, None),
    row(NotificationQueue, "Queue", "queue_arn", "QueueArn", None, None, None),
    row(TargetId, "Id", "target_id", "Id", None, None, None),
    row(TargetDeadLetterConfig, "DeadLetterConfig", "dead_letter_config", "DeadLetterConfig", None, None, None),
    row(TargetDeadLetter, "Arn", "arn", "Arn", None, None, None),
];

/// The dimension that names the queue an SQS metric is about, in every
/// dialect.
pub const QUEUE_DIMENSION: &str = "QueueName";

/// The queue attributes a Terraform `aws_sqs_queue` (and the registry's SQS
/// module) passes to SQS unchanged.
pub const QUEUE_SETTINGS: [Field; 9] = [
    ContentBasedDedup,
    DeduplicationScope,
    DelaySeconds,
    FifoThroughputLimit,
    KmsMasterKeyId,
    RetentionPeriod,
    ReceiveWaitTime,
    SqsManagedSse,
    VisibilityTimeout,
];

impl Field {
    pub(crate) fn spec(self) -> &'static FieldSpec {
        &FIELDS[self as usize]
    }

    /// AWS's value when the attribute is absent.
    pub fn default(self) -> Option<i64> {
        self.spec().default
    }

    pub fn range(self) -> Option<RangeInclusive<i64>> {
        self.spec().range.clone()
    }
}

/// What AWS's guides and limits say, beyond single fields.
pub mod guidance {
    /// Lambda's guidance: VisibilityTimeout at least 6 x the function
    /// timeout (+ the batching window). SQS001's default multiplier.
    pub const VISIBILITY_MULTIPLIER: i64 = 6;
    /// The lowest maxReceiveCount that rides out a transient failure
    /// (SQS008's default minimum).
    pub const MIN_MAX_RECEIVE_COUNT: i64 = 3;
    /// The maxReceiveCount sqsguard suggests and generates: a few retries
    /// past a deploy or a throttle, not dozens of a poison message.
    pub const SUGGESTED_MAX_RECEIVE_COUNT: i64 = 5;
    /// Long polling at its longest, what generated queues use.
    pub const LONG_POLL_SECONDS: i64 = 20;
    /// The longest retention SQS allows, what dead-letter queues get.
    pub const MAX_RETENTION_SECONDS: i64 = 1_209_600;
    /// Lambda batches by time only above this batch size on standard
    /// queues, and never reads more than this from a FIFO queue.
    pub const UNWINDOWED_BATCH_SIZE: i64 = 10;
    /// The most messages one ReceiveMessage returns (its
    /// MaxNumberOfMessages), and the most entries one batch call takes.
    pub const MAX_MESSAGES_PER_CALL: i64 = 10;
}

/// The vocabulary a finding is phrased in: the names the user wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    #[default]
    CloudFormation,
    Terraform,
    /// A live account: the API's attribute names.
    Api,
    /// A Serverless Framework service: the Framework's names where it has
    /// its own (an `events: - sqs:` entry, a function), CloudFormation's
    /// for `resources`.
    Serverless,
}

impl Dialect {
    /// A field's name in this dialect.
    pub fn name(self, field: Field) -> &'static str {
        let spec = field.spec();
        match self {
            Dialect::CloudFormation => spec.cloudformation,
            Dialect::Terraform => spec.terraform,
            Dialect::Api => spec.api,
            Dialect::Serverless => spec.serverless.unwrap_or(spec.cloudformation),
        }
    }

    /// `Name: value` / `name = value`, with strings quoted as the dialect
    /// writes them, for fix hints.
    pub fn assign(self, field: Field, value: &Scalar) -> String {
        let name = self.name(field);
        match self {
            Dialect::CloudFormation | Dialect::Api => format!("{name}: {}", yaml_value(value)),
            Dialect::Terraform => format!("{name} = {}", hcl_value(value)),
            // `functionResponseType: ReportBatchItemFailures` takes one value.
            Dialect::Serverless => match value {
                Scalar::List(items) if items.len() == 1 => format!("{name}: {}", items[0]),
                _ => format!("{name}: {}", yaml_value(value)),
            },
        }
    }
}

/// A double-quoted string, escaped as JSON, YAML and HCL all read it.
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn list(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "))
}

fn yaml_value(value: &Scalar) -> String {
    match value {
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Str(s) => s.clone(),
        Scalar::List(items) => list(items),
    }
}

/// A value as an HCL literal: numbers and booleans bare, strings quoted,
/// lists in brackets.
pub fn hcl_value(value: &Scalar) -> String {
    match value {
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Str(s) => quoted(s),
        Scalar::List(items) => list(items),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_field_order() {
        for (i, spec) in FIELDS.iter().enumerate() {
            assert_eq!(spec.field as usize, i, "{:?} is row {i}", spec.field);
        }
    }

    #[test]
    fn defaults_lie_in_their_ranges() {
        for spec in &FIELDS {
            if let (Some(d), Some(r)) = (spec.default, &spec.range) {
                assert!(r.contains(&d), "{:?}", spec.field);
            }
        }
    }

    #[test]
    fn dialects_name_and_quote() {
        let scope = Scalar::Str("messageGroup".into());
        assert_eq!(Dialect::CloudFormation.assign(DeduplicationScope, &scope), "DeduplicationScope: messageGroup");
        assert_eq!(Dialect::Terraform.assign(DeduplicationScope, &scope), "deduplication_scope = \"messageGroup\"");
        let types = Scalar::List(vec!["ReportBatchItemFailures".into()]);
        assert_eq!(
            Dialect::Terraform.assign(FunctionResponseTypes, &types),
            "function_response_types = [\"ReportBatchItemFailures\"]"
        );
        assert_eq!(Dialect::Api.name(MappingFunction), "FunctionArn");
    }
}
