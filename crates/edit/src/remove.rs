//! [`Op::Remove`](super::Op::Remove): a field goes, and the file stays
//! valid. A YAML block key goes with its lines (the only key of a mapping
//! leaves `{}`), a flow or JSON member with its comma, an HCL attribute
//! with its line.

use hcl_edit::Span as _;

use super::Edit;
use super::insert::flow_close;
use super::terraform::Parsed;
use sqsguard_model::{Dialect, Field};
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::{Entry, Kind, Node};

/// The edit that removes the member whose value is `value`, found in `root`
/// (a YAML or JSON tree).
pub(crate) fn node(file: &Source, value: &Node, root: &Node, named: impl Fn(&str) -> bool) -> Option<Edit> {
    let (map, i) = holder(root, value.span)?;
    if !named(&map.as_map()?.get(i)?.key) {
        return None;
    }
    let entries = map.as_map()?;
    let text = &file.text;
    let entry = entries.get(i)?;
    let edit = |start: usize, end: usize, replacement: &str| Edit {
        file: file.clone(),
        span: Span::new(start, end),
        replacement: replacement.to_string(),
    };
    let flow = text.get(map.span.start..)?.starts_with('{');
    if flow {
        // `{a: 1, b: 2}` or JSON: the member with the comma before it, or
        // after it when it is the first.
        return Some(match (i.checked_sub(1).and_then(|p| entries.get(p)), entries.get(i + 1)) {
            (Some(before), _) => edit(flow_end(text, &before.value)?, flow_end(text, &entry.value)?, ""),
            (None, Some(after)) => edit(entry_start(text, entry), entry_start(text, after), ""),
            (None, None) => edit(map.span.start + 1, flow_end(text, map)?.checked_sub(1)?, ""),
        });
    }
    // A block key: from its line's start to the end of its value's last line.
    let start = lines::line_start(text, entry.key_span.start);
    if !text.get(start..entry.key_span.start)?.chars().all(|c| c == ' ' || c == '-') {
        return None;
    }
    if entries.len() == 1 {
        // Nothing left: an empty mapping, not a null.
        return Some(edit(entry.key_span.start, entry.value.span.end, "{}"));
    }
    if text.get(start..entry.key_span.start)?.contains('-') {
        // The first key of a sequence item carries the dash: not removed.
        return None;
    }
    let end = lines::next_line(text, value_end(text, &entry.value)).unwrap_or(text.len());
    Some(edit(start, end, ""))
}

/// Whether `key` names `field` (in any dialect): the member removed must
/// be the field itself. A value read through a Parameter's or variable's
/// `default` is written under another key and is never removed (other
/// resources may read it): such a fix is refused.
pub(crate) fn names(field: Field, key: &str) -> bool {
    [Dialect::CloudFormation, Dialect::Serverless, Dialect::Terraform].iter().any(|d| d.name(field) == key)
}

/// Where a value ends, its closing bracket included: a YAML flow
/// collection's span stops before it (see [`flow_close`]), JSON's does not.
fn flow_end(text: &str, node: &Node) -> Option<usize> {
    let opens = text.get(node.span.start..)?.starts_with(['{', '[']);
    let closed = node.span.end > 0 && matches!(text.as_bytes().get(node.span.end - 1), Some(b'}' | b']'));
    if opens && !closed { flow_close(text, node).map(|c| c + 1) } else { Some(node.span.end) }
}

/// Where a member starts: its key, with the quote a JSON key opens with.
fn entry_start(text: &str, entry: &Entry) -> usize {
    let k = entry.key_span.start;
    if k > 0 && text.as_bytes().get(k - 1) == Some(&b'"') && text.as_bytes().get(k) != Some(&b'"') { k - 1 } else { k }
}

/// Where a block value's text ends: a nested block mapping's span may stop
/// before trailing blank lines, which stay.
fn value_end(text: &str, value: &Node) -> usize {
    let end = value.span.end.min(text.len());
    // A span that ends at a line break belongs to the line before it.
    if end > 0 && matches!(text.as_bytes().get(end - 1), Some(b'\n' | b'\r')) { end - 1 } else { end }
}

/// The mapping holding the entry whose value spans `span`, and its index.
fn holder(node: &Node, span: Span) -> Option<(&Node, usize)> {
    match &node.kind {
        Kind::Map(entries) => {
            if let Some(i) = entries.iter().position(|e| e.value.span == span) {
                return Some((node, i));
            }
            entries.iter().find_map(|e| contains(&e.value, span).then(|| holder(&e.value, span)).flatten())
        }
        Kind::Seq(items) => items.iter().find_map(|n| contains(n, span).then(|| holder(n, span)).flatten()),
        _ => None,
    }
}

fn contains(node: &Node, span: Span) -> bool {
    node.span.start <= span.start && span.end <= node.span.end
}

/// The edit that removes the attribute whose value is at `at` in a `.tf`
/// file, with its line: only an attribute alone on its lines.
pub(crate) fn hcl(file: &Source, parsed: &Parsed, at: Span, named: impl Fn(&str) -> bool) -> Option<Edit> {
    let text = &file.text;
    let block = parsed.block_at_value(at.start)?;
    let attr =
        block.body.attributes().find(|a| a.value.span().is_some_and(|s| s.start == at.start && s.end == at.end))?;
    if !named(attr.key.as_str()) {
        return None;
    }
    let span = attr.span()?;
    let start = lines::line_start(text, span.start);
    if !text.get(start..span.start)?.chars().all(|c| c == ' ' || c == '\t') {
        return None;
    }
    let rest = text.get(span.end..lines::content_end(text, span.end))?;
    if !(rest.trim().is_empty() || rest.trim_start().starts_with('#') || rest.trim_start().starts_with("//")) {
        return None;
    }
    let end = lines::next_line(text, span.end).unwrap_or(text.len());
    let removed = Span::new(start, end);
    Some(realigned(file, block, removed).unwrap_or(Edit {
        file: file.clone(),
        span: removed,
        replacement: String::new(),
    }))
}

/// A one-line attribute of an HCL block: where its line starts and ends
/// (its line break included), its key's end and its `=`.
struct Line {
    start: usize,
    end: usize,
    key_end: usize,
    eq: usize,
}

/// The removal of `removed` from a run of one-line attributes whose `=`
/// are aligned as `terraform fmt` aligns them, the others padded again to
/// the longest key left (the removed key may have been the longest), so a
/// canonical file stays canonical. `None`: no such run, or one not
/// aligned before (then only the line goes).
fn realigned(file: &Source, block: &hcl_edit::structure::Block, removed: Span) -> Option<Edit> {
    let text = &file.text;
    let mut run: Vec<Line> = Vec::new();
    let mut found = false;
    for attr in block.body.attributes() {
        let (Some(key), Some(span)) = (attr.key.span(), attr.span()) else { return None };
        let start = lines::line_start(text, span.start);
        let end = lines::next_line(text, span.end).unwrap_or(text.len());
        let one_line = !text.get(span.start..span.end)?.contains(['\n', '\r']);
        let eq = key.end + text.get(key.end..span.end)?.find('=')?;
        let line = Line { start, end, key_end: key.end, eq };
        if !one_line || run.last().is_some_and(|l| l.end != start) {
            // A multi-line value, a blank or comment line: a new run.
            if found {
                break;
            }
            run.clear();
        }
        if one_line {
            found |= start == removed.start;
            run.push(line);
        }
    }
    if !found || run.len() < 2 {
        return None;
    }
    let column = |l: &Line| l.eq - l.start;
    let width = |l: &Line| l.key_end - l.start;
    let aligned = run.iter().all(|l| column(l) == run.iter().map(width).max().unwrap_or(0) + 1);
    if !aligned {
        return None;
    }
    let kept: Vec<&Line> = run.iter().filter(|l| l.start != removed.start).collect();
    let want = kept.iter().map(|l| width(l)).max()? + 1;
    let (from, to) = (run.first()?.start, run.last()?.end);
    let mut out = String::new();
    for l in &kept {
        out.push_str(text.get(l.start..l.key_end)?);
        out.push_str(&" ".repeat(want - width(l)));
        out.push_str(text.get(l.eq..l.end)?);
    }
    Some(Edit { file: file.clone(), span: Span::new(from, to), replacement: out })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    fn apply(text: &str, edit: Option<Edit>) -> Option<String> {
        let e = edit?;
        Some(format!("{}{}{}", &text[..e.span.start], e.replacement, &text[e.span.end..]))
    }

    /// `key`'s value removed from `text` parsed as YAML (`.yaml`) or JSON.
    fn tree(path: &str, text: &str, key: &str) -> Option<String> {
        let file: Source = SourceFile::new(path, text.to_string());
        let parse = if path.ends_with(".json") { sqsguard_syntax::json::parse } else { sqsguard_syntax::yaml::parse };
        let root = parse(&file).unwrap_or_else(|e| panic!("{}", e.message));
        fn find<'n>(n: &'n Node, key: &str) -> Option<&'n Node> {
            match &n.kind {
                Kind::Map(es) => {
                    es.iter().find_map(|e| if e.key == key { Some(&e.value) } else { find(&e.value, key) })
                }
                Kind::Seq(items) => items.iter().find_map(|i| find(i, key)),
                _ => None,
            }
        }
        let value = find(&root, key).unwrap_or_else(|| panic!("no {key}"));
        let out = apply(text, node(&file, value, &root, |_| true))?;
        // Still a document of the same kind.
        let again: Source = SourceFile::new(path, out.clone());
        parse(&again).unwrap_or_else(|e| panic!("{out}: {}", e.message));
        Some(out)
    }

    #[test]
    fn a_yaml_key_goes_with_its_lines() {
        let t = "Q:\n  Properties:\n    A: 1\n    B:\n      - x\n      - y\n    C: 3\n";
        assert_eq!(tree("t.yaml", t, "B").as_deref(), Some("Q:\n  Properties:\n    A: 1\n    C: 3\n"));
        assert_eq!(
            tree("t.yaml", t, "C").as_deref(),
            Some("Q:\n  Properties:\n    A: 1\n    B:\n      - x\n      - y\n")
        );
        let only = "Q:\n  Properties:\n    A: 1\n";
        assert_eq!(tree("t.yaml", only, "A").as_deref(), Some("Q:\n  Properties:\n    {}\n"));
        assert_eq!(tree("t.yaml", "P: {A: 1, B: 2}\n", "A").as_deref(), Some("P: {B: 2}\n"));
        assert_eq!(tree("t.yaml", "P: {A: 1, B: 2}\n", "B").as_deref(), Some("P: {A: 1}\n"));
        assert_eq!(tree("t.yaml", "P: {A: 1}\n", "A").as_deref(), Some("P: {}\n"));
        assert_eq!(tree("t.yaml", "P: {A: 1, B: {C: 2}}\n", "B").as_deref(), Some("P: {A: 1}\n"));
    }

    #[test]
    fn a_json_member_goes_with_its_comma() {
        let t = "{\n  \"P\": {\n    \"A\": 1,\n    \"B\": [2],\n    \"C\": 3\n  }\n}\n";
        assert_eq!(tree("t.json", t, "A").as_deref(), Some("{\n  \"P\": {\n    \"B\": [2],\n    \"C\": 3\n  }\n}\n"));
        assert_eq!(tree("t.json", t, "B").as_deref(), Some("{\n  \"P\": {\n    \"A\": 1,\n    \"C\": 3\n  }\n}\n"));
        assert_eq!(tree("t.json", t, "C").as_deref(), Some("{\n  \"P\": {\n    \"A\": 1,\n    \"B\": [2]\n  }\n}\n"));
        assert_eq!(tree("t.json", "{\"P\": {\"A\": 1}}", "A").as_deref(), Some("{\"P\": {}}"));
    }

    #[test]
    fn an_hcl_attribute_goes_with_its_line() {
        let t =
            "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n  delay_seconds = 5 # why\n  fifo_queue = true\n}\n";
        let file: Source = SourceFile::new("main.tf", t.to_string());
        let body: hcl_edit::structure::Body = t.parse().unwrap_or_else(|e| panic!("{e}"));
        let parsed = Parsed::new(body);
        let at = Span::new(t.find("5 #").unwrap_or(0), t.find("5 #").unwrap_or(0) + 1);
        let out = apply(t, hcl(&file, &parsed, at, |_| true)).unwrap_or_else(|| panic!("no edit"));
        assert_eq!(out, "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n  fifo_queue = true\n}\n");
        assert!(out.parse::<hcl_edit::structure::Body>().is_ok());
        // Aligned as terraform fmt aligns: the longest key goes, the
        // others close up to the longest left.
        let t = "resource \"aws_sqs_queue\" \"q\" {\n  name                        = \"q\"\n  content_based_deduplication = true\n  delay_seconds               = 5\n\n  tags = {}\n}\n";
        let aligned: Source = SourceFile::new("main.tf", t.to_string());
        let parsed_aligned = Parsed::new(t.parse().unwrap_or_else(|e| panic!("{e}")));
        let dedup = t.find("true").unwrap_or(0);
        let out = apply(t, hcl(&aligned, &parsed_aligned, Span::new(dedup, dedup + 4), |_| true))
            .unwrap_or_else(|| panic!("no edit"));
        assert_eq!(
            out,
            "resource \"aws_sqs_queue\" \"q\" {\n  name          = \"q\"\n  delay_seconds = 5\n\n  tags = {}\n}\n"
        );
        // Not a value's span: nothing.
        assert!(hcl(&file, &parsed, Span::new(0, 3), |_| true).is_none());
        // Another key than the field's (a variable's default): nothing.
        assert!(hcl(&file, &parsed, at, |k| names(Field::FifoQueue, k)).is_none());
        assert!(names(Field::BatchingWindow, "maximum_batching_window_in_seconds"));
        assert!(names(Field::BatchingWindow, "maximumBatchingWindow"));
        assert!(!names(Field::BatchingWindow, "Default"));
    }
}
