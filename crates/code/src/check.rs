//! The conditions of a pattern that tree-sitter leaves to its reader, read
//! from a compiled query. Below both the languages' compiled patterns
//! (`lang`), which read them once, and the matching (`query`), which
//! checks them on each match.

use tree_sitter::{Query, QueryCapture, QueryPredicateArg};

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
