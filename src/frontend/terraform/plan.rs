//! Terraform plan JSON (`terraform show -json plan.out`) into the model.
//!
//! `planned_values` gives each resource instance (root and child modules)
//! with its values; values only known after apply (ARNs, queue URLs, the
//! redrive policy that embeds a DLQ's ARN) are listed in
//! `resource_changes[].change.after_unknown`, and `configuration` says
//! which references produce them, so a mapping still links to its queue
//! and a redrive policy to its DLQ. An unknown attribute that the
//! configuration does not set at all is absent, not unknown. Findings point
//! into the plan file.
//!
//! Plans of real estates run to hundreds of megabytes, so the document is
//! never built as a tree, and a large one is never held beside its model.
//! It is read in two passes:
//! 1. serde reads the whole text once into the few structures below,
//!    borrowing every value it does not need to understand yet as raw text
//!    (which also gives its byte offset). What this pass keeps is an
//!    [`Index`]: the SQS and Lambda resources with the byte ranges of their
//!    values, their names, and what is only known after apply. A plan
//!    larger than a template's limit is read from disk here, and its text
//!    freed when the pass ends.
//! 2. The `configuration` and then the resources' values, a chunk at a
//!    time, are taken again by their byte ranges (re-read from disk for a
//!    large plan), and each resource is read into the model, keeping only
//!    the attributes the readers look at.
//!
//! So memory grows with the SQS and Lambda part of a plan, not with the
//! file (`benches/plan.sh`).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::Deserialize;
use serde_json::value::RawValue;

use rayon::prelude::*;

use super::resources::{self, Parts, Resource};
use crate::finding::Note;
use crate::frontend::link::Linker;
use crate::frontend::value::{Part, R, RV, Text};
use crate::frontend::{Broken, Loaded};
use crate::model::{Dialect, Field, Model, Origin};
use crate::source::{Source, SourceFile, Span, plain_io_error, text_of};
use crate::syntax::MAX_DEPTH;

/// The resource types whose values the readers use (the others are read
/// only for dead-letter targets).
const READ_TYPES: &[&str] = &[
    "aws_sqs_queue",
    "aws_sqs_queue_policy",
    "aws_sqs_queue_redrive_policy",
    "aws_lambda_function",
    "aws_lambda_alias",
    "aws_lambda_event_source_mapping",
    "aws_cloudwatch_metric_alarm",
];

/// Keys that hold a dead-letter target somewhere below them, in any
/// resource type, as they appear in a plan's text.
const DEAD_LETTER_MARKERS: &[&str] = &["\"dead_letter_config\"", "\"redrive_policy\"", "\"on_failure\""];

/// Plan formats this reader knows (`format_version` 1.x).
const FORMAT_MAJOR: &str = "1.";

#[derive(Deserialize)]
struct Doc<'a> {
    format_version: Option<String>,
    #[serde(borrow)]
    planned_values: Option<Planned<'a>>,
    #[serde(borrow, default)]
    resource_changes: Vec<Change<'a>>,
    #[serde(borrow)]
    configuration: Option<Configuration<'a>>,
}

#[derive(Deserialize)]
struct Planned<'a> {
    #[serde(borrow)]
    root_module: Option<PlannedModule<'a>>,
}

#[derive(Deserialize)]
struct PlannedModule<'a> {
    #[serde(borrow, default)]
    resources: Vec<PlannedResource<'a>>,
    #[serde(borrow, default)]
    child_modules: Vec<PlannedModule<'a>>,
}

#[derive(Deserialize)]
struct PlannedResource<'a> {
    /// The raw string token: its offset is where findings about the
    /// resource point.
    #[serde(borrow)]
    address: &'a RawValue,
    #[serde(borrow, default)]
    mode: Cow<'a, str>,
    #[serde(rename = "type", borrow, default)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    values: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Change<'a> {
    #[serde(borrow, default)]
    address: Cow<'a, str>,
    #[serde(borrow)]
    change: Option<ChangeBody<'a>>,
}

#[derive(Deserialize)]
struct ChangeBody<'a> {
    #[serde(borrow)]
    after_unknown: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Configuration<'a> {
    #[serde(borrow)]
    root_module: Option<&'a RawValue>,
}

/// One module of `configuration`, read when a resource of it is asked about.
#[derive(Deserialize, Default)]
struct ConfigModule<'a> {
    #[serde(borrow, default)]
    resources: Vec<ConfigResource<'a>>,
    #[serde(borrow, default)]
    module_calls: BTreeMap<String, ModuleCall<'a>>,
    #[serde(borrow, default)]
    outputs: BTreeMap<String, Output<'a>>,
}

#[derive(Deserialize)]
struct ConfigResource<'a> {
    #[serde(default)]
    address: String,
    #[serde(borrow)]
    expressions: Option<&'a RawValue>,
    #[serde(borrow)]
    for_each_expression: Option<Expression<'a>>,
}

#[derive(Deserialize)]
struct ModuleCall<'a> {
    #[serde(borrow)]
    expressions: Option<&'a RawValue>,
    #[serde(borrow)]
    module: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Output<'a> {
    #[serde(borrow)]
    expression: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Expression<'a> {
    #[serde(borrow)]
    constant_value: Option<&'a RawValue>,
    #[serde(borrow, default)]
    references: Vec<Cow<'a, str>>,
}

/// A JSON object's members in order, each value left raw.
struct Entries<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for Entries<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Entries<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some((k, v)) = map.next_entry::<Cow<'de, str>, &'de RawValue>()? {
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(Visit)
    }
}

fn entries(raw: &RawValue) -> Vec<(Cow<'_, str>, &RawValue)> {
    entries_of(raw.get())
}

/// The members of the object written in `text` (none when it is not one).
fn entries_of(text: &str) -> Vec<(Cow<'_, str>, &RawValue)> {
    serde_json::from_str::<Entries<'_>>(text).map(|e| e.0).unwrap_or_default()
}

/// The plan in `file`: `None` when it is not a plan document, `Some(Err)`
/// when it is one that cannot be read (truncated, say). A plan too large
/// to hold beside its model ([`SourceFile::unread`]) is read from its path.
pub fn load(file: &Source) -> Option<Result<Loaded, Broken>> {
    if file.is_detached() {
        return load_unread(file);
    }
    let text = file.text.as_str();
    if !looks_like_plan(text) {
        return None;
    }
    let index = match Index::read(text, file) {
        Ok(index) => index?,
        Err(broken) => return Some(Err(broken)),
    };
    Some(index.loaded(file, |span: Span| Ok(Cow::Borrowed(text.get(span.start..span.end).unwrap_or_default()))))
}

/// Cheap: a plan is a JSON object with these two keys.
fn looks_like_plan(text: &str) -> bool {
    text.trim_start().starts_with('{') && text.contains("\"format_version\"") && text.contains("\"planned_values\"")
}

/// A plan read from disk: whole for the first pass, then by ranges.
fn load_unread(file: &Source) -> Option<Result<Loaded, Broken>> {
    let broken = |file: &Source, at: usize, message: String| {
        Some(Err(Broken { file: file.clone(), span: Span::new(at, at), message }))
    };
    let path = &file.path;
    // Stamped before it is read: a change while it is read shows too.
    let (stamp, bytes) = match Stamp::of(path).and_then(|stamp| Ok((stamp, std::fs::read(path)?))) {
        Ok(read) => read,
        Err(e) => return broken(file, 0, format!("cannot read file: {}", plain_io_error(&e))),
    };
    let text = match text_of(bytes) {
        Ok(text) => text,
        Err(e) => {
            let lossy = SourceFile::new(path.clone(), e.text);
            return broken(&SourceFile::detached(&lossy), e.at, e.message);
        }
    };
    if !looks_like_plan(&text) {
        return None;
    }
    let full = SourceFile::new(path.clone(), text);
    let located = SourceFile::detached(&full);
    let index = match Index::read(&full.text, &full) {
        Ok(index) => index?,
        Err(b) => return broken(&located, b.span.start, b.message),
    };
    drop(full);
    Some(index.loaded(&located, |span: Span| stamp.read(path, span).map(Cow::Owned)))
}

/// What tells that a file changed between the two passes.
#[derive(PartialEq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(path: &std::path::Path) -> std::io::Result<Stamp> {
        let meta = std::fs::metadata(path)?;
        Ok(Stamp { len: meta.len(), modified: meta.modified().ok() })
    }

    /// The bytes of `span`, unless the file changed since it was stamped.
    fn read(&self, path: &std::path::Path, span: Span) -> Result<String, String> {
        use std::io::{Read as _, Seek as _};
        let changed = || "the file changed while it was read; lint it again".to_string();
        let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
        if Stamp::of(path).ok().as_ref() != Some(self) {
            return Err(changed());
        }
        let mut bytes = vec![0; span.len()];
        f.seek(std::io::SeekFrom::Start(span.start as u64))
            .and_then(|_| f.read_exact(&mut bytes))
            .map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
        String::from_utf8(bytes).map_err(|_| changed())
    }
}

fn syntax_message(e: &serde_json::Error) -> String {
    match e.classify() {
        serde_json::error::Category::Data => {
            format!("not a Terraform plan as `terraform show -json` writes it: {e}")
        }
        _ => format!("JSON syntax error: {e}"),
    }
}

/// What the first pass keeps of a plan: enough to read each resource on
/// its own in the second.
struct Index {
    version: String,
    /// The resources the readers use, in the plan's order.
    planned: Vec<Instance>,
    /// Queue and function names, so that references link.
    linker: Linker,
    /// The attributes of each resource known only after apply.
    unknown: HashMap<String, Vec<&'static str>>,
    /// `configuration.root_module`.
    configuration: Option<Span>,
}

/// A resource read in the second pass: into the model, or (a redrive
/// policy declared apart from its queue) once every queue is in it.
// Held a chunk at a time, moved once: boxing would allocate per resource.
#[allow(clippy::large_enum_variant)]
enum Read {
    Parts(Parts),
    Later(Resource),
}

/// A resource instance of the plan, its values left in the file.
struct Instance {
    address: String,
    /// The address string: where findings about the resource point.
    header: Span,
    kind: String,
    values: Option<Span>,
}

impl Index {
    /// The first pass over the whole `text` of `file`: `Ok(None)` when it
    /// is not a plan document after all.
    fn read(text: &str, file: &Source) -> Result<Option<Index>, Broken> {
        let doc: Doc<'_> = match serde_json::from_str(text) {
            Ok(doc) => doc,
            Err(e) => {
                let at = match e.classify() {
                    // Where the text ends, not on the last character read.
                    serde_json::error::Category::Eof => text.len(),
                    // serde_json counts the column in bytes.
                    _ => file
                        .line_offset(e.line().saturating_sub(1))
                        .map_or(0, |start| start + e.column().saturating_sub(1)),
                };
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                return Err(Broken { file: file.clone(), span: Span::new(at, at), message: syntax_message(&e) });
            }
        };
        let Some(version) = doc.format_version.clone() else { return Ok(None) };
        let Some(root) = doc.planned_values.as_ref().and_then(|p| p.root_module.as_ref()) else { return Ok(None) };
        let after_unknown: HashMap<&str, &RawValue> = doc
            .resource_changes
            .iter()
            .filter_map(|c| Some((c.address.as_ref(), c.change.as_ref()?.after_unknown?)))
            .collect();
        let configuration = doc.configuration.as_ref().and_then(|c| c.root_module);
        let mut all = Vec::new();
        collect(root, &mut all, 0);
        // Another resource matters for a dead-letter target it holds: in its
        // values, or among what is only known after apply (an SNS
        // subscription's redrive policy naming a queue's ARN, say).
        let holds = |raw: &RawValue| DEAD_LETTER_MARKERS.iter().any(|m| raw.get().contains(m));
        // Each resource on its own, in parallel; the index in order.
        let read: Vec<(String, &PlannedResource<'_>, Vec<&'static str>)> = all
            .par_iter()
            .filter_map(|&r| {
                let address = serde_json::from_str::<String>(r.address.get()).ok()?;
                let after = after_unknown.get(address.as_str()).copied();
                if !(READ_TYPES.contains(&r.kind.as_ref()) || r.values.is_some_and(holds) || after.is_some_and(holds)) {
                    return None;
                }
                // Only what the readers look at: a plan lists most
                // attributes of a new resource as unknown.
                let read = resources::arguments(&r.kind);
                let entries = after.map(entries).unwrap_or_default();
                let later = entries
                    .iter()
                    .filter(|(_, v)| v.get() == "true")
                    .filter_map(|(k, _)| read.iter().find(|a| **a == k.as_ref()).copied())
                    .collect();
                Some((address, r, later))
            })
            .collect();
        let mut planned = Vec::with_capacity(read.len());
        let mut unknown = HashMap::new();
        for (address, r, later) in read {
            if !later.is_empty() {
                unknown.insert(address.clone(), later);
            }
            planned.push((address, r));
        }
        // The configuration says what a name unknown until apply is made
        // of; it is indexed here only when some name is.
        let mut modules = HashMap::new();
        let unknown_name = |(address, r): &(String, &PlannedResource<'_>)| {
            resources::name_argument(&r.kind).is_some_and(|key| unknown.get(address).is_some_and(|u| u.contains(&key)))
        };
        if let Some(root) = configuration
            && planned.iter().any(unknown_name)
        {
            read_modules(root, Vec::new(), &mut modules);
        }
        let plan = Plan { texts: vec![(text, 0)], located: file, unknown: &unknown, modules: &modules };
        let names: Vec<Option<Option<R>>> = planned
            .par_iter()
            .map(|(address, r)| {
                let key = resources::name_argument(&r.kind)?;
                Some(plan.argument(r.values, address, key, plan.span(r.address)))
            })
            .collect();
        let mut linker = Linker::new(Dialect::Terraform.name(Field::QueueName), resources::QUEUE_URL_ATTRIBUTES);
        // Every alias after every function, as `resources::link` does.
        for alias in [false, true] {
            for ((address, r), name) in planned.iter().zip(&names) {
                if let Some(name) = name.as_ref().filter(|_| (r.kind == "aws_lambda_alias") == alias) {
                    resources::register(&mut linker, &r.kind, address, name.as_ref());
                }
            }
        }
        let planned = planned
            .into_iter()
            .map(|(address, r)| Instance {
                address,
                header: plan.span(r.address),
                kind: r.kind.to_string(),
                values: r.values.map(|v| plan.span(v)),
            })
            .collect();
        let configuration = configuration.map(|c| plan.span(c));
        Ok(Some(Index { version, planned, linker, unknown, configuration }))
    }

    /// The second pass: the model, its findings located in `located`, the
    /// text of each range taken with `fetch`.
    fn loaded<'t>(
        self,
        located: &Source,
        fetch: impl Fn(Span) -> Result<Cow<'t, str>, String>,
    ) -> Result<Loaded, Broken> {
        let broken = |span: Span, message: String| Broken {
            file: located.clone(),
            span: Span::new(span.start, span.start),
            message,
        };
        let mut notes = Vec::new();
        if !self.version.starts_with(FORMAT_MAJOR) {
            notes.push(Note {
                origin: Origin::file(located, Span::new(0, 0)),
                message: format!(
                    "plan format_version {} is newer than the 1.x sqsguard knows; it was read as far as it could be",
                    self.version
                ),
            });
        }
        let configuration = match self.configuration {
            Some(span) => Some((fetch(span).map_err(|m| broken(span, m))?, span.start)),
            None => None,
        };
        let mut modules = HashMap::new();
        if let Some((text, _)) = &configuration
            && let Ok(root) = serde_json::from_str::<&RawValue>(text)
        {
            read_modules(root, Vec::new(), &mut modules);
        }
        let mut model = Model { dialect: Dialect::Terraform, ..Model::default() };
        let count = |kind: &str| self.planned.iter().filter(|r| r.kind == kind).count();
        model.queues.reserve_exact(count("aws_sqs_queue"));
        model.consumers.reserve_exact(count("aws_lambda_event_source_mapping"));
        let mut redrive = Vec::new();
        // In chunks: the values of a chunk's resources are taken at once
        // (the plan writes them one after another), read in parallel, and
        // dropped once their parts are in the model.
        for chunk in self.planned.chunks(4096) {
            let spans = || chunk.iter().filter_map(|r| r.values);
            let region = match (spans().map(|s| s.start).min(), spans().map(|s| s.end).max()) {
                (Some(start), Some(end)) => Span::new(start, end),
                _ => Span::default(),
            };
            let values =
                if region.is_empty() { Cow::Borrowed("") } else { fetch(region).map_err(|m| broken(region, m))? };
            let mut texts = vec![(values.as_ref(), region.start)];
            texts.extend(configuration.as_ref().map(|(text, start)| (text.as_ref(), *start)));
            let plan = Plan { texts, located, unknown: &self.unknown, modules: &modules };
            let read: Vec<Read> = chunk
                .par_iter()
                .map(|r| {
                    // Read as the object it was in the first pass.
                    let text = r.values.and_then(|span| values.get(span.start - region.start..span.end - region.start));
                    let resource = plan.resource(r, text);
                    if resource.kind == resources::REDRIVE_POLICY {
                        Read::Later(resource)
                    } else {
                        Read::Parts(resources::read_one(&resource, &self.linker))
                    }
                })
                .collect();
            for r in read {
                match r {
                    Read::Parts(parts) => parts.add_to(&mut model),
                    Read::Later(resource) => redrive.push(resource),
                }
            }
        }
        resources::read_redrive_policies(redrive.iter(), &self.linker, &mut model);
        Ok(Loaded { model, notes, files: vec![located.path.clone()], ..Loaded::default() })
    }
}

/// Every managed resource instance of a module and its children, in order.
fn collect<'p, 'a>(module: &'p PlannedModule<'a>, out: &mut Vec<&'p PlannedResource<'a>>, depth: usize) {
    if depth > 16 {
        return;
    }
    out.extend(module.resources.iter().filter(|r| r.mode == "managed"));
    for child in &module.child_modules {
        collect(child, out, depth + 1);
    }
}

/// Every module of the configuration, by module path.
fn read_modules<'a>(raw: &'a RawValue, path: Vec<String>, out: &mut HashMap<Vec<String>, Indexed<'a>>) {
    if path.len() > 16 {
        return;
    }
    let Some(module) = read_module(raw) else { return };
    for (name, call) in &module.module.module_calls {
        if let Some(child) = call.module {
            let mut child_path = path.clone();
            child_path.push(name.clone());
            read_modules(child, child_path, out);
        }
    }
    out.insert(path, module);
}

struct Plan<'p, 'a> {
    /// The texts raw values point into, with where each starts in the file.
    texts: Vec<(&'a str, usize)>,
    /// What findings point at.
    located: &'p Source,
    /// The attributes of each resource known only after apply.
    unknown: &'p HashMap<String, Vec<&'static str>>,
    /// The configuration's modules, by module path.
    modules: &'p HashMap<Vec<String>, Indexed<'a>>,
}

/// A configuration module with its resources by address.
struct Indexed<'a> {
    module: ConfigModule<'a>,
    by_address: HashMap<String, usize>,
}

impl<'p, 'a> Plan<'p, 'a> {
    fn span(&self, raw: &RawValue) -> Span {
        self.span_of(raw.get())
    }

    /// Where a slice of one of the texts is in the file.
    fn span_of(&self, text: &str) -> Span {
        let at = text.as_ptr() as usize;
        let start = self
            .texts
            .iter()
            .find_map(|&(whole, start)| {
                let base = whole.as_ptr() as usize;
                (base..=base + whole.len()).contains(&at).then(|| start + (at - base))
            })
            .unwrap_or(0);
        Span::new(start, start + text.len())
    }

    /// One planned resource, its values (the text of a JSON object) kept
    /// to what the readers look at.
    fn resource(&self, r: &Instance, values: Option<&'a str>) -> Resource {
        let mut props = match values {
            Some(values) => self.values(values, &r.kind),
            None => R::new(RV::Map(Vec::new()), r.header),
        };
        self.overlay_unknown(&r.address, &mut props, r.header);
        Resource {
            kind: r.kind.clone(),
            address: r.address.clone(),
            source: self.located.clone(),
            header: r.header,
            props,
        }
    }

    /// One argument of a resource: its planned value, or what the
    /// configuration says it is made of when it is only known after apply.
    fn argument(&self, values: Option<&'a RawValue>, address: &str, key: &str, header: Span) -> Option<R> {
        let planned = values.map(entries).unwrap_or_default().into_iter().find(|(k, _)| k == key);
        if let Some((_, v)) = planned {
            let value = self.value(v, 1);
            if value.v != RV::Null {
                return Some(value);
            }
        }
        if !self.unknown.get(address).is_some_and(|later| later.contains(&key)) {
            return None;
        }
        let (module_path, config_address) = split_address(address);
        let expressions = self.config_expressions(&module_path, &config_address);
        let (_, expression) = expressions.into_iter().find(|(k, _)| k == key)?;
        let expression = serde_json::from_str::<Expression<'_>>(expression.get()).ok()?;
        Some(self.expression(key, &expression, &module_path, header))
    }

    /// A raw value of the file as a resolved value, located.
    fn value(&self, raw: &'a RawValue, depth: usize) -> R {
        let span = self.span(raw);
        let text = raw.get();
        let v = match text.as_bytes().first() {
            _ if depth > MAX_DEPTH => RV::Unknown("nested too deeply".into()),
            Some(b'{') => RV::Map(
                entries(raw)
                    .into_iter()
                    .map(|(k, v)| {
                        let value = self.value(v, depth + 1);
                        (k.into_owned(), value.span, value)
                    })
                    .collect(),
            ),
            Some(b'[') => RV::List(
                serde_json::from_str::<Vec<&RawValue>>(text)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|v| self.value(v, depth + 1))
                    .collect(),
            ),
            Some(b'"') => match serde_json::from_str::<Cow<'_, str>>(text) {
                Ok(s) => RV::Str(Text::lit(s.into_owned())),
                Err(_) => RV::Unknown("not a string".into()),
            },
            Some(b't') => RV::Bool(true),
            Some(b'f') => RV::Bool(false),
            Some(b'n') => RV::Null,
            _ => match text.parse::<f64>() {
                Ok(n) => RV::Num(n),
                Err(_) => RV::Str(Text::lit(text)),
            },
        };
        R::new(v, span)
    }

    /// A resource's values, with only the arguments its readers look at and
    /// what holds a dead-letter target: most of a plan's size is dropped
    /// here, so memory grows with the SQS part of a plan.
    fn values(&self, text: &'a str, kind: &str) -> R {
        let keep = resources::arguments(kind);
        let kept = entries_of(text)
            .into_iter()
            .filter(|(k, v)| keep.contains(&k.as_ref()) || DEAD_LETTER_MARKERS.iter().any(|m| v.get().contains(m)))
            .map(|(k, v)| {
                let value = self.value(v, 1);
                (k.into_owned(), value.span, value)
            })
            .collect();
        R::new(RV::Map(kept), self.span_of(text))
    }

    /// Attributes unknown until apply: what the configuration says they
    /// are made of, or absent when it does not set them.
    fn overlay_unknown(&self, address: &str, props: &mut R, header: Span) {
        let Some(unknown) = self.unknown.get(address) else { return };
        let (module_path, config_address) = split_address(address);
        let expressions = self.config_expressions(&module_path, &config_address);
        // `for_each = aws_sqs_queue.tenant` (or `module.queue`): this
        // instance's `each.value` is that resource's (module's) instance.
        let chained = self
            .with_module(&module_path, |m| {
                let i = *m.by_address.get(config_address.as_str())?;
                let for_each = m.module.resources.get(i)?.for_each_expression.as_ref()?;
                for_each.references.iter().find(|r| r.split('.').count() == 2).map(|r| r.to_string())
            })
            .filter(|r| r.starts_with("aws_") || r.starts_with("module."));
        let RV::Map(props) = &mut props.v else { return };
        for key in unknown {
            let at = props.iter().find(|(k, _, _)| k == key).map_or(header, |(_, _, v)| v.span);
            let expression = expressions.iter().find(|(k, _)| k == key).map(|(_, e)| *e);
            let value = match expression.and_then(|e| serde_json::from_str::<Expression<'_>>(e.get()).ok()) {
                None => R::new(RV::Null, at),
                Some(mut expr) => {
                    if let Some(chained) = &chained {
                        for reference in &mut expr.references {
                            if let Some(rest) = reference.strip_prefix("each.value.") {
                                *reference = Cow::Owned(format!("{chained}.{rest}"));
                            }
                        }
                    }
                    self.expression(key, &expr, &module_path, at)
                }
            };
            props.retain(|(k, _, _)| k != key);
            props.push((key.to_string(), at, value));
        }
    }

    /// A configuration expression of an attribute whose planned value is unknown.
    fn expression(&self, key: &str, expr: &Expression<'a>, module_path: &[String], at: Span) -> R {
        if let Some(constant) = expr.constant_value {
            return self.value(constant, 1).relocated(at);
        }
        let Some(reference) = self.first_reference(expr, module_path, 0) else {
            return R::unknown(format!("{key} is only known after apply"), at);
        };
        let reference = R::new(RV::Str(Text(vec![reference])), at);
        // The references say what a structured value is built from, not
        // where: read them the way these attributes are always written.
        let inside = |field: &str| R::new(RV::Map(vec![(field.to_string(), at, reference.clone())]), at);
        match key {
            "redrive_policy" => inside("deadLetterTargetArn"),
            "dimensions" => inside("QueueName"),
            "policy" | "redrive_allow_policy" | "tags" | "tags_all" => {
                R::unknown(format!("{key} is only known after apply"), at)
            }
            _ => reference,
        }
    }

    /// The first reference of `expr` that leads to a resource attribute,
    /// following module outputs and module arguments.
    fn first_reference(&self, expr: &Expression<'a>, module_path: &[String], depth: usize) -> Option<Part> {
        if depth > 16 {
            return None;
        }
        for reference in &expr.references {
            let parts: Vec<&str> = reference.split('.').collect();
            let found = match parts.as_slice() {
                ["module", name, output, ..] => {
                    let mut path = module_path.to_vec();
                    path.push(name.to_string());
                    let output = self.with_module(&path, |m| m.module.outputs.get(*output)?.expression)?;
                    let output = serde_json::from_str::<Expression<'_>>(output.get()).ok()?;
                    self.first_reference(&output, &path, depth + 1)
                }
                ["var", name, ..] => {
                    let (call, parent) = module_path.split_last()?;
                    let parent = parent.to_vec();
                    let args = self.with_module(&parent, |m| m.module.module_calls.get(call)?.expressions)?;
                    let (_, arg) = entries(args).into_iter().find(|(k, _)| k == name)?;
                    let arg = serde_json::from_str::<Expression<'_>>(arg.get()).ok()?;
                    match arg.constant_value {
                        Some(c) => self.value(c, 1).literal().map(Part::Lit),
                        None => self.first_reference(&arg, &parent, depth + 1),
                    }
                }
                [kind, name, attribute, ..] if kind.starts_with("aws_") => {
                    let prefix: String = module_path.iter().map(|m| format!("module.{m}.")).collect();
                    let name = name.split('[').next().unwrap_or(name);
                    Some(Part::Attr { resource: format!("{prefix}{kind}.{name}"), attribute: attribute.to_string() })
                }
                _ => None,
            };
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The `expressions` of a configuration resource, each left raw.
    fn config_expressions(&self, path: &[String], address: &str) -> Vec<(Cow<'a, str>, &'a RawValue)> {
        let raw = self.with_module(path, |m| {
            let i = *m.by_address.get(address)?;
            m.module.resources.get(i)?.expressions
        });
        raw.map(entries).unwrap_or_default()
    }

    /// Run `f` on the configuration module at `path`.
    fn with_module<T>(&self, path: &[String], f: impl FnOnce(&Indexed<'a>) -> Option<T>) -> Option<T> {
        f(self.modules.get(path)?)
    }
}

fn read_module<'a>(raw: &'a RawValue) -> Option<Indexed<'a>> {
    let module: ConfigModule<'a> = serde_json::from_str(raw.get()).ok()?;
    let mut by_address = HashMap::new();
    for (i, r) in module.resources.iter().enumerate() {
        by_address.entry(r.address.clone()).or_insert(i);
    }
    Some(Indexed { module, by_address })
}

/// `module.a.module.b.aws_sqs_queue.q["x"]` -> (["a", "b"], "aws_sqs_queue.q").
fn split_address(address: &str) -> (Vec<String>, String) {
    let mut path = Vec::new();
    let mut rest = address;
    while let Some(after) = rest.strip_prefix("module.") {
        let end = after.find('.').unwrap_or(after.len());
        let name = &after[..end];
        path.push(name.split('[').next().unwrap_or(name).to_string());
        rest = after.get(end + 1..).unwrap_or_default();
    }
    let config = match rest.find('[') {
        Some(i) => &rest[..i],
        None => rest,
    };
    (path, config.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    #[test]
    fn addresses_split_into_module_path_and_config_address() {
        assert_eq!(split_address("aws_sqs_queue.q[0]"), (vec![], "aws_sqs_queue.q".to_string()));
        assert_eq!(
            split_address("module.a[\"x\"].module.b.aws_sqs_queue.main"),
            (vec!["a".to_string(), "b".to_string()], "aws_sqs_queue.main".to_string())
        );
    }

    #[test]
    fn a_truncated_plan_is_broken_where_it_ends() {
        let text = r#"{"format_version": "1.2", "planned_values": {"root_module": {"resources": [{"address": "#;
        let file = SourceFile::new("plan.json", text.to_string());
        let Some(Err(broken)) = load(&file) else { panic!("not broken") };
        assert!(broken.message.contains("EOF"), "{}", broken.message);
        assert_eq!(broken.span.start, text.len());
    }

    #[test]
    fn a_plan_that_changes_between_the_passes_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.json");
        std::fs::write(&path, "{\"a\": 1}").unwrap();
        let stamp = Stamp::of(&path).unwrap();
        assert_eq!(stamp.read(&path, Span::new(1, 4)).unwrap(), "\"a\"");
        std::fs::write(&path, "{\"a\": 12}").unwrap();
        let e = stamp.read(&path, Span::new(1, 4)).unwrap_err();
        assert!(e.contains("changed while it was read"), "{e}");
    }

    #[test]
    fn other_json_is_not_a_plan() {
        let file = SourceFile::new("x.json", r#"{"AWSTemplateFormatVersion": "2010-09-09"}"#.to_string());
        assert!(load(&file).is_none());
    }
}
