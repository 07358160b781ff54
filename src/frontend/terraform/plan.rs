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
//! never built as a tree: serde reads it once into the few structures
//! below, borrowing every value it does not need to understand yet as raw
//! text of the file (which also gives its byte offset), and only the
//! values of the resources the rules read are parsed, one resource at a
//! time, keeping only the attributes the readers look at.

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
use crate::source::{Source, SourceFile, Span};
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
    serde_json::from_str::<Entries<'_>>(raw.get()).map(|e| e.0).unwrap_or_default()
}

/// The plan in `file`: `None` when it is not a plan document, `Some(Err)`
/// when it is one that cannot be read (truncated, say).
pub fn load(file: &Source) -> Option<Result<Loaded, Broken>> {
    let text = file.text.as_str();
    // Cheap: a plan is a JSON object with these two keys.
    if !text.trim_start().starts_with('{')
        || !text.contains("\"format_version\"")
        || !text.contains("\"planned_values\"")
    {
        return None;
    }
    let doc: Doc<'_> = match serde_json::from_str(text) {
        Ok(doc) => doc,
        Err(e) => {
            let at = match e.classify() {
                // Where the text ends, not on the last character read.
                serde_json::error::Category::Eof => text.len(),
                // serde_json counts the column in bytes.
                _ => {
                    file.line_offset(e.line().saturating_sub(1)).map_or(0, |start| start + e.column().saturating_sub(1))
                }
            };
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let message = match e.classify() {
                serde_json::error::Category::Data => {
                    format!("not a Terraform plan as `terraform show -json` writes it: {e}")
                }
                _ => format!("JSON syntax error: {e}"),
            };
            return Some(Err(Broken { file: file.clone(), span: Span::new(at, at), message }));
        }
    };
    let version = doc.format_version.as_deref()?;
    let root = doc.planned_values.as_ref().and_then(|p| p.root_module.as_ref())?;
    // Findings locate into a plan too large to keep in memory without its
    // text, which is freed once the plan is read.
    let located = if file.text.len() as u64 > crate::source::MAX_TEMPLATE_BYTES {
        SourceFile::detached(file)
    } else {
        file.clone()
    };
    let mut notes = Vec::new();
    if !version.starts_with(FORMAT_MAJOR) {
        notes.push(Note {
            origin: Origin::file(&located, Span::new(0, 0)),
            message: format!(
                "plan format_version {version} is newer than the 1.x sqsguard knows; it was read as far as it could be"
            ),
        });
    }
    let mut modules = HashMap::new();
    if let Some(root) = doc.configuration.as_ref().and_then(|c| c.root_module) {
        read_modules(root, Vec::new(), &mut modules);
    }
    let plan = Plan {
        file,
        located: &located,
        unknown: doc
            .resource_changes
            .iter()
            .filter_map(|c| Some((c.address.as_ref(), c.change.as_ref()?.after_unknown?)))
            .collect(),
        modules,
    };
    let mut planned = Vec::new();
    collect(root, &mut planned, 0);
    let model = plan.model(&planned);
    Some(Ok(Loaded { model, notes, files: vec![file.path.clone()], ..Loaded::default() }))
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
    /// The plan's text, which raw values point into.
    file: &'p Source,
    /// What findings point at (the same file, maybe without its text).
    located: &'p Source,
    /// `after_unknown` of each resource instance, by address.
    unknown: HashMap<&'a str, &'a RawValue>,
    /// The configuration's modules, by module path.
    modules: HashMap<Vec<String>, Indexed<'a>>,
}

/// A configuration module with its resources by address.
struct Indexed<'a> {
    module: ConfigModule<'a>,
    by_address: HashMap<String, usize>,
}

impl<'p, 'a> Plan<'p, 'a> {
    /// Where a raw value starts in the file.
    fn offset(&self, raw: &RawValue) -> usize {
        let text = self.file.text.as_str();
        (raw.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize).min(text.len())
    }

    fn span(&self, raw: &RawValue) -> Span {
        let start = self.offset(raw);
        Span::new(start, start + raw.get().len())
    }

    /// The model of the planned resources: their names first, so that
    /// references link, then each resource read on its own, in parallel
    /// (only a resource's values being read are ever held as a tree), then
    /// the redrive policies declared apart from their queues.
    fn model(&self, planned: &[&PlannedResource<'a>]) -> Model {
        // Another resource matters for a dead-letter target it holds: in its
        // values, or among what is only known after apply (an SNS
        // subscription's redrive policy naming a queue's ARN, say).
        let relevant = |r: &PlannedResource<'_>| {
            let holds = |raw: &RawValue| DEAD_LETTER_MARKERS.iter().any(|m| raw.get().contains(m));
            READ_TYPES.contains(&r.kind.as_ref())
                || r.values.is_some_and(holds)
                || serde_json::from_str::<String>(r.address.get())
                    .ok()
                    .and_then(|a| self.unknown.get(a.as_str()).copied())
                    .is_some_and(holds)
        };
        let planned: Vec<&PlannedResource<'a>> = planned.iter().copied().filter(|r| relevant(r)).collect();
        let mut linker = Linker::new(Dialect::Terraform.name(Field::QueueName));
        // Every alias after every function, as `resources::link` does.
        for alias in [false, true] {
            for r in planned.iter().filter(|r| (r.kind == "aws_lambda_alias") == alias) {
                let Some(key) = resources::name_argument(&r.kind) else { continue };
                let Ok(address) = serde_json::from_str::<String>(r.address.get()) else { continue };
                let name = self.argument(r, &address, key);
                resources::register(&mut linker, &r.kind, &address, name.as_ref());
            }
        }
        let mut model = Model { dialect: Dialect::Terraform, ..Model::default() };
        let count = |kind: &str| planned.iter().filter(|r| r.kind == kind).count();
        model.queues.reserve_exact(count("aws_sqs_queue"));
        model.consumers.reserve_exact(count("aws_lambda_event_source_mapping"));
        let mut redrive = Vec::new();
        // In chunks, so that what is read waits for its place in the model
        // a chunk at a time, not all at once.
        for chunk in planned.chunks(4096) {
            let read: Vec<Result<Parts, Resource>> = chunk
                .par_iter()
                .filter_map(|r| {
                    let resource = self.resource(r)?;
                    Some(if resource.kind == resources::REDRIVE_POLICY {
                        Err(resource)
                    } else {
                        Ok(resources::read_one(&resource, &linker))
                    })
                })
                .collect();
            for r in read {
                match r {
                    Ok(parts) => parts.add_to(&mut model),
                    Err(resource) => redrive.push(resource),
                }
            }
        }
        resources::read_redrive_policies(redrive.iter(), &linker, &mut model);
        model
    }

    /// One planned resource, its values kept to what the readers look at.
    fn resource(&self, r: &PlannedResource<'a>) -> Option<Resource> {
        let address = serde_json::from_str::<String>(r.address.get()).ok()?;
        let header = self.span(r.address);
        let mut props = match r.values {
            Some(values) => self.values(values, &r.kind),
            None => R::new(RV::Map(Vec::new()), header),
        };
        self.overlay_unknown(&address, &mut props, header);
        Some(Resource { kind: r.kind.to_string(), address, source: self.located.clone(), header, props })
    }

    /// One argument of a resource: its planned value, or what the
    /// configuration says it is made of when it is only known after apply.
    fn argument(&self, r: &PlannedResource<'a>, address: &str, key: &str) -> Option<R> {
        let planned = r.values.map(entries).unwrap_or_default().into_iter().find(|(k, _)| k == key);
        if let Some((_, v)) = planned {
            let value = self.value(v, 1);
            if value.v != RV::Null {
                return Some(value);
            }
        }
        let unknown = self.unknown.get(address).map(|u| entries(u)).unwrap_or_default();
        if !unknown.iter().any(|(k, v)| k == key && v.get() == "true") {
            return None;
        }
        let (module_path, config_address) = split_address(address);
        let expressions = self.config_expressions(&module_path, &config_address);
        let (_, expression) = expressions.into_iter().find(|(k, _)| k == key)?;
        let expression = serde_json::from_str::<Expression<'_>>(expression.get()).ok()?;
        Some(self.expression(key, &expression, &module_path, self.span(r.address)))
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
    fn values(&self, raw: &'a RawValue, kind: &str) -> R {
        let keep = resources::arguments(kind);
        let kept = entries(raw)
            .into_iter()
            .filter(|(k, v)| keep.contains(&k.as_ref()) || DEAD_LETTER_MARKERS.iter().any(|m| v.get().contains(m)))
            .map(|(k, v)| {
                let value = self.value(v, 1);
                (k.into_owned(), value.span, value)
            })
            .collect();
        R::new(RV::Map(kept), self.span(raw))
    }

    /// Attributes unknown until apply: what the configuration says they
    /// are made of, or absent when it does not set them.
    fn overlay_unknown(&self, address: &str, props: &mut R, header: Span) {
        let Some(unknown) = self.unknown.get(address) else { return };
        let unknown: Vec<_> = entries(unknown).into_iter().filter(|(_, v)| v.get() == "true").collect();
        if unknown.is_empty() {
            return;
        }
        let (module_path, config_address) = split_address(address);
        let expressions = self.config_expressions(&module_path, &config_address);
        let RV::Map(props) = &mut props.v else { return };
        for (key, _) in unknown {
            let at = props.iter().find(|(k, _, _)| *k == key).map_or(header, |(_, _, v)| v.span);
            let expression = expressions.iter().find(|(k, _)| *k == key).map(|(_, e)| *e);
            let value = match expression.and_then(|e| serde_json::from_str::<Expression<'_>>(e.get()).ok()) {
                None => R::new(RV::Null, at),
                Some(expr) => self.expression(&key, &expr, &module_path, at),
            };
            props.retain(|(k, _, _)| *k != key);
            props.push((key.into_owned(), at, value));
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
    fn other_json_is_not_a_plan() {
        let file = SourceFile::new("x.json", r#"{"AWSTemplateFormatVersion": "2010-09-09"}"#.to_string());
        assert!(load(&file).is_none());
    }
}
