//! SQS010: a Lambda consumer of a FIFO queue with BatchSize > 10.

use super::helpers::{all_of, set};
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::Applicability;
use sqsguard_model::field::guidance::UNWINDOWED_BATCH_SIZE;
use sqsguard_model::{Field, Scalar};

rule! {
    code: "SQS010",
    name: "fifo-batch-size-too-large",
    severity: Error,
    summary: "Lambda consumer of a FIFO queue has BatchSize above 10",
    kind: Template,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerQueue],
    needs: &[LiveInput::EventSourceMappings],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let batch_name = cx.name(Field::BatchSize);
    for read in cx.index.reads() {
        let (queue, consumer) = (read.queue, read.consumer);
        for fifo in queue.fifo.iter() {
            for batch in consumer.batch_size.iter() {
                let (Some(true), Some(size)) =
                    (fifo.value.or_aws_default(Field::FifoQueue), batch.value.or_aws_default(Field::BatchSize))
                else {
                    continue;
                };
                if size <= UNWINDOWED_BATCH_SIZE {
                    continue;
                }
                let Some(when) = all_of(&[&read.when, &fifo.when, &batch.when]) else { continue };
                let message = format!(
                    "consumer {} of FIFO queue {} has {batch_name} {size}: FIFO event sources accept at most {UNWINDOWED_BATCH_SIZE}, so the deployment fails{when}",
                    consumer.resource, queue.resource,
                );
                let want = Scalar::Int(UNWINDOWED_BATCH_SIZE);
                let run = cx.run(Field::BatchSize, &consumer.resource, &want);
                let fix = format!("set {batch_name} to {UNWINDOWED_BATCH_SIZE} or less{run}");
                let remedy = set(&consumer.resource, Field::BatchSize, want, batch, Applicability::Safe);
                findings.push(RULE.finding(&consumer.resource, &batch.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
