//! AWS::Lambda::EventSourceMapping: an SQS consumer when its source is a
//! queue (its on-failure destination is found by `dead_letter`).

use super::context::Ctx;
use super::template::Resource;
use sqsguard_model::build::Links;
use sqsguard_model::{Consumer, Field, Model, Target, UnknownSource, Value, Via};

/// The mapping's source, as CloudFormation names it.
const CFN_SOURCE: &str = "EventSourceArn"; // Dialect::CloudFormation.name(Field::EventSource)

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let at = res.entry.key_span;

    let queue = ctx.attr(Some(&props), Field::EventSource, at, |r| ctx.queue_target(r));
    let queue_via = ctx.attr(Some(&props), Field::EventSource, at, |r| ctx.queue_via(r));
    // Only mappings known to read SQS are consumers: a Kinesis or DynamoDB
    // stream mapping has other limits and no visibility timeout. A queue
    // URL, even one only known at deploy time, names SQS, and so does an
    // `arn:aws:sqs:` ARN whose account or name is only known then.
    let reads_sqs = queue.alts.iter().any(|a| match &a.value {
        Value::Known(Target::Queue(_)) => true,
        Value::Known(Target::External(arn)) => arn.contains(":sqs:") || arn.contains("sqs."),
        _ => false,
    }) || queue_via.any_known(|v| matches!(v, Via::UrlText(_)))
        || ctx.values_at(&props, &[CFN_SOURCE]).into_iter().any(|(_, r)| crate::link::is_sqs_arn(r));
    if !reads_sqs {
        for alt in &queue.alts {
            if let Value::Unknown(why) = &alt.value {
                let (resource, origin, why) = (res.id.to_string(), alt.origin.clone(), why.clone());
                model.unknown_sources.push(UnknownSource { resource, origin, why });
            }
        }
        return;
    }
    let function = ctx.attr(Some(&props), Field::MappingFunction, at, |r| ctx.function_target(r));
    let links = Links { queue, queue_via, function };
    model.consumers.push(Consumer::read(res.id, ctx.origin(at), links, &ctx.fields(Some(&props), at)));
}
