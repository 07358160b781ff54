//! SQS010: a Lambda consumer of a FIFO queue with BatchSize > 10.

use super::{Findings, Options, Rule, all_of, consumer_reads};
use crate::finding::Severity;
use crate::model::{Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS010",
    name: "fifo-batch-size-too-large",
    severity: Severity::Error,
    summary: "Lambda consumer of a FIFO queue has BatchSize above 10",
    live_only: false,
    doc: include_str!("../../rules/SQS010.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    for read in consumer_reads(model) {
        let (queue, consumer) = (read.queue, read.consumer);
        for fifo in queue.fifo.iter() {
            for batch in consumer.batch_size.iter() {
                let (Some(true), Some(size)) = (fifo.value.or_default(false), batch.value.or_default(10)) else {
                    continue;
                };
                if size <= 10 {
                    continue;
                }
                let Some(when) = all_of(&[&read.when, &fifo.when, &batch.when]) else { continue };
                let message = format!(
                    "consumer {} of FIFO queue {} has {} {size}: FIFO event sources accept at most 10, so the deployment fails{when}",
                    consumer.resource,
                    queue.resource,
                    model.dialect.name(Field::BatchSize)
                );
                findings.add(
                    &RULE,
                    &consumer.resource,
                    &batch.origin,
                    message,
                    format!("set {} to 10 or less", model.dialect.name(Field::BatchSize)),
                );
            }
        }
    }
}
