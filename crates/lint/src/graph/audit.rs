//! The graph of an audit's JSON report (`sqsguard audit --format json`):
//! a node per resource with findings (queues by URL, consumers by mapping
//! UUID, anything else as itself) in a cluster per account and Region,
//! with its findings. The report names resources, not the links between
//! them, so the graph has no edges, and a note says so.

use std::collections::HashMap;

use super::{Graph, Kind, Mark, Node};
use sqsguard_finding::Severity;

/// Whether `doc` is an audit's JSON report: findings, and a summary that
/// counts AWS operations (a lint's has none).
pub fn is_report(doc: &serde_json::Value) -> bool {
    doc.get("findings").is_some_and(serde_json::Value::is_array)
        && doc.get("summary").and_then(|s| s.get("api_calls")).is_some()
}

/// The graph of the report `doc` (read from `name`), or why it is none.
pub fn from_report(doc: &serde_json::Value, name: &str) -> Result<Graph, String> {
    let findings = doc
        .get("findings")
        .and_then(serde_json::Value::as_array)
        .ok_or_else(|| format!("{name}: no `findings` list: not a `sqsguard audit --format json` report"))?;
    let mut graph = Graph::default();
    let mut at: HashMap<String, usize> = HashMap::new();
    for (n, f) in findings.iter().enumerate() {
        let text = |key: &str| f.get(key).and_then(serde_json::Value::as_str);
        let (Some(resource), Some(rule)) = (text("resource"), text("rule")) else {
            return Err(format!("{name}: finding {n} has no `resource` or `rule`"));
        };
        let severity = match text("severity") {
            Some("error") => Severity::Error,
            Some("warning") => Severity::Warning,
            Some("info") => Severity::Info,
            other => return Err(format!("{name}: finding {n} has severity {other:?}, not error, warning or info")),
        };
        let scope = format!(
            "account {} in {}",
            text("account").unwrap_or("(the credentials' own)"),
            text("region").unwrap_or("(no Region)")
        );
        let (kind, label, note) = classify(resource, text("resource_name"));
        let id = format!("{scope}#{resource}");
        let details = if label == resource { Vec::new() } else { vec![resource.to_string()] };
        let i = *at.entry(id.clone()).or_insert_with(|| {
            graph.nodes.push(Node {
                id,
                kind,
                scope,
                name: label,
                details,
                findings: Vec::new(),
                notes: note.into_iter().collect(),
            });
            graph.nodes.len() - 1
        });
        let mark = Mark {
            rule: rule.to_string(),
            severity,
            message: text("message").unwrap_or_default().to_string(),
            line: None,
        };
        graph.nodes[i].findings.push(mark);
    }
    graph.notes.push(format!(
        "drawn from the audit report {name}: it names only the resources with findings, not which producer feeds \
         which queue, which mapping reads it or where its failures go, so the graph has no edges; \
         `sqsguard graph` on the templates draws the pipeline itself"
    ));
    if let Some(unaudited) = doc.get("summary").and_then(|s| s.get("unaudited")).and_then(serde_json::Value::as_array) {
        for u in unaudited {
            let text = |key: &str| u.get(key).and_then(serde_json::Value::as_str).unwrap_or("?");
            graph.notes.push(format!(
                "account {} in {} was not audited (or only in part): {}",
                text("account"),
                text("region"),
                text("reason")
            ));
        }
    }
    Ok(graph)
}

/// What a resource of a live finding is, how the graph names it (by the
/// name the report gives it, if any), and what cannot be told of it.
fn classify(resource: &str, named: Option<&str>) -> (Kind, String, Option<String>) {
    if resource.starts_with("https://") || resource.starts_with("http://") {
        let name = resource.rsplit('/').find(|s| !s.is_empty()).unwrap_or(resource);
        return (Kind::Queue, named.unwrap_or(name).to_string(), None);
    }
    if let (true, Some(named)) = (is_uuid(resource), named) {
        return (Kind::Consumer, named.to_string(), None);
    }
    if is_uuid(resource) {
        let note = "the report names the event source mapping by its UUID only: its queue and function are not in it";
        return (Kind::Consumer, format!("event source mapping {resource}"), Some(note.into()));
    }
    if resource.starts_with("arn:") && resource.contains(":cloudwatch:") {
        let name = resource.rsplit(':').next().unwrap_or(resource);
        return (Kind::Alarm, name.to_string(), None);
    }
    (Kind::Other, resource.to_string(), None)
}

/// `8-4-4-4-12` hexadecimal digits.
fn is_uuid(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    parts.len() == 5
        && parts.iter().zip([8, 4, 4, 4, 12]).all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
}
