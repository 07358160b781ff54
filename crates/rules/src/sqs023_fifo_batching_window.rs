//! SQS023: a Lambda consumer of a FIFO queue with a batching window, which
//! Lambda does not support for FIFO queues.

use super::helpers::{all_of, given_words};
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::{Field, Scalar};

rule! {
    code: "SQS023",
    name: "fifo-batching-window",
    severity: Error,
    summary: "Lambda consumer of a FIFO queue sets MaximumBatchingWindowInSeconds",
    kind: Template,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerQueue],
    needs: &[LiveInput::EventSourceMappings],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let window_name = cx.name(Field::BatchingWindow);
    for read in cx.index.reads() {
        let (queue, consumer) = (read.queue, read.consumer);
        // FIFO only when known to be: absent is standard, unknown is neither.
        for fifo in queue.fifo.iter().filter(|f| f.value.or_aws_default(Field::FifoQueue) == Some(true)) {
            // A window written as 0 is no window; absent is 0 too.
            for window in consumer.batching_window.iter() {
                let Some(&secs) = window.value.known() else { continue };
                if secs <= 0 {
                    continue;
                }
                let Some(when) = all_of(&[&read.when, &fifo.when, &window.when]) else { continue };
                let given = given_words(
                    cx,
                    &[(Field::FifoQueue, fifo.given.as_ref()), (Field::BatchingWindow, window.given.as_ref())],
                );
                let message = format!(
                    "consumer {} of FIFO queue {} sets {window_name} {secs}: Lambda does not support a batching window for FIFO queues, so the mapping cannot be created{given}{when}",
                    consumer.resource, queue.resource,
                );
                let run = cx.run(Field::BatchingWindow, &consumer.resource, &Scalar::Int(0));
                let fix = format!("remove {window_name}{run}");
                // Any window fails, so the key goes, safely: where it is
                // written in the mapping. A value given for the run, one
                // branch of a condition, or one read through a Parameter's
                // or variable's default (which other resources may share)
                // is refused by the writer, with its reason.
                let remedy = Remedy {
                    resource: consumer.resource.clone(),
                    field: Some(Field::BatchingWindow),
                    ops: vec![Op::Remove],
                    at: window.written_at().clone(),
                    absent: false,
                    conditional: !window.when.is_always(),
                    given: window.given.clone(),
                    applicability: Applicability::Safe,
                };
                findings.push(RULE.finding(&consumer.resource, &window.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
