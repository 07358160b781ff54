//! The walk SQS001 and SQS002 share over (queue, consumer, function)
//! triples: one consistent combination of timings each.

use super::{all_of, given_words, set};
use crate::Context;
use sqsguard_finding::Applicability;
use sqsguard_model::{Alt, Consumer, Field, Function, Queue, Scalar, Target};

/// One consistent combination of a queue's VisibilityTimeout with the
/// timeout and batching window of a Lambda consumer reading it.
pub(crate) struct Timing<'a> {
    pub queue: &'a Queue,
    pub consumer: &'a Consumer,
    pub function: &'a Function,
    pub visibility_alt: &'a Alt<i64>,
    pub timeout_alt: &'a Alt<i64>,
    pub window_alt: &'a Alt<i64>,
    pub visibility: i64,
    pub timeout: i64,
    pub window: i64,
    pub when: sqsguard_model::When,
}

impl Timing<'_> {
    /// What of this timing was given for the run, in a finding's words
    /// (see [`given_words`]).
    pub(crate) fn given(&self, cx: &Context<'_>) -> String {
        given_words(
            cx,
            &[
                (Field::VisibilityTimeout, self.visibility_alt.given.as_ref()),
                (Field::Timeout, self.timeout_alt.given.as_ref()),
                (Field::BatchingWindow, self.window_alt.given.as_ref()),
            ],
        )
    }

    /// The VisibilityTimeout that satisfies SQS001 for this consumer, and
    /// the fix that sets it (none above SQS's maximum).
    pub(crate) fn needed(&self, multiplier: i64) -> i64 {
        // Saturating: a template may hold any 64-bit number.
        multiplier.saturating_mul(self.timeout).saturating_add(self.window)
    }

    pub(crate) fn remedy(&self, multiplier: i64) -> Option<sqsguard_finding::Remedy> {
        let needed = self.needed(multiplier);
        let max = Field::VisibilityTimeout.range().map_or(i64::MAX, |r| *r.end());
        (needed <= max).then(|| {
            set(
                &self.queue.resource,
                Field::VisibilityTimeout,
                Scalar::Int(needed),
                self.visibility_alt,
                Applicability::Safe,
            )
        })
    }
}

/// Every known (queue, consumer, function) timing in the model; unknown
/// values are left out, absent ones take AWS's defaults (30 s visibility,
/// 3 s function timeout, 0 s window).
pub fn timings<'a>(cx: &Context<'a>) -> Vec<Timing<'a>> {
    let model = cx.model;
    let mut out = Vec::new();
    for read in cx.index.reads() {
        let (queue, consumer) = (read.queue, read.consumer);
        for f_alt in consumer.function.iter() {
            let Some(Target::Function(fi)) = f_alt.value.known() else { continue };
            let Some(function) = model.functions.get(*fi) else { continue };
            for vt in queue.visibility_timeout.iter() {
                for to in function.timeout.iter() {
                    for win in consumer.batching_window.iter() {
                        let Some(when) = all_of(&[&read.when, &f_alt.when, &vt.when, &to.when, &win.when]) else {
                            continue;
                        };
                        let (Some(visibility), Some(timeout), Some(window)) = (
                            vt.value.or_aws_default(Field::VisibilityTimeout),
                            to.value.or_aws_default(Field::Timeout),
                            win.value.or_aws_default(Field::BatchingWindow),
                        ) else {
                            continue;
                        };
                        out.push(Timing {
                            queue,
                            consumer,
                            function,
                            visibility_alt: vt,
                            timeout_alt: to,
                            window_alt: win,
                            visibility,
                            timeout,
                            window,
                            when,
                        });
                    }
                }
            }
        }
    }
    out
}
