//! What a front-end does with the producers it reads: which targets may
//! be queues, and a producer whose queue is only known at deploy time said
//! in a note, whether a subscription delivers to SQS and which topic it
//! is on, in every dialect. The producer itself is read by the model
//! ([`Producer::read`]).

use crate::policy::source_id;
use crate::value::R;
use sqsguard_model::policy::SourceId;
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

/// The topic a subscription's `TopicArn` (in `dialect`'s words) names, for
/// `aws:SourceArn`, and that value.
pub(crate) fn topic(subscription: &R, dialect: Dialect) -> (Option<&R>, Value<SourceId>) {
    let key = dialect.name(Field::TopicArn);
    let topic = subscription.entry(key).map(|(_, t)| t);
    (topic, topic.map_or_else(|| Value::Unknown(format!("no {key}")), source_id))
}
