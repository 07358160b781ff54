//! Graphviz DOT: one cluster per file (or account and Region), nodes
//! shaped by kind, filled red for errors and amber for warnings, the
//! graph's notes as comments at the top. Every identifier and label is a
//! quoted string with `"` and `\` escaped, so names with dots, slashes,
//! quotes or `${...}` stay one identifier.

use std::fmt::Write as _;

use super::{EdgeKind, Graph, Kind, by_scope, marks_line};
use sqsguard_finding::Severity;

pub fn render(graph: &Graph) -> String {
    let mut out = String::from(
        "digraph sqsguard {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n",
    );
    for note in &graph.notes {
        let _ = writeln!(out, "  // note: {}", note.replace(['\n', '\r'], " "));
    }
    for (n, (scope, nodes)) in by_scope(graph).into_iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{n} {{\n    label={};", quote(scope));
        for &i in &nodes {
            let node = &graph.nodes[i];
            let mut lines = vec![node.name.clone()];
            lines.extend(node.details.iter().cloned());
            lines.extend(marks_line(node));
            lines.extend(node.notes.iter().cloned());
            let fill = match node.severity() {
                Some(Severity::Error) => ", style=filled, fillcolor=\"#ffebe9\", color=\"#cf222e\"",
                Some(Severity::Warning) => ", style=filled, fillcolor=\"#fff8c5\", color=\"#bf8700\"",
                _ => "",
            };
            let label: Vec<String> = lines.iter().map(|l| escape(l)).collect();
            let _ = writeln!(
                out,
                "    {} [label=\"{}\", shape={}{fill}];",
                quote(&node.id),
                label.join("\\n"),
                shape(node.kind)
            );
        }
        out.push_str("  }\n");
    }
    for edge in &graph.edges {
        let style = if edge.kind == EdgeKind::Alarms { ", style=dashed" } else { "" };
        let _ = writeln!(out, "  {} -> {} [label={}{style}];", quote(&edge.from), quote(&edge.to), quote(&edge.label));
    }
    out.push_str("}\n");
    out
}

fn shape(kind: Kind) -> &'static str {
    match kind {
        Kind::Producer | Kind::Code => "parallelogram",
        Kind::Queue | Kind::DeadLetterQueue => "cylinder",
        Kind::Consumer => "box",
        Kind::Alarm => "hexagon",
        Kind::External | Kind::Other => "box",
    }
}

/// A DOT quoted string.
pub(crate) fn quote(text: &str) -> String {
    format!("\"{}\"", escape(text))
}

/// The inside of a DOT quoted string: `\` and `"` escaped (so `\N`, `\G`
/// and `\l` are not read as escapes), line breaks as spaces, and other
/// control characters written out (`\u{1b}`) as lint's text formats
/// write them, so a name's terminal escapes never reach a terminal raw.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {
                let _ = write!(out, "\\\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}
