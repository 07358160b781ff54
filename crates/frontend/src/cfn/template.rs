//! The sections of a CloudFormation/SAM template, found in the spanned tree.

use std::collections::HashMap;

use sqsguard_source::Span;
use sqsguard_syntax::{Entry, Kind, Node};

/// A SAM function, whose implicit resources the template expands.
pub const SAM_FUNCTION: &str = "AWS::Serverless::Function";

/// A template's sections, borrowed from its tree.
pub(crate) struct Template<'a> {
    pub mappings: Option<&'a Node>,
    pub globals: Option<&'a Node>,
    pub resources: Vec<Resource<'a>>,
    /// The queues SAM creates for SNS events, in template order.
    pub sam_queues: Vec<SamQueue<'a>>,
    /// Resources by logical ID (the first of duplicates), for references.
    by_id: HashMap<&'a str, usize>,
    /// Parameters by name.
    parameters_by_name: HashMap<&'a str, &'a Node>,
}

/// One entry of `Resources`.
pub struct Resource<'a> {
    pub id: &'a str,
    pub entry: &'a Entry,
    pub kind: &'a str,
    pub properties: Option<&'a Node>,
    pub metadata: Option<&'a Node>,
}

/// A queue SAM creates for a function's `SNS` event with
/// `SqsSubscription: true`: logical ID `<Function><Event>Queue`, default
/// settings, and a mapping to the function with `BatchSize: 10`.
pub(crate) struct SamQueue<'a> {
    pub id: String,
    pub function: String,
    pub event: String,
    /// The `SqsSubscription` key: where the queue's absent settings are.
    pub at: Span,
    /// The event's `Topic`: a FIFO topic gets a FIFO queue.
    pub topic: Option<&'a Node>,
}

impl<'a> Template<'a> {
    /// The template in `root`, or `None` when the document is not a
    /// CloudFormation or SAM template (a workflow, a k8s manifest, ...).
    pub(crate) fn find(root: &'a Node) -> Option<Self> {
        root.get("Resources")?.as_map()?;
        let declared = root.get("AWSTemplateFormatVersion").is_some() || root.get("Transform").is_some();
        let template = Template::sections(root);
        let aws_types =
            template.resources.iter().any(|r| r.kind.starts_with("AWS::") || r.kind.starts_with("Custom::"));
        (declared || aws_types).then_some(template)
    }

    /// The sections of `root` as a template, whatever else it holds (the
    /// `resources` of a Serverless Framework service; empty when absent).
    pub(crate) fn sections(root: &'a Node) -> Self {
        let resources = root.get("Resources").and_then(Node::as_map).unwrap_or_default();
        let resources: Vec<Resource<'a>> = resources
            .iter()
            .filter_map(|entry| {
                let kind = entry.value.get("Type")?.as_str()?;
                Some(Resource {
                    id: &entry.key,
                    entry,
                    kind,
                    properties: entry.value.get("Properties"),
                    metadata: entry.value.get("Metadata"),
                })
            })
            .collect();
        let mut by_id = HashMap::with_capacity(resources.len());
        for (i, r) in resources.iter().enumerate() {
            by_id.entry(r.id).or_insert(i);
        }
        let parameters = root.get("Parameters").filter(|n| matches!(n.kind, Kind::Map(_)));
        let mut parameters_by_name = HashMap::new();
        for entry in parameters.and_then(Node::as_map).unwrap_or_default() {
            parameters_by_name.entry(entry.key.as_str()).or_insert(&entry.value);
        }
        let sam_queues = sam_queues(&resources);
        Template {
            sam_queues,
            mappings: root.get("Mappings").filter(|n| matches!(n.kind, Kind::Map(_))),
            globals: root.get("Globals").filter(|n| matches!(n.kind, Kind::Map(_))),
            resources,
            by_id,
            parameters_by_name,
        }
    }

    pub(crate) fn resource(&self, id: &str) -> Option<&Resource<'a>> {
        self.by_id.get(id).map(|&i| &self.resources[i])
    }

    /// Whether the template declares `id`, or SAM creates it from the
    /// template (so `!Ref`/`!GetAtt` of it refer to a resource).
    pub(crate) fn declares(&self, id: &str) -> bool {
        self.by_id.contains_key(id) || self.sam_queues.iter().any(|q| q.id == id)
    }

    /// A parameter's declaration.
    pub(crate) fn parameter(&self, name: &str) -> Option<&'a Node> {
        self.parameters_by_name.get(name).copied()
    }
}

/// SAM's queues for `SNS` events with `SqsSubscription: true` (written as
/// the literal, as SAM requires: it checks for a boolean before any
/// intrinsic is resolved).
fn sam_queues<'a>(resources: &[Resource<'a>]) -> Vec<SamQueue<'a>> {
    let mut out = Vec::new();
    for res in resources.iter().filter(|r| r.kind == SAM_FUNCTION) {
        for event in res.properties.and_then(|p| p.get("Events")).and_then(Node::as_map).unwrap_or_default() {
            let Some(sub) = event.value.get("Properties").and_then(|p| p.entry("SqsSubscription")) else { continue };
            let is_sns = event.value.get("Type").and_then(Node::as_str) == Some("SNS");
            if is_sns && matches!(sub.value.kind, Kind::Bool(true)) {
                out.push(SamQueue {
                    id: format!("{}{}Queue", res.id, event.key),
                    function: res.id.to_string(),
                    event: event.key.clone(),
                    at: sub.key_span,
                    topic: event.value.get("Properties").and_then(|p| p.get("Topic")),
                });
            }
        }
    }
    out
}
