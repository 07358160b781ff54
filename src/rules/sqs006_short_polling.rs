//! SQS006: short polling on a queue that no Lambda consumer reads.

use super::{Findings, Rule};
use crate::finding::Severity;
use crate::model::{Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS006",
    name: "short-polling",
    severity: Severity::Warning,
    summary: "Queue uses short polling (ReceiveMessageWaitTimeSeconds 0)",
    doc: include_str!("../../rules/SQS006.md"),
    check,
};

fn check(model: &Model, findings: &mut Findings) {
    let d = model.dialect;
    for (qi, queue) in model.queues.iter().enumerate() {
        // Lambda's pollers long-poll by themselves; DLQs are not polled.
        if model.consumers_of(qi).next().is_some() || model.is_dead_letter_target(qi) {
            continue;
        }
        for alt in queue.receive_wait_time.iter() {
            if alt.value.or_default(0) != Some(0) {
                continue;
            }
            let message = format!(
                "queue {} has {} 0 (short polling): consumers pay for empty receives and may miss messages held on other servers{}",
                queue.resource,
                d.name(Field::ReceiveWaitTime),
                alt.when
            );
            let fix = format!(
                "set {} to 20 (long polling), and have consumers call ReceiveMessage with WaitTimeSeconds 20",
                d.name(Field::ReceiveWaitTime)
            );
            findings.add(&RULE, &queue.resource, &alt.origin, message, fix);
        }
    }
}
