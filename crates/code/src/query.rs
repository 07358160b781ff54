//! Running a language's compiled patterns over a tree: each match, with
//! the pattern file it is of and its captures by name, once the
//! conditions tree-sitter leaves to its reader hold.

use streaming_iterator::StreamingIterator;
use tree_sitter::{Node, Query, QueryCapture, QueryCursor, QueryPredicateArg};

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

/// A condition of a pattern that tree-sitter leaves to its reader:
/// `(#field-match? @node "FIELD" "REGEX")`, the text of the captured
/// node's child in FIELD matches REGEX (searched, as `#match?` does; no
/// such child, no match).
///
/// It is what keeps a pattern flat: `((call) @call (#field-match? @call
/// "function" "^getenv$"))` matches what `(call function: (_) @f (#match?
/// @f "^getenv$"))` does, but tree-sitter's compiler analyses a step
/// below an expression for every place the grammar allows it (0.1 to 4
/// ms a pattern), and a flat pattern for nearly nothing.
pub(crate) struct Check {
    capture: u32,
    field: Box<str>,
    regex: regex::bytes::Regex,
}

impl Check {
    pub(crate) fn holds(&self, captures: &[QueryCapture<'_>], text: &[u8]) -> bool {
        let mut nodes = captures.iter().filter(|c| c.index == self.capture).peekable();
        nodes.peek().is_some()
            && nodes.all(|c| {
                c.node
                    .child_by_field_name(&*self.field)
                    .and_then(|child| text.get(child.start_byte()..child.end_byte()))
                    .is_some_and(|t| self.regex.is_match(t))
            })
    }
}

/// The checks of each of `query`'s patterns, by pattern index; an error
/// names a condition this reader does not know or cannot read (a bug of
/// the pattern files, which the tests compile).
pub(crate) fn checks(query: &Query) -> Result<Vec<Vec<Check>>, String> {
    (0..query.pattern_count())
        .map(|i| {
            query
                .general_predicates(i)
                .iter()
                .map(|p| match (&*p.operator, &*p.args) {
                    (
                        "field-match?",
                        [QueryPredicateArg::Capture(capture), QueryPredicateArg::String(field), QueryPredicateArg::String(regex)],
                    ) => {
                        let regex = regex::bytes::Regex::new(regex).map_err(|e| format!("pattern {i}: {e}"))?;
                        Ok(Check { capture: *capture, field: field.clone(), regex })
                    }
                    (operator, _) => Err(format!(
                        "pattern {i}: #{operator} is not a condition this reader knows (#field-match? @node \"field\" \"regex\")"
                    )),
                })
                .collect()
        })
        .collect()
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
