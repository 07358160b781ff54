//! SQS102 (live): the oldest message has waited longer than the SLA.

use super::options::{OptionKind, OptionSpec};
use super::{Context, Findings, LiveInput};

rule! {
    code: "SQS102",
    name: "oldest-message-too-old",
    severity: Warning,
    summary: "ApproximateAgeOfOldestMessage exceeded the SLA over the lookback (live)",
    kind: Live,
    check: check,
    needs: &[LiveInput::Metrics],
    options: &[OptionSpec {
        name: "sla",
        kind: OptionKind::Duration,
        set: |o, s| o.oldest_message_sla_seconds = s as f64,
    }],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let options = cx.options;
    let sla = options.oldest_message_sla_seconds;
    for queue in &cx.model.queues {
        let Some(live) = &queue.live else { continue };
        let Some(age) = live.oldest_age_max else { continue };
        if age <= sla {
            continue;
        }
        let message = format!(
            "ApproximateAgeOfOldestMessage reached {age:.0} s in the last {} s, above the {sla:.0} s SLA: consumers are behind or failing",
            live.lookback_seconds
        );
        let fix = "check the consumer's errors and throughput (scale it out, or raise the event source mapping's MaximumConcurrency), and alarm on ApproximateAgeOfOldestMessage".to_string();
        findings.push(RULE.finding(&queue.resource, &queue.origin, message, fix));
    }
}
