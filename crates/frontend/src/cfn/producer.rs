//! What delivers to queues: `AWS::SNS::Subscription` and a topic's inline
//! `Subscription` (protocol `sqs`), `AWS::Events::Rule` `Targets`,
//! `AWS::S3::Bucket` `QueueConfigurations`, `AWS::Pipes::Pipe` `Target`,
//! and a SAM function's SNS event with an `SqsSubscription` naming a queue
//! (SAM writes that queue's policy itself, as an `AWS::Serverless::Connector`
//! does for its source and destination).

use super::context::Ctx;
use super::resolve::{R, RV};
use super::template::Resource;
use crate::convert::{to_bool, to_string};
use crate::policy::source_id;
use crate::producer::{add, is_sqs, maybe_queue};
use sqsguard_model::policy::SourceId;
use sqsguard_model::{Attr, Dialect, Field, Model, Producer, Service, Target, Value};
use sqsguard_source::Span;
use sqsguard_syntax::Node;

const CFN: Dialect = Dialect::CloudFormation;

/// The resource types read here: any other is not resolved at all.
const KINDS: &[&str] =
    &["AWS::SNS::Subscription", "AWS::SNS::Topic", "AWS::Events::Rule", "AWS::S3::Bucket", "AWS::Pipes::Pipe"];

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    if !KINDS.contains(&res.kind) {
        return;
    }
    let Some(props) = ctx.properties(res) else { return };
    let at = res.entry.key_span;
    match res.kind {
        "AWS::SNS::Subscription" => {
            if !is_sqs(&props, CFN) {
                return;
            }
            let (topic, source) = crate::producer::topic(&props, CFN);
            let mut p = Producer::read(res.id, ctx.origin(at), Service::Sns, source, &ctx.fields(Some(&props), at));
            p.fifo_source = topic.map_or_else(|| Attr::absent(ctx.origin(at)), |t| fifo_topic(ctx, t, at));
            add(model, p);
        }
        "AWS::SNS::Topic" => {
            let fifo = ctx.attr(Some(&props), Field::FifoTopic, at, to_bool);
            for (_, sub) in ctx.values_at(&props, &["Subscription", "*"]) {
                if !is_sqs(sub, CFN) {
                    continue;
                }
                let source = Value::Known(SourceId::Resource(res.id.to_string()));
                let mut p = Producer::read(res.id, ctx.origin(at), Service::Sns, source, &ctx.fields(Some(sub), at));
                p.fifo_source = fifo.clone();
                add(model, p);
            }
        }
        "AWS::Events::Rule" => events_rule(ctx, res, &props, model),
        "AWS::S3::Bucket" => {
            let path = ["NotificationConfiguration", "QueueConfigurations", "*"];
            for (_, config) in ctx.values_at(&props, &path) {
                let source = Value::Known(SourceId::Resource(res.id.to_string()));
                add(model, Producer::read(res.id, ctx.origin(at), Service::S3, source, &ctx.fields(Some(config), at)));
            }
        }
        "AWS::Pipes::Pipe" => pipe(ctx, res, &props, model),
        _ => {}
    }
}

/// An EventBridge rule's targets on queues, each a producer read from
/// the target's fields (absent ones located at the target, where a fix
/// writes them).
fn events_rule(ctx: &Ctx<'_, '_>, res: &Resource<'_>, props: &R, model: &mut Model) {
    let at = res.entry.key_span;
    for (_, target) in ctx.values_at(props, &["Targets", "*"]) {
        let arn = target.entry(CFN.name(Field::TargetArn)).map(|(_, a)| a);
        if arn.is_some_and(other_service) {
            continue;
        }
        let source = Value::Known(SourceId::Resource(res.id.to_string()));
        let fields = ctx.fields(Some(target), target.span);
        let p = Producer::read(res.id, ctx.origin(at), Service::EventBridge, source, &fields);
        if maybe_queue(&p.queue) {
            add(model, p);
        }
    }
}

/// A pipe whose target is a queue, with the message group it sends with
/// (`TargetParameters.SqsQueueParameters`: two maps deep, which the field
/// table does not nest).
fn pipe(ctx: &Ctx<'_, '_>, res: &Resource<'_>, props: &R, model: &mut Model) {
    let at = res.entry.key_span;
    if props.entry(CFN.name(Field::PipeTarget)).is_some_and(|(_, t)| other_service(t)) {
        return;
    }
    let source = Value::Known(SourceId::Resource(res.id.to_string()));
    let mut p = Producer::read(res.id, ctx.origin(at), Service::Pipes, source, &ctx.fields(Some(props), at));
    if !maybe_queue(&p.queue) {
        return;
    }
    let path = ["TargetParameters", "SqsQueueParameters"];
    if let Some((_, sqs)) = ctx.values_at(props, &path).into_iter().next() {
        p.message_group_id = ctx.attr(Some(sqs), Field::MessageGroupId, at, to_string);
    }
    add(model, p);
}

/// A SAM SNS event whose `SqsSubscription` names a queue: SAM subscribes
/// it and writes its policy.
pub(crate) fn sam_subscription(ctx: &Ctx<'_, '_>, function: &str, event_at: Span, event: &R, model: &mut Model) {
    let Some((sub_at, sub)) = event.entry("SqsSubscription") else { return };
    if !matches!(sub.v, RV::Map(_)) {
        return;
    }
    let queue = ctx.attr_named(Some(sub), "QueueArn", sub_at, |r| ctx.queue_target(r));
    let mut p = Producer::new(function, ctx.origin(event_at), Service::Sns, queue);
    let topic = event.entry("Topic").map(|(_, t)| t);
    p.source = topic.map_or(Value::Unknown("no Topic".into()), source_id);
    p.fifo_source = topic.map_or_else(|| Attr::absent(ctx.origin(event_at)), |t| fifo_topic(ctx, t, event_at));
    p.writes_policy = Some("SAM's SqsSubscription");
    add(model, p);
}

/// `Type: AWS::Serverless::Connector` (or a resource's embedded
/// `Connectors`) with `Write` permission from a source to a queue: SAM
/// writes the queue policy for that source.
pub(crate) fn connectors(ctx: &Ctx<'_, '_>, model: &mut Model) {
    let mut pairs: Vec<(String, String)> = Vec::new();
    // `Source: {Id: ...}`; `Destination` may be a list of them.
    let ids = |r: &R, key: &str| -> Vec<String> {
        let one = ctx.values_at(r, &[key, "Id"]);
        let listed = ctx.values_at(r, &[key, "*", "Id"]);
        one.into_iter().chain(listed).filter_map(|(_, i)| i.literal()).collect()
    };
    let writes =
        |r: &R| ctx.values_at(r, &["Permissions", "*"]).iter().any(|(_, p)| p.literal().as_deref() == Some("Write"));
    for res in &ctx.template.resources {
        // Only connectors are resolved: the other resources' properties
        // were resolved once already, by their readers.
        if res.kind == "AWS::Serverless::Connector"
            && let Some(props) = ctx.properties(res)
            && writes(&props)
        {
            for s in ids(&props, "Source") {
                pairs.extend(ids(&props, "Destination").into_iter().map(|d| (s.clone(), d)));
            }
        }
        // SAM's embedded connectors sit beside Type and Properties.
        let Some(embedded) = res.entry.value.get("Connectors").and_then(Node::as_map) else { continue };
        for c in embedded {
            let c = ctx.resolver.resolve(&c.value);
            let Some((_, props)) = c.entry("Properties") else { continue };
            if writes(props) {
                pairs.extend(ids(props, "Destination").into_iter().map(|d| (res.id.to_string(), d)));
            }
        }
    }
    if pairs.is_empty() {
        return;
    }
    // A set, so many connectors and producers cost their sum.
    let pairs: std::collections::HashSet<(String, String)> = pairs.into_iter().collect();
    let queue_ids: Vec<String> = model.queues.iter().map(|q| q.resource.clone()).collect();
    for p in &mut model.producers {
        let Value::Known(SourceId::Resource(source)) = &p.source else { continue };
        let connected = p.queue.alts.iter().any(|a| match &a.value {
            Value::Known(Target::Queue(q)) => {
                queue_ids.get(*q).is_some_and(|d| pairs.contains(&(source.clone(), d.clone())))
            }
            _ => false,
        });
        if connected {
            p.writes_policy = Some("an AWS::Serverless::Connector");
        }
    }
}

/// An ARN whose service is written and is not SQS
/// (`arn:aws:execute-api:${AWS::Region}:...`): no queue, even when the rest
/// is only known at deploy time.
pub(crate) fn other_service(r: &R) -> bool {
    let Some(text) = r.text() else { return false };
    // Deploy-time parts as one character, so their own colons do not count.
    let shown: String = text
        .0
        .iter()
        .map(|p| match p {
            crate::value::Part::Lit(s) => s.clone(),
            _ => "\u{0}".to_string(),
        })
        .collect();
    let mut parts = shown.split(':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("arn"), Some(_), Some(service)) => !service.contains('\u{0}') && !service.is_empty() && service != "sqs",
        _ => false,
    }
}

/// Whether the topic a subscription names is FIFO: its `FifoTopic` when it
/// is in the template, else a `.fifo` ARN or name.
fn fifo_topic(ctx: &Ctx<'_, '_>, topic: &R, at: Span) -> Attr<bool> {
    if let Some((id, _)) = topic.text().and_then(|t| t.reference())
        && let Some(res) = ctx.template.resource(id).filter(|r| r.kind == "AWS::SNS::Topic")
    {
        let props = ctx.properties(res);
        return ctx.attr(props.as_ref(), Field::FifoTopic, res.entry.key_span, to_bool);
    }
    let value = match topic.text() {
        Some(t) if t.ends_literal() => Value::Known(t.display().ends_with(".fifo")),
        _ => Value::Unknown("the topic is only known at deploy time".into()),
    };
    Attr::single(value, ctx.origin(if topic.span == Span::default() { at } else { topic.span }))
}

#[cfg(test)]
mod tests {
    use super::super::context::Ctx;
    use super::super::template::Template;
    use sqsguard_model::{Service, Target, Value};
    use sqsguard_source::SourceFile;
    use sqsguard_syntax::yaml;

    #[test]
    fn what_a_subscription_and_a_target_say_of_their_deliveries() {
        let text = "Resources:
  Q: {Type: AWS::SQS::Queue}
  T: {Type: AWS::SNS::Topic}
  S: {Type: AWS::SNS::Subscription, Properties: {TopicArn: !Ref T, Protocol: sqs, Endpoint: !GetAtt Q.Arn, RawMessageDelivery: true}}
  R:
    Type: AWS::Events::Rule
    Properties:
      Targets:
        - {Id: q, Arn: !GetAtt Q.Arn, RetryPolicy: {MaximumRetryAttempts: 4, MaximumEventAgeInSeconds: 600}}
        - {Id: f, Arn: !Sub 'arn:${AWS::Partition}:lambda:${AWS::Region}:${AWS::AccountId}:function:f'}
";
        let file = SourceFile::new("t.yaml", text.to_string());
        let root = yaml::parse(&file).unwrap();
        let template = Template::find(&root).unwrap();
        let (model, _) = super::super::read(&Ctx::new(file.clone(), &template));
        let first =
            |attr: &sqsguard_model::Attr<_>| attr.alts.first().map(|a: &sqsguard_model::Alt<i64>| a.value.clone());
        assert_eq!(model.producers.len(), 2, "the Lambda target is no producer of a queue");
        let (sub, rule) = (&model.producers[0], &model.producers[1]);
        assert_eq!((sub.service, rule.service), (Service::Sns, Service::EventBridge));
        assert!(sub.queue.any_known(|t| *t == Target::Queue(0)));
        assert!(sub.raw_message_delivery.any_known(|r| *r));
        assert_eq!(first(&rule.maximum_retry_attempts), Some(Value::Known(4)));
        assert_eq!(first(&rule.maximum_event_age), Some(Value::Known(600)));
        assert!(matches!(first(&sub.maximum_retry_attempts), Some(Value::Absent)));
    }
}
