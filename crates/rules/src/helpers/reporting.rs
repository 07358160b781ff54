//! The handlers whose mapping asks for their batch item failures: what
//! SQS202 and SQS213 judge.

use super::{REPORT, all_of};
use crate::Context;
use sqsguard_model::code::Handler;
use sqsguard_model::{Consumer, Function, Value, When};

/// A mapping with ReportBatchItemFailures in one reading of its
/// FunctionResponseTypes, and the handler of the function it invokes.
pub struct Reporting<'m> {
    pub consumer: &'m Consumer,
    /// `queue Jobs`, as the message names it.
    pub queue: String,
    pub function: &'m Function,
    pub handler: &'m Handler,
    /// When that reading holds.
    pub when: When,
}

/// Every mapping that asks for batch item failures, with its handler.
pub fn reporting<'m>(cx: &Context<'m>) -> Vec<Reporting<'m>> {
    let mut out = Vec::new();
    for (consumer, queue, read_when) in cx.index.mapped() {
        let Some((function, handler)) = cx.index.handler(consumer) else { continue };
        for types in consumer.response_types.iter() {
            let Value::Known(list) = &types.value else { continue };
            if !list.iter().any(|t| t == REPORT) {
                continue;
            }
            let Some(when) = all_of(&[&read_when, &types.when]) else { continue };
            out.push(Reporting { consumer, queue: queue.clone(), function, handler, when });
        }
    }
    out
}
