//! What the evaluator and the readers share below it: one parsed file of
//! a module, what is read off HCL without evaluating (a block's labels, a
//! traversal's attribute names), and an evaluated resource.

use hcl_edit::expr::TraversalOperator;
use hcl_edit::structure::{Block, Body};

use crate::value::R;
use sqsguard_source::{Source, Span};

/// One parsed file of a module.
#[derive(Clone)]
pub struct File {
    pub source: Source,
    pub body: Body,
    /// For `*.tf.json`: `body` was parsed from HCL written for the JSON,
    /// and this maps its spans back into `source`.
    pub remap: Option<crate::terraform::json::Remap>,
    /// Its suppressions: comments, or `"//"` keys in JSON.
    pub suppressions: Vec<sqsguard_model::Suppression>,
    /// For `*.tf.json`: the JSON as parsed, which fixes edit.
    pub json: Option<sqsguard_syntax::Node>,
}

impl File {
    /// The span of an HCL node in `source`, or `fallback` (already in
    /// `source`) when the node has none.
    pub(crate) fn span(&self, node: &impl hcl_edit::Span, fallback: Span) -> Span {
        match node.span() {
            Some(r) => {
                let span = Span::new(r.start, r.end);
                self.remap.as_ref().map_or(span, |m| m.span(span))
            }
            None => fallback,
        }
    }
}

/// The `.name` at position `i` of a traversal, if that is what is there.
pub fn attr_at(ops: &[hcl_edit::Decorated<TraversalOperator>], i: usize) -> Option<&str> {
    match ops.get(i).map(|o| o.value()) {
        Some(TraversalOperator::GetAttr(id)) => Some(id.as_str()),
        _ => None,
    }
}

/// A block's labels as strings.
pub fn labels(block: &Block) -> Vec<String> {
    block.labels.iter().map(|l| l.as_str().to_string()).collect()
}

/// One `resource "type" "name"` block, evaluated.
pub struct Resource {
    pub kind: String,
    pub address: String,
    pub source: Source,
    /// `resource "type" "name"`: where findings about absent attributes point.
    pub header: Span,
    pub props: R,
    /// The registry module call that creates it, when one does.
    pub module: Option<sqsguard_model::ModuleCall>,
}
