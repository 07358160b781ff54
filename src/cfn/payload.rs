//! Payload declarations for SQS003: queue Metadata
//! `sqsguard: {payload: ...}` / `sqsguard: {payload-schema: PATH}`, or the
//! tag `sqsguard:payload`.

use std::path::Path;

use super::context::Ctx;
use super::resolve::R;
use super::template::Resource;
use crate::model::{Payload, PayloadDecl, Value};
use crate::source::SourceFile;
use crate::syntax::{Kind, Node, json, yaml};

/// Field types whose values differ between two sends of the same event.
const NON_DETERMINISTIC_TYPES: &[&str] = &["uuid", "timestamp", "random"];
/// JSON Schema formats that mean the same.
const NON_DETERMINISTIC_FORMATS: &[&str] = &["date-time", "date", "time", "uuid"];

pub fn declared(ctx: &Ctx<'_, '_>, res: &Resource<'_>, props: Option<&R>) -> Option<PayloadDecl> {
    if let Some(meta) = res.metadata.and_then(|m| m.get("sqsguard")) {
        if let Some(payload) = meta.get("payload") {
            return Some(PayloadDecl {
                payload: Value::Known(from_fields(payload)),
                origin: ctx.origin(payload.span),
                source: "Metadata sqsguard.payload",
            });
        }
        if let Some(path) = meta.get("payload-schema") {
            return Some(PayloadDecl {
                payload: from_schema_file(&ctx.file.path, path),
                origin: ctx.origin(path.span),
                source: "Metadata sqsguard.payload-schema",
            });
        }
    }
    let tags = props.map(|p| ctx.values_at(p, &["Tags", "*"])).unwrap_or_default();
    for (_, tag) in tags {
        let key = tag.entry("Key").and_then(|(_, k)| k.literal());
        if key.as_deref() != Some("sqsguard:payload") {
            continue;
        }
        let Some((_, value)) = tag.entry("Value") else { continue };
        let payload = match value.literal().as_deref() {
            Some("deterministic") => Value::Known(Payload::Deterministic),
            Some("non-deterministic") => {
                Value::Known(Payload::NonDeterministic(vec!["tagged non-deterministic".into()]))
            }
            _ => Value::Unknown("tag sqsguard:payload is neither deterministic nor non-deterministic".into()),
        };
        return Some(PayloadDecl { payload, origin: ctx.origin(value.span), source: "tag sqsguard:payload" });
    }
    None
}

/// `{fields: {NAME: TYPE | {type: T, deterministic: BOOL}}, key_order: stable|unstable}`.
pub(crate) fn from_fields(payload: &Node) -> Payload {
    let mut reasons = Vec::new();
    for field in payload.get("fields").and_then(Node::as_map).unwrap_or_default() {
        let (ty, deterministic) = match &field.value.kind {
            Kind::String(t) => (Some(t.as_str()), None),
            Kind::Map(_) => (
                field.value.get("type").and_then(Node::as_str),
                match field.value.get("deterministic").map(|d| &d.kind) {
                    Some(Kind::Bool(b)) => Some(*b),
                    _ => None,
                },
            ),
            _ => (None, None),
        };
        let by_type = ty.is_some_and(|t| NON_DETERMINISTIC_TYPES.contains(&t));
        if deterministic == Some(false) || (deterministic.is_none() && by_type) {
            reasons.push(match ty {
                Some(t) => format!("{} is {t}", field.key),
                None => format!("{} is not deterministic", field.key),
            });
        }
    }
    if payload.get("key_order").and_then(Node::as_str) == Some("unstable") {
        reasons.push("key order is unstable".to_string());
    }
    if reasons.is_empty() { Payload::Deterministic } else { Payload::NonDeterministic(reasons) }
}

/// A JSON Schema file (JSON or YAML), relative to the template.
pub(crate) fn from_schema_file(template: &Path, path: &Node) -> Value<Payload> {
    let Some(rel) = path.as_str() else { return Value::Unknown("payload-schema is not a path".into()) };
    let full = template.parent().unwrap_or(Path::new(".")).join(rel);
    let text = match std::fs::read_to_string(&full) {
        Ok(t) if t.len() <= 1 << 20 => t,
        Ok(_) => return Value::Unknown(format!("{} is larger than 1 MiB", full.display())),
        Err(e) => return Value::Unknown(format!("cannot read {}: {e}", full.display())),
    };
    let file = SourceFile::new(full.clone(), text);
    let parsed = if rel.ends_with(".json") { json::parse(&file) } else { yaml::parse(&file) };
    let Ok(schema) = parsed else { return Value::Unknown(format!("cannot parse {}", full.display())) };
    let mut reasons = Vec::new();
    schema_fields(&schema, "", &mut reasons, 0);
    Value::Known(if reasons.is_empty() { Payload::Deterministic } else { Payload::NonDeterministic(reasons) })
}

fn schema_fields(schema: &Node, prefix: &str, reasons: &mut Vec<String>, depth: usize) {
    if depth > 32 {
        return;
    }
    for prop in schema.get("properties").and_then(Node::as_map).unwrap_or_default() {
        let name = format!("{prefix}{}", prop.key);
        if let Some(format) = prop.value.get("format").and_then(Node::as_str)
            && NON_DETERMINISTIC_FORMATS.contains(&format)
        {
            reasons.push(format!("{name} is {format}"));
        }
        schema_fields(&prop.value, &format!("{name}."), reasons, depth + 1);
    }
}
