//! SQS009: FIFO queue with a standard DLQ, or standard with a FIFO DLQ.

use super::{Findings, Options, Rule, all_of, dlq_links};
use crate::finding::Severity;
use crate::model::Model;

pub static RULE: Rule = Rule {
    code: "SQS009",
    name: "dlq-type-mismatch",
    severity: Severity::Error,
    summary: "Dead-letter queue type (FIFO or standard) differs from the source queue's",
    live_only: false,
    doc: include_str!("../../rules/SQS009.md"),
    check,
};

fn kind(fifo: bool) -> &'static str {
    if fifo { "FIFO" } else { "standard" }
}

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    for link in dlq_links(model) {
        let (source, dlq) = (link.source, link.dlq);
        for sf in source.fifo.iter() {
            for df in dlq.fifo.iter() {
                let (Some(s), Some(d)) = (sf.value.or_default(false), df.value.or_default(false)) else { continue };
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
                findings.add(&RULE, &source.resource, &link.target.origin, message, fix);
            }
        }
    }
}
