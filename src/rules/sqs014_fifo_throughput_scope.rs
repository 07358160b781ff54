//! SQS014: FifoThroughputLimit perMessageGroupId without DeduplicationScope messageGroup.

use super::{Findings, Options, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Dialect, Field, Model, Value};

pub static RULE: Rule = Rule {
    code: "SQS014",
    name: "fifo-throughput-scope",
    severity: Severity::Error,
    summary: "FifoThroughputLimit perMessageGroupId needs DeduplicationScope messageGroup",
    live_only: false,
    doc: include_str!("../../rules/SQS014.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let d = model.dialect;
    let (limit_name, scope_name) = (d.name(Field::FifoThroughputLimit), d.name(Field::DeduplicationScope));
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
                    "{limit_name} perMessageGroupId with {scope_name} {shown}: high-throughput FIFO needs {scope_name} messageGroup, and SQS rejects the combination{when}"
                );
                let quoted = |v: &str| if d == Dialect::Terraform { format!("\"{v}\"") } else { v.to_string() };
                let fix = format!(
                    "set {} (or {})",
                    d.assign(Field::DeduplicationScope, &quoted("messageGroup")),
                    d.assign(Field::FifoThroughputLimit, &quoted("perQueue"))
                );
                findings.add(&RULE, &queue.resource, &limit.origin, message, fix);
            }
        }
    }
}
