//! SQS009: FIFO queue with a standard DLQ, or standard with a FIFO DLQ.

use super::helpers::all_of;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_model::Field;

rule! {
    code: "SQS009",
    name: "dlq-type-mismatch",
    severity: Error,
    summary: "Dead-letter queue type (FIFO or standard) differs from the source queue's",
    kind: Template,
    check: check,
    reads: &[Link::RedriveTarget],
    needs: &[LiveInput::QueueAttributes],
}

fn kind(fifo: bool) -> &'static str {
    if fifo { "FIFO" } else { "standard" }
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for link in cx.index.dlq_links() {
        let (source, dlq) = (link.source, link.dlq);
        for sf in source.fifo.iter() {
            for df in dlq.fifo.iter() {
                let (Some(s), Some(d)) =
                    (sf.value.or_aws_default(Field::FifoQueue), df.value.or_aws_default(Field::FifoQueue))
                else {
                    continue;
                };
                if s == d {
                    continue;
                }
                let Some(when) = all_of(&[&link.when, &sf.when, &df.when]) else { continue };
                let message = format!(
                    "{} queue {} has the {} queue {} as its dead-letter queue: SQS requires both to be of the same type, so the deployment fails{}",
                    kind(s),
                    source.resource,
                    kind(d),
                    dlq.resource,
                    when
                );
                let fix = format!("point deadLetterTargetArn at a {} queue", kind(s));
                findings.push(RULE.finding(&source.resource, &link.target.origin, message, fix));
            }
        }
    }
}
