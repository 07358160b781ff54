//! Running a language's compiled patterns over a tree: each match, with
//! the pattern file it is of and its captures by name, once the
//! conditions tree-sitter leaves to its reader hold.

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Query, QueryCapture, QueryCursor};

use super::lang::{self, Compiled, Language, Pattern};

/// One match of a pattern, its captures by name.
pub(crate) struct Match<'a, 'tree> {
    captures: Captures<'a, 'tree>,
    text: &'a [u8],
}

enum Captures<'a, 'tree> {
    Query(&'a Query, &'a [QueryCapture<'tree>]),
    /// A flat pattern's node and the names it is captured as.
    Flat(&'a [String], Node<'tree>),
}

impl<'tree> Match<'_, 'tree> {
    pub(crate) fn node(&self, name: &str) -> Option<Node<'tree>> {
        match &self.captures {
            Captures::Query(query, captures) => {
                let index = query.capture_index_for_name(name)?;
                captures.iter().find(|c| c.index == index).map(|c| c.node)
            }
            Captures::Flat(names, node) => names.iter().any(|n| n == name).then_some(*node),
        }
    }

    pub(crate) fn text(&self, node: Node<'_>) -> String {
        String::from_utf8_lossy(self.text.get(node.start_byte()..node.end_byte()).unwrap_or_default()).into_owned()
    }
}

/// Run the language's query over `root` once, calling `each` on every
/// match of a pattern in `patterns` whose checks hold, with the pattern it
/// is of.
pub(crate) fn each_match<'tree>(
    language: Language,
    patterns: &[Pattern],
    root: Node<'tree>,
    text: &[u8],
    mut each: impl FnMut(Pattern, &Match<'_, 'tree>),
) {
    let (query, of, checks) = match lang::compiled(language) {
        None => return,
        Some(Compiled::Flat(flat)) => {
            let wanted = |file: usize| lang::file_pattern(file).is_some_and(|p| patterns.contains(&p));
            flat.each(root, text, wanted, |file, names, node| {
                if let Some(pattern) = lang::file_pattern(file) {
                    each(pattern, &Match { captures: Captures::Flat(names, node), text });
                }
            });
            return;
        }
        Some(Compiled::Query { query, of, checks }) => (query, of, checks),
    };
    let mut cursor = QueryCursor::new();
    // A pathological file cannot make a query's state grow without bound.
    cursor.set_match_limit(4096);
    let mut matches = cursor.matches(query, root, text);
    while let Some(m) = matches.next() {
        let Some(&pattern) = of.get(m.pattern_index).filter(|p| patterns.contains(p)) else { continue };
        if checks.get(m.pattern_index).is_none_or(|c| c.iter().all(|c| c.holds(m.captures(), text))) {
            each(pattern, &Match { captures: Captures::Query(query, m.captures()), text });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{Check, checks};

    fn python(query: &str) -> Result<Vec<Vec<Check>>, String> {
        let q = Query::new(&lang::grammar(Language::Python), query).map_err(|e| e.to_string())?;
        checks(&q)
    }

    #[test]
    fn a_field_match_holds_on_the_text_of_the_field() {
        let source = "getenv('A')\nos.getenv('B')\nf(getenv)\ngetenv_all()\n";
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&lang::grammar(Language::Python)).unwrap();
        let tree = parser.parse(source, None).unwrap();
        let query = Query::new(
            &lang::grammar(Language::Python),
            r#"((call) @c (#field-match? @c "function" "^(os\\.)?getenv$"))"#,
        )
        .unwrap();
        let checks = checks(&query).unwrap();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&query, tree.root_node(), source.as_bytes());
        let mut found = Vec::new();
        while let Some(m) = matches.next() {
            if checks[m.pattern_index].iter().all(|c| c.holds(m.captures(), source.as_bytes())) {
                found.push(&source[m.captures()[0].node.byte_range()]);
            }
        }
        assert_eq!(found, ["getenv('A')", "os.getenv('B')"]);
    }

    #[test]
    fn a_condition_it_does_not_know_or_cannot_read_is_an_error() {
        assert!(python(r#"((call) @c (#field-match? @c "function" "^f$"))"#).is_ok());
        assert!(python(r#"((call) @c (#field-matches? @c "function" "^f$"))"#).is_err());
        assert!(python(r#"((call) @c (#field-match? @c "^f$"))"#).is_err());
        assert!(python(r#"((call) @c (#field-match? @c "function" "(unclosed"))"#).is_err());
    }
}
