//! Values written as text in the style of the file they go into: a
//! quoted scalar stays quoted, a YAML string stays plain when YAML reads
//! it back as itself, a renamed queue keeps SQS's name rules.

use super::{Edit, Remedy};
use sqsguard_model::{Dialect, Scalar};
use sqsguard_source::{Source, Span};
use sqsguard_syntax::Node;

/// The scalar written at `span`, without its quotes: what an
/// [`Op::Replace`](super::Op::Replace) compares with the value the model
/// resolved.
pub(crate) fn literal_at(file: &Source, span: Span) -> Option<&str> {
    let text = file.text.get(span.start..span.end)?.trim();
    Some(text.strip_prefix(['"', '\'']).and_then(|t| t.strip_suffix(['"', '\''])).unwrap_or(text))
}

/// `value` written where `node` is, in the style of what is there: a
/// quoted scalar stays quoted (`"60"` becomes `"180"`). A mapping or a
/// block sequence is not replaced (its span is not one token).
pub(crate) fn render(file: &Source, node: &Node, value: &Scalar, json: bool) -> Option<String> {
    use sqsguard_syntax::Kind;
    let old = file.text.get(node.span.start..node.span.end)?;
    // The node must be the value itself, not a document that holds it (a
    // RedrivePolicy written as a JSON string points at the whole string).
    let same_kind = match (&node.kind, value) {
        (Kind::Number(_), Scalar::Int(_)) | (Kind::Bool(_), Scalar::Bool(_)) => true,
        (Kind::String(s), Scalar::Int(_)) => s.trim().parse::<i64>().is_ok(),
        (Kind::String(s), Scalar::Bool(_)) => s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false"),
        (Kind::String(_), Scalar::Str(_)) => true,
        (Kind::Seq(_), Scalar::List(_)) => old.starts_with('['),
        _ => false,
    };
    // The bytes replaced must be the value the tree says is there: were
    // the tree's spans and the text ever to disagree (as once over what
    // ends a line), the edit would land in other bytes.
    let unquoted = old.trim().trim_matches(|c| c == '"' || c == '\'');
    let same_text = match &node.kind {
        Kind::Number(n) => unquoted == n.as_str(),
        Kind::Bool(_) => unquoted.eq_ignore_ascii_case("true") || unquoted.eq_ignore_ascii_case("false"),
        Kind::String(s) => unquoted == s.as_str() || old.contains('\\') || old.contains("''"),
        Kind::Seq(_) => old.ends_with(']'),
        Kind::Null | Kind::Map(_) => false,
    };
    if !same_kind || !same_text {
        return None;
    }
    Some(match old.chars().next() {
        Some(q @ ('"' | '\'')) if !matches!(value, Scalar::List(_)) => {
            let text = plain(value);
            if q == '"' { serde_json::to_string(&text).ok()? } else { format!("'{}'", text.replace('\'', "''")) }
        }
        _ => literal(value, json),
    })
}

/// The value as text, unquoted.
fn plain(value: &Scalar) -> String {
    match value {
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Str(s) => s.clone(),
        Scalar::List(items) => items.join(","),
    }
}

/// The value as a YAML or JSON literal: strings quoted unless YAML reads
/// them plain as the same string; lists in flow style.
pub(crate) fn literal(value: &Scalar, json: bool) -> String {
    match value {
        Scalar::Int(_) | Scalar::Bool(_) => plain(value),
        Scalar::Str(s) if !json && is_plain_yaml(s) => s.clone(),
        Scalar::Str(s) => serde_json::Value::from(s.as_str()).to_string(),
        Scalar::List(items) => serde_json::Value::from(items.clone()).to_string(),
    }
}

/// A string YAML reads back as itself, unquoted: letters, digits and
/// `-_./:` not starting with a digit, `-` or `.`, and not a YAML keyword.
fn is_plain_yaml(s: &str) -> bool {
    let keyword = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"];
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !keyword.contains(&s.to_ascii_lowercase().as_str())
}

/// The edit of a number or bool literal at `span` inside a string of a
/// `*.tf.json` file: the front-end located it there only where the
/// string's text is the expression's, without escapes.
pub(crate) fn in_template(file: &Source, span: Span, value: &Scalar) -> Option<Edit> {
    let text = file.text.get(span.start..span.end)?;
    let replacement = match value {
        Scalar::Int(n) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit() || b == b'-') => n.to_string(),
        Scalar::Bool(b) if text == "true" || text == "false" => b.to_string(),
        _ => return None,
    };
    Some(Edit { file: file.clone(), span, replacement })
}

pub(crate) fn key(remedy: &Remedy) -> Option<&'static str> {
    Some(Dialect::CloudFormation.name(remedy.field?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_syntax::Node;

    #[test]
    fn a_literal_is_read_without_its_quotes() {
        let at = |text: &str| {
            let file = sqsguard_source::SourceFile::new("t.yaml", text.to_string());
            literal_at(&file, Span::new(0, text.len())).map(str::to_string)
        };
        assert_eq!(at("orders").as_deref(), Some("orders"));
        assert_eq!(at(" \"orders.fifo\"").as_deref(), Some("orders.fifo"));
        assert_eq!(at("'a-b'").as_deref(), Some("a-b"));
        assert_eq!(at("!Sub x").as_deref(), Some("!Sub x"));
    }

    /// A node whose span does not hold its value gets no edit: the edit
    /// would land in other bytes.
    #[test]
    fn only_the_bytes_of_the_value_are_replaced() {
        use sqsguard_syntax::Kind;
        let file = sqsguard_source::SourceFile::new("t.yaml", "a: 0\nb: 60\nc: 'x'\n".to_string());
        let at = |k, s: usize, e: usize| Node::new(k, Span::new(s, e));
        assert_eq!(render(&file, &at(Kind::Number("0".into()), 3, 4), &Scalar::Int(20), false).as_deref(), Some("20"));
        assert_eq!(render(&file, &at(Kind::Number("0".into()), 8, 10), &Scalar::Int(20), false), None);
        assert_eq!(render(&file, &at(Kind::Number("0".into()), 10, 10), &Scalar::Int(20), false), None);
        let x = at(Kind::String("x".into()), 14, 17);
        assert_eq!(render(&file, &x, &Scalar::Str("y".into()), false).as_deref(), Some("'y'"));
        assert_eq!(render(&file, &at(Kind::String("z".into()), 14, 17), &Scalar::Str("y".into()), false), None);
    }

    #[test]
    fn yaml_plain_strings_stay_unquoted_and_keywords_do_not() {
        assert!(is_plain_yaml("messageGroup"));
        for s in ["yes", "On", "1abc", "-x", "", "a b", "a:b"] {
            assert!(!is_plain_yaml(s), "{s}");
        }
        assert_eq!(literal(&Scalar::Str("no".into()), false), "\"no\"");
        assert_eq!(
            literal(&Scalar::List(vec!["ReportBatchItemFailures".into()]), false),
            "[\"ReportBatchItemFailures\"]"
        );
    }
}
