//! SQS006: short polling on a queue that no Lambda consumer reads.

use super::helpers::set;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::Applicability;
use sqsguard_model::field::guidance;
use sqsguard_model::{Field, Scalar};

rule! {
    code: "SQS006",
    name: "short-polling",
    severity: Warning,
    summary: "Queue uses short polling (ReceiveMessageWaitTimeSeconds 0)",
    kind: Template,
    check: check,
    reads: &[Link::DeadLetterTarget],
    needs: &[LiveInput::QueueAttributes, LiveInput::EventSourceMappings, LiveInput::Metrics],
    misled_without: &[LiveInput::QueueAttributes, LiveInput::EventSourceMappings],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for (qi, queue) in cx.model.queues.iter().enumerate() {
        // Lambda's pollers long-poll by themselves; DLQs are not polled.
        if cx.index.consumers_of(qi).next().is_some() || cx.index.is_dead_letter_target(qi) {
            continue;
        }
        if let Some(live) = &queue.live
            && let (Some(empty), Some(received)) = (live.empty_receives, live.received)
            && dominated(empty, received, live.lookback_seconds)
        {
            let message = format!(
                "queue {} had {empty:.0} empty receives and {received:.0} received messages in the last {} s: consumers poll without waiting (WaitTimeSeconds 0), whatever the queue's setting",
                queue.resource, live.lookback_seconds
            );
            let fix = format!(
                "call ReceiveMessage with WaitTimeSeconds {0}, and set ReceiveMessageWaitTimeSeconds to {0} on the queue{1}",
                guidance::LONG_POLL_SECONDS,
                cx.run(Field::ReceiveWaitTime, &queue.resource, &Scalar::Int(guidance::LONG_POLL_SECONDS))
            );
            findings.push(RULE.finding(&queue.resource, &queue.origin, message, fix));
            continue;
        }
        for alt in queue.receive_wait_time.iter() {
            if alt.value.or_aws_default(Field::ReceiveWaitTime) != Some(0) {
                continue;
            }
            let message = format!(
                "queue {} has {} 0 (short polling): consumers pay for empty receives and may miss messages held on other servers{}",
                queue.resource,
                cx.name(Field::ReceiveWaitTime),
                alt.when
            );
            let fix = format!(
                "set {} to {1} (long polling){2}, and have consumers call ReceiveMessage with WaitTimeSeconds {1}",
                cx.name(Field::ReceiveWaitTime),
                guidance::LONG_POLL_SECONDS,
                cx.run(Field::ReceiveWaitTime, &queue.resource, &Scalar::Int(guidance::LONG_POLL_SECONDS))
            );
            let want = Scalar::Int(guidance::LONG_POLL_SECONDS);
            let remedy = set(&queue.resource, Field::ReceiveWaitTime, want, alt, Applicability::Safe);
            findings.push(RULE.finding(&queue.resource, &alt.origin, message, fix).with_remedy(remedy));
        }
    }
}

/// Live form: empty receives dominate. Long polling yields at most one
/// empty receive per poller every 20 s (180 an hour), so more than 1000 an
/// hour, and ten times the messages received, means short polling.
fn dominated(empty: f64, received: f64, lookback_seconds: u64) -> bool {
    let hours = (lookback_seconds.max(60) as f64) / 3600.0;
    empty / hours > 1000.0 && empty > 10.0 * received
}
