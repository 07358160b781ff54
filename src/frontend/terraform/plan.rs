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

use std::collections::HashMap;

use super::resources::{self, Resource};
use crate::frontend::Loaded;
use crate::frontend::value::{Part, R, RV, Text, from_node};
use crate::model::{Dialect, Model};
use crate::source::{Source, Span};
use crate::syntax::{Kind, Node};

/// The plan in `root`, or `None` when it is not a plan document.
pub fn load(file: &Source, root: &Node) -> Option<Loaded> {
    root.get("format_version")?;
    let planned = root.get("planned_values")?.get("root_module")?;
    let plan = Plan {
        file,
        config: root.get("configuration").and_then(|c| c.get("root_module")),
        unknown: unknown_by_address(root),
        config_resources: std::cell::RefCell::new(HashMap::new()),
    };
    let mut resources = Vec::new();
    plan.module(planned, &mut resources, 0);
    let linker = resources::link(&resources);
    let mut model = Model { dialect: Dialect::Terraform, ..Model::default() };
    resources::read(&resources, &linker, &mut model);
    Some(crate::frontend::loaded_from(file, model, Vec::new()))
}

struct Plan<'a> {
    file: &'a Source,
    config: Option<&'a Node>,
    /// `after_unknown` of each resource instance, by address.
    unknown: HashMap<String, &'a Node>,
    /// The configuration's resources of each module path, by address,
    /// indexed the first time a module is asked about.
    config_resources: std::cell::RefCell<HashMap<Vec<String>, HashMap<&'a str, &'a Node>>>,
}

fn unknown_by_address(root: &Node) -> HashMap<String, &Node> {
    let mut out = HashMap::new();
    for change in root.get("resource_changes").and_then(Node::as_seq).unwrap_or_default() {
        if let (Some(address), Some(after)) =
            (change.get("address").and_then(Node::as_str), change.get("change").and_then(|c| c.get("after_unknown")))
        {
            out.insert(address.to_string(), after);
        }
    }
    out
}

impl<'a> Plan<'a> {
    fn module(&self, module: &'a Node, out: &mut Vec<Resource>, depth: usize) {
        if depth > 16 {
            return;
        }
        for r in module.get("resources").and_then(Node::as_seq).unwrap_or_default() {
            if r.get("mode").and_then(Node::as_str) != Some("managed") {
                continue;
            }
            let (Some(address), Some(kind)) = (r.entry("address"), r.get("type").and_then(Node::as_str)) else {
                continue;
            };
            let Some(address_text) = address.value.as_str() else { continue };
            let header = address.value.span;
            let mut props = match r.get("values") {
                Some(values) => from_node(values, 0),
                None => R::new(RV::Map(Vec::new()), header),
            };
            self.overlay_unknown(address_text, &mut props, header);
            out.push(Resource {
                kind: kind.to_string(),
                address: address_text.to_string(),
                source: self.file.clone(),
                header,
                props,
            });
        }
        for child in module.get("child_modules").and_then(Node::as_seq).unwrap_or_default() {
            self.module(child, out, depth + 1);
        }
    }

    /// Attributes unknown until apply: what the configuration says they
    /// are made of, or absent when it does not set them.
    fn overlay_unknown(&self, address: &str, props: &mut R, header: Span) {
        let Some(unknown) = self.unknown.get(address).and_then(|u| u.as_map()) else { return };
        let (module_path, config_address) = split_address(address);
        let expressions = self.config_resource(&module_path, &config_address).and_then(|c| c.get("expressions"));
        let RV::Map(entries) = &mut props.v else { return };
        for e in unknown.iter().filter(|e| e.value.kind == Kind::Bool(true)) {
            let at = entries.iter().find(|(k, _, _)| *k == e.key).map_or(header, |(_, _, v)| v.span);
            let value = match expressions.and_then(|x| x.get(&e.key)) {
                None => R::new(RV::Null, at),
                Some(expr) => self.expression(&e.key, expr, &module_path, at),
            };
            entries.retain(|(k, _, _)| *k != e.key);
            entries.push((e.key.clone(), at, value));
        }
    }

    /// A configuration expression of an attribute whose planned value is unknown.
    fn expression(&self, key: &str, expr: &Node, module_path: &[String], at: Span) -> R {
        if let Some(constant) = expr.get("constant_value") {
            return from_node(constant, 0).relocated(at);
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
    fn first_reference(&self, expr: &Node, module_path: &[String], depth: usize) -> Option<Part> {
        if depth > 16 {
            return None;
        }
        for reference in expr.get("references").and_then(Node::as_seq).unwrap_or_default() {
            let Some(reference) = reference.as_str() else { continue };
            let parts: Vec<&str> = reference.split('.').collect();
            let found = match parts.as_slice() {
                ["module", name, output, ..] => {
                    let mut path = module_path.to_vec();
                    path.push(name.to_string());
                    let output = self.config_module(&path)?.get("outputs")?.get(output)?.get("expression")?;
                    self.first_reference(output, &path, depth + 1)
                }
                ["var", name, ..] => {
                    let (call, parent) = module_path.split_last()?;
                    let parent = parent.to_vec();
                    let arg =
                        self.config_module(&parent)?.get("module_calls")?.get(call)?.get("expressions")?.get(name)?;
                    match arg.get("constant_value") {
                        Some(c) => from_node(c, 0).literal().map(Part::Lit),
                        None => self.first_reference(arg, &parent, depth + 1),
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

    fn config_module(&self, path: &[String]) -> Option<&'a Node> {
        let mut module = self.config?;
        for name in path {
            module = module.get("module_calls")?.get(name)?.get("module")?;
        }
        Some(module)
    }

    fn config_resource(&self, path: &[String], address: &str) -> Option<&'a Node> {
        let mut indexed = self.config_resources.borrow_mut();
        let by_address = indexed.entry(path.to_vec()).or_insert_with(|| {
            let resources = self.config_module(path).and_then(|m| m.get("resources")).and_then(Node::as_seq);
            let mut by_address = HashMap::new();
            for r in resources.unwrap_or_default() {
                if let Some(a) = r.get("address").and_then(Node::as_str) {
                    by_address.entry(a).or_insert(r);
                }
            }
            by_address
        });
        by_address.get(address).copied()
    }
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
    use super::split_address;

    #[test]
    fn addresses_split_into_module_path_and_config_address() {
        assert_eq!(split_address("aws_sqs_queue.q[0]"), (vec![], "aws_sqs_queue.q".to_string()));
        assert_eq!(
            split_address("module.a[\"x\"].module.b.aws_sqs_queue.main"),
            (vec!["a".to_string(), "b".to_string()], "aws_sqs_queue.main".to_string())
        );
    }
}
