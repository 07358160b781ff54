//! The sections of a CloudFormation/SAM template, found in the spanned tree.

use std::collections::HashMap;

use crate::syntax::{Entry, Kind, Node};

/// A template's sections, borrowed from its tree.
pub struct Template<'a> {
    pub mappings: Option<&'a Node>,
    pub globals: Option<&'a Node>,
    pub resources: Vec<Resource<'a>>,
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

impl<'a> Template<'a> {
    /// The template in `root`, or `None` when the document is not a
    /// CloudFormation or SAM template (a workflow, a k8s manifest, ...).
    pub fn find(root: &'a Node) -> Option<Self> {
        let resources = root.get("Resources")?.as_map()?;
        let declared = root.get("AWSTemplateFormatVersion").is_some() || root.get("Transform").is_some();
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
        let aws_types = resources.iter().any(|r| r.kind.starts_with("AWS::") || r.kind.starts_with("Custom::"));
        if !declared && !aws_types {
            return None;
        }
        let mut by_id = HashMap::with_capacity(resources.len());
        for (i, r) in resources.iter().enumerate() {
            by_id.entry(r.id).or_insert(i);
        }
        let parameters = root.get("Parameters").filter(|n| matches!(n.kind, Kind::Map(_)));
        let mut parameters_by_name = HashMap::new();
        for entry in parameters.and_then(Node::as_map).unwrap_or_default() {
            parameters_by_name.entry(entry.key.as_str()).or_insert(&entry.value);
        }
        Some(Template {
            mappings: root.get("Mappings").filter(|n| matches!(n.kind, Kind::Map(_))),
            globals: root.get("Globals").filter(|n| matches!(n.kind, Kind::Map(_))),
            resources,
            by_id,
            parameters_by_name,
        })
    }

    pub fn resource(&self, id: &str) -> Option<&Resource<'a>> {
        self.by_id.get(id).map(|&i| &self.resources[i])
    }

    /// A parameter's declaration.
    pub fn parameter(&self, name: &str) -> Option<&'a Node> {
        self.parameters_by_name.get(name).copied()
    }
}
