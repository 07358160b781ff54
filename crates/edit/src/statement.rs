//! [`Op::AppendStatement`](super::Op::AppendStatement): a queue policy
//! statement letting the producing service send, scoped to the producer by
//! `aws:SourceArn`, appended to the queue's one `AWS::SQS::QueuePolicy`
//! (its `Statement` list written as a block list, a flow list or in JSON),
//! or in a new `<Queue>Policy` resource (Terraform:
//! `aws_sqs_queue_policy.<name>_policy`) when the queue has none; a
//! Terraform policy that exists is [`super::statement_terraform`]'s. Other
//! shapes keep their hint: a JSON template's queue without a policy, a
//! zero-indented statement list.

use hcl_edit::Span as _;

use super::Edit;
use super::insert::{block_end, flow_close, indent_of};
use super::locate::{Keys, line_ending};
use super::terraform::{BlockTail, Parsed};
use sqsguard_model::Service;
use sqsguard_model::policy::SourceId;
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::{Entry, Kind, Node};

/// What the new statement allows, as a template writes it.
pub(crate) struct Grant<'a> {
    pub queue: &'a str,
    pub service: Service,
    pub source: &'a SourceId,
    pub sid: &'a str,
}

impl Grant<'_> {
    /// The producer's ARN as a CloudFormation value.
    fn cfn_source(&self) -> String {
        match self.source {
            // A topic's Ref is its ARN; a rule's and a bucket's is their name.
            SourceId::Resource(id) if self.service == Service::Sns => format!("!Ref {id}"),
            SourceId::Resource(id) => format!("!GetAtt {id}.Arn"),
            SourceId::Text(arn) => serde_json::Value::from(arn.as_str()).to_string(),
        }
    }

    /// The statement as a YAML block sequence item: the dash at `dash`,
    /// nested maps indented by `step`.
    fn yaml(&self, dash: &str, step: &str, nl: &str) -> Option<String> {
        let principal = self.service.principal()?;
        let i = format!("{dash}  ");
        Some(format!(
            "{dash}- Sid: {sid}{nl}{i}Effect: Allow{nl}{i}Principal:{nl}{i}{step}Service: {principal}{nl}{i}Action: sqs:SendMessage{nl}{i}Resource: !GetAtt {queue}.Arn{nl}{i}Condition:{nl}{i}{step}ArnEquals:{nl}{i}{step}{step}aws:SourceArn: {source}{nl}",
            sid = self.sid,
            queue = self.queue,
            source = self.cfn_source(),
        ))
    }
}

/// The statement as one flow mapping (YAML) or one JSON object.
fn flow(grant: &Grant<'_>, json: bool) -> Option<String> {
    let principal = grant.service.principal()?;
    if !json {
        return Some(format!(
            "{{Sid: {}, Effect: Allow, Principal: {{Service: {principal}}}, Action: \"sqs:SendMessage\", Resource: !GetAtt {}.Arn, Condition: {{ArnEquals: {{\"aws:SourceArn\": {}}}}}}}",
            grant.sid,
            grant.queue,
            grant.cfn_source()
        ));
    }
    let q = |s: &str| serde_json::Value::from(s).to_string();
    let source = match grant.source {
        SourceId::Resource(id) if grant.service == Service::Sns => format!("{{\"Ref\": {}}}", q(id)),
        SourceId::Resource(id) => format!("{{\"Fn::GetAtt\": [{}, \"Arn\"]}}", q(id)),
        SourceId::Text(arn) => q(arn),
    };
    Some(format!(
        "{{\"Sid\": {}, \"Effect\": \"Allow\", \"Principal\": {{\"Service\": {}}}, \"Action\": \"sqs:SendMessage\", \"Resource\": {{\"Fn::GetAtt\": [{}, \"Arn\"]}}, \"Condition\": {{\"ArnEquals\": {{\"aws:SourceArn\": {source}}}}}}}",
        q(grant.sid),
        q(principal),
        q(grant.queue)
    ))
}

/// The statement appended to a `Statement` list written in brackets (a
/// YAML flow sequence, or JSON): after its last item, on a line of its own
/// when that item is on one.
fn append_flow(file: &Source, list: &Node, grant: &Grant<'_>, json: bool) -> Option<Edit> {
    let text = &file.text;
    let last = list.as_seq()?.last()?;
    let opens = text.get(last.span.start..)?.starts_with(['{', '[']);
    let closed = last.span.end > 0 && matches!(text.as_bytes().get(last.span.end - 1), Some(b'}' | b']'));
    let end = if opens && !closed { flow_close(text, last)? + 1 } else { last.span.end };
    let before = &text[lines::line_start(text, last.span.start)..last.span.start];
    let sep = if before.chars().all(|c| c == ' ') && !before.is_empty() {
        format!(",{}{before}", line_ending(text))
    } else {
        ", ".to_string()
    };
    Some(Edit { file: file.clone(), span: Span::new(end, end), replacement: format!("{sep}{}", flow(grant, json)?) })
}

/// SQS019 in a template whose queue has no policy: `<Queue>Policy` after
/// the queue, in a block `Resources`.
pub(crate) fn new_policy(
    file: &Source,
    keys: &mut Keys,
    resources: &Node,
    queue: &Entry,
    grant: &Grant<'_>,
) -> Option<Edit> {
    let text = &file.text;
    if text[resources.span.start..].starts_with('{') || text[queue.value.span.start..].starts_with('{') {
        return None;
    }
    let id = format!("{}Policy", queue.key);
    if keys.entry(resources, &id).is_some() {
        return None;
    }
    let nl = line_ending(text);
    let key_indent = indent_of(text, queue.key_span.start)?;
    let first = queue.value.as_map()?.first()?;
    let step = indent_of(text, first.key_span.start)?.len().checked_sub(key_indent.len()).filter(|s| *s > 0)?;
    let s = " ".repeat(step);
    let pad = |n: usize| format!("{key_indent}{}", s.repeat(n));
    let condition = match queue.value.get("Condition") {
        Some(c) => format!("{}Condition: {}{nl}", pad(1), c.as_str()?),
        None => String::new(),
    };
    let statement = grant.yaml(&pad(4), &s, nl)?;
    let (end, end_line) = block_end(text, queue.key_span.start)?;
    let line_start = lines::line_start(text, queue.key_span.start);
    let spaced = text[..line_start].trim_end_matches(' ').ends_with(&format!("{nl}{nl}"));
    let replacement = format!(
        "{}{}{key_indent}{id}:{nl}{p1}Type: AWS::SQS::QueuePolicy{nl}{condition}{p1}Properties:{nl}{p2}Queues:{nl}{p3}- !Ref {queue}{nl}{p2}PolicyDocument:{nl}{p3}Version: \"2012-10-17\"{nl}{p3}Statement:{nl}{statement}",
        if end_line { nl } else { "" },
        if spaced { nl } else { "" },
        p1 = pad(1),
        p2 = pad(2),
        p3 = pad(3),
        queue = grant.queue,
    );
    Some(Edit { file: file.clone(), span: Span::new(end, end), replacement })
}

/// SQS019 in a template whose queue has one `AWS::SQS::QueuePolicy`: the
/// statement appended to its `PolicyDocument.Statement` list, a block
/// list, a flow list or JSON's.
pub(crate) fn add_statement(file: &Source, policy: &Entry, grant: &Grant<'_>, json: bool) -> Option<Edit> {
    let text = &file.text;
    if policy.value.get("Type")?.as_str()? != "AWS::SQS::QueuePolicy" {
        return None;
    }
    let document = policy.value.get("Properties")?.get("PolicyDocument")?;
    let statement = document.as_map()?.iter().find(|e| e.key == "Statement")?;
    let Kind::Seq(items) = &statement.value.kind else { return None };
    let first = items.first()?;
    if !matches!(first.kind, Kind::Map(_)) {
        return None;
    }
    if text[statement.value.span.start..].starts_with('[') {
        return append_flow(file, &statement.value, grant, json);
    }
    if json {
        return None;
    }
    let column = |pos: usize| pos - lines::line_start(text, pos);
    // `- ` before the first item, deeper than the `Statement` key.
    let line_start = lines::line_start(text, first.span.start);
    let prefix = &text[line_start..first.span.start];
    let dash = prefix.trim_end().strip_suffix('-')?;
    let key_column = column(statement.key_span.start);
    if !dash.chars().all(|c| c == ' ') || dash.len() <= key_column {
        return None;
    }
    // Nested maps indented as the file indents a resource's members.
    let member = policy.value.as_map()?.first()?;
    let step = column(member.key_span.start).checked_sub(column(policy.key_span.start)).filter(|s| *s > 0)?;
    let step = " ".repeat(step);
    let nl = line_ending(text);
    // The list ends where its last item does: read from that item's dash,
    // not from the key, so a long list is not walked for every fix.
    let last = items.last()?;
    let last_dash = lines::line_start(text, last.span.start) + dash.len();
    if text.get(last_dash..last_dash + 1) != Some("-") {
        return None;
    }
    let (end, end_line) = block_end(text, last_dash)?;
    let replacement = format!("{}{}", if end_line { nl } else { "" }, grant.yaml(dash, &step, nl)?);
    Some(Edit { file: file.clone(), span: Span::new(end, end), replacement })
}

/// SQS019 in a `.tf` file whose queue has no policy: an
/// `aws_sqs_queue_policy` after the queue's block, laid out as `terraform
/// fmt` writes it. `taken` says whether an address is declared.
pub(crate) fn hcl(
    file: &Source,
    parsed: &Parsed,
    at: Span,
    grant: &Grant<'_>,
    taken: impl Fn(&str) -> bool,
) -> Option<Edit> {
    let text = &file.text;
    let block = parsed.block_at(at.start)?;
    if block.ident.as_str() != "resource" || block.labels.len() != 2 || block.labels[0].as_str() != "aws_sqs_queue" {
        return None;
    }
    if block.body.attributes().any(|a| matches!(a.key.as_str(), "count" | "for_each" | "policy")) {
        return None;
    }
    let name = block.labels[1].as_str();
    let new = format!("{name}_policy");
    if taken(&format!("aws_sqs_queue_policy.{new}")) {
        return None;
    }
    let principal = grant.service.principal()?;
    let source = match grant.source {
        // A producer inside a child module (`module.x.aws_sns_topic.t`) is
        // no reference the queue's module can write: the hint stays.
        SourceId::Resource(address) if !address.contains(['[', '"']) && !address.starts_with("module.") => {
            format!("{address}.arn")
        }
        SourceId::Text(arn) => serde_json::Value::from(arn.as_str()).to_string(),
        SourceId::Resource(_) => return None,
    };
    let span = block.span()?;
    let BlockTail { outer, indent: i, nl, .. } = BlockTail::of(text, span.clone())?;
    let sid = serde_json::Value::from(grant.sid).to_string();
    let body = [
        format!("{i}queue_url = aws_sqs_queue.{name}.id{nl}{nl}"),
        format!("{i}policy = jsonencode({{{nl}"),
        format!("{i}  Version = \"2012-10-17\"{nl}"),
        format!("{i}  Statement = [{{{nl}"),
        format!("{i}    Sid       = {sid}{nl}"),
        format!("{i}    Effect    = \"Allow\"{nl}"),
        format!("{i}    Principal = {{ Service = \"{principal}\" }}{nl}"),
        format!("{i}    Action    = \"sqs:SendMessage\"{nl}"),
        format!("{i}    Resource  = aws_sqs_queue.{name}.arn{nl}"),
        format!("{i}    Condition = {{ ArnEquals = {{ \"aws:SourceArn\" = {source} }} }}{nl}"),
        format!("{i}  }}]{nl}"),
        format!("{i}}}){nl}"),
    ]
    .concat();
    let replacement = format!("{nl}{nl}{outer}resource \"aws_sqs_queue_policy\" \"{new}\" {{{nl}{body}{outer}}}");
    Some(Edit { file: file.clone(), span: Span::new(span.end, span.end), replacement })
}
