//! SQS014: FifoThroughputLimit perMessageGroupId without DeduplicationScope messageGroup.

use super::helpers::{all_of, set};
use super::{Context, Findings};
use sqsguard_finding::Applicability;
use sqsguard_model::{Field, Scalar, Value};

rule! {
    code: "SQS014",
    name: "fifo-throughput-scope",
    severity: Error,
    summary: "FifoThroughputLimit perMessageGroupId needs DeduplicationScope messageGroup",
    kind: Template,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let (limit_name, scope_name) = (cx.name(Field::FifoThroughputLimit), cx.name(Field::DeduplicationScope));
    let message_group = Scalar::Str("messageGroup".to_string());
    for queue in &cx.model.queues {
        for limit in queue.fifo_throughput_limit.iter() {
            if limit.value.known().map(String::as_str) != Some("perMessageGroupId") {
                continue;
            }
            for scope in queue.deduplication_scope.iter() {
                let shown = match &scope.value {
                    Value::Known(s) if s == "messageGroup" => continue,
                    Value::Known(s) => s.clone(),
                    Value::Absent => "queue (the default)".to_string(),
                    Value::Unknown(_) => continue,
                };
                let Some(when) = all_of(&[&limit.when, &scope.when]) else { continue };
                let message = format!(
                    "{limit_name} perMessageGroupId with {scope_name} {shown}: high-throughput FIFO needs {scope_name} messageGroup, and SQS rejects the combination{when}"
                );
                let fix = format!(
                    "set {} (or {})",
                    cx.dialect().assign(Field::DeduplicationScope, &message_group),
                    cx.dialect().assign(Field::FifoThroughputLimit, &Scalar::Str("perQueue".to_string()))
                );
                let remedy =
                    set(&queue.resource, Field::DeduplicationScope, message_group.clone(), scope, Applicability::Safe);
                findings.push(RULE.finding(&queue.resource, &limit.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
