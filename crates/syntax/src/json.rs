//! JSON into the same spanned [`Node`] tree as YAML, through jsonc-parser
//! (strict JSON: no comments, no trailing commas, no key twice in an object,
//! as CloudFormation demands).

use std::collections::HashMap;

use jsonc_parser::ast::{ObjectPropName, Value};
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};

use super::{BOM, Entry, Kind, MAX_DEPTH, Node, ParseError, duplicate_key};
use sqsguard_source::{SourceFile, Span};

/// Parse `file` as one strict JSON document. A byte order mark at its
/// start is read as the whitespace it stands for (cfn-lint and Terraform
/// accept it), so every offset stays the file's own.
pub fn parse(file: &SourceFile) -> Result<Node, ParseError> {
    let blanked;
    let text = match file.text.strip_prefix(BOM) {
        Some(rest) => {
            blanked = format!("{}{rest}", " ".repeat(BOM.len()));
            blanked.as_str()
        }
        None => file.text.as_str(),
    };
    let strict = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed = parse_to_ast(text, &CollectOptions::default(), &strict).map_err(|e| {
        let r = e.range();
        ParseError {
            message: format!("JSON syntax error: {}", e.kind()),
            span: Span::new(r.start.min(text.len()), r.end.min(text.len())),
        }
    })?;
    match parsed.value {
        Some(value) => convert(file, &value, 0),
        None => Ok(Node::new(Kind::Null, Span::new(0, 0))),
    }
}

fn convert(file: &SourceFile, value: &Value<'_>, depth: usize) -> Result<Node, ParseError> {
    let span = |r: &jsonc_parser::common::Range| Span::new(r.start, r.end);
    if depth > MAX_DEPTH {
        let r = match value {
            Value::Object(o) => &o.range,
            Value::Array(a) => &a.range,
            _ => unreachable_range(),
        };
        return Err(ParseError { message: format!("nesting deeper than {MAX_DEPTH} levels"), span: span(r) });
    }
    Ok(match value {
        Value::StringLit(s) => Node::new(Kind::String(s.value.to_string()), span(&s.range)),
        Value::NumberLit(n) => Node::new(Kind::Number(n.value.to_string()), span(&n.range)),
        Value::BooleanLit(b) => Node::new(Kind::Bool(b.value), span(&b.range)),
        Value::NullKeyword(n) => Node::new(Kind::Null, span(&n.range)),
        Value::Array(a) => {
            let items = a.elements.iter().map(|v| convert(file, v, depth + 1)).collect::<Result<_, _>>()?;
            Node::new(Kind::Seq(items), span(&a.range))
        }
        Value::Object(o) => {
            let mut entries = Vec::with_capacity(o.properties.len());
            let mut seen: HashMap<&str, usize> = HashMap::with_capacity(o.properties.len());
            for p in &o.properties {
                let key_range = match &p.name {
                    ObjectPropName::String(s) => &s.range,
                    ObjectPropName::Word(w) => &w.range,
                };
                let key = p.name.as_str();
                if let Some(&first) = seen.get(key) {
                    return Err(duplicate_key(key, file.position(first).line, span(key_range)));
                }
                seen.insert(key, key_range.start);
                entries.push(Entry {
                    key: key.to_string(),
                    key_span: span(key_range),
                    value: convert(file, &p.value, depth + 1)?,
                });
            }
            Node::new(Kind::Map(entries), span(&o.range))
        }
    })
}

fn unreachable_range() -> &'static jsonc_parser::common::Range {
    // Only collections nest; scalars never reach the depth check.
    static EMPTY: jsonc_parser::common::Range = jsonc_parser::common::Range { start: 0, end: 0 };
    &EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_byte_offsets() {
        let f = SourceFile::new("t.json", "{\"é\": {\"VisibilityTimeout\": 30}}".to_string());
        let n = parse(&f).unwrap();
        let vt = n.get("é").unwrap().entry("VisibilityTimeout").unwrap();
        assert_eq!(&f.text[vt.key_span.start..vt.key_span.end], "\"VisibilityTimeout\"");
        assert_eq!(&f.text[vt.value.span.start..vt.value.span.end], "30");
    }

    #[test]
    fn syntax_error_has_line_and_column() {
        let f = SourceFile::new("t.json", "{\n  \"a\": 1,\n  \"b\": ,\n}".to_string());
        let err = parse(&f).unwrap_err();
        assert!(err.message.starts_with("JSON syntax error"), "{}", err.message);
        assert_eq!(f.position(err.span.start).line, 3);
    }

    #[test]
    fn a_byte_order_mark_is_read_as_blank_and_offsets_stay_the_files() {
        let text = "\u{feff}{\"a\": [1]}".to_string();
        let f = SourceFile::new("t.json", text.clone());
        let n = parse(&f).unwrap();
        let a = n.entry("a").unwrap();
        assert_eq!(&text[a.key_span.start..a.key_span.end], "\"a\"");
        assert_eq!(&text[a.value.span.start..a.value.span.end], "[1]");
        assert_eq!(f.text, text, "the file's text keeps its mark");
    }

    #[test]
    fn a_key_written_twice_is_refused_at_the_second() {
        let text = "{\n  \"Q\": 1,\n  \"R\": {\"Q\": 2},\n  \"Q\": 3\n}";
        let f = SourceFile::new("t.json", text.to_string());
        let err = parse(&f).unwrap_err();
        assert_eq!(
            err.message,
            "duplicate key \"Q\": it is already set on line 2, and a key may appear only once in a mapping"
        );
        assert_eq!(f.position(err.span.start).line, 4);
        assert_eq!(&text[err.span.start..err.span.end], "\"Q\"");
        // The same key in two mappings is no repeat.
        let f = SourceFile::new("t.json", "{\"a\": {\"Q\": 1}, \"b\": {\"Q\": 2}}".to_string());
        assert!(parse(&f).is_ok());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let f = SourceFile::new("deep.json", deep);
        assert!(parse(&f).is_err());
    }
}
