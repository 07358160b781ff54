//! [`Op::AppendStatement`](super::Op::AppendStatement) on a Terraform
//! queue policy that already exists: the `policy` argument of an
//! `aws_sqs_queue_policy` (or of the `aws_sqs_queue` itself) written as
//! `jsonencode({ ..., Statement = [ ... ] })` gets one more object in its
//! `Statement` list, and one written as
//! `data.aws_iam_policy_document.NAME.json`, that data source declared in
//! the same file, one more `statement {}` block, both laid out as
//! `terraform fmt` writes them. In `*.tf.json` the data source's
//! `statement` list gets one more object.
//!
//! Anything else keeps the hint: a policy built by a function other than
//! `jsonencode` (`templatefile`, `merge`, `concat`), a variable, a heredoc,
//! a data source that merges other documents or has a `dynamic` block, a
//! policy or queue with `count`/`for_each`, an address in another module.

use hcl_edit::Span as _;
use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Block, Body};

use super::Edit;
use super::locate::Keys;
use super::statement::Grant;
use super::terraform::Parsed;
use sqsguard_model::policy::SourceId;
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::Node;

/// Data source arguments that merge other documents into its own.
const MERGED: &[&str] = &["source_json", "override_json", "source_policy_documents", "override_policy_documents"];

/// `TYPE.NAME` of this module (not `module.m.TYPE.NAME`, not an instance
/// `TYPE.NAME["k"]`): an address an expression of the same module reads as
/// written.
fn local_address(address: &str) -> bool {
    let mut parts = address.split('.');
    let plain = |p: Option<&str>| {
        p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
    };
    plain(parts.next()) && plain(parts.next()) && parts.next().is_none() && !address.starts_with("module.")
}

/// The statement's values as HCL expressions.
struct Values {
    sid: String,
    principal: &'static str,
    /// The queue's ARN, or `"*"` in the queue's own `policy` (its ARN
    /// cannot be referenced from inside its block: the policy is attached
    /// to that one queue).
    queue: String,
    source: String,
}

impl Values {
    fn of(grant: &Grant<'_>, own: bool) -> Option<Values> {
        let principal = grant.service.principal()?;
        let queue = if own {
            "\"*\"".to_string()
        } else if local_address(grant.queue) && grant.queue.starts_with("aws_sqs_queue.") {
            format!("{}.arn", grant.queue)
        } else {
            return None;
        };
        let source = match grant.source {
            SourceId::Resource(address) if local_address(address) => format!("{address}.arn"),
            SourceId::Text(arn) if !arn.contains("${") && !arn.contains("%{") => {
                serde_json::Value::from(arn.as_str()).to_string()
            }
            _ => return None,
        };
        Some(Values { sid: serde_json::Value::from(grant.sid).to_string(), principal, queue, source })
    }

    /// The statement as an HCL object for `jsonencode`: one line, or one
    /// member a line at `inner` closed at `close`.
    fn object(&self, lines: Option<(&str, &str, &str)>) -> String {
        let Values { sid, principal, queue, source } = self;
        let members = [
            ("Sid", sid.clone()),
            ("Effect", "\"Allow\"".into()),
            ("Principal", format!("{{ Service = \"{principal}\" }}")),
            ("Action", "\"sqs:SendMessage\"".into()),
            ("Resource", queue.clone()),
            ("Condition", format!("{{ ArnEquals = {{ \"aws:SourceArn\" = {source} }} }}")),
        ];
        match lines {
            None => {
                let inner: Vec<String> = members.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                format!("{{ {} }}", inner.join(", "))
            }
            Some((inner, close, nl)) => {
                let body: String = members.iter().map(|(k, v)| format!("{inner}{k:<9} = {v}{nl}")).collect();
                format!("{{{nl}{body}{close}}}")
            }
        }
    }

    /// The statement as an `aws_iam_policy_document` `statement` block at
    /// `outer`, its body indented by `step`.
    fn block(&self, outer: &str, step: &str, nl: &str) -> String {
        let Values { sid, principal, queue, source } = self;
        let i = format!("{outer}{step}");
        let ii = format!("{i}{step}");
        [
            format!("{outer}statement {{{nl}"),
            format!("{i}sid       = {sid}{nl}"),
            format!("{i}effect    = \"Allow\"{nl}"),
            format!("{i}actions   = [\"sqs:SendMessage\"]{nl}"),
            format!("{i}resources = [{queue}]{nl}{nl}"),
            format!("{i}principals {{{nl}"),
            format!("{ii}type        = \"Service\"{nl}"),
            format!("{ii}identifiers = [\"{principal}\"]{nl}"),
            format!("{i}}}{nl}{nl}"),
            format!("{i}condition {{{nl}"),
            format!("{ii}test     = \"ArnEquals\"{nl}"),
            format!("{ii}variable = \"aws:SourceArn\"{nl}"),
            format!("{ii}values   = [{source}]{nl}"),
            format!("{i}}}{nl}"),
            format!("{outer}}}"),
        ]
        .concat()
    }
}

/// SQS019 in a `.tf` file whose queue has one policy, `policy`: the
/// statement appended to the `policy` argument of the block at `at` (an
/// `aws_sqs_queue_policy` or the queue's own `aws_sqs_queue`). `declared`
/// says whether the module of the file declares an address: the queue and
/// the producer are referenced from there.
pub(crate) fn append(
    file: &Source,
    parsed: &Parsed,
    at: Span,
    grant: &Grant<'_>,
    policy: &str,
    declared: impl Fn(&str) -> bool,
) -> Option<Edit> {
    if !all_local(grant, policy, declared) {
        return None;
    }
    let block = parsed.block_at(at.start)?;
    let kind = resource_kind(block)?;
    if !matches!(kind, "aws_sqs_queue_policy" | "aws_sqs_queue") || has_repetition(&block.body) {
        return None;
    }
    // The block is the policy the model read, and the queue's own when
    // it is a queue.
    let own = kind == "aws_sqs_queue";
    let address = format!("{kind}.{}", block.labels.get(1)?.as_str());
    if address != policy || (own && address != grant.queue) {
        return None;
    }
    let values = Values::of(grant, own)?;
    let policy = block.body.attributes().find(|a| a.key.as_str() == "policy")?;
    match &policy.value {
        Expression::FuncCall(call) => jsonencode(file, call.as_ref(), &values),
        Expression::Traversal(t) => {
            let name = document_name(t.as_ref())?;
            let data = parsed.body.blocks().find(|b| {
                b.ident.as_str() == "data"
                    && b.labels.len() == 2
                    && b.labels[0].as_str() == "aws_iam_policy_document"
                    && b.labels[1].as_str() == name
            })?;
            document(file, data, &values)
        }
        _ => None,
    }
}

/// The policy, the queue and the producer are resources of the module
/// the file is in, so the new statement can name them as written.
fn all_local(grant: &Grant<'_>, policy: &str, declared: impl Fn(&str) -> bool) -> bool {
    let local = |a: &str| local_address(a) && declared(a);
    let source = match grant.source {
        SourceId::Resource(a) => local(a),
        SourceId::Text(_) => true,
    };
    local(policy) && local(grant.queue) && source
}

/// SQS019 in a `*.tf.json` file whose queue's one policy (the object
/// `policy` names, whose key is at `at`) is
/// `"${data.aws_iam_policy_document.NAME.json}"` and that data source is in
/// the file: one more object in its `statement` list, after the last,
/// indented as it is. A `"${jsonencode(...)}"` string and a list on one
/// line keep the hint.
pub(crate) fn append_json(
    file: &Source,
    keys: &mut Keys,
    root: &Node,
    at: Span,
    grant: &Grant<'_>,
    policy: &str,
    declared: impl Fn(&str) -> bool,
) -> Option<Edit> {
    let text = &file.text;
    let (kind, _) = policy.split_once('.')?;
    let own = kind == "aws_sqs_queue";
    if !all_local(grant, policy, declared) || !(own || kind == "aws_sqs_queue_policy") || (own && policy != grant.queue)
    {
        return None;
    }
    let found = super::terraform::json_resource(keys, root, policy).filter(|e| e.key_span == at)?;
    let repeated = |n: &Node| ["count", "for_each", "dynamic"].iter().any(|k| n.get(k).is_some());
    if repeated(&found.value) {
        return None;
    }
    let name = found.value.get("policy")?.as_str()?.strip_prefix("${data.aws_iam_policy_document.")?;
    let name = name.strip_suffix(".json}").or_else(|| name.strip_suffix(".minified_json}"))?;
    let data = root.get("data")?.get("aws_iam_policy_document")?.get(name)?;
    if repeated(data) || MERGED.iter().any(|k| data.get(k).is_some()) {
        return None;
    }
    let items = data.get("statement")?.as_seq()?;
    let last = items.last()?;
    let first = last.as_map()?.first()?;
    let arn = |address: &str| format!("${{{address}.arn}}");
    let queue = if own { "*".to_string() } else { arn(grant.queue) };
    let source = match grant.source {
        SourceId::Resource(address) => arn(address),
        SourceId::Text(literal) if !literal.contains("${") && !literal.contains("%{") => literal.clone(),
        SourceId::Text(_) => return None,
    };
    let statement = serde_json::json!({
        "sid": grant.sid,
        "effect": "Allow",
        "actions": ["sqs:SendMessage"],
        "resources": [queue],
        "principals": [{"type": "Service", "identifiers": [grant.service.principal()?]}],
        "condition": [{"test": "ArnEquals", "variable": "aws:SourceArn", "values": [source]}],
    });
    let nl = lines::ending(text);
    let item_line = lines::line_start(text, last.span.start);
    let indent = text.get(item_line..last.span.start)?;
    // Items over lines of their own, members one step deeper than the item.
    let spans_lines = text.get(last.span.start..last.span.end)?.contains(['\n', '\r']);
    let inner = text.get(lines::line_start(text, first.key_span.start)..first.key_span.start)?;
    let step = inner.strip_prefix(indent).filter(|s| !s.is_empty() && s.chars().all(|c| c == ' '))?;
    if !spans_lines || !indent.chars().all(|c| c == ' ') {
        return None;
    }
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(step.as_bytes());
    serde::Serialize::serialize(&statement, &mut serde_json::Serializer::with_formatter(&mut out, formatter)).ok()?;
    let pretty = String::from_utf8(out).ok()?;
    let object = format!(",{nl}{indent}{}", pretty.replace('\n', &format!("{nl}{indent}")));
    Some(Edit { file: file.clone(), span: Span::new(last.span.end, last.span.end), replacement: object })
}

fn resource_kind(block: &Block) -> Option<&str> {
    (block.ident.as_str() == "resource" && block.labels.len() == 2).then(|| block.labels[0].as_str())
}

/// `count`, `for_each` or a `dynamic` block: the body stands for several
/// things, or for something built at plan time.
fn has_repetition(body: &Body) -> bool {
    body.attributes().any(|a| matches!(a.key.as_str(), "count" | "for_each"))
        || body.blocks().any(|b| b.ident.as_str() == "dynamic")
}

/// `NAME` of `data.aws_iam_policy_document.NAME.json`.
fn document_name(t: &hcl_edit::expr::Traversal) -> Option<&str> {
    let Expression::Variable(root) = &t.expr else { return None };
    let attrs: Vec<&str> = t
        .operators
        .iter()
        .map(|op| match op.value() {
            TraversalOperator::GetAttr(i) => Some(i.as_str()),
            _ => None,
        })
        .collect::<Option<_>>()?;
    match (root.as_str(), attrs.as_slice()) {
        ("data", ["aws_iam_policy_document", name, "json" | "minified_json"]) => Some(name),
        _ => None,
    }
}

/// The object appended to `jsonencode({... Statement = [...] ...})`'s
/// list, after its last item: on a line of its own when that item is on
/// one, else after `}, ` (`[{ ... }, { ... }]`); over lines indented as
/// the last item's when it spans lines.
fn jsonencode(file: &Source, call: &hcl_edit::expr::FuncCall, values: &Values) -> Option<Edit> {
    let text = &file.text;
    if call.name.is_namespaced() || call.name.name.as_str() != "jsonencode" || call.args.len() != 1 {
        return None;
    }
    let Some(Expression::Object(document)) = call.args.get(0) else { return None };
    let is_statement = |k: &ObjectKey| match k {
        ObjectKey::Ident(i) => i.as_str() == "Statement",
        ObjectKey::Expression(Expression::String(s)) => s.as_str() == "Statement",
        ObjectKey::Expression(_) => false,
    };
    let mut statements = document.iter().filter(|(k, _)| is_statement(k));
    let (Some((_, list)), None) = (statements.next(), statements.next()) else { return None };
    let Expression::Array(list) = list.expr() else { return None };
    let Some(Expression::Object(last)) = list.iter().last() else { return None };
    let item = last.span()?;
    // What follows the last item: its comma, then the list's `]` or the
    // end of the line (never a comment the new item would land before).
    let mut end = item.end;
    let after = text.get(end..)?.trim_start_matches([' ', '\t']);
    let comma = after.starts_with(',');
    if comma {
        end = text.len() - after.len() + 1;
    }
    let rest = text.get(end..lines::content_end(text, end))?.trim_start();
    if !(rest.is_empty() || rest.starts_with(']')) {
        return None;
    }
    let nl = lines::ending(text);
    let item_start = lines::line_start(text, item.start);
    let lead = text.get(item_start..item.start)?;
    let own_line = lead.chars().all(|c| c == ' ');
    let sep = if own_line { format!("{nl}{lead}") } else { " ".to_string() };
    let spans_lines = text.get(item.clone())?.contains(['\n', '\r']);
    if !spans_lines {
        let object = values.object(None);
        let replacement = if comma { format!("{sep}{object},") } else { format!(",{sep}{object}") };
        return Some(Edit { file: file.clone(), span: Span::new(end, end), replacement });
    }
    // Members indented as the last item's first member, closed as it is.
    let (first, _) = last.iter().next()?;
    let key = match first {
        ObjectKey::Ident(i) => i.span()?,
        ObjectKey::Expression(e) => e.span()?,
    };
    let inner = text.get(lines::line_start(text, key.start)..key.start)?;
    let close_at = item.end.checked_sub(1)?;
    let close_start = lines::line_start(text, close_at);
    let close = text.get(close_start..close_at)?;
    if !inner.chars().all(|c| c == ' ') || !close.chars().all(|c| c == ' ') || inner.is_empty() {
        return None;
    }
    let object = values.object(Some((inner, close, nl)));
    if own_line {
        let replacement = if comma { format!("{sep}{object},") } else { format!(",{sep}{object}") };
        return Some(Edit { file: file.clone(), span: Span::new(end, end), replacement });
    }
    if comma {
        return None;
    }
    // `[{ ... }]`: `terraform fmt` indents the `}, {` between two items one
    // level deeper than the list's closing `}]`.
    let replacement = format!("{close}  }}, {object}");
    Some(Edit { file: file.clone(), span: Span::new(close_start, item.end), replacement })
}

/// The `statement {}` block appended to a `data "aws_iam_policy_document"`
/// after its last one (a blank line between, as `terraform fmt` keeps
/// blocks apart), indented as that one.
fn document(file: &Source, data: &Block, values: &Values) -> Option<Edit> {
    let text = &file.text;
    let body = &data.body;
    if has_repetition(body) || body.attributes().any(|a| MERGED.contains(&a.key.as_str())) {
        return None;
    }
    let last = body.blocks().filter(|b| b.ident.as_str() == "statement").last()?;
    if has_repetition(&last.body) {
        return None;
    }
    let span = last.span()?;
    let line_start = lines::line_start(text, span.start);
    let outer = text.get(line_start..span.start)?;
    let data_span = data.span()?;
    let data_outer = text.get(lines::line_start(text, data_span.start)..data_span.start)?;
    let step = outer.strip_prefix(data_outer).filter(|s| !s.is_empty())?;
    if !outer.chars().all(|c| c == ' ') || !data_outer.chars().all(|c| c == ' ') {
        return None;
    }
    // The last statement's `}` ends its line.
    let close_at = span.end.checked_sub(1)?;
    if text.as_bytes().get(close_at) != Some(&b'}')
        || !text.get(span.end..lines::content_end(text, span.end))?.trim().is_empty()
    {
        return None;
    }
    let nl = lines::ending(text);
    let replacement = format!("{nl}{nl}{}", values.block(outer, step, nl));
    Some(Edit { file: file.clone(), span: Span::new(span.end, span.end), replacement })
}
