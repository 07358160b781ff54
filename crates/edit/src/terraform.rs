//! Fixes in Terraform: `.tf` files located through hcl-edit's spans, and
//! `*.tf.json` as JSON.
//!
//! A value is replaced only where it is a literal of the right kind (`30`,
//! `"30"`, `false`, `["x"]`, a number inside `jsonencode({...})` or a
//! heredoc): an expression (`max(...)`, `var.x * 2`) is not rewritten, but
//! `var.x` and `local.y` lead to the literal they take (the remedy points
//! there). A literal outside the resource's own block (a variable's
//! `default`, a local, a `.tfvars` value, a module argument) may be shared,
//! so its fix is unsafe (docs/fixing.md). A missing attribute is added as the
//! block's last line, after a blank line: `terraform fmt` aligns the `=`
//! of consecutive attributes, and a line of its own keeps the block as
//! `fmt` left it.

use hcl_edit::Span as _;
use hcl_edit::structure::{Block, Body};

use super::Edit;
use super::Remedy;
use super::locate::Keys;
use sqsguard_model::field::hcl_value;
use sqsguard_model::{Dialect, Scalar};
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::{Kind, Node};

/// The fix of `remedy` in a `.tf` file parsed as `body`: the edit, and
/// whether the value lies outside the resource's block.
pub(crate) fn hcl(file: &Source, parsed: &Parsed, at: Span, remedy: &Remedy, value: &Scalar) -> Option<(Edit, bool)> {
    let block = parsed.resource_block(&remedy.resource);
    let text = &file.text;
    let edit = |span: Span, replacement: String| Edit { file: file.clone(), span, replacement };
    if remedy.absent {
        // The finding points at the block's header: add the attribute.
        let block = block?;
        let name = Dialect::Terraform.name(remedy.field?);
        if !name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            return None;
        }
        // Never a second attribute of one name (invalid HCL), whatever
        // the first one holds.
        if block.body.attributes().any(|a| a.key.as_str() == name) {
            return None;
        }
        let span = block.span()?;
        if span.start != at.start {
            return None;
        }
        let BlockTail { at: line_start, indent, nl, blank, .. } = BlockTail::of(text, span)?;
        let line = format!("{blank}{indent}{name} = {}{nl}", hcl_value(value));
        return Some((edit(Span::new(line_start, line_start), line), false));
    }
    let old = text.get(at.start..at.end)?;
    let replacement = literal_replacement(old, value)?;
    let inside = block.and_then(|b| b.span()).is_some_and(|s| s.start <= at.start && at.end <= s.end);
    Some((edit(at, replacement), !inside))
}

/// Where a new last line of an HCL block goes, and how it is written.
pub(crate) struct BlockTail<'t> {
    /// The start of the closing brace's line: the new line goes there.
    pub at: usize,
    /// The block header's indentation, and its body's (two more spaces).
    pub outer: &'t str,
    pub indent: String,
    /// The file's line ending.
    pub nl: &'static str,
    /// A line ending to start with: a blank line before the new line,
    /// unless the block is empty or ends with a blank line already.
    pub blank: &'static str,
}

impl<'t> BlockTail<'t> {
    /// The tail of the block spanning `span` in `text`, when its closing
    /// brace stands alone on its line (not `resource "x" "y" {}`) and its
    /// header is indented with spaces only.
    pub(crate) fn of(text: &'t str, span: std::ops::Range<usize>) -> Option<Self> {
        let close = span.end.checked_sub(1).filter(|&c| text.as_bytes().get(c) == Some(&b'}'))?;
        let at = lines::line_start(text, close);
        if at == 0 {
            return None;
        }
        if !text[at..close].chars().all(|c| c == ' ' || c == '\t') {
            return None;
        }
        let header_start = lines::line_start(text, span.start);
        let outer = &text[header_start..span.start];
        if !outer.chars().all(|c| c == ' ') {
            return None;
        }
        // The break that ends the line before the brace's.
        let nl = match &text.as_bytes()[..at] {
            [.., b'\r', b'\n'] => "\r\n",
            [.., b'\r'] => "\r",
            _ => "\n",
        };
        let before = text[..at].trim_end_matches(['\n', '\r']);
        let blank = if before.ends_with('{') || text[..at].ends_with(&format!("{nl}{nl}")) { "" } else { nl };
        Some(BlockTail { at, outer, indent: format!("{outer}  "), nl, blank })
    }
}

/// `value` written where the literal `old` is, in its style; `None` when
/// `old` is not a literal of the value's kind.
fn literal_replacement(old: &str, value: &Scalar) -> Option<String> {
    let quoted = old.len() >= 2 && old.starts_with('"') && old.ends_with('"');
    let inner = if quoted { &old[1..old.len() - 1] } else { old };
    let plain = |s: &str| !s.contains(['"', '\\', '$', '%']);
    match value {
        Scalar::Int(n) if inner.parse::<i64>().is_ok() => Some(if quoted { format!("\"{n}\"") } else { n.to_string() }),
        Scalar::Bool(b) if inner == "true" || inner == "false" => {
            Some(if quoted { format!("\"{b}\"") } else { b.to_string() })
        }
        Scalar::Str(s) if quoted && plain(inner) && plain(s) => Some(format!("\"{s}\"")),
        Scalar::List(_) if old.starts_with('[') && old.ends_with(']') => Some(hcl_value(value)),
        _ => None,
    }
}

/// A parsed `.tf` file and where each of its resource blocks is, found
/// once: a module of 18,000 resources has about as many findings, and
/// scanning the blocks for each one's made the fixes that `--format json`
/// shows quadratic in the module.
pub(crate) struct Parsed {
    pub body: Body,
    /// `TYPE.NAME` -> the block's position among the body's structures
    /// (the first block of that address).
    resources: std::collections::HashMap<String, usize>,
    /// Where a block starts in the text -> its position among the body's
    /// structures (the first block starting there).
    starts: std::collections::HashMap<usize, usize>,
}

impl Parsed {
    pub(crate) fn new(body: Body) -> Self {
        let mut resources = std::collections::HashMap::new();
        let mut starts = std::collections::HashMap::new();
        for (i, structure) in body.iter().enumerate() {
            let Some(b) = structure.as_block() else { continue };
            if let Some(span) = b.span() {
                starts.entry(span.start).or_insert(i);
            }
            if b.ident.as_str() == "resource" && b.labels.len() == 2 {
                resources.entry(format!("{}.{}", b.labels[0].as_str(), b.labels[1].as_str())).or_insert(i);
            }
        }
        Parsed { body, resources, starts }
    }

    /// The top-level block that starts at byte `start`.
    pub(crate) fn block_at(&self, start: usize) -> Option<&Block> {
        self.body.get(*self.starts.get(&start)?)?.as_block()
    }

    /// The top-level block whose text holds byte `pos`.
    pub(crate) fn block_at_value(&self, pos: usize) -> Option<&Block> {
        self.body.blocks().find(|b| b.span().is_some_and(|s| s.start <= pos && pos < s.end))
    }

    /// The `resource "type" "name"` block of `address` (`aws_sqs_queue.q`,
    /// `module.m.aws_sqs_queue.q`, `aws_sqs_queue.q["a"]`).
    fn resource_block(&self, address: &str) -> Option<&Block> {
        let (kind, name) = resource_labels(address)?;
        self.body.get(*self.resources.get(&format!("{kind}.{name}"))?)?.as_block()
    }
}

/// The type and name of a resource address, without module path or index.
fn resource_labels(address: &str) -> Option<(&str, &str)> {
    let bare = match address.strip_suffix(']') {
        Some(rest) => &rest[..rest.rfind('[')?],
        None => address,
    };
    let mut parts = bare.rsplitn(3, '.');
    let name = parts.next()?;
    let kind = parts.next()?;
    Some((kind, name))
}

/// The resource object of `address` in a `*.tf.json` document:
/// `{"resource": {"type": {"name": {...}}}}`.
pub(crate) fn json_resource<'n>(keys: &mut Keys, root: &'n Node, address: &str) -> Option<&'n sqsguard_syntax::Entry> {
    let (kind, name) = resource_labels(address)?;
    let types = root.get("resource")?;
    let by_type = match &types.kind {
        Kind::Seq(items) => items.iter().find_map(|i| keys.entry(i, kind).map(|e| &e.value))?,
        _ => &keys.entry(types, kind)?.value,
    };
    match &by_type.kind {
        Kind::Seq(items) => items.iter().find_map(|i| keys.entry(i, name)),
        _ => keys.entry(by_type, name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_give_type_and_name() {
        assert_eq!(resource_labels("aws_sqs_queue.q"), Some(("aws_sqs_queue", "q")));
        assert_eq!(resource_labels("module.m.aws_sqs_queue.q"), Some(("aws_sqs_queue", "q")));
        assert_eq!(resource_labels("module.m[\"x.y\"].aws_sqs_queue.q[\"a.b\"]"), Some(("aws_sqs_queue", "q")));
        assert_eq!(resource_labels("q"), None);
    }

    #[test]
    fn only_literals_of_the_value_s_kind_are_replaced() {
        assert_eq!(literal_replacement("30", &Scalar::Int(180)).as_deref(), Some("180"));
        assert_eq!(literal_replacement("\"30\"", &Scalar::Int(180)).as_deref(), Some("\"180\""));
        assert_eq!(literal_replacement("false", &Scalar::Bool(true)).as_deref(), Some("true"));
        assert_eq!(literal_replacement("var.timeout", &Scalar::Int(180)), None);
        assert_eq!(literal_replacement("\"${var.t}\"", &Scalar::Int(180)), None);
        assert_eq!(literal_replacement("\"{\\\"maxReceiveCount\\\": 1}\"", &Scalar::Int(3)), None);
        assert_eq!(
            literal_replacement("\"queue\"", &Scalar::Str("messageGroup".into())).as_deref(),
            Some("\"messageGroup\"")
        );
        assert_eq!(literal_replacement("max(1, 2)", &Scalar::Int(3)), None);
    }
}
