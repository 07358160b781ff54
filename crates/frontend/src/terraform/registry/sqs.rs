//! terraform-aws-modules/sqs/aws: the queue, its DLQ with `create_dlq`,
//! and the queue policies of either, from the module's inputs.

use std::collections::HashMap;

use super::call::{Modelled, Module};
use crate::terraform::resources::Resource;
use crate::value::{Part, R, RV, Text};
use sqsguard_finding::Note;
use sqsguard_model::Dialect;
use sqsguard_model::field::QUEUE_SETTINGS;
use sqsguard_source::Span;

/// Inputs of terraform-aws-modules/sqs/aws (any version) that no rule
/// depends on: set or not, nothing to say.
const SQS_INERT: &[&str] = &[
    "region",
    "max_message_size",
    "kms_data_key_reuse_period_seconds",
    "dlq_kms_data_key_reuse_period_seconds",
    "name_prefix",
    "redrive_allow_policy",
    "create_dlq_redrive_allow_policy",
    "dlq_redrive_allow_policy",
];

/// Inputs of terraform-aws-modules/sqs/aws the model reads, besides the
/// queue settings and their `dlq_` twins.
const SQS_READ: &[&str] = &[
    "create",
    "name",
    "use_name_prefix",
    "fifo_queue",
    "tags",
    "redrive_policy",
    "create_dlq",
    "dlq_name",
    "dlq_tags",
    "policy",
    "dlq_policy",
    "create_queue_policy",
    "queue_policy_statements",
    "source_queue_policy_documents",
    "override_queue_policy_documents",
    "create_dlq_queue_policy",
    "dlq_queue_policy_statements",
    "source_dlq_queue_policy_documents",
    "override_dlq_queue_policy_documents",
];

/// Queue inputs the module passes to aws_sqs_queue unchanged (the queue
/// settings' Terraform names); each has a `dlq_` twin for the dead-letter
/// queue that falls back to it.
fn queue_inputs() -> impl Iterator<Item = &'static str> {
    QUEUE_SETTINGS.iter().map(|f| Dialect::Terraform.name(*f))
}

/// The queue or the DLQ of the SQS module: the inputs of its policy.
struct PolicyInputs {
    /// `aws_sqs_queue.this` or `aws_sqs_queue.dlq`.
    queue: &'static str,
    /// `aws_sqs_queue_policy.this` or `.dlq`.
    address: &'static str,
    create: &'static str,
    statements: &'static str,
    documents: [&'static str; 2],
}

const QUEUE_POLICY: PolicyInputs = PolicyInputs {
    queue: "aws_sqs_queue.this",
    address: "aws_sqs_queue_policy.this",
    create: "create_queue_policy",
    statements: "queue_policy_statements",
    documents: ["source_queue_policy_documents", "override_queue_policy_documents"],
};

const DLQ_POLICY: PolicyInputs = PolicyInputs {
    queue: "aws_sqs_queue.dlq",
    address: "aws_sqs_queue_policy.dlq",
    create: "create_dlq_queue_policy",
    statements: "dlq_queue_policy_statements",
    documents: ["source_dlq_queue_policy_documents", "override_dlq_queue_policy_documents"],
};

impl Module<'_> {
    /// terraform-aws-modules/sqs/aws.
    #[expect(
        clippy::too_many_lines,
        reason = "follows terraform-aws-modules/sqs/aws's main.tf input by input (queue, outputs, queue policy, the create_dlq branch), so the two can be read side by side"
    )]
    pub(super) fn sqs(&self) -> Modelled {
        let mut notes = Vec::new();
        let mut unread: Vec<&String> = self
            .args
            .keys()
            .filter(|k| {
                let k = k.as_str();
                let setting = queue_inputs().any(|i| i == k || k.strip_prefix("dlq_") == Some(i));
                !setting && !SQS_READ.contains(&k) && !SQS_INERT.contains(&k)
            })
            .collect();
        unread.sort();
        for name in unread {
            self.note(
                &mut notes,
                name,
                "is no input of terraform-aws-modules/sqs/aws that sqsguard models: what it sets was not checked",
            );
        }
        match self.is_true("create", true) {
            // The module creates nothing.
            Some(false) => return (Vec::new(), HashMap::new(), notes),
            Some(true) => {}
            None => {
                self.note(&mut notes, "create", "is only known at plan time: the queues were checked as if created")
            }
        }
        let fifo = matches!(self.arg("fifo_queue").map(|r| r.v), Some(RV::Bool(true)));
        let mut this = Vec::new();
        for input in queue_inputs().chain(["fifo_queue", "tags"]) {
            if let Some(v) = self.arg(input) {
                this.push((input, v));
            }
        }
        // The oldest versions pass `policy` to the queue itself.
        if let Some(policy) = self.arg("policy") {
            this.push(("policy", policy));
        }
        let base_name = self.arg("name").and_then(|n| n.text().cloned());
        let use_prefix = matches!(self.arg("use_name_prefix").map(|r| r.v), Some(RV::Bool(true)));
        if let (Some(name), false) = (&base_name, use_prefix) {
            this.push(("name", self.name(name, "", fifo, self.arg("name").map_or(self.header, |n| n.span))));
        }
        let mut resources = Vec::new();
        let mut outputs = HashMap::new();
        // v4 on; v3 named them sqs_queue_* (its sqs_queue_id is the URL).
        for (output, attribute) in [
            ("queue_arn", "arn"),
            ("queue_id", "id"),
            ("queue_url", "url"),
            ("queue_name", "name"),
            ("sqs_queue_arn", "arn"),
            ("sqs_queue_id", "id"),
            ("sqs_queue_name", "name"),
        ] {
            outputs.insert(output.to_string(), self.reference("aws_sqs_queue.this", attribute));
        }
        resources.extend(self.queue_policy(&QUEUE_POLICY, &mut notes));
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
                resources.extend(self.queue_policy(&DLQ_POLICY, &mut notes));
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
            None => {
                this.push(("redrive_policy", R::unknown("create_dlq is only known at plan time", self.header)));
                for input in [DLQ_POLICY.create, DLQ_POLICY.statements].iter().chain(&DLQ_POLICY.documents) {
                    if self.arg(input).is_some() {
                        self.note(&mut notes, input, "was not checked: create_dlq is only known at plan time");
                    }
                }
            }
        }
        resources.insert(0, self.resource("aws_sqs_queue", "aws_sqs_queue.this", this));
        (resources, outputs, notes)
    }

    /// The `aws_sqs_queue_policy` the module writes for its queue or DLQ
    /// from `create_queue_policy`, the statements and the policy documents
    /// (`dlq_` ones for the DLQ); `None` when it writes none.
    ///
    /// The statements of the source and override documents are all taken
    /// as the policy's: an override that replaces a public statement by
    /// `sid` still reads as public (reported, never missed).
    fn queue_policy(&self, inputs: &PolicyInputs, notes: &mut Vec<Note>) -> Option<Resource> {
        match self.is_true(inputs.create, false) {
            Some(true) => {}
            Some(false) => return None,
            None => {
                self.note(notes, inputs.create, "is only known at plan time: the queue policy was not checked");
                return None;
            }
        }
        let mut statements = Vec::new();
        match self.arg(inputs.statements).map(|r| r.v) {
            None => {}
            Some(RV::Map(entries)) => {
                for (key, _, s) in entries {
                    self.statement(&s, &format!("{}.{key}", inputs.statements), notes, &mut statements);
                }
            }
            Some(RV::List(items)) => {
                for (i, s) in items.iter().enumerate() {
                    self.statement(s, &format!("{}[{i}]", inputs.statements), notes, &mut statements);
                }
            }
            Some(_) => {
                self.note(notes, inputs.statements, "is only known at plan time: its statements were not checked")
            }
        }
        for input in inputs.documents {
            match self.arg(input).map(|r| r.v) {
                None => {}
                Some(RV::List(documents)) => {
                    for (i, document) in documents.iter().enumerate() {
                        let parsed = match &document.v {
                            RV::Str(_) => crate::convert::json_string(document),
                            RV::Map(_) => Some(document.clone()),
                            _ => None,
                        };
                        let found = parsed.as_ref().and_then(|d| d.entry("Statement").map(|(_, s)| s.clone()));
                        match found {
                            Some(R { v: RV::List(items), .. }) => statements.extend(items),
                            Some(one @ R { v: RV::Map(_), .. }) => statements.push(one),
                            _ => self.note_at(
                                notes,
                                document.span,
                                &format!("{input}[{i}]"),
                                "is only known at plan time, or holds no statement sqsguard reads: it was not checked",
                            ),
                        }
                    }
                }
                Some(_) => self.note(notes, input, "is only known at plan time: its statements were not checked"),
            }
        }
        let statements = R::new(RV::List(statements), self.header);
        let document = R::new(RV::Map(vec![("Statement".into(), self.header, statements)]), self.header);
        Some(self.resource(
            "aws_sqs_queue_policy",
            inputs.address,
            vec![("queue_url", self.reference(inputs.queue, "url")), ("policy", document)],
        ))
    }

    /// One entry of `queue_policy_statements` (an object with `effect`,
    /// `actions`, `principals`, `condition` or `conditions`, as the
    /// module's `aws_iam_policy_document` takes them) as the statement of
    /// the policy document the module writes.
    fn statement(&self, s: &R, name: &str, notes: &mut Vec<Note>, out: &mut Vec<R>) {
        match super::super::document::statement(s) {
            Ok(statement) => out.push(statement),
            Err(_) => self.note_at(notes, s.span, name, "is only known at plan time: it was not checked"),
        }
    }

    /// The module's DLQ: same type as the queue; each `dlq_*` input, or the
    /// queue's own value when unset.
    fn dlq(&self, fifo: bool, base: Option<&Text>, use_prefix: bool) -> Resource {
        let mut dlq = vec![("fifo_queue", R::new(RV::Bool(fifo), self.header))];
        let sse = Dialect::Terraform.name(sqsguard_model::Field::SqsManagedSse);
        for input in queue_inputs() {
            let twin = format!("dlq_{input}");
            // `dlq_sqs_managed_sse_enabled` defaults to true: the DLQ stays
            // encrypted when the queue's SSE is switched off, unless it is
            // set to null (then the queue's value is taken).
            if input == sse && !self.args.contains_key(&twin) {
                dlq.push((input, R::new(RV::Bool(true), self.header)));
                continue;
            }
            if let Some(v) = self.first(&[&twin, input]) {
                dlq.push((input, v));
            }
        }
        // The DLQ's tags are the queue's merged with `dlq_tags`.
        match (self.arg("tags"), self.arg("dlq_tags")) {
            (None, None) => {}
            (Some(tags), None) | (None, Some(tags)) => dlq.push(("tags", tags)),
            (Some(tags), Some(extra)) => match (tags.v, extra.v) {
                (RV::Map(mut merged), RV::Map(more)) => {
                    for (k, ks, v) in more {
                        merged.retain(|(old, _, _)| *old != k);
                        merged.push((k, ks, v));
                    }
                    dlq.push(("tags", R::new(RV::Map(merged), extra.span)));
                }
                _ => dlq.push(("tags", R::unknown("tags merged with dlq_tags only known at plan time", extra.span))),
            },
        }
        if let Some(policy) = self.arg("dlq_policy") {
            dlq.push(("policy", policy));
        }

        if !use_prefix {
            match (self.arg("dlq_name").and_then(|n| n.text().cloned()), base) {
                (Some(name), _) => dlq.push(("name", self.name(&name, "", fifo, self.header))),
                (None, Some(base)) => dlq.push(("name", self.name(base, "-dlq", fifo, self.header))),
                (None, None) => {}
            }
        }
        let mut resource = self.resource("aws_sqs_queue", "aws_sqs_queue.dlq", dlq);
        if let Some(call) = &mut resource.module {
            call.inputs = "dlq_";
        }
        resource
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
}
