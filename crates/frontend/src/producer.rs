//! What a front-end does with the producers it reads: which targets may
//! be queues, and a producer whose queue is only known at deploy time said
//! in a note, and whether a subscription delivers to SQS, in every dialect.

use crate::value::R;
use sqsguard_model::{Attr, Dialect, Field, Model, Producer, Target, UnknownSource, Value};

/// A target that names a queue or may (its ARN is only known at deploy
/// time); a Lambda function or a stream is none.
pub(crate) fn maybe_queue(queue: &Attr<Target>) -> bool {
    queue.alts.iter().any(|a| match &a.value {
        Value::Known(Target::Queue(_)) | Value::Unknown(_) => true,
        Value::Known(Target::External(arn)) => arn.contains(":sqs:"),
        _ => false,
    })
}

/// The producer goes to the model; one whose queue is only known at deploy
/// time is also said in a note.
pub(crate) fn add(model: &mut Model, p: Producer) {
    for alt in &p.queue.alts {
        if let Value::Unknown(why) = &alt.value {
            let (resource, origin, why) = (p.resource.clone(), alt.origin.clone(), why.clone());
            model.unknown_producers.push(UnknownSource { resource, origin, why });
        }
    }
    model.producers.push(p);
}

/// A subscription whose `Protocol` (in `dialect`'s words) is `sqs`, in any
/// case; one only known at deploy time may be.
pub(crate) fn is_sqs(subscription: &R, dialect: Dialect) -> bool {
    match subscription.entry(dialect.name(Field::Protocol)) {
        Some((_, p)) => p.literal().is_none_or(|p| p.eq_ignore_ascii_case("sqs")),
        None => false,
    }
}
