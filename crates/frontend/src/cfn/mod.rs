//! The CloudFormation and SAM front-end: a spanned tree in, a [`Model`] out.
//!
//! `template` finds the sections, `resolve` evaluates intrinsics, `context`
//! links references and converts values, and one file per resource family
//! (`queue`, `function`, `mapping`, `alarm`, `policy`, `dead_letter`)
//! fills the model.

mod alarm;
pub(crate) mod context;
mod dead_letter;
mod function;
mod key;
mod mapping;
pub(crate) mod payload;
mod policy;
mod producer;
mod queue;
pub(crate) mod resolve;
pub(crate) mod template;

use context::{Ctx, FUNCTION, QUEUE, SAM_FUNCTION};
use template::Template;

use super::loaded::Loaded;
use super::stage::Stage;
use sqsguard_model::{Model, Scope, Suppression, Written};
use sqsguard_source::Source;
use sqsguard_syntax::Node;

/// The template in `root`, or `None` when it is not a CloudFormation/SAM
/// template.
pub(crate) fn load(file: &Source, root: &Node, stage: &Stage) -> Option<Loaded> {
    let template = Template::find(root)?;
    let given = std::collections::HashMap::new();
    let ctx = Ctx::for_stage(file.clone(), &template, stage, &given);
    let (model, declared) = read(&ctx);
    let mut loaded = super::loaded::loaded_from(file, model, declared);
    overridden(file, &template, stage, &mut loaded);
    Some(loaded)
}

/// Which of the stage's Parameter values this template declares (one run
/// lints many templates: a value no template declares is said once, by
/// the command line), and a note for a value the parameter's
/// AllowedValues refuse (CloudFormation would refuse the deployment).
pub(crate) fn overridden(file: &Source, template: &Template<'_>, stage: &Stage, loaded: &mut Loaded) {
    for given in &stage.overrides {
        let Some(param) = template.parameter(&given.key) else { continue };
        if !loaded.parameters.contains(&given.key) {
            loaded.parameters.push(given.key.clone());
        }
        let Some(allowed) = param.get("AllowedValues").and_then(Node::as_seq) else { continue };
        let allowed: Vec<String> = allowed.iter().filter_map(scalar).collect();
        if !allowed.contains(&given.value) && stage.parameter(&given.key) == Some(given) {
            loaded.notes.push(sqsguard_finding::Note {
                origin: sqsguard_model::Origin::file(file, param.span),
                message: format!(
                    "{}: parameter {} allows only {}, so CloudFormation would refuse this value; it is linted as given",
                    given.from,
                    given.key,
                    allowed.join(", ")
                ),
            });
        }
    }
}

/// A scalar as CloudFormation compares it (every value is a string).
fn scalar(node: &Node) -> Option<String> {
    match &node.kind {
        sqsguard_syntax::Kind::String(s) | sqsguard_syntax::Kind::Number(s) => Some(s.clone()),
        sqsguard_syntax::Kind::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The model of the resources of the template `ctx` reads, and the
/// suppressions their Metadata declares.
pub(crate) fn read(ctx: &Ctx<'_, '_>) -> (Model, Vec<Suppression>) {
    let template = ctx.template;
    let mut model = Model::default();
    let mut declared = Vec::new();
    let mut function_index = 0;
    for res in &template.resources {
        match res.kind {
            QUEUE => model.queues.push(queue::read(ctx, res)),
            FUNCTION | SAM_FUNCTION => {
                function::read(ctx, res, function_index, &mut model);
                function_index += 1;
            }
            "AWS::Lambda::EventSourceMapping" => mapping::read(ctx, res, &mut model),
            "AWS::CloudWatch::Alarm" => alarm::read(ctx, res, &mut model),
            "AWS::SQS::QueuePolicy" | "AWS::SQS::QueueInlinePolicy" => policy::read(ctx, res, &mut model),
            "AWS::KMS::Key" => key::read(ctx, res, &mut model),
            _ => producer::read(ctx, res, &mut model),
        }
        if res.kind != QUEUE {
            dead_letter::read(ctx, res, &mut model);
        }
        if let Some(path) = res.metadata.and_then(|m| m.get("aws:cdk:path")).and_then(Node::as_str) {
            model.construct_paths.insert(res.id.to_string(), path.into());
        }
        declared.extend(suppressions(ctx, res));
    }
    model.queues.extend(template.sam_queues.iter().map(|created| queue::sam_created(ctx, created)));
    producer::connectors(ctx, &mut model);
    key::link(ctx, &mut model);
    (model, declared)
}

/// Metadata `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}`. A single
/// entry without the list, a bare code or rule name, and `rule` as a list
/// or a comma-separated string work too; `check` gives anything else a
/// note (a suppression naming no rule), never silence.
fn suppressions(ctx: &Ctx<'_, '_>, res: &template::Resource<'_>) -> Vec<Suppression> {
    let Some(ignore) = res.metadata.and_then(|m| m.get("sqsguard")).and_then(|s| s.get("ignore")) else {
        return Vec::new();
    };
    let items: Vec<&Node> = match ignore.as_seq() {
        Some(items) => items.iter().collect(),
        None => vec![ignore],
    };
    items
        .into_iter()
        .map(|item| {
            let rule = if item.as_map().is_some() { item.get("rule") } else { Some(item) };
            let rules: Vec<String> = match rule {
                Some(n) => match n.as_seq() {
                    Some(list) => list.iter().map(|n| n.as_str().unwrap_or_default().trim().to_string()).collect(),
                    None => n.as_str().unwrap_or_default().split(',').map(|r| r.trim().to_string()).collect(),
                },
                None => Vec::new(),
            };
            let reason = item.get("reason").and_then(Node::as_str).map(str::trim).filter(|r| !r.is_empty());
            Suppression {
                written: Written::Listed { rules, reason: reason.map(str::to_string) },
                origin: ctx.origin(item.span),
                scope: Scope::Resource(res.id.to_string()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_model::{Target, Value};
    use sqsguard_source::SourceFile;
    use sqsguard_syntax::yaml;

    const SNS_EVENTS: &str = "Transform: AWS::Serverless-2016-10-31
Resources:
  Plain:
    Type: AWS::SNS::Topic
  Ordered:
    Type: AWS::SNS::Topic
    Properties: {FifoTopic: true, TopicName: ordered.fifo}
  Declared:
    Type: AWS::SQS::Queue
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      Events:
        A: {Type: SNS, Properties: {Topic: !Ref Plain, SqsSubscription: true}}
        B: {Type: SNS, Properties: {Topic: !Ref Ordered, SqsSubscription: true}}
        C: {Type: SNS, Properties: {Topic: !Ref Plain, SqsSubscription: {QueueArn: !GetAtt Declared.Arn, QueueUrl: !Ref Declared, BatchSize: 3, FunctionResponseTypes: [ReportBatchItemFailures]}}}
        D: {Type: SNS, Properties: {Topic: !Ref Plain}}
";

    fn values<T: Clone>(attr: &sqsguard_model::Attr<T>) -> Vec<Value<T>> {
        attr.iter().map(|alt| alt.value.clone()).collect()
    }

    #[test]
    fn sam_creates_a_queue_and_mapping_for_an_sns_sqs_subscription() {
        let file = SourceFile::new("t.yaml", SNS_EVENTS.to_string());
        let root = yaml::parse(&file).unwrap();
        let template = Template::find(&root).unwrap();
        let (model, _) = read(&Ctx::new(file.clone(), &template));
        let ids: Vec<&str> = model.queues.iter().map(|q| q.resource.as_str()).collect();
        assert_eq!(ids, ["Declared", "FnAQueue", "FnBQueue"]);
        assert!(!model.queues[1].fifo.is_set_somewhere(), "a standard topic's queue keeps the default");
        assert!(model.queues[2].fifo.any_known(|f| *f), "a FIFO topic gets a FIFO queue");
        let at = |q: usize| model.queues[q].origin.location().unwrap().line;
        assert_eq!((at(1), at(2)), (14, 15), "located at the event's SqsSubscription");
        type QueueAndBatch = (Vec<Value<Target>>, Vec<Value<i64>>);
        let consumers: Vec<QueueAndBatch> =
            model.consumers.iter().map(|c| (values(&c.queue), values(&c.batch_size))).collect();
        let one = |q: usize, batch: i64| (vec![Value::Known(Target::Queue(q))], vec![Value::Known(batch)]);
        assert_eq!(consumers, [one(1, 10), one(2, 10), one(0, 3)]);
        // SAM writes only BatchSize and Enabled into that mapping.
        assert!(matches!(model.consumers[2].response_types.alts[0].value, Value::Absent));
    }
}
