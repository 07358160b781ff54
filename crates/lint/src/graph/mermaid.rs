//! Mermaid (a `flowchart LR`), as GitHub renders it in comments and job
//! summaries: one subgraph per file (or account and Region), nodes shaped
//! by kind, red for errors and amber for warnings, the graph's notes as
//! `%%` comments at the top. Identifiers are `[A-Za-z0-9_]` only and every
//! label is quoted, with the characters Mermaid reads in a label written
//! as entity codes.

use std::fmt::Write as _;

use super::{Graph, Kind, by_scope, marks_line, plain_ids};
use sqsguard_finding::Severity;

pub fn render(graph: &Graph) -> String {
    let ids = plain_ids(graph);
    let mut out = String::from("flowchart LR\n");
    for note in &graph.notes {
        let _ = writeln!(out, "  %% note: {}", note.replace(['\n', '\r'], " "));
    }
    for (n, (scope, nodes)) in by_scope(graph).into_iter().enumerate() {
        let _ = writeln!(out, "  subgraph s{n}[\"{}\"]\n    direction LR", escape(scope));
        for &i in &nodes {
            let node = &graph.nodes[i];
            let mut lines = vec![format!("<b>{}</b>", escape(&node.name))];
            lines.extend(node.details.iter().map(|d| escape(d)));
            lines.extend(marks_line(node).map(|m| escape(&m)));
            lines.extend(node.notes.iter().map(|n| format!("<i>{}</i>", escape(n))));
            let (open, close) = shape(node.kind);
            let class = match node.severity() {
                Some(Severity::Error) => ":::error",
                Some(Severity::Warning) => ":::warning",
                _ => "",
            };
            let _ = writeln!(out, "    {}{open}\"{}\"{close}{class}", ids[node.id.as_str()], lines.join("<br/>"));
        }
        out.push_str("  end\n");
    }
    for edge in &graph.edges {
        let (Some(from), Some(to)) = (ids.get(edge.from.as_str()), ids.get(edge.to.as_str())) else { continue };
        let arrow = if edge.kind == super::EdgeKind::Alarms { "-.->" } else { "-->" };
        if edge.label.is_empty() {
            let _ = writeln!(out, "  {from} {arrow} {to}");
        } else {
            let _ = writeln!(out, "  {from} {arrow}|\"{}\"| {to}", escape(&edge.label));
        }
    }
    out.push_str("  classDef error fill:#ffebe9,stroke:#cf222e,color:#1f2328\n");
    out.push_str("  classDef warning fill:#fff8c5,stroke:#bf8700,color:#1f2328\n");
    out
}

/// Mermaid's defaults (`maxEdges` 500, `maxTextSize` 50,000 characters):
/// past either, GitHub and mermaid-cli refuse to draw the text.
const MAX_EDGES: usize = 500;
const MAX_TEXT: usize = 50_000;

/// Why `text`, the rendering of `graph`, is too large for Mermaid's
/// defaults to draw, if it is.
pub fn too_large(graph: &Graph, text: &str) -> Option<String> {
    (graph.edges.len() > MAX_EDGES || text.len() > MAX_TEXT).then(|| {
        format!(
            "the Mermaid graph has {} edges and {} characters, and Mermaid draws at most {MAX_EDGES} edges and \
             {MAX_TEXT} characters unless configured otherwise: draw fewer paths, or use --format dot or json",
            graph.edges.len(),
            text.len()
        )
    })
}

/// The brackets of a node of `kind`.
fn shape(kind: Kind) -> (&'static str, &'static str) {
    match kind {
        Kind::Producer | Kind::Code => ("[/", "/]"),
        Kind::Queue | Kind::DeadLetterQueue => ("[(", ")]"),
        Kind::Consumer => ("[[", "]]"),
        Kind::Alarm => ("{{", "}}"),
        Kind::External | Kind::Other => ("[", "]"),
    }
}

/// Text for a quoted Mermaid label: the characters that end or change a
/// label (quote, `#`, `<`, `>`, `&`, `|`, backtick, and `%`, whose `%%`
/// starts a comment or a directive) as entity codes, line breaks as
/// spaces, and other control characters written out (`\u{1b}`, its
/// backslash an entity too), as lint's text formats write them: a name
/// holding a terminal's escapes never reaches a terminal raw.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' | '#' | '<' | '>' | '&' | '|' | '`' | ';' | '\\' | '%' => {
                let _ = write!(out, "#{};", u32::from(c));
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() => {
                let _ = write!(out, "#92;u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out
}
