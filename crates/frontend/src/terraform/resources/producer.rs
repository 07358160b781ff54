//! What delivers to queues in Terraform: `aws_sns_topic_subscription`
//! (protocol `sqs`), `aws_cloudwatch_event_target`, the `queue` blocks of
//! `aws_s3_bucket_notification` and `aws_pipes_pipe`, each linked to its
//! queue and to the topic, rule, bucket or pipe a policy condition names.

use super::Resource;
use super::reader::Reader;
use crate::convert::{to_block, to_bool, to_f64, to_int, to_name, to_string, to_string_list};
use crate::fields::{attr, nested_attr};
use crate::policy::source_id;
use crate::producer::{is_sqs, maybe_queue};
use crate::value::{R, RV, values_at};
use sqsguard_model::policy::SourceId;
use sqsguard_model::{
    Alt, Attr, Dialect, Field, Model, Name, Origin, Producer, ReadFields, ReadLinks, Service, Target, Value, Via,
};
use sqsguard_source::{Source, Span};

const TF: Dialect = Dialect::Terraform;

/// The resource type whose `fifo_topic` a subscription's topic has.
pub const TOPIC: &str = "aws_sns_topic";

/// The resource types read here, and the topics they need.
pub const KINDS: &[&str] = &[
    TOPIC,
    "aws_sns_topic_subscription",
    "aws_cloudwatch_event_target",
    "aws_s3_bucket_notification",
    "aws_pipes_pipe",
];

/// The producers resource `a.r` is (none for most kinds).
pub(super) fn read(a: &Reader<'_>) -> Vec<Producer> {
    let r = a.r;
    let origin = a.origin(r.header);
    match r.kind.as_str() {
        "aws_sns_topic_subscription" => {
            if !is_sqs(&r.props, TF) {
                return Vec::new();
            }
            let (topic, source) = crate::producer::topic(&r.props, TF);
            let mut p = Producer::read(&r.address, origin, Service::Sns, source, &Block::of(a));
            p.fifo_source = match topic {
                Some(t) => fifo_suffix(a, t),
                None => Attr::absent(a.origin(r.header)),
            };
            vec![p]
        }
        "aws_cloudwatch_event_target" => {
            let source = named(r.props.entry("rule").map(|(_, v)| v), "rule");
            let p = Producer::read(&r.address, origin, Service::EventBridge, source, &Block::of(a));
            if maybe_queue(&p.queue) { vec![p] } else { Vec::new() }
        }
        "aws_s3_bucket_notification" => {
            let source = named(r.props.entry("bucket").map(|(_, v)| v), "bucket");
            let mut blocks = values_at(&r.props, &["queue"]);
            blocks.retain(|(_, q)| matches!(q.v, RV::Map(_)));
            blocks.extend(values_at(&r.props, &["queue", "*"]));
            let mut out = Vec::new();
            for (when, block) in blocks {
                let at = if block.span.is_empty() { r.header } else { block.span };
                let fields = Block { a, map: block, at };
                let mut p = Producer::read(&r.address, origin.clone(), Service::S3, source.clone(), &fields);
                let alts = std::mem::take(&mut p.queue.alts);
                p.queue.alts =
                    alts.into_iter().filter_map(|alt| Some(Alt { when: when.and(&alt.when)?, ..alt })).collect();
                out.push(p);
            }
            out
        }
        "aws_pipes_pipe" => {
            let pipe = r.address.split('[').next().unwrap_or(&r.address);
            let source = Value::Known(SourceId::Resource(pipe.to_string()));
            let mut p = Producer::read(&r.address, origin, Service::Pipes, source, &Block::of(a));
            if !maybe_queue(&p.queue) {
                return Vec::new();
            }
            // `target_parameters.sqs_queue_parameters`: two blocks deep,
            // which the field table does not nest.
            let path = ["target_parameters", "sqs_queue_parameters"];
            let mut found = values_at(&r.props, &path);
            found.extend(values_at(&r.props, &["target_parameters", "*", "sqs_queue_parameters", "*"]));
            if let Some((_, sqs)) = found.into_iter().find(|(_, s)| matches!(s.v, RV::Map(_))) {
                p.message_group_id = attr(&r.source, Some(sqs), TF.name(Field::MessageGroupId), r.header, to_string);
            }
            vec![p]
        }
        _ => Vec::new(),
    }
}

/// A producer's arguments (a resource's, or a block's within it), read by
/// their Terraform names, absent ones located at `at`; an argument the
/// table places inside a block is read there as a map (HCL) or as a list
/// of one block (a plan).
struct Block<'r, 'a> {
    a: &'r Reader<'a>,
    map: &'r R,
    at: Span,
}

impl<'r, 'a> Block<'r, 'a> {
    /// The resource's own arguments.
    fn of(a: &'r Reader<'a>) -> Self {
        Block { a, map: &a.r.props, at: a.r.header }
    }

    fn get<T>(&self, field: Field, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        let source = &self.a.r.source;
        match field.within() {
            Some(outer) => in_block(source, self.map, (TF.name(outer), TF.name(field)), self.at, conv),
            None => attr(source, Some(self.map), TF.name(field), self.at, conv),
        }
    }
}

impl ReadFields for Block<'_, '_> {
    fn int(&self, field: Field) -> Attr<i64> {
        self.get(field, to_int)
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        self.get(field, to_bool)
    }

    fn text(&self, field: Field) -> Attr<String> {
        self.get(field, to_string)
    }

    fn name(&self, field: Field) -> Attr<Name> {
        self.get(field, to_name)
    }

    fn list(&self, field: Field) -> Attr<Vec<String>> {
        self.get(field, to_string_list)
    }

    fn number(&self, field: Field) -> Attr<f64> {
        self.get(field, to_f64)
    }

    fn block(&self, field: Field) -> Attr<bool> {
        self.get(field, to_block)
    }
}

impl ReadLinks for Block<'_, '_> {
    fn queue(&self, field: Field) -> Attr<Target> {
        self.get(field, |v| self.a.linker.queue_target(v))
    }

    fn queue_via(&self, field: Field) -> Attr<Via> {
        self.get(field, |v| self.a.linker.queue_via(v))
    }
}

/// `inner` of the block `outer` of `map`: a map in HCL, a list of one
/// block (none when absent) in a plan; absent located at `at`.
fn in_block<T>(
    source: &Source,
    map: &R,
    (outer, inner): (&str, &str),
    at: Span,
    conv: impl Fn(&R) -> Value<T>,
) -> Attr<T> {
    match map.entry(outer).map(|(_, b)| &b.v) {
        Some(RV::List(blocks)) if blocks.is_empty() => Attr::absent(Origin::file(source, at)),
        Some(RV::List(blocks)) if blocks.len() == 1 => attr(source, blocks.first(), inner, at, conv),
        _ => nested_attr(source, Some(map), outer, inner, at, conv),
    }
}

/// The source a `rule` or `bucket` argument names: the resource it refers
/// to; a literal name is not an ARN a condition can be compared with.
fn named(value: Option<&R>, what: &str) -> Value<SourceId> {
    match value {
        None => Value::Unknown(format!("no {what}")),
        Some(v) => match v.literal() {
            Some(name) => Value::Unknown(format!("the {what} is named `{name}`, so its ARN is not known here")),
            None => source_id(v),
        },
    }
}

/// Whether the topic is FIFO, from its ARN: a reference to a topic of the
/// module is answered by [`fifo_topics`] once every topic is read; else a
/// `.fifo` suffix, else unknown.
fn fifo_suffix(a: &Reader<'_>, topic: &R) -> Attr<bool> {
    let at = a.origin(if topic.span.is_empty() { a.r.header } else { topic.span });
    let value = match topic.text() {
        Some(t) if topic_reference(&topic.v).is_some() => Value::Unknown(format!("`{}` is not read", t.display())),
        Some(t) if t.ends_literal() => Value::Known(t.display().ends_with(".fifo")),
        _ => Value::Unknown("the topic is only known at deploy time".into()),
    };
    Attr::single(value, at)
}

/// The address of the `aws_sns_topic` a value refers to, without an index.
fn topic_reference(v: &RV) -> Option<&str> {
    let RV::Str(t) = v else { return None };
    let (resource, _) = t.reference()?;
    let address = resource.split('[').next().unwrap_or(resource);
    (address.rsplit('.').nth(1) == Some(TOPIC)).then_some(address)
}

/// Each SNS producer whose topic is one of `topics` is FIFO as that
/// topic's `fifo_topic` says (absent: standard).
pub fn fifo_topics<'r>(topics: impl Iterator<Item = &'r Resource>, model: &mut Model) {
    // By address, so many subscriptions and topics cost their sum.
    let topics: std::collections::HashMap<&str, &Resource> =
        topics.map(|t| (t.address.split('[').next().unwrap_or(&t.address), t)).collect();
    if topics.is_empty() {
        return;
    }
    for p in model.producers.iter_mut().filter(|p| p.service == Service::Sns) {
        let Value::Known(SourceId::Resource(address)) = &p.source else { continue };
        if !p.fifo_source.alts.iter().all(|alt| matches!(alt.value, Value::Unknown(_))) {
            continue;
        }
        let Some(topic) = topics.get(address.as_str()) else { continue };
        p.fifo_source = attr(&topic.source, Some(&topic.props), TF.name(Field::FifoTopic), topic.header, to_bool);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_topic_reference_names_the_topic_without_its_index() {
        let part = |resource: &str| {
            crate::value::Text(vec![crate::value::Part::Attr { resource: resource.into(), attribute: "arn".into() }])
        };
        assert_eq!(topic_reference(&RV::Str(part("aws_sns_topic.orders[0]"))), Some("aws_sns_topic.orders"));
        assert_eq!(topic_reference(&RV::Str(part("module.m.aws_sns_topic.t"))), Some("module.m.aws_sns_topic.t"));
        assert_eq!(topic_reference(&RV::Str(part("aws_sqs_queue.q"))), None);
    }
}
