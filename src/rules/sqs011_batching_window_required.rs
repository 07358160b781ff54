//! SQS011: BatchSize > 10 on a standard queue needs a batching window >= 1 s.

use super::{Findings, Options, Rule, all_of, consumer_reads};
use crate::finding::Severity;
use crate::model::{Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS011",
    name: "batching-window-required",
    severity: Severity::Error,
    summary: "Lambda consumer with BatchSize above 10 has no MaximumBatchingWindowInSeconds of at least 1",
    live_only: false,
    doc: include_str!("../../rules/SQS011.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let (batch_name, window_name) = (model.dialect.name(Field::BatchSize), model.dialect.name(Field::BatchingWindow));
    for read in consumer_reads(model) {
        let (queue, consumer) = (read.queue, read.consumer);
        for fifo in queue.fifo.iter() {
            for batch in consumer.batch_size.iter() {
                for window in consumer.batching_window.iter() {
                    let (Some(false), Some(size), Some(secs)) =
                        (fifo.value.or_default(false), batch.value.or_default(10), window.value.or_default(0))
                    else {
                        continue;
                    };
                    if size <= 10 || secs >= 1 {
                        continue;
                    }
                    let Some(when) = all_of(&[&read.when, &fifo.when, &batch.when, &window.when]) else { continue };
                    let message = format!(
                        "consumer {} has {batch_name} {size} with {window_name} {secs}: Lambda requires a batching window of at least 1 s for batches above 10, so the deployment fails{when}",
                        consumer.resource
                    );
                    let fix = format!(
                        "set {window_name} to 1 or more (and add it to the queue's {}), or lower {batch_name} to 10",
                        model.dialect.name(Field::VisibilityTimeout)
                    );
                    findings.add(&RULE, &consumer.resource, &batch.origin, message, fix);
                }
            }
        }
    }
}
