//! terraform-aws-modules/lambda/aws: the function and its
//! `event_source_mapping` entries, from the module's inputs.

use std::collections::HashMap;

use super::call::{Modelled, Module};
use crate::terraform::resources::ARCHIVE_KIND;
use crate::value::{R, RV, Text};
use sqsguard_source::Span;

/// The archive the module builds from `source_path`, as the Lambda reader
/// finds a function's code.
const SOURCE_ARCHIVE: &str = "data.archive_file.source_path";

impl Module<'_> {
    /// terraform-aws-modules/lambda/aws.
    pub(super) fn lambda(&self) -> Modelled {
        let mut outputs = HashMap::new();
        if self.is_true("create_function", true) == Some(false) {
            return (Vec::new(), outputs, Vec::new());
        }
        let mut function = Vec::new();
        for input in ["function_name", "timeout", "reserved_concurrent_executions"] {
            if let Some(v) = self.arg(input) {
                function.push((input, v));
            }
        }
        for input in ["handler", "runtime"] {
            if let Some(v) = self.arg(input) {
                function.push((input, v));
            }
        }
        if let Some(vars) = self.arg("environment_variables") {
            let span = vars.span;
            function.push(("environment", R::new(RV::Map(vec![("variables".into(), span, vars)]), span)));
        }
        let mut resources = Vec::new();
        // The module packages `source_path` (a path, or a list of paths and
        // of maps with `path`) into the function's zip: the first is where
        // the handler is.
        if let Some((path, span)) = self.arg("source_path").and_then(|p| first_source_path(&p))
            && self.is_true("create_package", true) == Some(true)
        {
            let path = R::new(RV::Str(Text::lit(path)), span);
            resources.push(self.resource(ARCHIVE_KIND, SOURCE_ARCHIVE, vec![("source_dir", path)]));
            let mut reference = self.reference(SOURCE_ARCHIVE, "output_path");
            reference.span = span;
            function.push(("filename", reference));
        }
        if let Some(dlq) = self.arg("dead_letter_target_arn") {
            let span = dlq.span;
            function.push(("dead_letter_config", R::new(RV::Map(vec![("target_arn".into(), span, dlq)]), span)));
        }
        resources.push(self.resource("aws_lambda_function", "aws_lambda_function.this", function));
        outputs.insert("lambda_function_arn".into(), self.reference("aws_lambda_function.this", "arn"));
        outputs.insert("lambda_function_name".into(), self.reference("aws_lambda_function.this", "function_name"));
        if let Some(RV::Map(mappings)) = self.arg("event_source_mapping").map(|m| m.v) {
            for (key, key_span, mapping) in mappings {
                let mut esm = vec![("function_name", self.reference("aws_lambda_function.this", "arn"))];
                for input in [
                    "event_source_arn",
                    "batch_size",
                    "maximum_batching_window_in_seconds",
                    "function_response_types",
                    "scaling_config",
                    "enabled",
                    "starting_position",
                    "starting_position_timestamp",
                    "maximum_retry_attempts",
                    "maximum_record_age_in_seconds",
                    "bisect_batch_on_function_error",
                    "parallelization_factor",
                    "tumbling_window_in_seconds",
                ] {
                    if let Some((_, v)) = mapping.entry(input) {
                        esm.push((input, v.clone()));
                    }
                }
                // The module writes the block only for a destination that
                // is not null.
                if let Some((_, dest)) = mapping.entry("destination_arn_on_failure").filter(|(_, d)| d.v != RV::Null) {
                    let span = dest.span;
                    let on_failure = R::new(RV::Map(vec![("destination_arn".into(), span, dest.clone())]), span);
                    esm.push((
                        "destination_config",
                        R::new(RV::Map(vec![("on_failure".into(), span, on_failure)]), span),
                    ));
                }
                let mut r = self.resource(
                    "aws_lambda_event_source_mapping",
                    &format!("aws_lambda_event_source_mapping.this[\"{key}\"]"),
                    esm,
                );
                r.header = key_span;
                resources.push(r);
            }
        }
        (resources, outputs, Vec::new())
    }
}

/// The first path of a `source_path`: a string, or the first item of a
/// list (a string, or a map's `path`).
fn first_source_path(source: &R) -> Option<(String, Span)> {
    match &source.v {
        RV::Str(_) => Some((source.literal()?, source.span)),
        RV::List(items) => {
            let first = items.first()?;
            match first.entry("path") {
                Some((_, path)) => Some((path.literal()?, path.span)),
                None => Some((first.literal()?, first.span)),
            }
        }
        _ => None,
    }
}
