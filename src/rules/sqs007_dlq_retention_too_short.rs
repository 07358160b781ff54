//! SQS007: a standard queue's DLQ keeps messages no longer than the source.

use super::{Findings, Options, Rule, all_of, dlq_links, secs};
use crate::finding::Severity;
use crate::model::{Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS007",
    name: "dlq-retention-too-short",
    severity: Severity::Warning,
    summary: "Dead-letter queue retention is not longer than the source queue's",
    live_only: false,
    doc: include_str!("../../rules/SQS007.md"),
    check,
};

const DEFAULT_RETENTION: i64 = 345_600;

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    for link in dlq_links(model) {
        let (source, dlq) = (link.source, link.dlq);
        for fifo in source.fifo.iter() {
            // FIFO sources reset the enqueue timestamp on redrive.
            if fifo.value.or_default(false) != Some(false) {
                continue;
            }
            for src_ret in source.retention_period.iter() {
                for dlq_ret in dlq.retention_period.iter() {
                    let Some(when) = all_of(&[&link.when, &fifo.when, &src_ret.when, &dlq_ret.when]) else { continue };
                    let (Some(s), Some(d)) =
                        (src_ret.value.or_default(DEFAULT_RETENTION), dlq_ret.value.or_default(DEFAULT_RETENTION))
                    else {
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
                    let fix = format!(
                        "set the DLQ's {} longer than the source's {} (the maximum, 1209600 s = 14 days, is usual)",
                        model.dialect.name(Field::RetentionPeriod),
                        secs(s)
                    );
                    findings.add(&RULE, &source.resource, &link.target.origin, message, fix);
                }
            }
        }
    }
}
