//! Terraform resources into the model: `aws_sqs_queue` and its satellite
//! resources, Lambda functions and event source mappings, CloudWatch
//! alarms, producers (`producer.rs`), and dead-letter targets of other
//! services.

mod key;
mod producer;
mod reader;

use super::eval::{Child, Scope, labels};
use crate::dead_letter::{Shape, search};
use crate::fields::attr_of;
use crate::link::Linker;
use crate::value::{R, RV, values_at};
use reader::Reader;
use sqsguard_model::field::QUEUE_SETTINGS;
use sqsguard_model::{
    Alarm, Attr, Consumer, Dialect, DlqRef, Field, Function, Model, Producer, Queue, QueuePolicy, Redrive, Target,
    UnknownSource, Value,
};

const TF: Dialect = Dialect::Terraform;

/// The attributes of an aws_sqs_queue that are its URL: `id` and `url`
/// (a registry module's `queue_url` and `queue_id` are references to them).
pub(crate) const QUEUE_URL_ATTRIBUTES: &[&str] = &["id", "url"];
use sqsguard_source::Span;

pub use super::eval::Resource;
pub use producer::{KINDS as PRODUCER_KINDS, TOPIC, fifo_topics};

/// The KMS resource types SQS020 reads.
pub(crate) const KEY_KINDS: &[&str] = &[key::KEY, key::KEY_POLICY, key::ALIAS];

/// Every resource of a module and of the modules it calls.
pub(crate) fn collect_tree(scope: &Scope) -> Vec<Resource> {
    let mut out = collect(scope);
    // Local modules stay, for the writer to take their files' trees.
    let mut local = Vec::new();
    for child in scope.children.take() {
        match child {
            Child::Local { name, scope } => {
                out.extend(collect_tree(&scope));
                local.push(Child::Local { name, scope });
            }
            Child::Registry { resources, .. } => out.extend(resources),
        }
    }
    scope.children.replace(local);
    out
}

/// Evaluate every resource block of a module instance. A resource whose
/// `count` or `for_each` is known to create nothing is left out.
pub(crate) fn collect(scope: &Scope) -> Vec<Resource> {
    let mut out = Vec::new();
    // Override files (override.tf, *_override.tf) merge into the blocks
    // they name. What they set is not evaluated here: it becomes unknown
    // on the original resource, so rules neither miss it nor guess.
    let mut overridden: Vec<(String, Vec<String>)> = Vec::new();
    for file in scope.files.iter().filter(|f| is_override(&f.source.path)) {
        for block in file.body.blocks().filter(|b| b.ident.as_str() == "resource") {
            if let [kind, name] = labels(block).as_slice() {
                let keys = block.body.iter().map(|s| match s {
                    hcl_edit::structure::Structure::Attribute(a) => a.key.as_str().to_string(),
                    hcl_edit::structure::Structure::Block(b) => b.ident.as_str().to_string(),
                });
                overridden.push((format!("{kind}.{name}"), keys.collect()));
            }
        }
    }
    for (fi, file) in scope.files.iter().enumerate() {
        if is_override(&file.source.path) {
            continue;
        }
        let archives = file
            .body
            .blocks()
            .filter(|b| b.ident.as_str() == "data" && labels(b).first().is_some_and(|k| k == super::document::ARCHIVE));
        for block in archives {
            let [_, name] = labels(block).try_into().unwrap_or_default();
            let whole = file.span(block, Span::default());
            out.push(Resource {
                address: format!("{}data.{}.{name}", scope.prefix, super::document::ARCHIVE),
                kind: ARCHIVE_KIND.to_string(),
                source: file.source.clone(),
                header: whole,
                props: scope.resource(&block.body, fi, whole),
                module: None,
            });
        }
        for block in file.body.blocks().filter(|b| b.ident.as_str() == "resource") {
            let [kind, name] = labels(block).try_into().unwrap_or_default();
            if kind.is_empty() {
                continue;
            }
            let whole = file.span(block, Span::default());
            let header_end = block.labels.last().map_or(whole.end, |l| file.span(l, whole).end);
            let header = Span::new(whole.start, header_end.max(whole.start));
            let mut props = scope.resource(&block.body, fi, whole);
            let local_address = format!("{kind}.{name}");
            for (_, keys) in overridden.iter().filter(|(a, _)| *a == local_address) {
                if let RV::Map(entries) = &mut props.v {
                    for key in keys {
                        let at = entries.iter().find(|(k, _, _)| k == key).map_or(header, |(_, _, v)| v.span);
                        entries.retain(|(k, _, _)| k != key);
                        entries.push((key.clone(), at, R::unknown(format!("{key} is set in an override file"), at)));
                    }
                }
            }
            let creates_nothing = |key: &str| {
                props.entry(key).is_some_and(|(_, v)| match &v.v {
                    RV::Num(n) => *n == 0.0,
                    RV::List(items) => items.is_empty(),
                    RV::Map(entries) => entries.is_empty(),
                    _ => false,
                })
            };
            if creates_nothing("count") || creates_nothing("for_each") {
                continue;
            }
            out.push(Resource {
                address: format!("{}{local_address}", scope.prefix),
                kind,
                source: file.source.clone(),
                header,
                props,
                module: None,
            });
        }
    }
    out
}

/// `override.tf` or `*_override.tf` (Terraform's override files).
fn is_override(path: &std::path::Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let name = name.strip_suffix(".json").unwrap_or(name);
    name == "override.tf" || name.ends_with("_override.tf")
}

/// Index the queues and functions (model indices follow this order).
pub(crate) fn link(resources: &[Resource]) -> Linker {
    // An aws_sqs_queue's `id` is its URL, as is its `url`.
    let mut linker = Linker::new(TF.name(Field::QueueName), QUEUE_URL_ATTRIBUTES);
    let name_of = |r: &Resource| name_argument(&r.kind).and_then(|n| r.props.entry(n)).map(|(_, v)| v.clone());
    for r in resources.iter().filter(|r| r.kind != ALIAS) {
        register(&mut linker, &r.kind, &r.address, name_of(r).as_ref());
    }
    for r in resources.iter().filter(|r| r.kind == ALIAS) {
        register(&mut linker, &r.kind, &r.address, name_of(r).as_ref());
    }
    linker
}

const ALIAS: &str = "aws_lambda_alias";

/// The argument that names a resource others refer to by name (a queue's
/// `name`, a function's or alias's `function_name`).
pub(crate) fn name_argument(kind: &str) -> Option<&'static str> {
    match kind {
        "aws_sqs_queue" => Some(TF.name(Field::QueueName)),
        "aws_lambda_function" | ALIAS => Some(TF.name(Field::FunctionName)),
        _ => None,
    }
}

/// Register a queue, function or alias with the linker (every alias after
/// every function). Indices follow registration order; references name a
/// resource without its count/for_each index, so instances register under
/// the resource's address.
pub(crate) fn register(linker: &mut Linker, kind: &str, address: &str, name: Option<&R>) {
    let id = address.split('[').next().unwrap_or(address);
    match kind {
        "aws_sqs_queue" => {
            // Every instance's name, when the name differs per instance.
            let names = name.map(|n| n.alternatives().into_iter().filter_map(|(_, r)| r.text()).collect::<Vec<_>>());
            linker.add_queue(id, names.unwrap_or_default());
        }
        "aws_lambda_function" => {
            linker.add_function(id, name.and_then(R::text));
        }
        ALIAS => {
            if let Some(function) = name {
                linker.add_function_alias(address, function);
            }
        }
        _ => {}
    }
}

/// The arguments the readers below look at for a resource of `kind`
/// (besides dead-letter targets, which are searched in every resource):
/// what a plan keeps of each resource's values.
pub(crate) fn arguments(kind: &str) -> Vec<&'static str> {
    let names = |fields: &[Field]| fields.iter().map(|f| TF.name(*f)).collect::<Vec<_>>();
    let mut out = match kind {
        "aws_sqs_queue" => {
            let mut queue = names(&QUEUE_SETTINGS);
            queue.extend(names(&[Field::QueueName, Field::FifoQueue, Field::RedrivePolicy]));
            queue.extend(["tags", "policy"]);
            queue
        }
        "aws_sqs_queue_policy" => vec!["queue_url", "policy"],
        key::KEY => vec!["policy"],
        key::KEY_POLICY => vec!["key_id", "policy"],
        key::ALIAS => vec!["name", "target_key_id"],
        "aws_sqs_queue_redrive_policy" => vec!["queue_url", TF.name(Field::RedrivePolicy)],
        "aws_lambda_function" | "aws_lambda_alias" => names(&[Field::FunctionName, Field::Timeout]),
        "aws_lambda_event_source_mapping" => names(&[
            Field::EventSource,
            Field::MappingFunction,
            Field::BatchSize,
            Field::BatchingWindow,
            Field::FunctionResponseTypes,
            Field::StartingPosition,
            Field::StartingPositionTimestamp,
            Field::DestinationConfig,
            Field::MappingRetryAttempts,
            Field::MaximumRecordAge,
            Field::BisectBatch,
            Field::ParallelizationFactor,
            Field::TumblingWindow,
        ]),
        "aws_cloudwatch_metric_alarm" => names(&[
            Field::MetricName,
            Field::Namespace,
            Field::Dimensions,
            Field::Metrics,
            Field::ComparisonOperator,
            Field::Threshold,
        ]),
        TOPIC => names(&[Field::FifoTopic]),
        "aws_sns_topic_subscription" => {
            names(&[Field::TopicArn, Field::Protocol, Field::SubscriptionEndpoint, Field::RawMessageDelivery])
        }
        "aws_cloudwatch_event_target" => {
            let mut target = names(&[Field::TargetArn, Field::SqsParameters, Field::RoleArn, Field::RetryPolicy]);
            target.extend(["rule", "target_id"]);
            target
        }
        "aws_s3_bucket_notification" => vec!["bucket", "queue"],
        "aws_pipes_pipe" => vec!["target", "target_parameters"],
        _ => Vec::new(),
    };
    out.extend(DEAD_LETTER_SHAPES.iter().map(|(holder, _)| *holder));
    out.dedup();
    out
}

const DEAD_LETTER_SHAPES: &[Shape] = &[
    ("dead_letter_config", "target_arn"),
    ("dead_letter_config", "arn"),
    ("redrive_policy", "deadLetterTargetArn"),
    ("on_failure", "destination_arn"),
    ("on_failure", "destination"),
];

/// The kind under which a `data "archive_file"` is collected: what a
/// Lambda function's `filename` may name (no model resource of its own).
pub(crate) const ARCHIVE_KIND: &str = "data.archive_file";

/// Fill `model` from the resources of one module instance.
pub(crate) fn read(resources: &[Resource], linker: &Linker, model: &mut Model) {
    let archives: Vec<&Resource> = resources.iter().filter(|r| r.kind == ARCHIVE_KIND).collect();
    for r in resources.iter().filter(|r| r.kind != ARCHIVE_KIND) {
        read_with(r, linker, &archives).add_to(model);
    }
    fifo_topics(resources.iter().filter(|r| r.kind == TOPIC), model);
    key::read(resources.iter().filter(|r| KEY_KINDS.contains(&r.kind.as_str())), model);
    read_redrive_policies(resources.iter().filter(|r| r.kind == REDRIVE_POLICY), linker, model);
}

/// The resource type that sets the RedrivePolicy of a queue declared
/// elsewhere: read once every queue is in the model.
pub(crate) const REDRIVE_POLICY: &str = "aws_sqs_queue_redrive_policy";

/// What one resource adds to the model.
#[derive(Default)]
pub(crate) struct Parts {
    queue: Option<Queue>,
    /// The queue's own `policy` (it applies to the queue above).
    queue_policy: Option<QueuePolicy>,
    function: Option<Function>,
    consumer: Option<Consumer>,
    alarm: Option<Alarm>,
    policy: Option<QueuePolicy>,
    dlq_ref: Option<DlqRef>,
    unknown_sources: Vec<UnknownSource>,
    producers: Vec<Producer>,
}

impl Parts {
    pub(crate) fn add_to(self, model: &mut Model) {
        if let Some(queue) = self.queue {
            if let Some(mut policy) = self.queue_policy {
                policy.queues = vec![Value::Known(Target::Queue(model.queues.len()))];
                model.policies.push(policy);
            }
            model.queues.push(queue);
        }
        model.functions.extend(self.function);
        model.consumers.extend(self.consumer);
        model.alarms.extend(self.alarm);
        model.policies.extend(self.policy);
        model.dlq_refs.extend(self.dlq_ref);
        model.unknown_sources.extend(self.unknown_sources);
        for p in self.producers {
            crate::producer::add(model, p);
        }
    }
}

/// What one resource is in the model (the queue of an
/// `aws_sqs_queue_redrive_policy` is set by [`read_redrive_policies`]).
pub(crate) fn read_one(r: &Resource, linker: &Linker) -> Parts {
    read_with(r, linker, &[])
}

/// [`read_one`], with the module's archives: where a Lambda function's
/// code is packaged from.
fn read_with(r: &Resource, linker: &Linker, archives: &[&Resource]) -> Parts {
    let a = Reader { r, linker };
    let mut parts = Parts::default();
    match r.kind.as_str() {
        "aws_sqs_queue" => {
            parts.queue = Some(a.queue());
            // A plan lists a queue's `policy` as unknown until apply when
            // the configuration does not set it (null): no policy of its own.
            let own = r.props.entry("policy").filter(|(_, p)| p.v != RV::Null);
            parts.queue_policy = own.map(|(_, p)| a.policy(p, Vec::new()));
        }
        "aws_lambda_function" => {
            let mut function = Function::read(r.address.clone(), a.origin(r.header), &a);
            function.code = a.code(archives);
            parts.function = Some(function);
        }
        "aws_lambda_event_source_mapping" => match a.consumer() {
            Ok(consumer) => parts.consumer = consumer,
            Err(unknown) => parts.unknown_sources = unknown,
        },
        "aws_cloudwatch_metric_alarm" => parts.alarm = Some(a.alarm()),
        "aws_sqs_queue_policy" => {
            let queues = values_at(&r.props, &["queue_url"]).into_iter().map(|(_, q)| linker.queue_target(q)).collect();
            parts.policy = r.props.entry("policy").map(|(_, p)| a.policy(p, queues));
        }
        _ => parts.producers = producer::read(&a),
    }
    if !matches!(r.kind.as_str(), "aws_sqs_queue" | REDRIVE_POLICY) {
        let found = search(&r.props, DEAD_LETTER_SHAPES);
        if !found.is_empty() {
            let target =
                attr_of(&r.source, found.iter().map(|(w, v)| (w.clone(), v)).collect(), |v| linker.queue_target(v));
            parts.dlq_ref = Some(DlqRef { target });
        }
    }
    parts
}

/// `aws_sqs_queue_redrive_policy` sets the RedrivePolicy of a queue
/// declared elsewhere.
pub(crate) fn read_redrive_policies<'r>(
    resources: impl Iterator<Item = &'r Resource>,
    linker: &Linker,
    model: &mut Model,
) {
    for r in resources {
        let a = Reader { r, linker };
        let Some((_, url)) = r.props.entry("queue_url") else { continue };
        let Value::Known(Target::Queue(qi)) = linker.queue_target(url) else { continue };
        // The queue's own redrive_policy wins; among several policy
        // resources, one that names a DLQ beats one that does not.
        let Some(queue) = model.queues.get_mut(qi) else { continue };
        let names_target = |redrive: &Attr<Redrive>| {
            redrive.alts.iter().any(|a| a.value.known().is_some_and(|r| r.target.is_set_somewhere()))
        };
        let candidate = a.redrive();
        if !queue.redrive.is_set_somewhere() || (!names_target(&queue.redrive) && names_target(&candidate)) {
            queue.redrive = candidate;
        }
    }
}
