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

/// Whether the call's queue is known to be FIFO: a queue of the set that is
/// FIFO in every alternative, or a URL or ARN that ends in `.fifo` (AWS
/// requires the suffix).
pub fn known_fifo(cx: &Context<'_>, call: &SdkCall) -> bool {
    match queue_of(cx, call) {
        Some(q) => !q.fifo.alts.is_empty() && q.fifo.iter().all(|a| a.value.known() == Some(&true)),
        None => matches!(&call.queue, Value::Known(Target::External(q)) if q.ends_with(".fifo")),
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
