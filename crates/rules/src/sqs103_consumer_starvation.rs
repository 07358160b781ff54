//! SQS103 (live): messages wait and nothing is receiving them.

use super::options::OptionKind;
use super::{Context, Findings, Link};

rule! {
    code: "SQS103",
    name: "consumer-starvation",
    severity: Warning,
    summary: "Messages are waiting and none is in flight: no consumer is receiving (live)",
    kind: Live,
    check: check,
    reads: &[Link::DeadLetterTarget],
    options: StarvationOptions::SPECS,
}

options! {
    /// What `rules: {SQS103: {threshold: N}}` sets.
    pub struct StarvationOptions {
        /// Visible messages above which a queue with nothing in flight is
        /// starving. Default 100.
        #[kind(OptionKind::Integer { min: 0, max: None })]
        pub threshold: u64 = 100,
    }
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let threshold = cx.options.of::<StarvationOptions>().threshold;
    for (qi, queue) in cx.model.queues.iter().enumerate() {
        let Some(live) = &queue.live else { continue };
        let (Some(visible), Some(in_flight)) = (live.visible, live.in_flight) else { continue };
        // Nothing consumes a dead-letter queue by design; SQS101 covers it.
        if visible <= threshold || in_flight != 0 || cx.index.is_dead_letter_target(qi) {
            continue;
        }
        let message = format!(
            "{visible} messages are waiting (more than {threshold}) and none is in flight: no consumer is receiving from {}",
            queue.resource
        );
        let fix = "check that the consumer runs: the event source mapping's State (Enabled), the function's errors and permissions, or the workers' health".to_string();
        findings.push(RULE.finding(&queue.resource, &queue.origin, message, fix));
    }
}
