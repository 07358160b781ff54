//! JSON Schema validation of a spanned tree (the generator's spec, the
//! config file): every error comes back with the span it is about, in
//! words a person would use ([`say`]), never the validator's jargon.

mod say;
mod words;

use super::{Kind, Node};
use sqsguard_source::Span;

/// What is wrong, where: one entry per problem. `whole` names the document
/// in errors about its root ("the spec"). `schema` is one of the built-in
/// schemas (a unit test keeps them valid); were it not, that is the one
/// problem.
pub fn validate(schema: &str, root: &Node, whole: &str) -> Vec<(Span, String)> {
    let schema: serde_json::Value = match serde_json::from_str(schema) {
        Ok(s) => s,
        Err(e) => return vec![(root.span, format!("sqsguard's own schema is invalid (a bug): {e}"))],
    };
    let validator = match jsonschema::validator_for(&schema) {
        Ok(v) => v,
        Err(e) => return vec![(root.span, format!("sqsguard's own schema is invalid (a bug): {e}"))],
    };
    let instance = to_json(root);
    let mut problems: Vec<(Span, String)> = Vec::new();
    for error in validator.iter_errors(&instance) {
        for said in say::say(&error, &schema, whole) {
            let span = said
                .key
                .as_deref()
                .and_then(|k| key_span_at(root, &said.pointer, k))
                .unwrap_or_else(|| span_at(root, &said.pointer));
            // Two errors of one schema can say the same (a key not allowed
            // by two conditions): once is enough.
            if !problems.iter().any(|(s, m)| *s == span && *m == said.message) {
                problems.push((span, said.message));
            }
        }
    }
    problems
}

/// A tree as JSON, for schema validation.
pub fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &node.kind {
        Kind::Null => J::Null,
        Kind::Bool(b) => J::Bool(*b),
        Kind::Number(s) => s
            .parse::<i64>()
            .map(J::from)
            .or_else(|_| s.parse::<f64>().map(J::from))
            .unwrap_or_else(|_| J::String(s.clone())),
        Kind::String(s) => J::String(s.clone()),
        Kind::Seq(items) => J::Array(items.iter().map(to_json).collect()),
        Kind::Map(entries) => J::Object(entries.iter().map(|e| (e.key.clone(), to_json(&e.value))).collect()),
    }
}

/// The span of the value at a JSON pointer (`/consumer/batch_size`), or of
/// the deepest node on the way.
pub(crate) fn span_at(root: &Node, pointer: &str) -> Span {
    let mut node = root;
    for segment in pointer.split('/').filter(|s| !s.is_empty()) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        let next = match &node.kind {
            Kind::Map(_) => node.get(&segment),
            Kind::Seq(items) => segment.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        match next {
            Some(n) => node = n,
            None => break,
        }
    }
    node.span
}

/// The span of key `key` in the map at `pointer` (for "unknown key" errors).
pub(crate) fn key_span_at(root: &Node, pointer: &str, key: &str) -> Option<Span> {
    let mut node = root;
    for segment in pointer.split('/').filter(|s| !s.is_empty()) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        node = match &node.kind {
            Kind::Map(_) => node.get(&segment)?,
            Kind::Seq(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    node.entry(key).map(|e| e.key_span)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml;
    use sqsguard_source::SourceFile;

    #[test]
    fn pointers_find_spans() {
        let text = "pipeline: x\nconsumer:\n  type: lambda\n  batch_size: 0\n";
        let f = SourceFile::new("s.yaml", text.to_string());
        let n = yaml::parse(&f).unwrap();
        let s = span_at(&n, "/consumer/batch_size");
        assert_eq!(&text[s.start..s.end], "0");
        let k = key_span_at(&n, "/consumer", "batch_size").unwrap();
        assert_eq!(&text[k.start..k.end], "batch_size");
    }

    /// Shapes the built-in schemas do not all have: exclusive keys (a
    /// `oneOf` of `required` with `not`), a pattern without its words, a
    /// key of the wrong form, an unknown key in a list's item.
    #[test]
    fn other_shapes_are_said_in_words_too() {
        let schema = r#"{
            "type": "object",
            "properties": {
                "one": {"type": "object", "oneOf": [
                    {"required": ["a"], "not": {"anyOf": [{"required": ["b"]}, {"required": ["c"]}]}},
                    {"anyOf": [{"required": ["b"]}, {"required": ["c"]}], "not": {"required": ["a"]}}
                ]},
                "code": {"type": "string", "pattern": "^X[0-9]$"},
                "keys": {"type": "object", "propertyNames": {"pattern": "^X[0-9]$"}},
                "items": {"type": "array", "items": {"type": "object", "properties": {"name": {}}, "additionalProperties": false}}
            },
            "additionalProperties": false
        }"#;
        let text = "one: {a: 1, b: 2}
code: Y
keys: {Z: 1}
items:
  - {nmae: x}
";
        let f = SourceFile::new("c.yaml", text.to_string());
        let n = yaml::parse(&f).unwrap();
        let said: Vec<(String, String)> = validate(schema, &n, "the file")
            .into_iter()
            .map(|(span, message)| (text[span.start..span.end].to_string(), message))
            .collect();
        let expected = [
            // A flow mapping's span ends before its `}`.
            ("{a: 1, b: 2", "`one` needs one of `a` or `b`/`c`, and only one"),
            ("Y", "`code` cannot be `Y`"),
            ("Z", "key `Z` in `keys`: not a key it takes"),
            ("nmae", "unknown key `nmae` in `items[0]`; did you mean `name`?"),
        ];
        let expected: Vec<(String, String)> = expected.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
        assert_eq!(said, expected);
    }
}
