//! The Serverless Framework front-end: a service file (`serverless.yml`,
//! or any YAML/JSON with top-level `service` and `provider: {name: aws}`)
//! into the model.
//!
//! Variables are resolved first ([`vars`]). `resources.Resources` is
//! CloudFormation and is read by the CloudFormation front-end's code
//! (intrinsics, short tags, conditions and Metadata suppressions work as in
//! a template). Each function is a Lambda function (its `timeout`, else
//! `provider.timeout`, else the Framework's 6 s), each of its `events: -
//! sqs:` a consumer named after the function, and its `onError` and
//! `destinations.onFailure` dead-letter targets. serverless-lift's `queue`
//! constructs are modelled from their documented defaults ([`lift`]); other
//! constructs get a note. Findings point into the
//! service file, in the dialect of the Framework where it has its own
//! names (`batchSize`, `functionResponseType`).

mod lift;
pub(crate) mod vars;

use super::cfn;
use super::cfn::context::Ctx;
use super::cfn::resolve::{R, RV, Text};
use super::cfn::template::Template;
use super::convert::to_int;
use super::loaded::Loaded;
use super::stage::Stage;
use sqsguard_finding::Note;
use sqsguard_model::build::Links;
use sqsguard_model::code::{CodePlace, CodeRef};
use sqsguard_model::{Attr, Consumer, Dialect, DlqRef, Facts, Field, Function, Name, ReadFields, Target, Value};
use sqsguard_source::{Source, Span};
use sqsguard_syntax::{Entry, Kind, Node};

/// The Framework's timeout when neither the function nor the provider sets one.
pub(crate) const DEFAULT_TIMEOUT: i64 = 6;

/// The service in `root`, or `None` when it is not a Serverless Framework
/// service for AWS.
pub(crate) fn load(file: &Source, root: &Node, run: &Stage) -> Option<Loaded> {
    if provider_for(root, run) != Some(Provider::Aws) {
        return None;
    }
    let vars::Resolved { root, given, included, notes: unread } = vars::resolve_in(root, run, file);
    // What `${file(...)}` read is linted with the service, located in its
    // own file; a fragment (not a service of its own) is not linted again
    // alone.
    let fragments: Vec<std::path::PathBuf> =
        included.iter().filter(|(_, f)| !is_service_text(f)).filter_map(|(_, f)| f.path.canonicalize().ok()).collect();
    let included_files: Vec<Source> = included.iter().map(|(_, f)| f.clone()).collect();
    let file =
        &if included.is_empty() { file.clone() } else { sqsguard_source::SourceFile::with_included(file, included) };
    let mut notes: Vec<Note> = unread
        .into_iter()
        .map(|(span, message)| Note { origin: sqsguard_model::Origin::file(file, span), message })
        .collect();
    let resources = resources(file, &root, &mut notes);
    let template = Template::sections(&resources);
    let mut ctx = Ctx::for_stage(file.clone(), &template, run, &given);
    let service = root.get("service").and_then(service_name).unwrap_or_default();
    let stage = match &run.name {
        Some(name) => name.as_str(),
        None => root.get("provider").and_then(|p| p.get("stage")).and_then(Node::as_str).unwrap_or("dev"),
    };
    let functions = root.get("functions").and_then(Node::as_map).unwrap_or_default();
    // Functions are linked after the template's own, as the model lists them.
    let mut indices = Vec::with_capacity(functions.len());
    for f in functions {
        let name = match f.value.get("name").and_then(Node::as_str) {
            Some(name) => name.to_string(),
            None => format!("{service}-{stage}-{}", f.key),
        };
        indices.push(ctx.add_function(&logical_id(&f.key), Some(&Text::lit(name))));
    }
    let (mut model, suppressions) = cfn::read(&ctx);
    model.dialect = Dialect::Serverless;
    let provider_timeout = root.get("provider").and_then(|p| p.get("timeout"));
    for (f, index) in functions.iter().zip(indices) {
        let origin = ctx.origin(f.key_span);
        let timeout = match f.value.get("timeout").or(provider_timeout) {
            Some(t) => {
                let t = ctx.resolver.resolve(t);
                ctx.attr_of(t.alternatives(), to_int)
            }
            // The Framework writes `Timeout: 6` for a function without one.
            None => Attr::known(DEFAULT_TIMEOUT, origin.clone()),
        };
        let reserved_concurrency = match f.value.get(field(Field::ReservedConcurrency)) {
            Some(r) => ctx.attr_of(ctx.resolver.resolve(r).alternatives(), to_int),
            None => Attr::absent(origin.clone()),
        };
        let facts = Facts::new(origin.clone())
            .with(Field::Timeout, timeout)
            .with(Field::ReservedConcurrency, reserved_concurrency);
        let mut function = Function::read(f.key.clone(), origin.clone(), &facts);
        function.code = code_ref(&ctx, root.get("provider"), &f.value);
        model.functions.push(function);
        for event in f.value.get("events").and_then(Node::as_seq).unwrap_or_default() {
            let Some(sqs) = event.entry("sqs") else { continue };
            model.consumers.push(consumer(&ctx, &f.key, sqs.key_span, &sqs.value, index));
        }
        for target in dead_letter_targets(&f.value) {
            let target = ctx.resolver.resolve(target);
            model.dlq_refs.push(DlqRef { target: Attr::single(ctx.queue_target(&target), ctx.origin(target.span)) });
        }
    }
    constructs(&ctx, &root, &mut model, &mut notes);
    let mut loaded = super::loaded::loaded_from(file, model, suppressions);
    loaded.notes = notes;
    for included in &included_files {
        loaded.suppressions.extend(super::comment::scan(included));
        loaded.files.push(included.path.clone());
    }
    loaded.called.extend(fragments);
    // `resources.Parameters` are the stack's: overrides apply to them too.
    cfn::overridden(file, &template, run, &mut loaded);
    Some(loaded)
}

/// `constructs`: serverless-lift's queues read into the model, any other
/// construct a note.
fn constructs(ctx: &Ctx<'_, '_>, root: &Node, model: &mut sqsguard_model::Model, notes: &mut Vec<Note>) {
    for c in root.get("constructs").and_then(Node::as_map).unwrap_or_default() {
        match c.value.get("type").and_then(Node::as_str) {
            Some("queue") => lift::read(ctx, &c.key, c.key_span, &c.value, root.get("provider"), model),
            kind => notes.push(Note {
                origin: ctx.origin(c.key_span),
                message: format!(
                    "constructs.{} (type {}) was not analysed: sqsguard models serverless-lift's queue construct only",
                    c.key,
                    kind.unwrap_or("unknown")
                ),
            }),
        }
    }
}

/// `resources`: one CloudFormation fragment, or a list of them (the
/// Framework merges them; an item only known when it runs, such as
/// `${file(...)}`, is a note).
fn resources(file: &Source, root: &Node, notes: &mut Vec<Note>) -> Node {
    let Some(resources) = root.get("resources") else { return Node::new(Kind::Map(Vec::new()), Span::default()) };
    let Some(items) = resources.as_seq() else { return resources.clone() };
    let mut merged: Vec<sqsguard_syntax::Entry> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let Some(sections) = item.as_map().filter(|_| !vars::is_unresolved(item)) else {
            let origin = sqsguard_model::Origin::file(file, item.span);
            // A `${file(...)}` not read has its note already.
            if notes.iter().any(|n| n.origin.is_same_place(&origin)) {
                continue;
            }
            notes.push(Note {
                origin,
                message: format!(
                    "resources[{i}] was not analysed: it is only known when the Framework runs (a file or variable sqsguard does not read)"
                ),
            });
            continue;
        };
        for section in sections {
            match merged.iter_mut().find(|m| m.key == section.key) {
                Some(Entry { value: Node { kind: Kind::Map(into), .. }, .. }) => {
                    if let Kind::Map(more) = &section.value.kind {
                        into.extend(more.iter().cloned());
                    }
                }
                Some(_) => {}
                None => merged.push(section.clone()),
            }
        }
    }
    Node::new(Kind::Map(merged), resources.span)
}

/// What a document's top-level `service` and `provider` say it is.
#[derive(Debug, PartialEq, Eq)]
pub enum Provider {
    /// `provider: aws` or `provider: {name: aws}`: a service sqsguard reads.
    Aws,
    /// Another provider's service (`google`, `azure`): not AWS, so nothing
    /// of it is an SQS pipeline.
    Other(String),
    /// A provider written as a variable (`${opt:provider}`, `${file(...)}`):
    /// it may be AWS, and sqsguard cannot tell.
    Unwritten,
}

/// [`provider`], with a provider written as a variable resolved for `stage`
/// (`${opt:provider, 'aws'}` is AWS): still [`Provider::Unwritten`] when
/// only the deployment knows it.
pub fn provider_for(root: &Node, stage: &Stage) -> Option<Provider> {
    match provider(root) {
        Some(Provider::Unwritten) => {
            let resolved = vars::resolve(root, stage).root;
            let name = resolved.get("provider").map(|p| p.get("name").unwrap_or(p));
            match name {
                Some(n) if vars::is_unresolved(n) => Some(Provider::Unwritten),
                _ => provider(&resolved).or(Some(Provider::Unwritten)),
            }
        }
        known => known,
    }
}

/// The provider of a Serverless Framework service: `None` unless `root` has
/// both `service` and `provider` at its top, the provider a string or a
/// mapping with a `name`. The same keys deeper (a workflow step's `with:`,
/// an Ansible task) are no service.
pub(crate) fn provider(root: &Node) -> Option<Provider> {
    root.get("service")?;
    let provider = root.get("provider")?;
    let name = match &provider.kind {
        Kind::String(name) => name,
        Kind::Map(_) => match provider.get("name").map(|n| &n.kind) {
            Some(Kind::String(name)) => name,
            _ => return None,
        },
        _ => return None,
    };
    Some(if name == "aws" {
        Provider::Aws
    } else if name.contains("${") {
        Provider::Unwritten
    } else {
        Provider::Other(name.clone())
    })
}

/// Whether an included file is a service of its own (linted on its own).
fn is_service_text(file: &Source) -> bool {
    let parsed = if sqsguard_syntax::is_json(&file.path, &file.text) {
        sqsguard_syntax::json::parse(file)
    } else {
        sqsguard_syntax::yaml::parse(file)
    };
    parsed.is_ok_and(|root| provider(&root).is_some())
}

/// `service: name` or the older `service: {name: ...}`.
fn service_name(node: &Node) -> Option<String> {
    node.as_str().or_else(|| node.get("name").and_then(Node::as_str)).map(str::to_string)
}

/// The Framework's logical ID of a function: `send-email` ->
/// `SendDashemailLambdaFunction`.
fn logical_id(key: &str) -> String {
    let mut out = String::new();
    let mut chars = key.chars();
    if let Some(first) = chars.next() {
        out.extend(first.to_uppercase());
    }
    for c in chars {
        match c {
            '-' => out.push_str("Dash"),
            '_' => out.push_str("Underscore"),
            c => out.push(c),
        }
    }
    out + "LambdaFunction"
}

/// An `- sqs:` event: a bare ARN, or `{arn, batchSize, ...}`.
fn consumer(ctx: &Ctx<'_, '_>, function: &str, at: Span, sqs: &Node, index: usize) -> Consumer {
    let sqs = ctx.resolver.resolve(sqs);
    let arn_key = field(Field::EventSource);
    let (settings, queue, queue_via) = match &sqs.v {
        RV::Map(_) => (
            Some(&sqs),
            ctx.attr_named(Some(&sqs), arn_key, at, |r| ctx.queue_target(r)),
            ctx.attr_named(Some(&sqs), arn_key, at, |r| ctx.queue_via(r)),
        ),
        _ => (
            None,
            Attr::single(ctx.queue_target(&sqs), ctx.origin(sqs.span)),
            Attr::single(ctx.queue_via(&sqs), ctx.origin(sqs.span)),
        ),
    };
    let origin = ctx.origin(at);
    let links = Links { queue, queue_via, function: Attr::known(Target::Function(index), origin.clone()) };
    Consumer::read(function, origin, links, &Settings { ctx, map: settings, at })
}

/// The settings of an `- sqs:` event, by the Framework's names (flat: it
/// writes `maximumConcurrency` beside `batchSize`).
struct Settings<'c, 't, 'a> {
    ctx: &'c Ctx<'t, 'a>,
    map: Option<&'c R>,
    at: Span,
}

impl ReadFields for Settings<'_, '_, '_> {
    fn int(&self, f: Field) -> Attr<i64> {
        self.ctx.attr_named(self.map, field(f), self.at, to_int)
    }

    fn boolean(&self, f: Field) -> Attr<bool> {
        self.ctx.attr_named(self.map, field(f), self.at, super::convert::to_bool)
    }

    fn text(&self, f: Field) -> Attr<String> {
        self.ctx.attr_named(self.map, field(f), self.at, super::convert::to_string)
    }

    fn name(&self, f: Field) -> Attr<Name> {
        self.ctx.attr_named(self.map, field(f), self.at, super::convert::to_name)
    }

    /// `functionResponseType: ReportBatchItemFailures` takes one value, or a list.
    fn list(&self, f: Field) -> Attr<Vec<String>> {
        self.ctx.attr_named(self.map, field(f), self.at, one_or_many)
    }

    fn number(&self, f: Field) -> Attr<f64> {
        self.ctx.attr_named(self.map, field(f), self.at, super::convert::to_f64)
    }

    fn block(&self, f: Field) -> Attr<bool> {
        self.ctx.attr_named(self.map, field(f), self.at, super::convert::to_block)
    }
}

/// Where a function's code is (a function of `functions`, or Lift's
/// worker): `handler: path/file.function`, relative to the service's
/// folder (the Framework packages the service folder), with its `runtime`
/// (else `provider.runtime`) and its `environment` merged over
/// `provider.environment`, each value linked to the queue it names. A
/// function without a handler (a container image) has none.
pub(super) fn code_ref(ctx: &Ctx<'_, '_>, provider: Option<&Node>, function: &Node) -> Option<CodeRef> {
    let entry = function.entry("handler")?;
    let handler = ctx.resolver.resolve(&entry.value).literal()?;
    let runtime = function
        .get("runtime")
        .or_else(|| provider.and_then(|p| p.get("runtime")))
        .and_then(|r| ctx.resolver.resolve(r).literal());
    let folder = ctx.file.path.parent().unwrap_or(std::path::Path::new("")).to_path_buf();
    let mut vars: Vec<(String, Span, R)> = Vec::new();
    for env in [provider.and_then(|p| p.get("environment")), function.get("environment")].into_iter().flatten() {
        let RV::Map(entries) = ctx.resolver.resolve(env).v else { continue };
        for (name, span, value) in entries {
            vars.retain(|(n, _, _)| *n != name);
            vars.push((name, span, value));
        }
    }
    let env = crate::link::env_vars(&R::new(RV::Map(vars), entry.value.span), ctx.linker());
    Some(CodeRef { handler, runtime, place: CodePlace::Folder(folder), origin: ctx.origin(entry.value.span), env })
}

/// The Framework's name of a field.
fn field(f: Field) -> &'static str {
    Dialect::Serverless.name(f)
}

/// `functionResponseType: ReportBatchItemFailures`, or a list of them.
fn one_or_many(r: &R) -> Value<Vec<String>> {
    match (&r.v, r.literal()) {
        (RV::List(_), _) => super::convert::to_string_list(r),
        (_, Some(one)) => Value::Known(vec![one]),
        (RV::Unknown(why), _) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a response type".into()),
    }
}

/// A function's `onError` and `destinations.onFailure` (an ARN, or
/// `{type, arn}`).
fn dead_letter_targets(function: &Node) -> Vec<&Node> {
    let mut out: Vec<&Node> = function.get("onError").into_iter().collect();
    if let Some(on_failure) = function.get("destinations").and_then(|d| d.get("onFailure")) {
        out.push(on_failure.get("arn").unwrap_or(on_failure));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::logical_id;

    #[test]
    fn logical_ids_as_the_framework_writes_them() {
        assert_eq!(logical_id("worker"), "WorkerLambdaFunction");
        assert_eq!(logical_id("send-email_v2"), "SendDashemailUnderscorev2LambdaFunction");
    }
}
