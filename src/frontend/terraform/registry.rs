//! Registry modules modelled from their documented inputs, so that
//! `module "q" { source = "terraform-aws-modules/sqs/aws" ... }` is linted
//! without downloading the module: the resources it would create, with the
//! module's defaults, located at the arguments that set them (or at the
//! `module` block when an input is absent).
//!
//! Modelled: terraform-aws-modules/sqs/aws (queue, and its DLQ with
//! `create_dlq`) and terraform-aws-modules/lambda/aws (function and its
//! `event_source_mapping` entries).

use std::collections::HashMap;

use super::resources::Resource;
use crate::frontend::value::{Part, R, RV, Text};
use crate::model::Dialect;
use crate::model::field::QUEUE_SETTINGS;
use crate::source::{Source, Span};

type Modelled = (Vec<Resource>, HashMap<String, R>);

/// Queue inputs the module passes to aws_sqs_queue unchanged (the queue
/// settings' Terraform names); each has a `dlq_` twin for the dead-letter
/// queue that falls back to it.
fn queue_inputs() -> impl Iterator<Item = &'static str> {
    QUEUE_SETTINGS.iter().map(|f| Dialect::Terraform.name(*f))
}

/// The resources and outputs of a known registry module, `None` for any
/// other source.
pub fn model(source: &str, prefix: &str, args: &HashMap<String, R>, file: &Source, header: Span) -> Option<Modelled> {
    let source = source.trim_start_matches("registry.terraform.io/");
    let source = source.split("//").next().unwrap_or(source);
    let m = Module { prefix, args, file, header };
    match source {
        "terraform-aws-modules/sqs/aws" => Some(m.sqs()),
        "terraform-aws-modules/lambda/aws" => Some(m.lambda()),
        _ => None,
    }
}

struct Module<'a> {
    prefix: &'a str,
    args: &'a HashMap<String, R>,
    file: &'a Source,
    header: Span,
}

impl Module<'_> {
    /// An input that is set (not null).
    fn arg(&self, name: &str) -> Option<R> {
        self.args.get(name).filter(|r| r.v != RV::Null).cloned()
    }

    fn first(&self, names: &[&str]) -> Option<R> {
        names.iter().find_map(|n| self.arg(n))
    }

    fn reference(&self, address: &str, attribute: &str) -> R {
        let part = Part::Attr { resource: format!("{}{address}", self.prefix), attribute: attribute.to_string() };
        R::new(RV::Str(Text(vec![part])), self.header)
    }

    fn resource(&self, kind: &str, address: &str, entries: Vec<(&str, R)>) -> Resource {
        let entries = entries.into_iter().map(|(k, v)| (k.to_string(), v.span, v)).collect();
        Resource {
            kind: kind.to_string(),
            address: format!("{}{address}", self.prefix),
            source: self.file.clone(),
            header: self.header,
            props: R::new(RV::Map(entries), self.header),
        }
    }

    fn is_true(&self, name: &str, default: bool) -> Option<bool> {
        match self.arg(name).map(|r| r.v) {
            None => Some(default),
            Some(RV::Bool(b)) => Some(b),
            Some(_) => None,
        }
    }

    /// terraform-aws-modules/sqs/aws.
    fn sqs(&self) -> Modelled {
        let fifo = matches!(self.arg("fifo_queue").map(|r| r.v), Some(RV::Bool(true)));
        let mut this = Vec::new();
        for input in queue_inputs().chain(["fifo_queue", "tags"]) {
            if let Some(v) = self.arg(input) {
                this.push((input, v));
            }
        }
        let base_name = self.arg("name").and_then(|n| n.text().cloned());
        let use_prefix = matches!(self.arg("use_name_prefix").map(|r| r.v), Some(RV::Bool(true)));
        if let (Some(name), false) = (&base_name, use_prefix) {
            this.push(("name", self.name(name, "", fifo, self.arg("name").map_or(self.header, |n| n.span))));
        }
        let mut resources = Vec::new();
        let mut outputs = HashMap::new();
        for (output, attribute) in
            [("queue_arn", "arn"), ("queue_id", "id"), ("queue_url", "url"), ("queue_name", "name")]
        {
            outputs.insert(output.to_string(), self.reference("aws_sqs_queue.this", attribute));
        }
        match self.is_true("create_dlq", false) {
            Some(true) => {
                let max = self
                    .arg("redrive_policy")
                    .and_then(|p| p.entry("maxReceiveCount").map(|(_, v)| v.clone()))
                    .unwrap_or_else(|| R::new(RV::Num(5.0), self.header));
                let policy = vec![
                    ("deadLetterTargetArn".to_string(), self.header, self.reference("aws_sqs_queue.dlq", "arn")),
                    ("maxReceiveCount".to_string(), max.span, max),
                ];
                this.push(("redrive_policy", R::new(RV::Map(policy), self.header)));
                resources.push(self.dlq(fifo, base_name.as_ref(), use_prefix));
                for (output, attribute) in [
                    ("dead_letter_queue_arn", "arn"),
                    ("dead_letter_queue_id", "id"),
                    ("dead_letter_queue_url", "url"),
                    ("dead_letter_queue_name", "name"),
                ] {
                    outputs.insert(output.to_string(), self.reference("aws_sqs_queue.dlq", attribute));
                }
            }
            Some(false) => {
                if let Some(policy) = self.arg("redrive_policy") {
                    this.push(("redrive_policy", policy));
                }
            }
            None => this.push(("redrive_policy", R::unknown("create_dlq is only known at plan time", self.header))),
        }
        resources.insert(0, self.resource("aws_sqs_queue", "aws_sqs_queue.this", this));
        (resources, outputs)
    }

    /// The module's DLQ: same type as the queue; each `dlq_*` input, or the
    /// queue's own value when unset.
    fn dlq(&self, fifo: bool, base: Option<&Text>, use_prefix: bool) -> Resource {
        let mut dlq = vec![("fifo_queue", R::new(RV::Bool(fifo), self.header))];
        for input in queue_inputs() {
            if let Some(v) = self.first(&[&format!("dlq_{input}"), input]) {
                dlq.push((input, v));
            }
        }
        if !use_prefix {
            match (self.arg("dlq_name").and_then(|n| n.text().cloned()), base) {
                (Some(name), _) => dlq.push(("name", self.name(&name, "", fifo, self.header))),
                (None, Some(base)) => dlq.push(("name", self.name(base, "-dlq", fifo, self.header))),
                (None, None) => {}
            }
        }
        self.resource("aws_sqs_queue", "aws_sqs_queue.dlq", dlq)
    }

    /// The module trims `.fifo`, appends `suffix`, and appends `.fifo` again
    /// for FIFO queues.
    fn name(&self, name: &Text, suffix: &str, fifo: bool, span: Span) -> R {
        let mut parts = name.0.clone();
        if let Some(Part::Lit(last)) = parts.last_mut()
            && let Some(trimmed) = last.strip_suffix(".fifo")
        {
            *last = trimmed.to_string();
        }
        let mut text = Text::default();
        for p in parts {
            text.push(p);
        }
        text.push(Part::Lit(format!("{suffix}{}", if fifo { ".fifo" } else { "" })));
        R::new(RV::Str(text), span)
    }

    /// terraform-aws-modules/lambda/aws.
    fn lambda(&self) -> Modelled {
        let mut outputs = HashMap::new();
        if self.is_true("create_function", true) == Some(false) {
            return (Vec::new(), outputs);
        }
        let mut function = Vec::new();
        for input in ["function_name", "timeout"] {
            if let Some(v) = self.arg(input) {
                function.push((input, v));
            }
        }
        if let Some(dlq) = self.arg("dead_letter_target_arn") {
            let span = dlq.span;
            function.push(("dead_letter_config", R::new(RV::Map(vec![("target_arn".into(), span, dlq)]), span)));
        }
        let mut resources = vec![self.resource("aws_lambda_function", "aws_lambda_function.this", function)];
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
                    "enabled",
                ] {
                    if let Some((_, v)) = mapping.entry(input) {
                        esm.push((input, v.clone()));
                    }
                }
                if let Some((_, dest)) = mapping.entry("destination_arn_on_failure") {
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
        (resources, outputs)
    }
}
