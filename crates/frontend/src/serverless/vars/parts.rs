//! The syntax of the Framework's variables inside a string: `${...}`
//! parts and their defaults, and the nodes a resolved (or unknown) value
//! is written as.

use crate::cfn::resolve::UNRESOLVED;
use sqsguard_source::Span;
use sqsguard_syntax::{Entry, Kind, Node};

/// The sources of the Framework's variables (CloudFormation's `${...}`
/// has none).
pub(super) const SOURCES: &[&str] = &[
    "self:",
    "opt:",
    "env:",
    "sls:",
    "aws:",
    "param:",
    "ssm:",
    "cf:",
    "cf(",
    "s3:",
    "file(",
    "git:",
    "sqs:",
    "strToBool(",
    "construct:",
];

/// `aws:accountId` with no default: only the deployment knows it.
pub(super) fn is_account_id(inner: &str) -> bool {
    inner.trim() == "aws:accountId"
}

pub(super) fn is_account_part(part: &Part<'_>) -> bool {
    matches!(part, Part::Variable(inner) if is_account_id(inner))
}

/// `{key: value}`, CloudFormation's intrinsic, at `span`.
pub(super) fn pseudo(key: &str, value: &str, span: Span) -> Node {
    let value = Node::new(Kind::String(value.to_string()), span);
    Node::new(Kind::Map(vec![Entry { key: key.to_string(), key_span: span, value }]), span)
}

pub(super) enum Part<'s> {
    Text(&'s str),
    /// What is between `${` and its `}`.
    Variable(&'s str),
}

/// The text and the Framework's variables of a string; `${...}` of
/// CloudFormation stays text.
pub(super) fn split(s: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(start) = rest.find("${") {
        let Some(len) = closing(&rest[start + 2..]) else { break };
        let inner = &rest[start + 2..start + 2 + len];
        if !SOURCES.iter().any(|src| inner.trim_start().starts_with(src)) {
            out.push(Part::Text(&rest[..start + 3 + len]));
            rest = &rest[start + 3 + len..];
            continue;
        }
        if start > 0 {
            out.push(Part::Text(&rest[..start]));
        }
        out.push(Part::Variable(inner));
        rest = &rest[start + 3 + len..];
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest));
    }
    out
}

/// The length of what precedes the `}` closing a `${` (nested ones count).
pub(super) fn closing(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'$' if bytes.get(i + 1) == Some(&b'{') => {
                depth += 1;
                i += 1;
            }
            b'}' if depth == 0 => return Some(i),
            b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

/// `primary, default` split at the first comma outside a nested variable
/// or quotes.
pub(super) fn split_default(inner: &str) -> Option<(&str, &str)> {
    let (mut depth, mut quote) = (0usize, None);
    for (i, c) in inner.char_indices() {
        match c {
            '\'' | '"' if quote == Some(c) => quote = None,
            '\'' | '"' if quote.is_none() => quote = Some(c),
            '{' if quote.is_none() => depth += 1,
            '}' if quote.is_none() => depth = depth.saturating_sub(1),
            ',' if quote.is_none() && depth == 0 => return Some((&inner[..i], &inner[i + 1..])),
            _ => {}
        }
    }
    None
}

pub(super) fn text(s: &str, span: Span) -> Node {
    Node::new(Kind::String(s.to_string()), span)
}

/// A scalar as the text it stands for inside a string.
pub(super) fn scalar(node: &Node) -> Option<String> {
    match &node.kind {
        Kind::String(s) => Some(s.clone()),
        Kind::Number(n) => Some(n.clone()),
        Kind::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(super) fn unresolved(s: &str, span: Span) -> Node {
    let marker = Entry { key: UNRESOLVED.to_string(), key_span: span, value: text(s, span) };
    Node::new(Kind::Map(vec![marker]), span)
}

pub(crate) fn is_unresolved(node: &Node) -> bool {
    node.single_entry().is_some_and(|e| e.key == UNRESOLVED)
}

/// A value brought from elsewhere in the file is reported where it is used;
/// what came from an included file (its spans from `keep_from` on) keeps
/// its place there.
pub(super) fn moved(mut node: Node, span: Span, keep_from: usize) -> Node {
    fn walk(node: &mut Node, span: Span, depth: usize, keep_from: usize) {
        if node.span.start >= keep_from {
            return;
        }
        node.span = span;
        if depth > sqsguard_syntax::MAX_DEPTH {
            return;
        }
        match &mut node.kind {
            Kind::Seq(items) => items.iter_mut().for_each(|i| walk(i, span, depth + 1, keep_from)),
            Kind::Map(entries) => entries.iter_mut().for_each(|e| {
                if e.key_span.start < keep_from {
                    e.key_span = span;
                }
                walk(&mut e.value, span, depth + 1, keep_from);
            }),
            _ => {}
        }
    }
    walk(&mut node, span, 0, keep_from);
    node
}
