//! The two passes over a plan: [`Index::read`] keeps, of the whole text,
//! the SQS and Lambda resources with the byte ranges of their values and
//! what is only known after apply; [`Index::loaded`] reads them into the
//! model a chunk at a time.

use foldhash::HashMap;
use std::borrow::Cow;

use rayon::prelude::*;
use serde_json::value::RawValue;

use super::doc::{DEAD_LETTER_MARKERS, Doc, PlannedModule, PlannedResource, entries};
use super::values::{Instance, Plan, read_modules};
use crate::link::Linker;
use crate::loaded::Broken;
use crate::loaded::Loaded;
use crate::terraform::resources::{self, Parts, Resource};
use crate::value::R;
use sqsguard_finding::Note;
use sqsguard_model::{Dialect, Field, Model, Origin};
use sqsguard_source::{Source, Span};

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

/// What a plan's `format_version` needs said: 1.x and 0.2 (Terraform
/// 1.0.1 to 1.0.x, the shape of 1.0 for every part read) nothing; 0.1
/// (Terraform 0.12 to 1.0.0) that it is older, read as 1.x, with
/// references that name no attribute; a later major that it is newer.
fn version_note(version: &str) -> Option<String> {
    let major = version.split('.').next().and_then(|m| m.parse::<u64>().ok());
    match major {
        Some(1) => None,
        Some(0) if version == "0.2" => None,
        Some(0) if older_references(version) => Some(format!(
            "plan format_version {version} is older than 1.x and read as 1.x: its references name a resource and not which attribute, so where one gives a value known only after apply, the resource is linked and the attribute (an ARN or a URL) is not known"
        )),
        Some(0) => {
            Some(format!("plan format_version {version} is older than the 1.x sqsguard knows; it was read as 1.x"))
        }
        Some(_) => Some(format!(
            "plan format_version {version} is newer than the 1.x sqsguard knows; it was read as far as it could be"
        )),
        None => Some(format!(
            "plan format_version {version} is not a version sqsguard knows; it was read as 1.x as far as it could be"
        )),
    }
}

/// Format 0.1, whose references name resources and no attributes.
fn older_references(version: &str) -> bool {
    version == "0.1"
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
pub(super) struct Index {
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
    /// An SNS topic, whose `fifo_topic` its subscriptions take at the end.
    Topic(Parts, Resource),
}

impl Index {
    /// The first pass over the whole `text` of `file`: `Ok(None)` when it
    /// is not a plan document after all.
    pub(super) fn read(text: &str, file: &Source) -> Result<Option<Index>, Broken> {
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
        let Doc { format_version, planned_values, resource_changes, configuration } = doc;
        let Some(version) = format_version else { return Ok(None) };
        let Some(root) = planned_values.as_ref().and_then(|p| p.root_module.as_ref()) else { return Ok(None) };
        let after_unknown: HashMap<&str, &RawValue> = resource_changes
            .iter()
            .filter_map(|c| Some((c.address.as_ref(), c.change.as_ref()?.after_unknown?)))
            .collect();
        let configuration = configuration.as_ref().and_then(|c| c.root_module);
        let mut all = Vec::new();
        collect(root, &mut all, 0);
        let read = selected(&all, &after_unknown);
        // What is known after apply is in `read` now: what a plan lists of
        // every resource's changes goes before the names are read.
        drop(after_unknown);
        drop(resource_changes);
        drop(all);
        let mut planned = Vec::with_capacity(read.len());
        let mut unknown = HashMap::default();
        for (address, r, later) in read {
            if !later.is_empty() {
                unknown.insert(address.clone(), later);
            }
            planned.push((address, r));
        }
        // The configuration says what a name unknown until apply is made
        // of; it is indexed here only when some name is.
        let mut modules = HashMap::default();
        let unknown_name = |(address, r): &(String, &PlannedResource<'_>)| {
            resources::name_argument(&r.kind).is_some_and(|key| unknown.get(address).is_some_and(|u| u.contains(&key)))
        };
        if let Some(root) = configuration
            && planned.iter().any(unknown_name)
        {
            read_modules(root, Vec::new(), &mut modules);
        }
        let bare_references = older_references(&version);
        let plan =
            Plan { texts: vec![(text, 0)], located: file, unknown: &unknown, modules: &modules, bare_references };
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
        drop(names);
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
    pub(super) fn loaded<'t>(
        self,
        located: &Source,
        fetch: impl Fn(Span) -> Result<Cow<'t, str>, String> + Sync,
    ) -> Result<Loaded, Broken> {
        let broken = |span: Span, message: String| Broken {
            file: located.clone(),
            span: Span::new(span.start, span.start),
            message,
        };
        let mut notes = Vec::new();
        if let Some(message) = version_note(&self.version) {
            notes.push(Note { origin: Origin::file(located, Span::new(0, 0)), message });
        }
        let configuration = match self.configuration {
            Some(span) => Some((fetch(span).map_err(|m| broken(span, m))?, span.start)),
            None => None,
        };
        let mut modules = HashMap::default();
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
        let mut topics = Vec::new();
        // In chunks: the values of a chunk's resources are taken at once
        // (the plan writes them one after another), read in parallel, and
        // dropped once their parts are in the model. The next chunk's text
        // is fetched while this one's is read: two chunks at most are held.
        let region_of = |chunk: &[Instance]| {
            let spans = || chunk.iter().filter_map(|r| r.values);
            match (spans().map(|s| s.start).min(), spans().map(|s| s.end).max()) {
                (Some(start), Some(end)) => Span::new(start, end),
                _ => Span::default(),
            }
        };
        let fetch_chunk = |chunk: Option<&[Instance]>| {
            let region = chunk.map(region_of).unwrap_or_default();
            let values = if region.is_empty() { Ok(Cow::Borrowed("")) } else { fetch(region) };
            values.map(|v| (v, region)).map_err(|m| broken(region, m))
        };
        let chunks: Vec<&[Instance]> = self.planned.chunks(4096).collect();
        let mut next = fetch_chunk(chunks.first().copied());
        for (i, chunk) in chunks.iter().enumerate() {
            let (values, region) = next?;
            let mut texts = vec![(values.as_ref(), region.start)];
            texts.extend(configuration.as_ref().map(|(text, start)| (text.as_ref(), *start)));
            let bare_references = older_references(&self.version);
            let plan = Plan { texts, located, unknown: &self.unknown, modules: &modules, bare_references };
            let read_chunk = || {
                chunk
                    .par_iter()
                    .map(|r| {
                        // Read as the object it was in the first pass.
                        let text =
                            r.values.and_then(|span| values.get(span.start - region.start..span.end - region.start));
                        let resource = plan.resource(r, text);
                        if resource.kind == resources::REDRIVE_POLICY {
                            Read::Later(resource)
                        } else if resource.kind == resources::TOPIC {
                            Read::Topic(resources::read_one(&resource, &self.linker), resource)
                        } else {
                            Read::Parts(resources::read_one(&resource, &self.linker))
                        }
                    })
                    .collect::<Vec<Read>>()
            };
            let (read, fetched) = rayon::join(read_chunk, || fetch_chunk(chunks.get(i + 1).copied()));
            next = fetched;
            for r in read {
                match r {
                    Read::Parts(parts) => parts.add_to(&mut model),
                    Read::Later(resource) => redrive.push(resource),
                    Read::Topic(parts, resource) => {
                        parts.add_to(&mut model);
                        topics.push(resource);
                    }
                }
            }
        }
        resources::fifo_topics(topics.iter(), &mut model);
        resources::read_redrive_policies(redrive.iter(), &self.linker, &mut model);
        Ok(Loaded { model, notes, files: vec![located.path.clone()], ..Loaded::default() })
    }
}

/// Every managed resource instance of a module and its children, in order.
/// The resources the readers look at (a type read, a producer, a key, or
/// one that holds a dead-letter target), each with its address and the
/// arguments read that are only known after apply. In parallel; in order.
fn selected<'p, 'a>(
    all: &[&'p PlannedResource<'a>],
    after_unknown: &HashMap<&str, &RawValue>,
) -> Vec<(String, &'p PlannedResource<'a>, Vec<&'static str>)> {
    // Another resource matters for a dead-letter target it holds: in its
    // values, or among what is only known after apply (an SNS
    // subscription's redrive policy naming a queue's ARN, say).
    let holds = |raw: &RawValue| DEAD_LETTER_MARKERS.iter().any(|m| raw.get().contains(m));
    // Each resource on its own, in parallel; the index in order.
    all.par_iter()
        .filter_map(|&r| {
            let address = serde_json::from_str::<String>(r.address.get()).ok()?;
            let after = after_unknown.get(address.as_str()).copied();
            if !(READ_TYPES.contains(&r.kind.as_ref())
                || resources::PRODUCER_KINDS.contains(&r.kind.as_ref())
                || resources::KEY_KINDS.contains(&r.kind.as_ref())
                || r.values.is_some_and(holds)
                || after.is_some_and(holds))
            {
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
        .collect()
}

fn collect<'p, 'a>(module: &'p PlannedModule<'a>, out: &mut Vec<&'p PlannedResource<'a>>, depth: usize) {
    if depth > 16 {
        return;
    }
    out.extend(module.resources.iter().filter(|r| r.mode == "managed"));
    for child in &module.child_modules {
        collect(child, out, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::version_note;

    #[test]
    fn only_a_later_major_is_called_newer() {
        assert_eq!(version_note("1.2"), None);
        assert_eq!(version_note("0.2"), None);
        let said = |v: &str| version_note(v).unwrap_or_default();
        assert!(
            said("0.1").starts_with("plan format_version 0.1 is older than 1.x and read as 1.x"),
            "{}",
            said("0.1")
        );
        assert!(said("0.3").contains("older") && !said("0.3").contains("newer"));
        assert!(said("2.0").contains("is newer than the 1.x"));
        assert!(said("x").contains("not a version sqsguard knows"));
    }
}
