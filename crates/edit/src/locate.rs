//! Where in a file's tree a fix goes: the resource and the value node,
//! found through indexes built once per file.

use sqsguard_source::Span;
use sqsguard_syntax::{Entry, Kind, Node};
use std::collections::HashMap;

/// The `Properties` of the resource `id` when `at` is its key, or of its
/// SAM event whose key is at `at`.
pub(crate) fn properties_at<'n>(keys: &mut Keys, root: &'n Node, id: &str, at: Span) -> Option<&'n Node> {
    let found = resource(keys, root, id)?;
    if found.key_span == at {
        return found.value.get("Properties");
    }
    let events = found.value.get("Properties")?.get("Events")?.as_map()?;
    events.iter().find(|e| e.key_span == at)?.value.get("Properties")
}

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
pub(crate) struct Keys {
    by_key: HashMap<Span, HashMap<String, usize>>,
    /// Whether each child ends where (or before) the next one starts.
    ordered: HashMap<(Span, usize), bool>,
}

/// Collections smaller than this are scanned, not indexed.
const INDEXED: usize = 32;

impl Keys {
    /// The entry for `key` in `map`: the first of that key, as
    /// [`Node::entry`] finds it.
    pub(crate) fn entry<'n>(&mut self, map: &'n Node, key: &str) -> Option<&'n Entry> {
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
    pub(crate) fn node_at<'n>(&mut self, node: &'n Node, span: Span) -> Option<&'n Node> {
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
pub(crate) fn resource<'n>(keys: &mut Keys, root: &'n Node, id: &str) -> Option<&'n Entry> {
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
pub(crate) fn resources_of<'n>(keys: &mut Keys, root: &'n Node, id: &str) -> Option<&'n Node> {
    if let Some(r) = root.get("Resources").filter(|r| keys.entry(r, id).is_some()) {
        return Some(r);
    }
    root.get("resources").and_then(|r| r.get("Resources")).filter(|r| keys.entry(r, id).is_some())
}

/// The file's line ending, as its first line ends: `\r\n`, `\r` or `\n`.
pub use sqsguard_source::lines::ending as line_ending;

/// The `Default` of the parameter that `node` (`{Ref: Name}`) names.
pub(crate) fn parameter_default<'n>(keys: &mut Keys, root: &'n Node, node: &Node) -> Option<&'n Node> {
    let reference = node.single_entry().filter(|e| e.key == "Ref")?;
    keys.entry(root.get("Parameters")?, reference.value.as_str()?)?.value.get("Default")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

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
        let mut root = sqsguard_syntax::yaml::parse(&file).unwrap();
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
        let mut root = sqsguard_syntax::yaml::parse(&file).unwrap();
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
}
