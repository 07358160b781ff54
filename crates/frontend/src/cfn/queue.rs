//! AWS::SQS::Queue into a model [`Queue`].

use super::context::Ctx;
use super::payload;
use super::resolve::R;
use super::template::{Resource, SamQueue};
use sqsguard_model::{Attr, Dialect, Queue};

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>) -> Queue {
    let props = ctx.properties(res);
    let props = props.as_ref();
    let at = res.entry.key_span;
    let mut queue = Queue::read(res.id, ctx.origin(at), &ctx.fields(props, at));
    queue.redrive = crate::fields::redrive(
        &ctx.file,
        props,
        Dialect::CloudFormation,
        at,
        |v| ctx.queue_target(v),
        |v| ctx.queue_via(v),
    );
    queue.payload = payload::declared(ctx, res, props).map(Box::new);
    queue
}

/// A queue SAM creates for an SNS event: every setting at its default,
/// located at the event's `SqsSubscription`, but `FifoQueue: true` when
/// the topic is a FIFO topic of the template (as SAM writes it).
pub(crate) fn sam_created(ctx: &Ctx<'_, '_>, created: &SamQueue<'_>) -> Queue {
    let at = created.at;
    let mut queue = Queue::new(&created.id, ctx.origin(at));
    queue.created = Some(
        "SAM creates this queue with default settings for `SqsSubscription: true`: to set them, declare an AWS::SQS::Queue and name it in `SqsSubscription: {QueueArn, QueueUrl}`",
    );
    let topic = created.topic.map(|t| ctx.resolver.resolve(t));
    let declared =
        topic.as_ref().and_then(R::text).and_then(|t| t.reference()).and_then(|(id, _)| ctx.template.resource(id));
    let fifo_topic = declared
        .filter(|t| t.kind == "AWS::SNS::Topic")
        .and_then(|t| t.properties)
        .and_then(|p| p.get("FifoTopic"))
        .map(|f| ctx.resolver.resolve(f))
        .and_then(|f| f.literal())
        .is_some_and(|f| f == "true");
    if fifo_topic {
        queue.fifo = Attr::known(true, ctx.origin(at));
    }
    queue
}
