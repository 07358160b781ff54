//! SQS008: maxReceiveCount below 3.

use super::helpers::{all_of, set};
use super::options::OptionKind;
use super::{Context, Findings};
use sqsguard_finding::Applicability;
use sqsguard_model::field::guidance;
use sqsguard_model::{Field, Scalar};

rule! {
    code: "SQS008",
    name: "max-receive-count-low",
    severity: Warning,
    summary: "RedrivePolicy maxReceiveCount is below 3",
    kind: Template,
    check: check,
    options: ReceiveCountOptions::SPECS,
}

options! {
    /// What `rules: {SQS008: {minimum: N}}` sets.
    pub struct ReceiveCountOptions {
        /// The lowest acceptable maxReceiveCount. Default 3.
        #[kind(OptionKind::Integer { min: 1, max: Some(1000) })]
        pub minimum: i64 = guidance::MIN_MAX_RECEIVE_COUNT,
    }
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let minimum = cx.options.of::<ReceiveCountOptions>().minimum;
    for queue in &cx.model.queues {
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
                // A live queue: its RedrivePolicy is set whole, the same
                // deadLetterTargetArn with the new count.
                let live = match cx.dialect() {
                    sqsguard_model::Dialect::Api => {
                        " in the queue's RedrivePolicy, keeping its deadLetterTargetArn (aws sqs set-queue-attributes)"
                    }
                    _ => "",
                };
                let fix = format!(
                    "set maxReceiveCount to at least {minimum} ({} is common){live}",
                    guidance::SUGGESTED_MAX_RECEIVE_COUNT
                );
                let remedy =
                    set(&queue.resource, Field::MaxReceiveCount, Scalar::Int(minimum), count, Applicability::Safe);
                findings.push(RULE.finding(&queue.resource, &count.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
