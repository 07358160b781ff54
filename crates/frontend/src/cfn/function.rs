//! AWS::Lambda::Function and AWS::Serverless::Function: the function and
//! (SAM) its `Events: {Type: SQS}` consumers and the SQS subscriptions of
//! its `SNS` events.

use super::context::Properties;
use super::context::{Ctx, SAM_FUNCTION};
use super::resolve::{R, RV};
use super::template::Resource;
use crate::convert::{to_block, to_bool, to_f64, to_int, to_name, to_string, to_string_list};
use sqsguard_model::build::Links;
use sqsguard_model::code::{CodePlace, CodeRef, EnvVar};
use sqsguard_model::{Attr, Consumer, Dialect, Facts, Field, Function, Model, Name, ReadFields, Target, Value, Via};
use sqsguard_source::Span;
use sqsguard_syntax::Node;

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, index: usize, model: &mut Model) {
    let props = ctx.properties(res);
    let props = props.as_ref();
    let at = res.entry.key_span;
    let sam = res.kind == SAM_FUNCTION;
    let globals = sam.then(|| ctx.template.globals.and_then(|g| g.get("Function")).map(|f| ctx.resolver.resolve(f)));
    let fields = FunctionFields { props: ctx.fields(props, at), globals: globals.flatten().map(|g| (ctx, g, at)) };
    let mut function = Function::read(res.id, ctx.origin(at), &fields);
    function.code = code_ref(ctx, props, sam, res.metadata);
    model.functions.push(function);
    if sam && let Some(props) = props {
        events(ctx, res, index, props, model);
    }
}

/// Where a function's code is: SAM `CodeUri` (a folder, or a file)
/// with `Handler` and `Runtime` (each else from `Globals.Function`), SAM
/// `InlineCode` and `Code.ZipFile`, or a `Code` path that
/// `aws cloudformation package` uploads. Code in S3 is not the
/// repository's: `None`.
fn code_ref(ctx: &Ctx<'_, '_>, props: Option<&R>, sam: bool, metadata: Option<&Node>) -> Option<CodeRef> {
    let globals =
        sam.then(|| ctx.template.globals.and_then(|g| g.get("Function")).map(|f| ctx.resolver.resolve(f))).flatten();
    let get = |key: &str| -> Option<(Span, R)> {
        match props.and_then(|p| p.entry(key)) {
            Some((span, v)) => Some((span, v.clone())),
            None => globals.as_ref().and_then(|g| g.entry(key)).map(|(span, v)| (span, v.clone())),
        }
    };
    let handler = get("Handler").and_then(|(_, h)| h.literal());
    let runtime = get("Runtime").and_then(|(_, r)| r.literal());
    let asset = metadata.and_then(cdk_asset);
    let (place, origin) = if let Some((asset, span)) = asset {
        // A template `cdk synth` wrote: the code is the asset folder beside it.
        (local_place(ctx, &asset)?, ctx.origin(span))
    } else if sam {
        if let Some((span, inline)) = get("InlineCode") {
            (CodePlace::Inline { text: inline.literal()?, origin: ctx.origin(inline.span) }, ctx.origin(span))
        } else {
            let (span, uri) = get("CodeUri")?;
            let place = local_place(ctx, &uri.literal()?)?;
            let place = match (place, handler.as_deref().zip(metadata).and_then(|(h, m)| esbuild_entry(m, h))) {
                (CodePlace::Folder(folder), Some(entry)) if folder.join(&entry).is_file() => {
                    CodePlace::File(folder.join(entry))
                }
                (place, _) => place,
            };
            (place, ctx.origin(span))
        }
    } else {
        let (span, code) = get("Code")?;
        match code.entry("ZipFile") {
            Some((_, inline)) => {
                (CodePlace::Inline { text: inline.literal()?, origin: ctx.origin(inline.span) }, ctx.origin(span))
            }
            None => (local_place(ctx, &code.literal()?)?, ctx.origin(span)),
        }
    };
    let handler = handler.unwrap_or_default();
    let origin = match get("Handler") {
        Some((span, _)) if !matches!(place, CodePlace::Inline { .. }) => ctx.origin(span),
        _ => origin,
    };
    let env = get("Environment").map(|(_, e)| environment(ctx, &e)).unwrap_or_default();
    Some(CodeRef { handler, runtime, place, origin, env })
}

/// The asset folder of a function in a template `cdk synth` wrote:
/// `Metadata: {aws:asset:path: asset.abc123, aws:asset:property: Code}`.
fn cdk_asset(metadata: &Node) -> Option<(String, Span)> {
    let path = metadata.get("aws:asset:path")?;
    let property = metadata.get("aws:asset:property").and_then(Node::as_str);
    if property.is_some_and(|p| p != "Code" && p != "CodeUri") {
        return None;
    }
    Some((path.as_str()?.to_string(), path.span))
}

/// The entry point of an esbuild-built SAM function (`Metadata:
/// {BuildMethod: esbuild, BuildProperties: {EntryPoints: [app.ts]}}`) that
/// the handler's module is built from: the `.ts` file the code is read in.
fn esbuild_entry(metadata: &Node, handler: &str) -> Option<String> {
    if metadata.get("BuildMethod").and_then(Node::as_str).is_none_or(|m| !m.eq_ignore_ascii_case("esbuild")) {
        return None;
    }
    let entries = metadata.get("BuildProperties")?.get("EntryPoints")?.as_seq()?;
    let entries: Vec<&str> = entries.iter().filter_map(Node::as_str).collect();
    let module = handler.rsplit_once('.').map_or(handler, |(m, _)| m);
    let stem = |p: &str| {
        let name = p.rsplit('/').next().unwrap_or(p);
        name.rsplit_once('.').map_or(name, |(s, _)| s).to_string()
    };
    let wanted = stem(module);
    entries.iter().find(|e| stem(e) == wanted).map(|e| e.to_string())
}

/// A code path written in a template, joined to the template's folder; an
/// S3 location is not local.
fn local_place(ctx: &Ctx<'_, '_>, path: &str) -> Option<CodePlace> {
    if path.starts_with("s3://") || path.contains("${") {
        return None;
    }
    let dir = ctx.file.path.parent().unwrap_or(std::path::Path::new(""));
    let joined = dir.join(path);
    Some(if joined.is_file() { CodePlace::File(joined) } else { CodePlace::Folder(joined) })
}

/// `Environment.Variables`, each with the queue it names.
fn environment(ctx: &Ctx<'_, '_>, env: &R) -> Vec<EnvVar> {
    let Some((_, vars)) = env.entry("Variables") else { return Vec::new() };
    crate::link::env_vars(vars, ctx.linker())
}

/// SAM `Events` of `Type: SQS` are consumers, and so are `SNS` events with
/// an `SqsSubscription` (dead-letter targets of other events are found by
/// `dead_letter`).
fn events(ctx: &Ctx<'_, '_>, res: &Resource<'_>, index: usize, props: &R, model: &mut Model) {
    let Some((_, events)) = props.entry("Events") else { return };
    let RV::Map(entries) = &events.v else { return };
    for (key, key_span, event) in entries {
        let kind = event.entry("Type").and_then(|(_, t)| t.literal());
        let event_props = event.entry("Properties").map(|(_, p)| p);
        if kind.as_deref() == Some("SNS") {
            sns_subscription(ctx, res, index, (key, *key_span), event_props, model);
            if let Some(event_props) = event_props {
                super::producer::sam_subscription(ctx, res.id, *key_span, event_props, model);
            }
        }
        if kind.as_deref() != Some("SQS") {
            continue;
        }
        let at = *key_span;
        let origin = ctx.origin(at);
        let links = Links {
            queue: ctx.attr_named(event_props, "Queue", at, |r| ctx.queue_target(r)),
            queue_via: ctx.attr_named(event_props, "Queue", at, |r| ctx.queue_via(r)),
            function: Attr::known(Target::Function(index), origin.clone()),
        };
        model.consumers.push(Consumer::read(res.id, origin, links, &ctx.fields(event_props, at)));
    }
}

/// An SNS event's `SqsSubscription`: `true` has SAM create a queue
/// (`Template::sam_queues`) and a mapping with `BatchSize: 10` and nothing else;
/// `{QueueArn, QueueUrl, BatchSize, Enabled}` a mapping from that queue.
/// SAM rejects a map without QueueArn or QueueUrl, so it is no consumer
/// here either. SAM writes nothing else into the mapping: no batching
/// window, no FunctionResponseTypes, whatever else the map holds.
fn sns_subscription(
    ctx: &Ctx<'_, '_>,
    res: &Resource<'_>,
    index: usize,
    (event, at): (&str, Span),
    event_props: Option<&R>,
    model: &mut Model,
) {
    let Some((sub_at, sub)) = event_props.and_then(|p| p.entry("SqsSubscription")) else { return };
    let origin = ctx.origin(at);
    let (queue, queue_via, batch_size) = match (&sub.v, ctx.sam_queue(res.id, event)) {
        (_, Some(index)) => {
            let queue = Attr::known(Target::Queue(index), ctx.origin(sub_at));
            let via = Attr::known(Via::Arn, ctx.origin(sub_at));
            (queue, via, Attr::known(SAM_SUBSCRIPTION_BATCH_SIZE, ctx.origin(sub_at)))
        }
        (RV::Map(_), None) if sub.entry("QueueArn").is_some() && sub.entry("QueueUrl").is_some() => {
            let queue = ctx.attr_named(Some(sub), "QueueArn", sub_at, |r| ctx.queue_target(r));
            let via = ctx.attr_named(Some(sub), "QueueArn", sub_at, |r| ctx.queue_via(r));
            let batch_size = match sub.entry(Dialect::CloudFormation.name(Field::BatchSize)) {
                Some(_) => ctx.attr(Some(sub), Field::BatchSize, sub_at, to_int),
                None => Attr::known(SAM_SUBSCRIPTION_BATCH_SIZE, ctx.origin(sub_at)),
            };
            (queue, via, batch_size)
        }
        _ => return,
    };
    // `SqsSubscription: true` writes no Enabled; the map may.
    let enabled = match &sub.v {
        RV::Map(_) => ctx.attr(Some(sub), Field::MappingEnabled, sub_at, to_bool),
        _ => Attr::absent(ctx.origin(sub_at)),
    };
    let facts = Facts::new(ctx.origin(sub_at)).with(Field::BatchSize, batch_size).with(Field::MappingEnabled, enabled);
    let links = Links { queue, queue_via, function: Attr::known(Target::Function(index), origin.clone()) };
    model.consumers.push(Consumer::read(res.id, origin, links, &facts));
}

/// SAM writes `BatchSize: 10` into the mapping of an SNS event's SQS
/// subscription when the event sets none.
const SAM_SUBSCRIPTION_BATCH_SIZE: i64 = 10;

/// A function's Properties, and for a SAM function `Globals.Function`,
/// which applies to a setting the function does not set.
struct FunctionFields<'c, 't, 'a> {
    props: Properties<'c, 't, 'a>,
    globals: Option<(&'c Ctx<'t, 'a>, R, Span)>,
}

impl FunctionFields<'_, '_, '_> {
    fn read<T>(&self, field: Field, own: Attr<T>, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        match &self.globals {
            Some((ctx, g, at)) if !own.is_set_somewhere() && g.entry(Dialect::CloudFormation.name(field)).is_some() => {
                ctx.fields(Some(g), *at).get(field, conv)
            }
            _ => own,
        }
    }
}

impl ReadFields for FunctionFields<'_, '_, '_> {
    fn int(&self, field: Field) -> Attr<i64> {
        self.read(field, self.props.int(field), to_int)
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        self.read(field, self.props.boolean(field), to_bool)
    }

    fn text(&self, field: Field) -> Attr<String> {
        self.read(field, self.props.text(field), to_string)
    }

    fn name(&self, field: Field) -> Attr<Name> {
        self.read(field, self.props.name(field), to_name)
    }

    fn list(&self, field: Field) -> Attr<Vec<String>> {
        self.read(field, self.props.list(field), to_string_list)
    }

    fn number(&self, field: Field) -> Attr<f64> {
        self.read(field, self.props.number(field), to_f64)
    }

    fn block(&self, field: Field) -> Attr<bool> {
        self.read(field, self.props.block(field), to_block)
    }
}
