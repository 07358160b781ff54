//! SQS104 (live): in-flight messages near SQS's limit.

use super::{Context, Findings};

rule! {
    code: "SQS104",
    name: "inflight-near-limit",
    severity: Warning,
    summary: "In-flight messages exceed 80% of SQS's limit (live)",
    kind: Live,
    check: check,
}

pub(crate) const STANDARD_LIMIT: u64 = 120_000;
pub(crate) const FIFO_LIMIT: u64 = 20_000;

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for queue in &cx.model.queues {
        let Some(live) = &queue.live else { continue };
        let Some(in_flight) = live.in_flight else { continue };
        let fifo = queue.fifo.any_known(|f| *f);
        let limit = if fifo { FIFO_LIMIT } else { STANDARD_LIMIT };
        if in_flight.saturating_mul(10) <= limit * 8 {
            continue;
        }
        let message = format!(
            "{in_flight} messages are in flight, more than 80% of the {limit} SQS allows for a {} queue: at the limit, short-polling receives fail with OverLimit and long polls return nothing",
            if fifo { "FIFO" } else { "standard" }
        );
        let fix = "make consumers delete messages as soon as they are processed, and shorten VisibilityTimeout to what processing needs".to_string();
        findings.push(RULE.finding(&queue.resource, &queue.origin, message, fix));
    }
}
