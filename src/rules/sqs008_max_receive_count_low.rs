//! SQS008: maxReceiveCount below 3.

use super::{Findings, Options, Rule, all_of};
use crate::finding::Severity;
use crate::model::Model;

pub static RULE: Rule = Rule {
    code: "SQS008",
    name: "max-receive-count-low",
    severity: Severity::Warning,
    summary: "RedrivePolicy maxReceiveCount is below 3",
    live_only: false,
    doc: include_str!("../../rules/SQS008.md"),
    check,
};

fn check(model: &Model, options: &Options, findings: &mut Findings) {
    let minimum = options.min_max_receive_count;
    for queue in &model.queues {
        for redrive in queue.redrive.iter() {
            let Some(policy) = redrive.value.known() else { continue };
            for count in policy.max_receive_count.iter() {
                // Values below 1 are out of range: SQS012 reports them.
                let Some(&n) = count.value.known() else { continue };
                if !(1..minimum).contains(&n) {
                    continue;
                }
                let Some(when) = all_of(&[&redrive.when, &count.when]) else { continue };
                let message = format!(
                    "maxReceiveCount {n} < {minimum}: a transient error, a throttled or cold-starting consumer sends the message to the dead-letter queue{when}"
                );
                let fix = format!("set maxReceiveCount to at least {minimum} (5 is common)");
                findings.add(&RULE, &queue.resource, &count.origin, message, fix);
            }
        }
    }
}
