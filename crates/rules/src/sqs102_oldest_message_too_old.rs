//! SQS102 (live): the oldest message has waited longer than the SLA.

use super::options::OptionKind;
use super::{Context, Findings, LiveInput};

rule! {
    code: "SQS102",
    name: "oldest-message-too-old",
    severity: Warning,
    summary: "ApproximateAgeOfOldestMessage exceeded the SLA over the lookback (live)",
    kind: Live,
    check: check,
    needs: &[LiveInput::Metrics],
    options: SlaOptions::SPECS,
}

options! {
    /// What `rules: {SQS102: {sla: DURATION}}` sets.
    pub struct SlaOptions {
        /// How long a message may wait (ApproximateAgeOfOldestMessage):
        /// seconds, or a duration such as 5m or 2h. Default 300 s.
        #[kind(OptionKind::Duration)]
        pub sla: f64 = 300.0,
    }
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let sla = cx.options.of::<SlaOptions>().sla;
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
