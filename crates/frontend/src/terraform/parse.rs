//! `.tf` and `.tfvars` files into hcl-edit bodies, with located errors.
//!
//! hcl-edit keeps byte spans for every attribute, block and expression, and
//! refuses input nested deeper than its limit instead of overflowing the
//! stack. Like Terraform ("Attribute redefined") it refuses an argument set
//! twice in one body.

use hcl_edit::structure::Body;

use sqsguard_source::{SourceFile, Span};
use sqsguard_syntax::{BOM, ParseError};

pub fn parse(file: &SourceFile) -> Result<Body, ParseError> {
    parse_text(&file.text)
}

/// Parse HCL text; error spans are offsets into `text`. A byte order mark
/// at its start (which Terraform accepts) is read as the blanks it stands
/// for, so every offset stays the text's own.
pub(crate) fn parse_text(text: &str) -> Result<Body, ParseError> {
    let blanked;
    let text = match text.strip_prefix(BOM) {
        Some(rest) => {
            blanked = format!("{}{rest}", " ".repeat(BOM.len()));
            blanked.as_str()
        }
        None => text,
    };
    hcl_edit::parser::parse_body(text).map_err(|e| {
        let at = e.location().offset().min(text.len());
        let message = e.message().lines().next().unwrap_or("syntax error").trim().to_string();
        let message = if message.is_empty() { "syntax error".to_string() } else { message };
        ParseError { message: format!("HCL syntax error: {message}"), span: Span::new(at, at) }
    })
}

/// The byte span of anything hcl-edit spans, or `fallback`.
#[cfg(test)]
pub(crate) fn span_of(node: &impl hcl_edit::Span, fallback: Span) -> Span {
    node.span().map(|r| Span::new(r.start, r.end)).unwrap_or(fallback)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_located() {
        let f = SourceFile::new("main.tf", "resource \"aws_sqs_queue\" \"q\" {\n  name = \n".to_string());
        let err = parse(&f).unwrap_err();
        assert!(err.message.starts_with("HCL syntax error"), "{}", err.message);
        assert!(f.position(err.span.start).line >= 2);
    }

    #[test]
    fn an_argument_set_twice_in_one_block_is_refused_at_the_second() {
        let text = "resource \"aws_sqs_queue\" \"q\" {\n  name = \"a\"\n  tags { name = \"x\" }\n  name = \"b\"\n}\n";
        let f = SourceFile::new("main.tf", text.to_string());
        let err = parse(&f).unwrap_err();
        assert!(err.message.contains("redefined attribute"), "{}", err.message);
        assert_eq!(f.position(err.span.start).line, 4);
        // The same name in a nested block, or in two blocks, is no repeat.
        let ok = "resource \"a\" \"x\" {\n  name = 1\n  tags { name = 2 }\n}\nresource \"a\" \"y\" {\n  name = 3\n}\n";
        assert!(parse(&SourceFile::new("ok.tf", ok.to_string())).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_read_as_blank() {
        let text = "\u{feff}resource \"aws_sqs_queue\" \"q\" {\n  name = \"a\"\n}\n";
        let f = SourceFile::new("main.tf", text.to_string());
        let body = parse(&f).unwrap();
        let block = body.blocks().next().unwrap();
        let attr = block.body.attributes().next().unwrap();
        assert_eq!(&text[span_of(&attr.key, Span::default()).start..][..4], "name");
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("locals {{\n  x = {}1{}\n}}\n", "[".repeat(10_000), "]".repeat(10_000));
        let f = SourceFile::new("deep.tf", deep);
        assert!(parse(&f).is_err());
    }
}
