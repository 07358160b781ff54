//! How the code rules (SQS204-SQS206) name an SDK call and its queue.

use crate::Context;
use sqsguard_model::code::SdkCall;
use sqsguard_model::{Queue, Target, Value};

/// The queue of the analysed set a call names.
pub fn queue_of<'m>(cx: &Context<'m>, call: &SdkCall) -> Option<&'m Queue> {
    match &call.queue {
        Value::Known(Target::Queue(i)) => cx.model.queues.get(*i),
        _ => None,
    }
}

/// `the ReceiveMessage call of poll`, `the SendMessage call of OrdersFunction`,
/// `the ReceiveMessage call at the top level`.
pub fn call_words(call: &SdkCall) -> String {
    if call.owner == "-" {
        format!("the {} call at the top level of the file", call.operation.name())
    } else {
        format!("the {} call of {}", call.operation.name(), call.owner)
    }
}

/// `queue orders`, `https://sqs.../orders.fifo`, or nothing when the queue
/// is not known.
pub fn queue_words(cx: &Context<'_>, call: &SdkCall) -> Option<String> {
    match &call.queue {
        Value::Known(Target::Queue(i)) => cx.model.queues.get(*i).map(|q| format!("queue {}", q.resource)),
        Value::Known(Target::External(q)) => Some(format!("queue {q}")),
        _ => None,
    }
}
