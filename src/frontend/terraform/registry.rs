//! Registry modules modelled from their documented inputs, so that
//! `module "q" { source = "terraform-aws-modules/sqs/aws" ... }` is linted
//! without downloading the module: the resources it would create, with the
//! module's defaults, located at the arguments that set them (or at the
//! `module` block when an input is absent).
//!
//! Modelled: terraform-aws-modules/sqs/aws (queue, its DLQ with
//! `create_dlq`, and the queue policies of either: `policy` of the oldest
//! versions, `create_queue_policy` with `queue_policy_statements` and the
//! policy documents of later ones) and terraform-aws-modules/lambda/aws
//! (function and its `event_source_mapping` entries). An input of the SQS
//! module that the model does not read and that may matter, or a value of
//! one it cannot read, is a note naming the input.

use std::collections::HashMap;

use super::resources::Resource;
use crate::finding::Note;
use crate::frontend::value::{Part, R, RV, Text};
use crate::model::field::QUEUE_SETTINGS;
use crate::model::{Dialect, Origin};
use crate::source::{Source, Span};

/// The resources a module call creates, its outputs, and what of it was
/// not understood.
type Modelled = (Vec<Resource>, HashMap<String, R>, Vec<Note>);

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

/// The resources and outputs of a known registry module, `None` for any
/// other source.
pub fn model(source: &str, prefix: &str, args: &HashMap<String, R>, file: &Source, header: Span) -> Option<Modelled> {
    let m = Module { prefix, args, file, header };
    match registry_name(source)?.as_str() {
        SQS => Some(m.sqs()),
        "terraform-aws-modules/lambda/aws" => Some(m.lambda()),
        _ => None,
    }
}

/// The registry name of a module source: `terraform-aws-modules/sqs/aws`
/// for the registry address (with or without its host, a `//subdir`) and
/// for the module's own GitHub repository in the forms Terraform takes
/// (`git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0`,
/// `github.com/terraform-aws-modules/terraform-aws-sqs`,
/// `git@github.com:terraform-aws-modules/terraform-aws-sqs.git`).
fn registry_name(source: &str) -> Option<String> {
    let source = source.trim();
    let git = source.strip_prefix("git::").unwrap_or(source);
    let git = git.split('?').next().unwrap_or(git);
    let repository = ["https://github.com/", "ssh://git@github.com/", "git@github.com:", "github.com/"]
        .iter()
        .find_map(|host| git.strip_prefix(host));
    if let Some(path) = repository {
        let path = path.split("//").next().unwrap_or(path).trim_end_matches('/');
        let path = path.strip_suffix(".git").unwrap_or(path);
        let (owner, repo) = path.split_once('/')?;
        let name = repo.strip_prefix("terraform-aws-")?;
        return Some(format!("{owner}/{name}/aws"));
    }
    let source = source.trim_start_matches("registry.terraform.io/");
    Some(source.split("//").next().unwrap_or(source).to_string())
}

const SQS: &str = "terraform-aws-modules/sqs/aws";

/// Whether a module `source` is terraform-aws-modules/sqs/aws (whose
/// outputs include each URL's ARN twin).
pub fn is_sqs_module(source: &str) -> bool {
    registry_name(source).as_deref() == Some(SQS)
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

    /// A note about the input `name` of this call, at its value (or at the
    /// `module` block).
    fn note(&self, notes: &mut Vec<Note>, name: &str, why: &str) {
        let span = self.args.get(name).map_or(self.header, |r| r.span);
        self.note_at(notes, span, name, why);
    }

    /// A note about `what` (an input, or a part of one) at `span`.
    fn note_at(&self, notes: &mut Vec<Note>, span: Span, what: &str, why: &str) {
        let module = self.prefix.trim_end_matches('.');
        notes.push(Note { origin: Origin::file(self.file, span), message: format!("{module}: {what} {why}") });
    }

    /// terraform-aws-modules/sqs/aws.
    fn sqs(&self) -> Modelled {
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
                            RV::Str(_) => crate::frontend::convert::json_string(document),
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
    /// `principals`, `condition` or `conditions`) as the statement of the
    /// policy document the module writes.
    fn statement(&self, s: &R, name: &str, notes: &mut Vec<Note>, out: &mut Vec<R>) {
        if !matches!(s.v, RV::Map(_)) {
            self.note_at(notes, s.span, name, "is only known at plan time: it was not checked");
            return;
        }
        let mut entries = Vec::new();
        // The policy document's default effect.
        let effect = s.entry("effect").map(|(_, e)| e.clone()).filter(|e| e.v != RV::Null);
        let allow = || R::new(RV::Str(Text::lit("Allow")), s.span);
        entries.push(("Effect".to_string(), s.span, effect.unwrap_or_else(allow)));
        if let Some((_, principals)) = s.entry("principals").filter(|(_, p)| p.v != RV::Null) {
            entries.push(("Principal".to_string(), principals.span, principal(principals)));
        }
        for key in ["condition", "conditions"] {
            match s.entry(key).map(|(_, c)| c) {
                None => {}
                Some(c) if c.v == RV::Null || matches!(&c.v, RV::List(items) if items.is_empty()) => {}
                // Any condition, or one only known at plan time, restricts.
                Some(c) => entries.push(("Condition".to_string(), c.span, c.clone())),
            }
        }
        out.push(R::new(RV::Map(entries), s.span));
    }

    /// The module's DLQ: same type as the queue; each `dlq_*` input, or the
    /// queue's own value when unset.
    fn dlq(&self, fifo: bool, base: Option<&Text>, use_prefix: bool) -> Resource {
        let mut dlq = vec![("fifo_queue", R::new(RV::Bool(fifo), self.header))];
        let sse = Dialect::Terraform.name(crate::model::Field::SqsManagedSse);
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
            return (Vec::new(), outputs, Vec::new());
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
        (resources, outputs, Vec::new())
    }
}

/// The `principals` of a statement object (`[{ type, identifiers }]`) as
/// the `Principal` of the policy document: `{AWS: [...], Service: [...]}`,
/// where `*` and a type only known at plan time count as `AWS` (so a
/// wildcard among them is public); what is only known at plan time stays
/// unknown.
fn principal(principals: &R) -> R {
    let RV::List(items) = &principals.v else {
        return R::unknown("principals only known at plan time", principals.span);
    };
    let mut by_type: Vec<(String, Span, R)> = Vec::new();
    for item in items {
        let kind = item.entry("type").and_then(|(_, t)| t.literal()).filter(|t| t != "*");
        let kind = kind.unwrap_or_else(|| "AWS".to_string());
        let identifiers = match item.entry("identifiers").map(|(_, i)| i) {
            Some(R { v: RV::List(ids), .. }) => ids.clone(),
            Some(other) => vec![R::unknown("identifiers only known at plan time", other.span)],
            None => vec![R::unknown("principal only known at plan time", item.span)],
        };
        match by_type.iter_mut().find(|(k, _, _)| *k == kind) {
            Some((_, _, R { v: RV::List(all), .. })) => all.extend(identifiers),
            _ => by_type.push((kind, item.span, R::new(RV::List(identifiers), item.span))),
        }
    }
    R::new(RV::Map(by_type), principals.span)
}

#[cfg(test)]
mod tests {
    use super::registry_name;

    #[test]
    fn the_modules_git_repository_is_the_registry_module() {
        for source in [
            "terraform-aws-modules/sqs/aws",
            "registry.terraform.io/terraform-aws-modules/sqs/aws",
            "terraform-aws-modules/sqs/aws//modules/x",
            "git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0",
            "git::https://github.com/terraform-aws-modules/terraform-aws-sqs?ref=v3.5.0",
            "github.com/terraform-aws-modules/terraform-aws-sqs",
            "git@github.com:terraform-aws-modules/terraform-aws-sqs.git",
            "git::ssh://git@github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.0.0",
        ] {
            assert_eq!(registry_name(source).as_deref(), Some("terraform-aws-modules/sqs/aws"), "{source}");
        }
        assert_eq!(registry_name("./modules/queue").as_deref(), Some("./modules/queue"));
        assert_eq!(registry_name("git::https://github.com/acme/queues.git"), None);
    }
}
