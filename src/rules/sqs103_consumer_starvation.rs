//! SQS103 (live): messages wait and nothing is receiving them.

use super::{Findings, Options, Rule};
use crate::finding::Severity;
use crate::model::Model;

pub static RULE: Rule = Rule {
    code: "SQS103",
    name: "consumer-starvation",
    severity: Severity::Warning,
    summary: "Messages are waiting and none is in flight: no consumer is receiving (live)",
    live_only: true,
    doc: include_str!("../../rules/SQS103.md"),
    check,
};

fn check(model: &Model, options: &Options, findings: &mut Findings) {
    let threshold = options.starvation_threshold;
    for (qi, queue) in model.queues.iter().enumerate() {
        let Some(live) = &queue.live else { continue };
        let (Some(visible), Some(in_flight)) = (live.visible, live.in_flight) else { continue };
        // Nothing consumes a dead-letter queue by design; SQS101 covers it.
        if visible <= threshold || in_flight != 0 || model.is_dead_letter_target(qi) {
            continue;
        }
        let message = format!(
            "{visible} messages are waiting (more than {threshold}) and none is in flight: no consumer is receiving from {}",
            queue.resource
        );
        let fix = "check that the consumer runs: the event source mapping's State (Enabled), the function's errors and permissions, or the workers' health".to_string();
        findings.add(&RULE, &queue.resource, &queue.origin, message, fix);
    }
}
