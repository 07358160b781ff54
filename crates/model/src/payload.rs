//! Payload declarations for SQS003, parsed in one place whichever way they
//! are written: a `fields` map (queue Metadata, `.sqsguard.yaml`), a JSON
//! Schema file, or the `sqsguard:payload` tag (CloudFormation Tags,
//! Terraform tags, live ListQueueTags).

use std::path::Path;

use super::{Payload, Value};
use sqsguard_source::SourceFile;
use sqsguard_syntax::{Kind, Node, json, yaml};

/// Field types whose values differ between two sends of the same event.
const NON_DETERMINISTIC_TYPES: &[&str] = &["uuid", "timestamp", "random"];
/// JSON Schema formats that mean the same.
const NON_DETERMINISTIC_FORMATS: &[&str] = &["date-time", "date", "time", "uuid"];

/// The tag that declares a payload.
pub const TAG: &str = "sqsguard:payload";

/// The value of the `sqsguard:payload` tag (`None`: a value only known at
/// deploy time).
pub fn from_tag(value: Option<&str>) -> Value<Payload> {
    match value {
        Some("deterministic") => Value::Known(Payload::Deterministic),
        Some("non-deterministic") => Value::Known(Payload::NonDeterministic(vec!["tagged non-deterministic".into()])),
        _ => Value::Unknown("tag sqsguard:payload is neither deterministic nor non-deterministic".into()),
    }
}

/// `{fields: {NAME: TYPE | {type: T, deterministic: BOOL}}, key_order: stable|unstable}`.
pub fn from_fields(payload: &Node) -> Payload {
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

/// The largest payload schema read.
const SCHEMA_LIMIT: u64 = 1 << 20;

/// A JSON Schema file (JSON or YAML), relative to the template.
pub fn from_schema_file(template: &Path, path: &Node) -> Value<Payload> {
    let Some(rel) = path.as_str() else { return Value::Unknown("payload-schema is not a path".into()) };
    let full = template.parent().unwrap_or(Path::new(".")).join(rel);
    // At most one byte past the limit is read: a schema path may name
    // anything, /dev/zero included.
    let mut text = String::new();
    // A regular file only: a FIFO would wait for a writer.
    let read = sqsguard_source::open_regular(&full)
        .map_err(std::io::Error::from)
        .and_then(|(f, _)| std::io::Read::read_to_string(&mut std::io::Read::take(f, SCHEMA_LIMIT + 1), &mut text));
    match read {
        Ok(n) if n as u64 <= SCHEMA_LIMIT => {}
        Ok(_) => return Value::Unknown(format!("{} is larger than 1 MiB", full.display())),
        Err(e) => return Value::Unknown(format!("cannot read {}: {e}", full.display())),
    }
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
