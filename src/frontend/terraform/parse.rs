//! `.tf` and `.tfvars` files into hcl-edit bodies, with located errors.
//!
//! hcl-edit keeps byte spans for every attribute, block and expression, and
//! refuses input nested deeper than its limit instead of overflowing the
//! stack.

use hcl_edit::structure::Body;

use crate::source::{SourceFile, Span};
use crate::syntax::ParseError;

pub fn parse(file: &SourceFile) -> Result<Body, ParseError> {
    parse_text(&file.text)
}

/// Parse HCL text; error spans are offsets into `text`.
pub fn parse_text(text: &str) -> Result<Body, ParseError> {
    hcl_edit::parser::parse_body(text).map_err(|e| {
        let at = e.location().offset().min(text.len());
        let message = e.message().lines().next().unwrap_or("syntax error").trim().to_string();
        let message = if message.is_empty() { "syntax error".to_string() } else { message };
        ParseError { message: format!("HCL syntax error: {message}"), span: Span::new(at, at) }
    })
}

/// The byte span of anything hcl-edit spans, or `fallback`.
pub fn span_of(node: &impl hcl_edit::Span, fallback: Span) -> Span {
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
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("locals {{\n  x = {}1{}\n}}\n", "[".repeat(10_000), "]".repeat(10_000));
        let f = SourceFile::new("deep.tf", deep);
        assert!(parse(&f).is_err());
    }
}
