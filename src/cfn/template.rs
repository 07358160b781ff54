//! The sections of a CloudFormation/SAM template, found in the spanned tree.

use crate::syntax::{Entry, Kind, Node};

/// A template's sections, borrowed from its tree.
pub struct Template<'a> {
    pub parameters: Option<&'a Node>,
    pub mappings: Option<&'a Node>,
    pub globals: Option<&'a Node>,
    pub resources: Vec<Resource<'a>>,
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
        Some(Template {
            parameters: root.get("Parameters").filter(|n| matches!(n.kind, Kind::Map(_))),
            mappings: root.get("Mappings").filter(|n| matches!(n.kind, Kind::Map(_))),
            globals: root.get("Globals").filter(|n| matches!(n.kind, Kind::Map(_))),
            resources,
        })
    }

    pub fn resource(&self, id: &str) -> Option<&Resource<'a>> {
        self.resources.iter().find(|r| r.id == id)
    }

    /// A parameter's declaration.
    pub fn parameter(&self, name: &str) -> Option<&'a Node> {
        self.parameters?.get(name)
    }
}
