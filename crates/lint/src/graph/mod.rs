//! `sqsguard graph`: the pipeline as a picture. [`Graph`] is neutral
//! (nodes, edges, notes), built from the models a lint checked and their
//! findings ([`from_models`]) or from an audit's JSON report
//! ([`audit::from_report`]); one file per format writes it: [`mermaid`],
//! [`dot`], [`json`].
//!
//! Order is the model's (files in the order the lint read them, resources
//! in the order of each file), so the same input draws the same bytes;
//! every lookup goes through an index built once, so the cost grows with
//! the model, not its square.

pub mod audit;
mod build;
pub mod dot;
pub mod json;
pub mod mermaid;
mod words;

use serde::Serialize;

use sqsguard_finding::Severity;

pub use build::{Piece, from_models};

/// What a node stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// An SNS subscription, EventBridge target, S3 notification or pipe.
    Producer,
    /// Code that calls SQS (sends or receives).
    Code,
    Queue,
    /// A queue that receives another's failures.
    DeadLetterQueue,
    /// An event source mapping and the function it invokes.
    Consumer,
    Alarm,
    /// Something outside what was read (an ARN, a name).
    External,
    /// An audit finding's resource of no kind above.
    Other,
}

/// A finding on a node.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub rule: String,
    pub severity: Severity,
    pub message: String,
    /// The line of its file it is located at (none for a live finding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Node {
    /// Unique in the graph: `scope`, kind and resource.
    pub id: String,
    pub kind: Kind,
    /// The file (or account and Region) it was read from.
    pub scope: String,
    /// How it is named: a logical ID, address, queue URL.
    pub name: String,
    /// What the rules read about it: `visibility 30 s`, `timeout 60 s`.
    pub details: Vec<String>,
    pub findings: Vec<Mark>,
    /// What could not be told (a queue only known at deploy time).
    pub notes: Vec<String>,
}

impl Node {
    /// Its worst finding's severity.
    pub(crate) fn severity(&self) -> Option<Severity> {
        self.findings.iter().map(|m| m.severity).max()
    }
}

/// What an edge stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// A producer or code delivers to a queue.
    Sends,
    /// A consumer (mapping or code) reads a queue.
    Consumes,
    /// A RedrivePolicy, or an EventBridge target's dead-letter queue.
    DeadLetters,
    /// An alarm watches a queue's metric.
    Alarms,
}

#[derive(Clone, Debug, Serialize)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    /// What the rules read about the link: `batch 10, window 0 s`.
    pub label: String,
}

/// The picture, in no format yet.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Graph {
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    /// What the graph could not draw: findings on nothing drawn, what a
    /// source does not say.
    pub notes: Vec<String>,
}

/// The scopes of a graph's nodes in first-seen order, each with its
/// nodes' indexes: the formats draw one cluster per scope.
pub(crate) fn by_scope(graph: &Graph) -> Vec<(&str, Vec<usize>)> {
    let mut order: Vec<(&str, Vec<usize>)> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, node) in graph.nodes.iter().enumerate() {
        let slot = *at.entry(node.scope.as_str()).or_insert_with(|| {
            order.push((node.scope.as_str(), Vec::new()));
            order.len() - 1
        });
        order[slot].1.push(i);
    }
    order
}

/// A node's findings as one line, each rule once with how many:
/// `SQS001 error, SQS019 error ×2`.
pub(crate) fn marks_line(node: &Node) -> Option<String> {
    let mut marks: Vec<(&str, Severity, usize)> = Vec::new();
    for m in &node.findings {
        match marks.iter_mut().find(|(rule, severity, _)| *rule == m.rule && *severity == m.severity) {
            Some(seen) => seen.2 += 1,
            None => marks.push((&m.rule, m.severity, 1)),
        }
    }
    let words: Vec<String> = marks
        .into_iter()
        .map(|(rule, severity, n)| match n {
            1 => format!("{rule} {}", severity.as_str()),
            n => format!("{rule} {} ×{n}", severity.as_str()),
        })
        .collect();
    (!words.is_empty()).then(|| words.join(", "))
}

/// Identifiers made of `[A-Za-z0-9_]` only, unique, from the graph's IDs
/// (which may hold dots, slashes, quotes, `${...}`): `n`, the number of
/// the node's scope, and the rest of its ID with every other character as
/// `_`, and a number after a repeat.
pub(crate) fn plain_ids(graph: &Graph) -> std::collections::HashMap<&str, String> {
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut next: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut ids = std::collections::HashMap::with_capacity(graph.nodes.len());
    for (n, (scope, nodes)) in by_scope(graph).into_iter().enumerate() {
        for i in nodes {
            let node = &graph.nodes[i];
            let rest = node.id.strip_prefix(scope).unwrap_or(&node.id);
            let plain: String = rest.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            let base = format!("n{n}{plain}");
            let mut id = base.clone();
            // The next number to try after this base: a run of names that
            // differ only in punctuation is numbered in one pass.
            while !taken.insert(id.clone()) {
                let k = next.entry(base.clone()).or_insert(1);
                *k += 1;
                id = format!("{base}_{k}");
            }
            ids.insert(node.id.as_str(), id);
        }
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(scope: &str, id: &str) -> Node {
        Node {
            id: format!("{scope}#{id}"),
            kind: Kind::External,
            scope: scope.into(),
            name: id.into(),
            details: Vec::new(),
            findings: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn names_that_differ_only_in_punctuation_get_distinct_plain_ids() {
        let nodes = ["external:q.a", "external:q-a", "external:q/a", "external:q_a_2"].map(|id| node("s.yaml", id));
        let graph = Graph { nodes: nodes.to_vec(), ..Graph::default() };
        let ids = plain_ids(&graph);
        let mut plain: Vec<&str> = graph.nodes.iter().map(|n| ids[n.id.as_str()].as_str()).collect();
        assert_eq!(plain, ["n0_external_q_a", "n0_external_q_a_2", "n0_external_q_a_3", "n0_external_q_a_2_2"]);
        plain.sort_unstable();
        plain.dedup();
        assert_eq!(plain.len(), 4);
    }

    #[test]
    fn mermaid_labels_write_what_ends_a_label_as_entities() {
        assert_eq!(mermaid::escape(r#"a"b#c<d>&|`;\${x}"#), "a#34;b#35;c#60;d#62;#38;#124;#96;#59;#92;${x}");
    }
}
