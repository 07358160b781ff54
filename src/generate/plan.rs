//! What the generator will emit, computed from a spec: every number with
//! the reason it has that value, and the refusals for settings that would
//! break a rule. Templates only lay this out.

use serde::Serialize;

use super::spec::{ConsumerKind, Encryption, Spec};
use crate::model::Field;
use crate::model::field::guidance;
use crate::rules::Options;
use crate::source::Span;

/// VisibilityTimeout for a worker (ECS or other) is this multiple of its
/// p99 processing time: a message in flight twice as long as the slowest
/// usual message is assumed lost. Workers extend it with heartbeats.
pub const WORKER_VISIBILITY_MULTIPLIER: u64 = 2;
/// Long polling: the longest wait SQS allows.
const WAIT_TIME_SECONDS: u64 = guidance::LONG_POLL_SECONDS as u64;

/// The largest value SQS accepts for `field`.
fn max_of(field: Field) -> u64 {
    field.range().map_or(u64::MAX, |r| u64::try_from(*r.end()).unwrap_or(u64::MAX))
}

/// Whether `value` is in the range SQS accepts for `field`.
fn in_range(field: Field, value: u64) -> bool {
    field.range().is_none_or(|r| i64::try_from(value).is_ok_and(|v| r.contains(&v)))
}

/// A setting the generator refuses, as the rule it would break.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub code: &'static str,
    pub message: String,
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Plan {
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
}

#[derive(Clone, Debug, Serialize)]
pub struct PayloadField {
    pub name: String,
    pub kind: String,
    pub deterministic: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Tag {
    pub key: String,
    pub value: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Lambda {
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
pub struct Worker {
    pub kind: String,
    pub p99: u64,
    pub heartbeat_interval: u64,
    pub max_messages: u64,
    pub wait_time_seconds: u64,
    pub socket_timeout: u64,
}

/// The plan for a spec, or the rules its settings would break, with the
/// thresholds of the rules the output will be linted with.
pub fn plan(spec: &Spec, options: &Options) -> Result<Plan, Vec<Refusal>> {
    let multiplier = u64::try_from(options.visibility_multiplier).unwrap_or(0);
    let min_receive_count = u64::try_from(options.min_max_receive_count).unwrap_or(0);
    let mut refusals = Vec::new();
    let name = spec.pipeline.value.clone();
    let fifo = spec.fifo.value;
    let suffix = if fifo { ".fifo" } else { "" };
    let non_deterministic = spec.payload.as_ref().map(|p| p.non_deterministic());

    if spec.content_based_deduplication.value {
        match &non_deterministic {
            Some(reasons) if !reasons.is_empty() => refusals.push(Refusal {
                code: "SQS003",
                message: format!(
                    "content_based_deduplication is true but the payload is not deterministic ({}): a retried send gets a new body, so duplicates get through; set it to false and give payload.dedup_id",
                    reasons.join(", ")
                ),
                span: spec.content_based_deduplication.span,
            }),
            None => refusals.push(Refusal {
                code: "SQS003",
                message: "content_based_deduplication is true and no payload is declared: declare payload.fields so the generator can tell the body is deterministic, or use payload.dedup_id".into(),
                span: spec.content_based_deduplication.span,
            }),
            _ => {}
        }
    }
    if !spec.dlq_depth_alarm.value {
        refusals.push(Refusal {
            code: "SQS015",
            message: "alarms.dlq_depth is false: without an alarm on the dead-letter queue, failed messages pile up unseen until they expire".into(),
            span: spec.dlq_depth_alarm.span,
        });
    }
    if spec.max_receive_count.value < min_receive_count {
        refusals.push(Refusal {
            code: "SQS008",
            message: format!(
                "dlq.max_receive_count {} < {min_receive_count}: a transient error or a cold start sends the message to the dead-letter queue",
                spec.max_receive_count.value
            ),
            span: spec.max_receive_count.span,
        });
    }
    if !fifo && spec.dlq_retention.value <= spec.retention.value {
        refusals.push(Refusal {
            code: "SQS007",
            message: format!(
                "dlq.retention {} s is not longer than queue.retention {} s: SQS keeps the enqueue time on redrive, so late failures expire on arrival",
                spec.dlq_retention.value, spec.retention.value
            ),
            span: if spec.dlq_retention.explicit { spec.dlq_retention.span } else { spec.retention.span },
        });
    }
    for (what, at, field) in [
        ("queue.retention", &spec.retention, Field::RetentionPeriod),
        ("queue.delay", &spec.delay, Field::DelaySeconds),
        ("dlq.retention", &spec.dlq_retention, Field::RetentionPeriod),
    ] {
        let Some(range) = field.range() else { continue };
        if !in_range(field, at.value) {
            refusals.push(Refusal {
                code: "SQS012",
                message: format!(
                    "{what} {} s is outside {}..{} s, the range SQS accepts",
                    at.value,
                    range.start(),
                    range.end()
                ),
                span: at.span,
            });
        }
    }

    let (visibility_timeout, visibility_reason, lambda, worker) = match spec.consumer.value {
        ConsumerKind::Lambda => {
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
            if fifo && batch_size > unwindowed {
                refusals.push(Refusal {
                    code: "SQS010",
                    message: format!("consumer.batch_size {batch_size} on a FIFO queue: Lambda accepts at most 10"),
                    span: spec.batch_size.span,
                });
            }
            let vt = multiplier.saturating_mul(timeout).saturating_add(window);
            let max = max_of(Field::VisibilityTimeout);
            if vt > max {
                refusals.push(Refusal {
                    code: "SQS012",
                    message: format!(
                        "VisibilityTimeout would be {multiplier} x {timeout} s + {window} s = {vt} s, above the {max} s SQS allows: shorten consumer.function_timeout"
                    ),
                    span: spec.function_timeout.as_ref().map_or(spec.consumer.span, |t| t.span),
                });
            }
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
            (vt, reason, Some(lambda), None)
        }
        ConsumerKind::Ecs | ConsumerKind::Other => {
            let p99 = spec.processing_time_p99.as_ref().map_or(30, |p| p.value);
            let vt = WORKER_VISIBILITY_MULTIPLIER.saturating_mul(p99).max(1);
            let max = max_of(Field::VisibilityTimeout);
            if vt > max {
                refusals.push(Refusal {
                    code: "SQS012",
                    message: format!(
                        "VisibilityTimeout would be {WORKER_VISIBILITY_MULTIPLIER} x {p99} s = {vt} s, above the {max} s SQS allows"
                    ),
                    span: spec.processing_time_p99.as_ref().map_or(spec.consumer.span, |p| p.span),
                });
            }
            let worker = Worker {
                kind: if spec.consumer.value == ConsumerKind::Ecs { "ecs".into() } else { "other".into() },
                p99,
                heartbeat_interval: (vt / 3).max(1),
                max_messages: 10,
                wait_time_seconds: WAIT_TIME_SECONDS,
                socket_timeout: WAIT_TIME_SECONDS + 5,
            };
            (vt, format!("{WORKER_VISIBILITY_MULTIPLIER} x {p99} s p99 processing time"), None, Some(worker))
        }
    };
    if !refusals.is_empty() {
        return Err(refusals);
    }

    let payload = spec.payload.as_ref();
    let topic = spec.topic.as_ref().map(|t| t.value.clone());
    let queue_name = format!("{name}{suffix}");
    let consumer_text = match (&lambda, &worker) {
        (Some(l), _) => format!("Lambda function {}", l.function_name),
        (_, Some(w)) => format!("{} worker", if w.kind == "ecs" { "ECS" } else { "a" }),
        _ => String::new(),
    };
    let function_name = lambda.as_ref().map(|l| l.function_name.clone()).unwrap_or_default();
    Ok(Plan {
        description: format!(
            "{} queue {queue_name} read by {consumer_text}, with its dead-letter queue and alarms (generated by sqsguard)",
            if fifo { "FIFO" } else { "Standard" }
        ),
        emit_function: lambda.as_ref().is_some_and(|l| l.function.is_none()),
        payload_declared: payload.is_some(),
        queue_has_tags: payload.is_some() || !spec.tags.is_empty(),
        key_order: if payload.is_some_and(|p| p.key_order_unstable) { "unstable".into() } else { "stable".into() },
        queue_arn_sub: format!("arn:${{AWS::Partition}}:sqs:${{AWS::Region}}:${{AWS::AccountId}}:{queue_name}"),
        topic_arn_sub: topic.as_ref().map(|t| {
            if t.starts_with("arn:") { t.clone() } else { format!("arn:${{AWS::Partition}}:sns:${{AWS::Region}}:${{AWS::AccountId}}:{t}") }
        }),
        dlq_alarm_description: format!("Messages of {queue_name} failed {} times and wait in {name}-dlq{suffix}: they need a person.", spec.max_receive_count.value),
        oldest_alarm_description: format!(
            "The oldest message in {queue_name} has waited more than {} s: the consumer is behind or failing.",
            spec.oldest_message_age.as_ref().map_or(0, |a| a.value)
        ),
        log_group_name: format!("/aws/lambda/{function_name}"),
        log_group_arn_sub: format!("arn:${{AWS::Partition}}:logs:${{AWS::Region}}:${{AWS::AccountId}}:log-group:/aws/lambda/{function_name}:*"),
        emit_consumer_policy: worker.is_some() || lambda.as_ref().is_some_and(|l| l.function.is_some()),
        consumer_policy_description: match &lambda {
            Some(l) if l.function.is_some() => format!(
                "Least privilege to consume {queue_name}: attach to the execution role of {}, or Lambda cannot read the queue.",
                l.function_name
            ),
            _ => format!("Least privilege to consume {queue_name}: attach to the worker's role."),
        },
        consumer_policy_prefix: format!("{name}-consumer-"),
        visibility_description: format!("Queue visibility timeout: {visibility_reason}."),
        tag_map: serde_json::Value::Object(
            spec.tags.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect(),
        ),
        payload_tag: match &non_deterministic {
            Some(r) if r.is_empty() => "deterministic".into(),
            _ => "non-deterministic".into(),
        },
        topic_arn_tf: topic.as_ref().map(|t| {
            if t.starts_with("arn:") {
                super::literal::hcl(&serde_json::Value::String(t.clone()))
            } else {
                format!(
                    "\"arn:${{data.aws_partition.current.partition}}:sns:${{data.aws_region.current.name}}:${{data.aws_caller_identity.current.account_id}}:{}\"",
                    super::literal::hcl_inner(t)
                )
            }
        }),

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
            Encryption::SqsManaged => None,
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
        payload_fields: payload
            .map(|p| {
                p.fields
                    .iter()
                    .map(|f| PayloadField {
                        name: f.name.clone(),
                        kind: f.kind.clone(),
                        deterministic: f.deterministic,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        max_receive_count: spec.max_receive_count.value,
        dlq_retention_seconds: spec.dlq_retention.value,
        dlq_depth_alarm: spec.dlq_depth_alarm.value,
        oldest_message_age: spec.oldest_message_age.as_ref().map(|a| a.value),
        topic_is_arn: topic.as_deref().is_some_and(|t| t.starts_with("arn:")),
        topic,
        tags: spec.tags.iter().map(|(k, v)| Tag { key: k.clone(), value: v.clone() }).collect(),
    })
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}
