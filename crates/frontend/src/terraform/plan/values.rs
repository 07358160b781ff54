//! Values of a planned resource, located in the file: its planned values
//! kept to what the readers look at, and for those only known after apply,
//! what the configuration's expressions say they are made of (following
//! module outputs and arguments).

use foldhash::HashMap;
use std::borrow::Cow;

use serde_json::value::RawValue;

use super::doc::{ConfigModule, DEAD_LETTER_MARKERS, Expression, entries, entries_of};
use crate::terraform::resources::{self, Resource};
use crate::value::{Part, R, RV, Text};
use sqsguard_source::{Source, Span};
use sqsguard_syntax::MAX_DEPTH;

/// Blocks whose queue ARN a plan may only know from the configuration.
const NESTED: &[(&str, &str)] = &[("queue", "queue_arn"), ("dead_letter_config", "arn")];

/// A resource instance of the plan, its values left in the file.
pub(super) struct Instance {
    pub(super) address: String,
    /// The address string: where findings about the resource point.
    pub(super) header: Span,
    pub(super) kind: String,
    pub(super) values: Option<Span>,
}

/// Every module of the configuration, by module path.
pub(super) fn read_modules<'a>(raw: &'a RawValue, path: Vec<String>, out: &mut HashMap<Vec<String>, Indexed<'a>>) {
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

pub(super) struct Plan<'p, 'a> {
    /// The texts raw values point into, with where each starts in the file.
    pub(super) texts: Vec<(&'a str, usize)>,
    /// What findings point at.
    pub(super) located: &'p Source,
    /// The attributes of each resource known only after apply.
    pub(super) unknown: &'p HashMap<String, Vec<&'static str>>,
    /// The configuration's modules, by module path.
    pub(super) modules: &'p HashMap<Vec<String>, Indexed<'a>>,
    /// Format 0.1: a reference names the resource (`aws_sqs_queue.dlq`),
    /// never the attribute taken from it.
    pub(super) bare_references: bool,
}

/// A configuration module with its resources by address.
pub(super) struct Indexed<'a> {
    module: ConfigModule<'a>,
    by_address: HashMap<Cow<'a, str>, usize>,
}

impl<'p, 'a> Plan<'p, 'a> {
    pub(super) fn span(&self, raw: &RawValue) -> Span {
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
    pub(super) fn resource(&self, r: &Instance, values: Option<&'a str>) -> Resource {
        let mut props = match values {
            Some(values) => self.values(values, &r.kind),
            None => R::new(RV::Map(Vec::new()), r.header),
        };
        self.overlay_unknown(&r.address, &mut props, r.header);
        self.overlay_nested(&r.address, &mut props);
        Resource {
            kind: r.kind.clone(),
            address: r.address.clone(),
            source: self.located.clone(),
            header: r.header,
            props,
            module: None,
        }
    }

    /// One argument of a resource: its planned value, or what the
    /// configuration says it is made of when it is only known after apply.
    pub(super) fn argument(&self, values: Option<&'a RawValue>, address: &str, key: &str, header: Span) -> Option<R> {
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

    /// A queue ARN inside a block (`queue { queue_arn }` of a bucket
    /// notification, `dead_letter_config { arn }` of a rule's target) that
    /// the plan leaves out, being unknown until apply: what the
    /// configuration's block at the same index says it is made of.
    fn overlay_nested(&self, address: &str, props: &mut R) {
        let RV::Map(entries_now) = &mut props.v else { return };
        let mut config = None;
        for (outer, _, blocks) in entries_now.iter_mut() {
            let Some(&(_, inner)) = NESTED.iter().find(|(o, _)| o == outer) else { continue };
            let RV::List(blocks) = &mut blocks.v else { continue };
            for (i, block) in blocks.iter_mut().enumerate() {
                let at = block.span;
                let RV::Map(fields) = &mut block.v else { continue };
                if fields.iter().any(|(k, _, v)| k == inner && v.v != RV::Null) {
                    continue;
                }
                let (module_path, expressions) = config.get_or_insert_with(|| {
                    let (module_path, config_address) = split_address(address);
                    let expressions = self.config_expressions(&module_path, &config_address);
                    (module_path, expressions)
                });
                let expression = expressions
                    .iter()
                    .find(|(k, _)| k == outer.as_str())
                    .and_then(|(_, list)| serde_json::from_str::<Vec<&RawValue>>(list.get()).ok())
                    .and_then(|list| list.get(i).copied())
                    .and_then(|b| entries(b).into_iter().find(|(k, _)| k == inner).map(|(_, e)| e))
                    .and_then(|e| serde_json::from_str::<Expression<'_>>(e.get()).ok());
                let Some(expression) = expression else { continue };
                let value = self.expression(inner, &expression, module_path, at);
                fields.retain(|(k, _, _)| k != inner);
                fields.push((inner.to_string(), at, value));
            }
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
                // The resource, and no attribute: which one is not known
                // (the linker says so where it matters).
                [kind, name] if self.bare_references && kind.starts_with("aws_") => {
                    let prefix: String = module_path.iter().map(|m| format!("module.{m}.")).collect();
                    let name = name.split('[').next().unwrap_or(name);
                    Some(Part::Attr { resource: format!("{prefix}{kind}.{name}"), attribute: String::new() })
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
    let mut by_address = HashMap::default();
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

    #[test]
    fn addresses_split_into_module_path_and_config_address() {
        assert_eq!(split_address("aws_sqs_queue.q[0]"), (vec![], "aws_sqs_queue.q".to_string()));
        assert_eq!(
            split_address("module.a[\"x\"].module.b.aws_sqs_queue.main"),
            (vec!["a".to_string(), "b".to_string()], "aws_sqs_queue.main".to_string())
        );
    }
}
