//! Terraform JSON (`*.tf.json`) as HCL the module reader already evaluates.
//!
//! Terraform's JSON syntax maps one to one onto native syntax: top-level
//! keys are block types (`resource`, `variable`, `locals`, ...), the next
//! levels are block labels, and a string is a template (`"${var.x}"`). So
//! the file is written out as native HCL, value by value, and every piece
//! written remembers the bytes of the JSON it came from ([`Remap`]): spans
//! of the HCL translate back, and findings point into the `.tf.json`
//! (`writer` writes, `remap` maps back).
//!
//! What JSON cannot say without the provider's schema, whether a nested
//! object is an attribute or a block, needs no answer here: both evaluate
//! to the same map, except an array of objects in a resource, read as
//! repeated blocks (so one element is a map, as one block is), and the
//! objects of a `provider` or `terraform` block, which are blocks.
//!
//! A `"//"` key is a comment, as in Terraform; in a resource one that holds
//! `sqsguard:ignore SQS004 reason` suppresses like the HCL comment.

mod remap;
mod writer;

use sqsguard_model::Suppression;
use sqsguard_source::Source;
use sqsguard_syntax::ParseError;
use writer::{Body, Writer};

pub use remap::Remap;

/// The HCL text of a `.tf.json` file, how to map its spans back, and the
/// suppressions its `"//"` keys hold.
pub(crate) struct Converted {
    pub hcl: String,
    pub remap: Remap,
    pub suppressions: Vec<Suppression>,
    /// The JSON as parsed, for the fixes.
    pub root: sqsguard_syntax::Node,
}

pub(crate) fn convert(source: &Source) -> Result<Converted, ParseError> {
    let root = sqsguard_syntax::json::parse(source)?;
    let Some(entries) = root.as_map() else {
        return Err(ParseError {
            message: "Terraform JSON must be an object of block types (resource, variable, ...)".to_string(),
            span: root.span,
        });
    };
    let mut out = Writer {
        source,
        hcl: String::new(),
        remap: Remap::default(),
        suppressions: Vec::new(),
        block: "",
        literal: false,
    };
    for entry in entries {
        let (kind, labels) = match entry.key.as_str() {
            "resource" | "data" => (Body::Resource, 2),
            "module" => (Body::Attributes, 1),
            "variable" | "output" => (Body::Attributes, 1),
            "provider" => (Body::Blocks, 1),
            "locals" => (Body::Attributes, 0),
            "terraform" => (Body::Blocks, 0),
            // `moved`, `import`, `check`, `removed` and comments change no
            // resource's settings.
            _ => continue,
        };
        out.blocks(entry, &mut Vec::new(), labels, kind);
    }
    let (hcl, remap, suppressions) = (out.hcl, out.remap, out.suppressions);
    Ok(Converted { hcl, remap, suppressions, root })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_model::{Scope as Applies, Written};
    use sqsguard_source::SourceFile;
    use sqsguard_source::Span;

    fn converted(json: &str) -> (Source, Converted) {
        let source = SourceFile::new("main.tf.json", json.to_string());
        let c = convert(&source).unwrap();
        (source, c)
    }

    #[test]
    fn blocks_and_values_become_hcl_that_maps_back() {
        let json =
            r#"{"resource": {"aws_sqs_queue": {"q": {"visibility_timeout_seconds": 60, "tags": {"a:b": "c\/d"}}}}}"#;
        let (source, c) = converted(json);
        let body = hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
        let block = body.blocks().next().unwrap();
        assert_eq!(block.ident.as_str(), "resource");
        let attr = block.body.get_attribute("visibility_timeout_seconds").unwrap();
        let span = crate::terraform::parse::span_of(&attr.value, Span::default());
        assert_eq!(source.text.get(c.remap.span(span).start..c.remap.span(span).end), Some("60"));
        let header = crate::terraform::parse::span_of(&block.labels[1], Span::default());
        assert_eq!(source.text.get(c.remap.span(header).start..c.remap.span(header).end), Some("\"q\""));
        assert!(c.hcl.contains("\"c/d\""), "{}", c.hcl);
    }

    #[test]
    fn arrays_of_objects_in_a_resource_are_blocks() {
        let json = r#"{"resource": [{"aws_lambda_event_source_mapping": {"m": [{"scaling_config": [{"maximum_concurrency": 2}], "dynamic": {"x": {}}}]}}]}"#;
        let (_, c) = converted(json);
        let body = hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
        let block = body.blocks().next().unwrap();
        assert!(block.body.blocks().any(|b| b.ident.as_str() == "scaling_config"), "{}", c.hcl);
        assert!(block.body.blocks().any(|b| b.ident.as_str() == "dynamic"), "{}", c.hcl);
    }

    #[test]
    fn a_variables_default_is_text_not_a_template() {
        let json = r#"{"variable": {"user": {"default": "${aws:username} 50%{x}", "description": "a ${b}"}}, "module": {"m": {"source": "./m", "n": "${var.user}"}}}"#;
        let (_, c) = converted(json);
        assert!(c.hcl.contains(r#"default = "$${aws:username} 50%%{x}""#), "{}", c.hcl);
        assert!(c.hcl.contains(r#"description = "a $${b}""#), "{}", c.hcl);
        assert!(c.hcl.contains(r#"n = "${var.user}""#), "module arguments stay templates: {}", c.hcl);
        hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
    }

    #[test]
    fn provider_blocks_may_be_arrays_of_objects() {
        let json = r#"{"provider": {"aws": {"default_tags": [{"tags": {"team": "a"}}]}}}"#;
        let (_, c) = converted(json);
        let body = hcl_edit::parser::parse_body(&c.hcl).unwrap_or_else(|e| panic!("{e}\n{}", c.hcl));
        let provider = body.blocks().next().unwrap();
        assert!(provider.body.blocks().any(|b| b.ident.as_str() == "default_tags"), "{}", c.hcl);
    }

    #[test]
    fn a_comment_key_suppresses_its_resource() {
        let json =
            "{\"resource\": {\"aws_sqs_queue\": {\n  \"q\": {\"//\": \"sqsguard:ignore SQS004 drained by hand\"}}}}";
        let (_, c) = converted(json);
        assert_eq!(c.suppressions.len(), 1);
        assert_eq!(c.suppressions[0].written, Written::Comment("SQS004 drained by hand".into()));
        assert_eq!(c.suppressions[0].scope, Applies::Resource("aws_sqs_queue.q".into()));
    }
}
