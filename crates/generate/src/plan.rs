//! What the generator will emit, computed from a spec: every number with
//! the reason it has that value. Templates only lay this out; whether the
//! spec's settings break a rule is `refuse`'s to say, by running the rules.

use serde::Serialize;

use super::spec::{ConsumerKind, Encryption, Spec};
use sqsguard_model::Field;
use sqsguard_model::field::guidance;
use sqsguard_rules::{Options, VisibilityOptions};

/// VisibilityTimeout for a worker (ECS or other) is this multiple of its
/// p99 processing time: a message in flight twice as long as the slowest
/// usual message is assumed lost. Workers extend it with heartbeats.
pub(crate) const WORKER_VISIBILITY_MULTIPLIER: u64 = 2;
/// Long polling: the longest wait SQS allows.
const WAIT_TIME_SECONDS: u64 = guidance::LONG_POLL_SECONDS as u64;

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Plan {
    pub pipeline: String,
    /// Resource name stem: `McpProbeResults` for CloudFormation logical IDs.
    pub logical: String,
    /// Terraform identifier: `mcp_probe_results`.
    pub ident: String,
    pub fifo: bool,
    pub queue_name: String,
    pub dlq_name: String,
    pub retention_seconds: u64,
    pub delay_seconds: u64,
    pub kms_key: Option<String>,
    pub content_based_deduplication: bool,
    pub high_throughput: bool,
    pub visibility_timeout: u64,
    pub visibility_reason: String,
    pub wait_time_seconds: u64,
    pub lambda: Option<Lambda>,
    pub worker: Option<Worker>,
    pub dedup_id: Option<String>,
    pub group_id: Option<String>,
    /// The payload declaration for the queue's Metadata/tags (SQS003).
    pub payload_deterministic: Option<bool>,
    pub payload_fields: Vec<PayloadField>,
    pub max_receive_count: u64,
    pub dlq_retention_seconds: u64,
    pub dlq_depth_alarm: bool,
    pub oldest_message_age: Option<u64>,
    pub topic: Option<String>,
    /// The topic is an ARN (else a name in this account and region).
    pub topic_is_arn: bool,
    pub tags: Vec<Tag>,
    // Derived text the templates print (through a serializing helper).
    pub description: String,
    pub emit_function: bool,
    pub payload_declared: bool,
    /// The queue gets a Tags list (spec tags, or the payload tag).
    pub queue_has_tags: bool,
    pub key_order: String,
    /// `!Sub` string of the queue's ARN (the DLQ's RedriveAllowPolicy
    /// cannot `!GetAtt` it: the queue already refers to the DLQ).
    pub queue_arn_sub: String,
    pub topic_arn_sub: Option<String>,
    pub dlq_alarm_description: String,
    pub oldest_alarm_description: String,
    pub log_group_name: String,
    pub log_group_arn_sub: String,
    /// A least-privilege consumer policy for a role sqsguard does not
    /// create: a worker's task role, or an existing function's role.
    pub emit_consumer_policy: bool,
    pub consumer_policy_description: String,
    pub consumer_policy_prefix: String,
    pub visibility_description: String,
    /// Tags as a JSON object (for HCL maps).
    pub tag_map: serde_json::Value,
    /// The `sqsguard:payload` tag value Terraform carries.
    pub payload_tag: String,
    /// An HCL expression for the alarm topic's ARN (already escaped).
    pub topic_arn_tf: Option<String>,
    /// What sends to the queue, each allowed by the queue policy.
    pub producers: Vec<super::produce::Producer>,
    /// The queue is encrypted with a customer managed key the output creates.
    pub new_key: bool,
    /// Terraform: the name prefix of new EventBridge rules.
    pub rule_prefix: String,
    pub key_description: String,
    /// Encrypted with KMS at all (a key named or a new one).
    pub kms: bool,
    /// The service principals a new key's policy lets use it, once each.
    pub key_services: Vec<&'static str>,
    /// The consumer function's reserved concurrency, and the mapping's
    /// MaximumConcurrency that keeps the pollers within it.
    pub reserved_concurrency: Option<u64>,
    pub maximum_concurrency: Option<u64>,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct PayloadField {
    pub name: String,
    pub kind: String,
    pub deterministic: bool,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Tag {
    pub key: String,
    pub value: String,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Lambda {
    pub timeout: u64,
    pub batch_size: u64,
    pub batching_window: u64,
    /// The batching window was raised to 1 s (BatchSize > 10 on a standard queue).
    pub window_raised: bool,
    /// An existing function (name or ARN); `None`: one is emitted.
    pub function: Option<String>,
    pub function_name: String,
}

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Worker {
    pub kind: String,
    pub p99: u64,
    pub heartbeat_interval: u64,
    pub max_messages: u64,
    pub wait_time_seconds: u64,
    pub socket_timeout: u64,
}

/// The plan for a spec, sized with the options of the rules the output
/// will be linted with. Values may be out of range for a spec that breaks a
/// rule (saturating, never wrapping): `refuse` says so before rendering.
#[expect(
    clippy::too_many_lines,
    reason = "one struct literal with a field per value the templates lay out (53 of them); what takes a decision is in the helpers below"
)]
pub(crate) fn plan(spec: &Spec, options: &Options) -> Plan {
    let multiplier = u64::try_from(options.of::<VisibilityOptions>().multiplier).unwrap_or(0);
    let name = spec.pipeline.value.clone();
    let fifo = spec.fifo.value;
    let suffix = if fifo { ".fifo" } else { "" };
    let non_deterministic = spec.payload.as_ref().map(|p| p.non_deterministic());

    let Sizing { visibility_timeout, visibility_reason, lambda, worker } = match spec.consumer.value {
        ConsumerKind::Lambda => lambda_sizing(spec, multiplier, &name, fifo),
        ConsumerKind::Ecs | ConsumerKind::Other => worker_sizing(spec),
    };
    let payload = spec.payload.as_ref();
    let topic = spec.topic.as_ref().map(|t| t.value.clone());
    let producers = super::produce::plan(spec, &name);
    let mut key_services: Vec<&'static str> = producers.iter().map(|p| p.principal).collect();
    key_services.dedup();
    key_services.sort_unstable();
    key_services.dedup();
    let reserved_concurrency = match spec.consumer.value {
        ConsumerKind::Lambda => spec.reserved_concurrency.as_ref().map(|r| r.value),
        _ => None,
    };
    let queue_name = format!("{name}{suffix}");
    let function_name = lambda.as_ref().map(|l| l.function_name.clone()).unwrap_or_default();
    Plan {
        description: description(fifo, &queue_name, lambda.as_ref(), worker.as_ref()),
        emit_function: lambda.as_ref().is_some_and(|l| l.function.is_none()),
        payload_declared: payload.is_some(),
        queue_has_tags: payload.is_some() || !spec.tags.is_empty(),
        key_order: if payload.is_some_and(|p| p.key_order_unstable) { "unstable".into() } else { "stable".into() },
        queue_arn_sub: format!("arn:${{AWS::Partition}}:sqs:${{AWS::Region}}:${{AWS::AccountId}}:{queue_name}"),
        topic_arn_sub: topic.as_deref().map(topic_arn_sub),
        dlq_alarm_description: format!(
            "Messages of {queue_name} failed {} times and wait in {name}-dlq{suffix}: they need a person.",
            spec.max_receive_count.value
        ),
        oldest_alarm_description: format!(
            "The oldest message in {queue_name} has waited more than {} s: the consumer is behind or failing.",
            spec.oldest_message_age.as_ref().map_or(0, |a| a.value)
        ),
        log_group_name: format!("/aws/lambda/{function_name}"),
        log_group_arn_sub: format!(
            "arn:${{AWS::Partition}}:logs:${{AWS::Region}}:${{AWS::AccountId}}:log-group:/aws/lambda/{function_name}:*"
        ),
        emit_consumer_policy: worker.is_some() || lambda.as_ref().is_some_and(|l| l.function.is_some()),
        consumer_policy_description: consumer_policy_description(&queue_name, lambda.as_ref()),
        consumer_policy_prefix: format!("{name}-consumer-"),
        visibility_description: format!("Queue visibility timeout: {visibility_reason}."),
        tag_map: serde_json::Value::Object(
            spec.tags.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect(),
        ),
        payload_tag: match &non_deterministic {
            Some(r) if r.is_empty() => "deterministic".into(),
            _ => "non-deterministic".into(),
        },
        topic_arn_tf: topic.as_deref().map(topic_arn_tf),

        new_key: spec.encryption.value == Encryption::NewKey,
        rule_prefix: format!("{name}-"),
        key_description: format!("Encrypts the queues of {name} (generated by sqsguard)"),
        kms: !matches!(spec.encryption.value, Encryption::SqsManaged),
        key_services,
        maximum_concurrency: reserved_concurrency.and_then(maximum_concurrency),
        reserved_concurrency,
        producers,
        logical: name.split('-').map(capitalize).collect(),
        ident: name.replace('-', "_"),
        queue_name,
        dlq_name: format!("{name}-dlq{suffix}"),
        pipeline: name,
        fifo,
        retention_seconds: spec.retention.value,
        delay_seconds: spec.delay.value,
        kms_key: match &spec.encryption.value {
            Encryption::Kms(k) => Some(k.clone()),
            Encryption::SqsManaged | Encryption::NewKey => None,
        },
        content_based_deduplication: spec.content_based_deduplication.value,
        high_throughput: spec.high_throughput.value,
        visibility_timeout,
        visibility_reason: visibility_reason.clone(),
        wait_time_seconds: WAIT_TIME_SECONDS,
        lambda,
        worker,
        dedup_id: payload.and_then(|p| p.dedup_id.as_ref().map(|d| d.value.clone())),
        group_id: payload.and_then(|p| p.group_id.as_ref().map(|d| d.value.clone())),
        payload_deterministic: non_deterministic.map(|r| r.is_empty()),
        payload_fields: payload.map(payload_fields).unwrap_or_default(),
        max_receive_count: spec.max_receive_count.value,
        dlq_retention_seconds: spec.dlq_retention.value,
        dlq_depth_alarm: spec.dlq_depth_alarm.value,
        oldest_message_age: spec.oldest_message_age.as_ref().map(|a| a.value),
        topic_is_arn: topic.as_deref().is_some_and(|t| t.starts_with("arn:")),
        topic,
        tags: spec.tags.iter().map(|(k, v)| Tag { key: k.clone(), value: v.clone() }).collect(),
    }
}

/// The payload's fields as the templates list them.
fn payload_fields(payload: &super::spec::Payload) -> Vec<PayloadField> {
    let field = |f: &super::spec::Field| PayloadField {
        name: f.name.clone(),
        kind: f.kind.clone(),
        deterministic: f.deterministic,
    };
    payload.fields.iter().map(field).collect()
}

/// The consumer's visibility timeout with the reason it has that value,
/// and its Lambda function or worker.
struct Sizing {
    visibility_timeout: u64,
    visibility_reason: String,
    lambda: Option<Lambda>,
    worker: Option<Worker>,
}

/// A Lambda consumer: the visibility timeout covers `multiplier` function
/// timeouts and the batching window (raised to 1 s for a large batch on a
/// Standard queue).
fn lambda_sizing(spec: &Spec, multiplier: u64, name: &str, fifo: bool) -> Sizing {
    // Lambda's own default when the spec gives none.
    let lambda_default = Field::Timeout.default().and_then(|t| u64::try_from(t).ok()).unwrap_or_default();
    let timeout = spec.function_timeout.as_ref().map_or(lambda_default, |t| t.value);
    let batch_size = spec.batch_size.value;
    let mut window = spec.batching_window.value;
    let unwindowed = guidance::UNWINDOWED_BATCH_SIZE as u64;
    let window_raised = !fifo && batch_size > unwindowed && window < 1;
    if window_raised {
        window = 1;
    }
    let vt = multiplier.saturating_mul(timeout).saturating_add(window);
    let reason = format!("{multiplier} x {timeout} s function timeout + {window} s batching window");
    let function_name = match &spec.function {
        Some(f) => f.value.rsplit(':').next().unwrap_or(&f.value).to_string(),
        None => format!("{name}-consumer"),
    };
    let lambda = Lambda {
        timeout,
        batch_size,
        batching_window: window,
        window_raised,
        function: spec.function.as_ref().map(|f| f.value.clone()),
        function_name,
    };
    Sizing { visibility_timeout: vt, visibility_reason: reason, lambda: Some(lambda), worker: None }
}

/// An ECS or other worker: the visibility timeout covers its p99
/// processing time twice, and it heartbeats at a third of it.
fn worker_sizing(spec: &Spec) -> Sizing {
    let p99 = spec.processing_time_p99.as_ref().map_or(30, |p| p.value);
    let vt = WORKER_VISIBILITY_MULTIPLIER.saturating_mul(p99).max(1);
    let worker = Worker {
        kind: if spec.consumer.value == ConsumerKind::Ecs { "ecs".into() } else { "other".into() },
        p99,
        heartbeat_interval: (vt / 3).max(1),
        max_messages: 10,
        wait_time_seconds: WAIT_TIME_SECONDS,
        socket_timeout: WAIT_TIME_SECONDS + 5,
    };
    Sizing {
        visibility_timeout: vt,
        visibility_reason: format!("{WORKER_VISIBILITY_MULTIPLIER} x {p99} s p99 processing time"),
        lambda: None,
        worker: Some(worker),
    }
}

/// The template's description: the queue and what reads it.
fn description(fifo: bool, queue_name: &str, lambda: Option<&Lambda>, worker: Option<&Worker>) -> String {
    let consumer_text = match (lambda, worker) {
        (Some(l), _) => format!("Lambda function {}", l.function_name),
        (_, Some(w)) => format!("{} worker", if w.kind == "ecs" { "ECS" } else { "a" }),
        _ => String::new(),
    };
    format!(
        "{} queue {queue_name} read by {consumer_text}, with its dead-letter queue and alarms (generated by sqsguard)",
        if fifo { "FIFO" } else { "Standard" }
    )
}

/// The topic's ARN in CloudFormation: as given, or built with `Fn::Sub`
/// from its name.
fn topic_arn_sub(t: &str) -> String {
    if t.starts_with("arn:") {
        t.to_string()
    } else {
        format!("arn:${{AWS::Partition}}:sns:${{AWS::Region}}:${{AWS::AccountId}}:{t}")
    }
}

/// The topic's ARN as a Terraform expression: a literal, or built from
/// the partition, Region and account data sources and its name.
fn topic_arn_tf(t: &str) -> String {
    if t.starts_with("arn:") {
        super::literal::hcl(&serde_json::Value::String(t.to_string()))
    } else {
        format!(
            "\"arn:${{data.aws_partition.current.partition}}:sns:${{data.aws_region.current.name}}:${{data.aws_caller_identity.current.account_id}}:{}\"",
            super::literal::hcl_inner(t)
        )
    }
}

/// What the consumer's policy is for, and what to attach it to.
fn consumer_policy_description(queue_name: &str, lambda: Option<&Lambda>) -> String {
    match lambda {
        Some(l) if l.function.is_some() => format!(
            "Least privilege to consume {queue_name}: attach to the execution role of {}, or Lambda cannot read the queue.",
            l.function_name
        ),
        _ => format!("Least privilege to consume {queue_name}: attach to the worker's role."),
    }
}

/// The mapping's MaximumConcurrency for a function's reserved concurrency:
/// at most the largest Lambda accepts, and none below the least (SQS022
/// then refuses the spec).
fn maximum_concurrency(reserved: u64) -> Option<u64> {
    let range = Field::MaximumConcurrency.range()?;
    let (least, most) = (u64::try_from(*range.start()).ok()?, u64::try_from(*range.end()).ok()?);
    (reserved >= least).then(|| reserved.min(most))
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}
