//! The words of schema messages: what a schema takes ("a whole number
//! from 1 to 10000"), a value as quoted (`abc`, "a mapping"), lists
//! ("`a`, `b` or `c`") and places (`producers[0].topic`).

use serde_json::Value;

/// What a schema takes, in words: "a whole number from 1 to 10000",
/// "true or false", "a mapping".
pub(super) fn kind_of(node: &Value) -> String {
    let types: Vec<&str> = match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let bounds = bounds(node);
    let words: Vec<String> = types
        .iter()
        .map(|t| match *t {
            "integer" => format!("a whole number{bounds}"),
            "number" => format!("a number{bounds}"),
            "string" => "text".to_string(),
            "boolean" => "true or false".to_string(),
            "object" => "a mapping".to_string(),
            "array" => "a list".to_string(),
            "null" => "empty".to_string(),
            other => other.to_string(),
        })
        .collect();
    if words.is_empty() {
        return format!("a value{bounds}");
    }
    joined(&words, "or")
}

/// " from 1 to 10000", " of at least 1", "" from a schema's bounds.
pub(super) fn bounds(node: &Value) -> String {
    let n = |k: &str| node.get(k).filter(|v| v.is_number()).map(Value::to_string);
    match (n("minimum"), n("maximum"), n("exclusiveMinimum"), n("exclusiveMaximum")) {
        (Some(lo), Some(hi), _, _) => format!(" from {lo} to {hi}"),
        (Some(lo), None, _, _) => format!(" of at least {lo}"),
        (None, Some(hi), _, _) => format!(" of at most {hi}"),
        (None, None, Some(lo), _) => format!(" above {lo}"),
        (None, None, None, Some(hi)) => format!(" below {hi}"),
        _ => String::new(),
    }
}

/// A `$ref` to a definition of this schema, followed once.
pub(super) fn resolved<'a>(node: &'a Value, schema: &'a Value) -> &'a Value {
    match node.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix('#')) {
        Some(pointer) => schema.pointer(pointer).unwrap_or(node),
        None => node,
    }
}

pub(super) fn title_of(node: &Value) -> Option<&str> {
    node.get("title").and_then(Value::as_str)
}

pub(super) fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        // "SNS topic" stays as it is; "Field" becomes "field".
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
            a.to_lowercase().chain(text[a.len_utf8()..].chars()).collect()
        }
        _ => text.to_string(),
    }
}

/// A value as the message quotes it: `abc`, `0`, `true`, or what it is
/// when it is no scalar.
pub(super) fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => format!("`{s}`"),
        Value::Number(n) => format!("`{n}`"),
        Value::Bool(b) => format!("`{b}`"),
        Value::Null => "an empty value".to_string(),
        Value::Array(_) => "a list".to_string(),
        Value::Object(_) => "a mapping".to_string(),
    }
}

/// `a`, `b` and `c` (each already quoted as it should be).
pub(super) fn joined(items: &[String], last_word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {last_word} {last}", init.join(", ")),
    }
}

/// `a`, `b` and `c`, quoting each.
pub(super) fn listed(items: &[&str], last_word: &str) -> String {
    let quoted: Vec<String> = items.iter().map(|k| format!("`{k}`")).collect();
    joined(&quoted, last_word)
}

/// Where a pointer is, as the spec is written: `consumer.batch_size`,
/// `producers[0].topic`, or the whole document.
pub(super) fn place(pointer: &str, whole: &str) -> String {
    if pointer.is_empty() {
        return whole.to_string();
    }
    let mut out = String::new();
    for segment in pointer.split('/').filter(|s| !s.is_empty()) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        if segment.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{segment}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&segment);
        }
    }
    format!("`{out}`")
}

/// A JSON pointer without its last segment.
pub(super) fn parent(pointer: &str) -> &str {
    pointer.rfind('/').map_or("", |at| &pointer[..at])
}

/// A pointer's parent and its last segment (unescaped).
pub(super) fn split_last(pointer: &str) -> (&str, String) {
    match pointer.rfind('/') {
        Some(at) => (&pointer[..at], pointer[at + 1..].replace("~1", "/").replace("~0", "~")),
        None => ("", pointer.to_string()),
    }
}
