//! SQS007: a standard queue's DLQ keeps messages no longer than the source.

use super::{Context, Findings, LiveInput, Rule, RuleId, all_of, secs, set};
use crate::finding::{Applicability, Severity};
use crate::model::field::guidance;
use crate::model::{Field, Scalar};

pub static RULE: Rule = Rule {
    id: RuleId { code: "SQS007", name: "dlq-retention-too-short" },
    severity: Severity::Warning,
    summary: "Dead-letter queue retention is not longer than the source queue's",
    milder: None,
    live_only: false,
    needs: &[LiveInput::QueueAttributes],
    misled_without: &[],
    options: &[],
    doc: include_str!("../../rules/SQS007.md"),
    check,
};

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for link in cx.index.dlq_links() {
        let (source, dlq) = (link.source, link.dlq);
        for fifo in source.fifo.iter() {
            // FIFO sources reset the enqueue timestamp on redrive.
            if fifo.value.or_aws_default(Field::FifoQueue) != Some(false) {
                continue;
            }
            for src_ret in source.retention_period.iter() {
                for dlq_ret in dlq.retention_period.iter() {
                    let Some(when) = all_of(&[&link.when, &fifo.when, &src_ret.when, &dlq_ret.when]) else { continue };
                    let (Some(s), Some(d)) = (
                        src_ret.value.or_aws_default(Field::RetentionPeriod),
                        dlq_ret.value.or_aws_default(Field::RetentionPeriod),
                    ) else {
                        continue;
                    };
                    if d > s {
                        continue;
                    }
                    let message = format!(
                        "dead-letter queue {} keeps messages {} and source queue {} keeps them {}: SQS keeps the original enqueue timestamp on redrive, so a message that reaches the DLQ late expires almost at once{}",
                        dlq.resource,
                        secs(d),
                        source.resource,
                        secs(s),
                        when
                    );
                    let max = guidance::MAX_RETENTION_SECONDS;
                    let finding = if s < max {
                        let fix = format!(
                            "set the DLQ's {} longer than the source's {} (the maximum, {max} s = {} days, is usual)",
                            cx.name(Field::RetentionPeriod),
                            secs(s),
                            max / 86_400
                        );
                        // The fix is on the dead-letter queue; the finding names the source.
                        let want = Scalar::Int(max);
                        let remedy = set(&dlq.resource, Field::RetentionPeriod, want, dlq_ret, Applicability::Safe);
                        RULE.finding(&source.resource, &link.target.origin, message, fix).with_remedy(remedy)
                    } else {
                        // No DLQ can keep messages longer than the maximum:
                        // only the source can change, which is a decision.
                        let fix = format!(
                            "the source already keeps messages the maximum {} days, so no dead-letter queue can keep them longer: shorten the source's {} (4 days is SQS's default) and keep the DLQ's at {} days",
                            max / 86_400,
                            cx.name(Field::RetentionPeriod),
                            max / 86_400
                        );
                        RULE.finding(&source.resource, &link.target.origin, message, fix)
                    };
                    findings.push(finding);
                }
            }
        }
    }
}
