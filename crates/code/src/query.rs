//! Running a language's compiled patterns over a tree: each match, with
//! the pattern file it is of and its captures by name.

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Query, QueryCursor};

use super::lang::{self, Language, Pattern};

/// One match of a query, its captures by name.
pub(crate) struct Match<'a, 'tree> {
    query: &'a Query,
    captures: &'a [tree_sitter::QueryCapture<'tree>],
    text: &'a [u8],
}

impl<'tree> Match<'_, 'tree> {
    pub(crate) fn node(&self, name: &str) -> Option<Node<'tree>> {
        let index = self.query.capture_index_for_name(name)?;
        self.captures.iter().find(|c| c.index == index).map(|c| c.node)
    }

    pub(crate) fn text(&self, node: Node<'_>) -> String {
        String::from_utf8_lossy(self.text.get(node.start_byte()..node.end_byte()).unwrap_or_default()).into_owned()
    }
}

/// Run the language's query over `root` once, calling `each` on every
/// match of a pattern in `patterns`, with the pattern it is of.
pub(crate) fn each_match<'tree>(
    language: Language,
    patterns: &[Pattern],
    root: Node<'tree>,
    text: &[u8],
    mut each: impl FnMut(Pattern, &Match<'_, 'tree>),
) {
    let Some(compiled) = lang::compiled(language) else { return };
    let query = &compiled.query;
    let mut cursor = QueryCursor::new();
    // A pathological file cannot make a query's state grow without bound.
    cursor.set_match_limit(4096);
    let mut matches = cursor.matches(query, root, text);
    while let Some(m) = matches.next() {
        if let Some(pattern) = compiled.pattern(m.pattern_index).filter(|p| patterns.contains(p)) {
            each(pattern, &Match { query, captures: m.captures(), text });
        }
    }
}
