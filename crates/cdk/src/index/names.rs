//! A grammar's node kinds and field names by number, read once per grammar
//! a run meets. tree-sitter names a node's kind by converting a C string
//! at each call, and finds a field by name with a scan of all the
//! grammar's field names (thousands of instructions a call); the index's
//! walk asks both at every node.

use std::collections::HashMap;
use std::sync::OnceLock;

use sqsguard_model::code::Language;
use tree_sitter::Node;

use crate::syntax::Syntax;

pub(crate) struct Names {
    /// Each kind's name, by its number.
    kinds: Vec<Box<str>>,
    fields: HashMap<Box<str>, u16>,
}

impl Names {
    /// The names of `syntax`'s grammar, `grammar`.
    pub(crate) fn of(syntax: Syntax, grammar: &tree_sitter::Language) -> &'static Names {
        static CELLS: [OnceLock<Names>; 7] = [const { OnceLock::new() }; 7];
        let slot = match syntax {
            Syntax::Code(Language::Python) => &CELLS[0],
            Syntax::Code(Language::JavaScript) => &CELLS[1],
            Syntax::Code(Language::TypeScript) => &CELLS[2],
            Syntax::Code(Language::Tsx) => &CELLS[3],
            Syntax::Code(Language::Go) => &CELLS[4],
            Syntax::Code(Language::Java) => &CELLS[5],
            Syntax::CSharp => &CELLS[6],
        };
        slot.get_or_init(|| Names::read(grammar))
    }

    fn read(grammar: &tree_sitter::Language) -> Names {
        let count = u16::try_from(grammar.node_kind_count()).unwrap_or(u16::MAX);
        let kinds = (0..count).map(|id| Box::from(grammar.node_kind_for_id(id).unwrap_or_default())).collect();
        let fields = (1..=u16::try_from(grammar.field_count()).unwrap_or(u16::MAX))
            .filter_map(|id| Some((Box::from(grammar.field_name_for_id(id)?), id)))
            .collect();
        Names { kinds, fields }
    }

    /// `node.kind()`, without the conversion.
    pub(crate) fn kind(&'static self, node: Node<'_>) -> &'static str {
        self.kinds.get(usize::from(node.kind_id())).map_or("", |k| k)
    }

    /// `node.child_by_field_name(name)`, without the scan.
    pub(crate) fn field<'t>(&self, node: Node<'t>, name: &str) -> Option<Node<'t>> {
        node.child_by_field_id(*self.fields.get(name)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_fields_are_the_grammars_own() {
        let text = "new sqs.Queue(this, \"Jobs\", { retentionPeriod: d });";
        let source = sqsguard_source::SourceFile::new("stack.ts", text.to_string());
        let tree = Syntax::Code(Language::TypeScript).parse(&source).unwrap();
        let names = Names::of(Syntax::Code(Language::TypeScript), &tree.language());
        let mut cursor = tree.walk();
        let mut seen = 0;
        loop {
            let node = cursor.node();
            assert_eq!(names.kind(node), node.kind());
            for field in ["constructor", "arguments", "key", "value", "object", "property", "name"] {
                assert_eq!(names.field(node, field), node.child_by_field_name(field), "{field} of {}", node.kind());
            }
            seen += 1;
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    assert!(seen > 10);
                    return;
                }
            }
        }
    }
}
