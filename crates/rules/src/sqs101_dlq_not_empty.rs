//! SQS101 (live): a dead-letter queue holds messages.

use super::{Context, Findings, Link, LiveInput};

rule! {
    code: "SQS101",
    name: "dlq-not-empty",
    severity: Error,
    summary: "Dead-letter queue holds messages (live)",
    kind: Live,
    check: check,
    reads: &[Link::DeadLetterTarget],
    needs: &[LiveInput::QueueAttributes],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for (qi, queue) in cx.model.queues.iter().enumerate() {
        let Some(live) = &queue.live else { continue };
        let (Some(visible), Some(in_flight)) = (live.visible, live.in_flight) else { continue };
        if visible.saturating_add(in_flight) == 0 || !cx.index.is_dead_letter_target(qi) {
            continue;
        }
        let held = match visible.saturating_add(in_flight) {
            1 => "1 message".to_string(),
            n => format!("{n} messages"),
        };
        let each = if visible.saturating_add(in_flight) == 1 { "it" } else { "each one" };
        let message = format!(
            "dead-letter queue {} holds {held} ({visible} visible, {in_flight} in flight): {each} failed every retry and needs a person",
            queue.resource,
        );
        let fix = "read a few messages to find the failure, fix the consumer, then move them back with StartMessageMoveTask (DLQ redrive)".to_string();
        findings.push(RULE.finding(&queue.resource, &queue.origin, message, fix));
    }
}
