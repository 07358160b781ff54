//! SQS011: BatchSize > 10 on a standard queue needs a batching window >= 1 s.

use super::helpers::{all_of, set};
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::Applicability;
use sqsguard_model::field::guidance::UNWINDOWED_BATCH_SIZE;
use sqsguard_model::{Field, Scalar};

rule! {
    code: "SQS011",
    name: "batching-window-required",
    severity: Error,
    summary: "Lambda consumer with BatchSize above 10 has no MaximumBatchingWindowInSeconds of at least 1",
    kind: Template,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerQueue],
    needs: &[LiveInput::EventSourceMappings],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let (batch_name, window_name) = (cx.name(Field::BatchSize), cx.name(Field::BatchingWindow));
    for read in cx.index.reads() {
        let (queue, consumer) = (read.queue, read.consumer);
        for fifo in queue.fifo.iter() {
            for batch in consumer.batch_size.iter() {
                for window in consumer.batching_window.iter() {
                    let (Some(false), Some(size), Some(secs)) = (
                        fifo.value.or_aws_default(Field::FifoQueue),
                        batch.value.or_aws_default(Field::BatchSize),
                        window.value.or_aws_default(Field::BatchingWindow),
                    ) else {
                        continue;
                    };
                    if size <= UNWINDOWED_BATCH_SIZE || secs >= 1 {
                        continue;
                    }
                    let Some(when) = all_of(&[&read.when, &fifo.when, &batch.when, &window.when]) else { continue };
                    let message = format!(
                        "consumer {} has {batch_name} {size} with {window_name} {secs}: Lambda requires a batching window of at least 1 s for batches above {UNWINDOWED_BATCH_SIZE}, so the deployment fails{when}",
                        consumer.resource
                    );
                    let visibility = cx.name(Field::VisibilityTimeout);
                    let fix = match cx.dialect() {
                        // A live mapping: the call for each way out.
                        sqsguard_model::Dialect::Api => format!(
                            "add 1 s or more to the queue's {visibility}, then set {window_name} to it{}; or lower {batch_name} to {UNWINDOWED_BATCH_SIZE}{}",
                            cx.run(Field::BatchingWindow, &consumer.resource, &Scalar::Int(1)),
                            cx.run(Field::BatchSize, &consumer.resource, &Scalar::Int(UNWINDOWED_BATCH_SIZE))
                        ),
                        _ => format!(
                            "set {window_name} to 1 or more (and add it to the queue's {visibility}), or lower {batch_name} to {UNWINDOWED_BATCH_SIZE}"
                        ),
                    };
                    let remedy =
                        set(&consumer.resource, Field::BatchingWindow, Scalar::Int(1), window, Applicability::Safe);
                    findings.push(RULE.finding(&consumer.resource, &batch.origin, message, fix).with_remedy(remedy));
                }
            }
        }
    }
}
