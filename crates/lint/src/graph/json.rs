//! JSON, for other tools: `{"version": 1, "nodes": [...], "edges": [...],
//! "notes": [...]}`, documented in docs/graph.md.

use serde::Serialize;

use super::Graph;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    #[serde(flatten)]
    graph: &'a Graph,
}

pub fn render(graph: &Graph) -> String {
    let doc = Document { version: 1, graph };
    // Only strings, numbers and derived structures: serializing cannot fail.
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}
