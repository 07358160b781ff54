//! Where in a file's tree a fix goes: the resource, the value node, and
//! the place a missing key is inserted.

use super::render::{key, literal};
use crate::finding::Edit;
use crate::finding::Remedy;
use crate::model::Scalar;
use crate::source::{Source, Span, lines};
use crate::syntax::{Entry, Kind, Node};
use std::collections::HashMap;

/// A CloudFormation/SAM template or a Serverless Framework service (not a
/// plan, not a workflow).
pub fn is_fixable_document(root: &Node) -> bool {
    root.get("Resources").is_some() || (root.get("service").is_some() && root.get("provider").is_some())
}

/// A file's large collections indexed, each the first time it is asked:
/// a map's entries by key, and whether a map's or a sequence's children
/// lie in the file in order. A template of 24,000 queue sets has about as
/// many findings, and finding each one's resource, or the node its value
/// is, by scanning made the fixes that `--format json`, `pretty` and
/// `sarif` show quadratic in the file. A collection is known by its span
/// and size: two share them only when one is an alias's copy of the other,
/// with the same children at the same positions.
#[derive(Default)]
pub struct Keys {
    by_key: HashMap<Span, HashMap<String, usize>>,
    /// Whether each child ends where (or before) the next one starts.
    ordered: HashMap<(Span, usize), bool>,
}

/// Collections smaller than this are scanned, not indexed.
const INDEXED: usize = 32;

impl Keys {
    /// The entry for `key` in `map`: the first of that key, as
    /// [`Node::entry`] finds it.
    pub fn entry<'n>(&mut self, map: &'n Node, key: &str) -> Option<&'n Entry> {
        let entries = map.as_map()?;
        if entries.len() < INDEXED {
            return map.entry(key);
        }
        let index = self.by_key.entry(map.span).or_insert_with(|| {
            let mut index = HashMap::with_capacity(entries.len());
            for (i, e) in entries.iter().enumerate() {
                index.entry(e.key.clone()).or_insert(i);
            }
            index
        });
        entries.get(*index.get(key)?)
    }

    /// The node whose span is exactly `span`: the first one, depth first,
    /// as a walk of every child that holds `span` finds it. The children
    /// of a large collection in order are not all walked: those before
    /// `span` are skipped by a binary search, and the walk stops at the
    /// first that starts after it.
    pub fn node_at<'n>(&mut self, node: &'n Node, span: Span) -> Option<&'n Node> {
        if node.span == span {
            return Some(node);
        }
        if node.span.start > span.start || node.span.end < span.end {
            return None;
        }
        match &node.kind {
            Kind::Map(entries) => self.in_children(node.span, entries, |e| &e.value, span),
            Kind::Seq(items) => self.in_children(node.span, items, |n| n, span),
            _ => None,
        }
    }

    fn in_children<'n, T>(
        &mut self,
        of: Span,
        children: &'n [T],
        node: impl Fn(&T) -> &Node,
        span: Span,
    ) -> Option<&'n Node> {
        let ordered = children.len() >= INDEXED
            && *self
                .ordered
                .entry((of, children.len()))
                .or_insert_with(|| children.windows(2).all(|w| node(&w[0]).span.end <= node(&w[1]).span.start));
        if !ordered {
            return children.iter().find_map(|c| self.node_at(node(c), span));
        }
        // In order, the children's ends rise too: those ending before
        // `span` starts cannot hold it, nor those starting after it does.
        let first = children.partition_point(|c| node(c).span.end < span.start);
        children[first..]
            .iter()
            .take_while(|c| node(c).span.start <= span.start)
            .find_map(|c| self.node_at(node(c), span))
    }
}

/// The resource entry named `id`: under `Resources`, a Serverless
/// service's `resources.Resources`, or its `functions`.
pub fn resource<'n>(keys: &mut Keys, root: &'n Node, id: &str) -> Option<&'n Entry> {
    if let Some(found) = root.get("Resources").and_then(|r| keys.entry(r, id)) {
        return Some(found);
    }
    if let Some(found) = root.get("resources").and_then(|r| r.get("Resources")).and_then(|r| keys.entry(r, id)) {
        return Some(found);
    }
    root.get("functions").and_then(|f| keys.entry(f, id))
}

/// The mapping of resources that holds `id`: a template's `Resources`,
/// or a Serverless service's `resources.Resources`.
pub fn resources_of<'n>(keys: &mut Keys, root: &'n Node, id: &str) -> Option<&'n Node> {
    if let Some(r) = root.get("Resources").filter(|r| keys.entry(r, id).is_some()) {
        return Some(r);
    }
    root.get("resources").and_then(|r| r.get("Resources")).filter(|r| keys.entry(r, id).is_some())
}

/// The file's line ending, as its first line ends: `\r\n`, `\r` or `\n`.
pub use crate::source::lines::ending as line_ending;

/// The `Default` of the parameter that `node` (`{Ref: Name}`) names.
pub fn parameter_default<'n>(keys: &mut Keys, root: &'n Node, node: &Node) -> Option<&'n Node> {
    let reference = node.single_entry().filter(|e| e.key == "Ref")?;
    keys.entry(root.get("Parameters")?, reference.value.as_str()?)?.value.get("Default")
}

/// The edit that adds `key: value` to the `Properties` of the resource
/// `found`, when the finding points at the resource's key (a field of the
/// resource itself, not of a SAM event or a Lift construct).
pub fn insert(file: &Source, found: &Entry, at: Span, remedy: &Remedy, value: &Scalar, json: bool) -> Option<Edit> {
    if found.key_span != at || found.value.get("Type").is_none() {
        return None;
    }
    let text = &file.text;
    let value = literal(value, json);
    // The file's line ending.
    let nl = line_ending(text);
    let edit =
        |pos: usize, replacement: String| Some(Edit { file: file.clone(), span: Span::new(pos, pos), replacement });
    match found.value.get("Properties") {
        Some(props) => {
            let Kind::Map(entries) = &props.kind else { return None };
            let Some(last) = entries.last() else {
                return insert_first(file, props, &format!("{}: {value}", quoted_key(remedy, json)), json);
            };
            if json {
                return edit(
                    last.value.span.end,
                    json_member(text, entries, &format!("\"{}\": {value}", key(remedy)), nl),
                );
            }
            if text[props.span.start..].starts_with('{') {
                let (at, member) = flow_member(text, props, format!("{}: {value}", key(remedy)))?;
                return edit(at, member);
            }
            let indent = indent_of(text, entries.first()?.key_span.start)?;
            let (at, end_line) = block_end(text, props_key(found)?.start)?;
            let first = if end_line { nl } else { "" };
            edit(at, format!("{first}{indent}{}: {value}{nl}", key(remedy)))
        }
        None => {
            let Kind::Map(entries) = &found.value.kind else { return None };
            let first = entries.first()?;
            if json {
                let last = entries.last()?;
                let indent = indent_of(text, first.key_span.start)?;
                return edit(
                    last.value.span.end,
                    format!(",{nl}{indent}\"Properties\": {{\"{}\": {value}}}", key(remedy)),
                );
            }
            if text[found.value.span.start..].starts_with('{') {
                // A resource written whole as a flow mapping.
                let (at, member) =
                    flow_member(text, &found.value, format!("Properties: {{{}: {value}}}", key(remedy)))?;
                return edit(at, member);
            }
            let indent = indent_of(text, first.key_span.start)?;
            let step = indent.len().checked_sub(indent_of(text, found.key_span.start)?.len()).filter(|s| *s > 0)?;
            let inner = format!("{indent}{}", " ".repeat(step));
            let (at, end_line) = block_end(text, found.key_span.start)?;
            let first = if end_line { nl } else { "" };
            edit(at, format!("{first}{indent}Properties:{nl}{inner}{}: {value}{nl}", key(remedy)))
        }
    }
}

/// `member` added as the last of the YAML flow mapping `node`: where to
/// insert it, and the text (`{}` becomes `{member}`, `{a: 1}` becomes
/// `{a: 1, member}`).
pub(super) fn flow_member(text: &str, node: &Node, member: String) -> Option<(usize, String)> {
    let close = flow_close(text, node)?;
    let before = text[..close].trim_end();
    let sep = match before.chars().last() {
        Some('{') => "",
        Some(',') => " ",
        _ => ", ",
    };
    Some((before.len(), format!("{sep}{member}")))
}

/// The key of `remedy`'s field as the file writes keys.
fn quoted_key(remedy: &Remedy, json: bool) -> String {
    if json { format!("\"{}\"", key(remedy)) } else { key(remedy).to_string() }
}

/// `member` into the empty mapping `props` (`Properties: {}`), on its
/// line: `{"Key": value}`, `{Key: value}`.
fn insert_first(file: &Source, props: &Node, member: &str, json: bool) -> Option<Edit> {
    let text = &file.text;
    let open = props.span.start + text.get(props.span.start..)?.find('{')?;
    let close = if json { props.span.end.checked_sub(1)? } else { flow_close(text, props)? };
    if text.get(close..close + 1) != Some("}") || !text.get(open + 1..close)?.trim().is_empty() {
        return None;
    }
    Some(Edit { file: file.clone(), span: Span::new(open, close + 1), replacement: format!("{{{member}}}") })
}

/// Where the closing bracket of the flow collection `node` is. The
/// parser's span of a flow collection ends after its last token, before
/// the bracket (and before the brackets of a last child that is a flow
/// collection too), so the bracket is found after those: only blanks,
/// commas and comments may come between.
pub(super) fn flow_close(text: &str, node: &Node) -> Option<usize> {
    let closer = match text[node.span.start..].chars().next()? {
        '{' => '}',
        '[' => ']',
        _ => return None,
    };
    let last = match &node.kind {
        Kind::Map(entries) => entries.last().map(|e| &e.value),
        Kind::Seq(items) => items.last(),
        _ => None,
    };
    let mut pos = match last {
        Some(child) if text[child.span.start..].starts_with(['{', '[']) => flow_close(text, child)? + 1,
        _ => node.span.end,
    };
    loop {
        let rest = &text[pos..];
        let c = rest.chars().next()?;
        match c {
            _ if c == closer => return Some(pos),
            ' ' | '\t' | '\r' | '\n' | ',' => pos += 1,
            '#' => pos = lines::content_end(text, pos),
            _ => return None,
        }
    }
}

/// The edit that adds the member `"name": value` to the JSON object
/// `object` (a `*.tf.json` resource), after its last member, with the
/// first member's indentation and the file's line ending.
pub fn insert_member(file: &Source, object: &Node, name: &str, value: &Scalar) -> Option<Edit> {
    let Kind::Map(entries) = &object.kind else { return None };
    // Never a second member of one name, whatever the first one holds.
    if entries.iter().any(|e| e.key == name) {
        return None;
    }
    let text = &file.text;
    let nl = line_ending(text);
    let replacement = json_member(text, entries, &format!("\"{name}\": {}", literal(value, true)), nl);
    let at = entries.last()?.value.span.end;
    Some(Edit { file: file.clone(), span: Span::new(at, at), replacement })
}

/// `member` after the last of `entries` (a JSON object that has some): on
/// a line of its own at their indentation, or after a comma on the same
/// line when they share one (`{"A": 1}`).
pub(super) fn json_member(text: &str, entries: &[Entry], member: &str, nl: &str) -> String {
    let pos = entries.first().map_or(0, |first| first.key_span.start);
    let line = lines::line_start(text, pos);
    match text.get(line..pos) {
        // Spaces or tabs, as the file indents.
        Some(indent) if indent.chars().all(|c| c == ' ' || c == '\t') => format!(",{nl}{indent}{member}"),
        _ => format!(", {member}"),
    }
}

/// The whitespace before `pos` on its line, when nothing else is there.
pub(super) fn indent_of(text: &str, pos: usize) -> Option<&str> {
    let start = lines::line_start(text, pos);
    let indent = &text[start..pos];
    indent.chars().all(|c| c == ' ').then_some(indent)
}

/// The `Properties` key of a resource entry.
pub(super) fn props_key(found: &Entry) -> Option<Span> {
    found.value.as_map()?.iter().find(|e| e.key == "Properties").map(|e| e.key_span)
}

/// Where the YAML block under the key at `key` ends: after the last
/// non-blank line indented deeper than the key (comments of the block
/// included), and whether that line must be ended first (the file's last
/// line, without a newline). Read from the text, not from the parser's spans, which
/// may run past a block scalar's trailing blank lines.
pub(super) fn block_end(text: &str, key: usize) -> Option<(usize, bool)> {
    let key_indent = key - lines::line_start(text, key);
    let mut pos = lines::next_line(text, key)?;
    let mut end = pos;
    while pos < text.len() {
        let next = lines::next_line(text, pos).unwrap_or(text.len());
        let line = &text[pos..next];
        let content = line.trim_start_matches(' ');
        let blank = content.trim().is_empty();
        if !blank && line.len() - content.len() <= key_indent {
            break;
        }
        if !blank {
            end = next;
        }
        pos = next;
    }
    Some((end, !lines::ends_with_break(&text[..end])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    /// A large map (the index) answers as a small one (the scan): the
    /// first entry of a repeated key, nothing for a missing one, in a map
    /// and in an alias's copy of it.
    #[test]
    fn keys_find_what_a_scan_finds() {
        let mut text = String::from("Resources: &all\n");
        for i in 0..40 {
            text.push_str(&format!("  R{i}: {i}\n"));
        }
        text.push_str("Copy: *all\n");
        let file = SourceFile::new("t.yaml", text);
        let mut root = crate::syntax::yaml::parse(&file).unwrap();
        // The reader refuses a repeated key; the index still answers for one.
        let Kind::Map(top) = &mut root.kind else { panic!("not a map") };
        for entry in top.iter_mut() {
            let Kind::Map(entries) = &mut entry.value.kind else { panic!("not a map") };
            let mut again = entries[7].clone();
            again.value.kind = Kind::String("second".into());
            entries.push(again);
        }
        let mut keys = Keys::default();
        for map in [root.get("Resources").unwrap(), root.get("Copy").unwrap()] {
            assert_eq!(map.as_map().unwrap().len(), 41);
            for key in ["R0", "R7", "R39", "R40", "Nope"] {
                assert_eq!(keys.entry(map, key), map.entry(key), "{key}");
            }
            assert_eq!(keys.entry(map, "R7").unwrap().value.kind, Kind::Number("7".into()));
        }
    }

    /// The index finds, for every span, the node a walk of every child
    /// finds: in large maps and sequences in order, in one whose children
    /// are out of order, in alias copies (their children keep the spans of
    /// the anchor's), and in small ones.
    #[test]
    fn node_at_finds_what_a_walk_finds() {
        fn walk(node: &Node, span: Span) -> Option<&Node> {
            if node.span == span {
                return Some(node);
            }
            if node.span.start > span.start || node.span.end < span.end {
                return None;
            }
            match &node.kind {
                Kind::Map(entries) => entries.iter().find_map(|e| walk(&e.value, span)),
                Kind::Seq(items) => items.iter().find_map(|n| walk(n, span)),
                _ => None,
            }
        }
        fn spans(node: &Node, out: &mut Vec<Span>) {
            out.push(node.span);
            match &node.kind {
                Kind::Map(entries) => entries.iter().for_each(|e| spans(&e.value, out)),
                Kind::Seq(items) => items.iter().for_each(|n| spans(n, out)),
                _ => {}
            }
        }
        let mut text = String::from("Resources:\n");
        for i in 0..40 {
            text.push_str(&format!("  R{i}: &r{i}\n    Type: T\n    Properties: {{A: {i}, B: [x, {{C: {i}}}]}}\n"));
        }
        text.push_str("List:\n");
        for i in 0..40 {
            text.push_str(&format!("  - {i}\n"));
        }
        text.push_str("Copies:\n");
        for i in (0..40).rev() {
            text.push_str(&format!("  - *r{i}\n"));
        }
        let file = SourceFile::new("t.yaml", text.clone());
        let mut root = crate::syntax::yaml::parse(&file).unwrap();
        let Kind::Map(top) = &mut root.kind else { panic!("not a map") };
        let Kind::Seq(items) = &mut top[1].value.kind else { panic!("not a list") };
        items.reverse();
        let list = root.get("List").unwrap().as_seq().unwrap();
        assert!(list.len() == 40 && list[0].span.start > list[1].span.start, "out of order");
        let copy = root.get("Copies").unwrap().as_seq().unwrap()[0].get("Type").unwrap();
        assert!(copy.span.end < root.get("List").unwrap().span.start, "an alias copy's children are the anchor's");
        let mut all = Vec::new();
        spans(&root, &mut all);
        // Spans of no node: between two, and across two.
        all.extend([Span::new(3, 3), Span::new(20, 60), Span::new(text.len(), text.len())]);
        let mut keys = Keys::default();
        for span in all {
            let (found, walked) = (keys.node_at(&root, span), walk(&root, span));
            assert_eq!(found.map(|n| n as *const Node), walked.map(|n| n as *const Node), "{span:?}");
        }
    }

    /// The closing bracket of each `P` flow mapping, however it ends.
    #[test]
    fn a_flow_mapping_closes_at_its_own_bracket() {
        let cases = [
            ("P: {a: 1}\n", "}"),
            ("P: {a: 1 }  # c\n", "}  # c"),
            ("P: {a: !Ref L, b: {c: 1}}\n", "}"),
            ("P: {a: [1, {b: 2}] }\n", "}"),
            ("P: {a: 1, }\n", "}"),
            ("P: {\n  a: 1,  # one\n  b: 2  # two\n}\n", "}"),
            ("Q: {x: 1}\nP: {}\n", "}"),
        ];
        for (text, rest) in cases {
            let file = SourceFile::new("t.yaml", text.to_string());
            let root = crate::syntax::yaml::parse(&file).unwrap();
            let p = root.get("P").unwrap();
            let close = flow_close(text, p).unwrap_or_else(|| panic!("{text:?}"));
            assert!(text[close..].starts_with(rest), "{text:?}: {:?}", &text[close..]);
            assert_eq!(text[..close].matches('{').count(), text[..=close].matches('}').count(), "{text:?}");
        }
    }
}
