//! SQS014: FifoThroughputLimit perMessageGroupId without DeduplicationScope messageGroup.

use super::{Findings, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Model, Value};

pub static RULE: Rule = Rule {
    code: "SQS014",
    name: "fifo-throughput-scope",
    severity: Severity::Error,
    summary: "FifoThroughputLimit perMessageGroupId needs DeduplicationScope messageGroup",
    doc: include_str!("../../rules/SQS014.md"),
    check,
};

fn check(model: &Model, findings: &mut Findings) {
    for queue in &model.queues {
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
                    "FifoThroughputLimit perMessageGroupId with DeduplicationScope {shown}: high-throughput FIFO needs DeduplicationScope messageGroup, and SQS rejects the combination{when}"
                );
                let fix = "set DeduplicationScope: messageGroup (or FifoThroughputLimit: perQueue)".to_string();
                findings.add(&RULE, &queue.resource, &limit.origin, message, fix);
            }
        }
    }
}
