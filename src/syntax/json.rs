//! JSON into the same spanned [`Node`] tree as YAML, through jsonc-parser
//! (strict JSON: no comments, no trailing commas, as CloudFormation demands).

use jsonc_parser::ast::{ObjectPropName, Value};
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};

use super::{Entry, Kind, MAX_DEPTH, Node, ParseError};
use crate::source::{SourceFile, Span};

pub fn parse(file: &SourceFile) -> Result<Node, ParseError> {
    parse_at(&file.text, 0)
}

/// Parse `text`, a piece of a file that starts at byte `base` of it: the
/// spans are the file's.
pub fn parse_at(text: &str, base: usize) -> Result<Node, ParseError> {
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
            span: Span::new(base + r.start.min(text.len()), base + r.end.min(text.len())),
        }
    })?;
    match parsed.value {
        Some(value) => convert(&value, 0, base),
        None => Ok(Node::new(Kind::Null, Span::new(base, base))),
    }
}

fn convert(value: &Value<'_>, depth: usize, base: usize) -> Result<Node, ParseError> {
    let span = |r: &jsonc_parser::common::Range| Span::new(base + r.start, base + r.end);
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
            let items = a.elements.iter().map(|v| convert(v, depth + 1, base)).collect::<Result<_, _>>()?;
            Node::new(Kind::Seq(items), span(&a.range))
        }
        Value::Object(o) => {
            let mut entries = Vec::with_capacity(o.properties.len());
            for p in &o.properties {
                let key_range = match &p.name {
                    ObjectPropName::String(s) => &s.range,
                    ObjectPropName::Word(w) => &w.range,
                };
                entries.push(Entry {
                    key: p.name.as_str().to_string(),
                    key_span: span(key_range),
                    value: convert(&p.value, depth + 1, base)?,
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
    fn a_piece_keeps_the_files_offsets() {
        let text = "xx{\"a\": [1]}";
        let n = parse_at(&text[2..], 2).unwrap();
        let a = n.entry("a").unwrap();
        assert_eq!(&text[a.key_span.start..a.key_span.end], "\"a\"");
        assert_eq!(&text[a.value.span.start..a.value.span.end], "[1]");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = "[".repeat(10_000) + &"]".repeat(10_000);
        let f = SourceFile::new("deep.json", deep);
        assert!(parse(&f).is_err());
    }
}
