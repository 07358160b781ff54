//! The graph of checked models: each model's queues, producers, consumers,
//! dead-letter links, alarms and SQS calls, and each finding on the node of
//! its resource (or, when nothing drawn is that resource, in a note).

use std::collections::{HashMap, HashSet};

use super::words::{comparison, floats, function_name, ints, kind_word, queue_details, secs, targets, texts};
use super::{Edge, EdgeKind, Graph, Kind, Mark, Node};
use sqsguard_finding::Finding;
use sqsguard_model::{Attr, Index, Model, Target, Value};

/// One model, with the findings checked on it and what names the file or
/// folder it was read from (its nodes' scope).
pub struct Piece<'a> {
    pub scope: &'a str,
    pub model: &'a Model,
    pub findings: &'a [Finding],
}

/// The graph of every piece, in their order.
pub fn from_models(pieces: &[Piece<'_>]) -> Graph {
    let mut builder = Builder::default();
    for piece in pieces {
        builder.scope = piece.scope.to_string();
        builder.by_resource.clear();
        builder.add(piece);
    }
    builder.graph
}

#[derive(Default)]
struct Builder {
    graph: Graph,
    scope: String,
    /// This piece's resource names -> the nodes a finding on it is drawn on.
    by_resource: HashMap<String, Vec<usize>>,
    /// Every node's ID -> its index.
    at: HashMap<String, usize>,
}

impl Builder {
    fn add(&mut self, piece: &Piece<'_>) {
        let model = piece.model;
        let index = Index::new(model);
        let queue_ids: Vec<String> = model
            .queues
            .iter()
            .enumerate()
            .map(|(qi, q)| {
                let mut details = queue_details(q);
                let kind = if index.is_dead_letter_target(qi) {
                    details.insert(0, "dead-letter queue".into());
                    Kind::DeadLetterQueue
                } else {
                    Kind::Queue
                };
                self.node(kind, &q.resource, details, Vec::new())
            })
            .collect();
        for (qi, q) in model.queues.iter().enumerate() {
            for redrive in q.redrive.iter() {
                match &redrive.value {
                    Value::Known(policy) => {
                        let label = format!("maxReceiveCount {}", ints(&policy.max_receive_count, None));
                        self.link(&queue_ids[qi], &policy.target, &queue_ids, EdgeKind::DeadLetters, &label);
                    }
                    Value::Unknown(why) => {
                        self.note_on(&queue_ids[qi], format!("its RedrivePolicy is not known: {why}"))
                    }
                    Value::Absent => {}
                }
            }
            for (alarm, metric) in index.watched_by(qi) {
                let id = self.node(Kind::Alarm, &alarm.resource, Vec::new(), Vec::new());
                let name = metric.metric_name.known().map_or("?", String::as_str);
                let label = format!("{name} {} {}", comparison(&alarm.comparison), floats(&alarm.threshold));
                self.edge(&queue_ids[qi], &id, EdgeKind::Alarms, label);
            }
        }
        self.producers(model, &queue_ids);
        self.consumers(model, &queue_ids);
        self.calls(model, &queue_ids);
        self.mark(piece.findings);
    }

    /// A node per producer (and per producer whose queue is not known),
    /// an edge to the queue it delivers to and to its dead-letter target.
    fn producers(&mut self, model: &Model, queue_ids: &[String]) {
        for producer in &model.producers {
            let id = self.node(Kind::Producer, &producer.name(), Vec::new(), Vec::new());
            self.alias(&producer.resource, &id);
            // The node names the service; the edge, what the rules read of
            // the delivery.
            let mut label = Vec::new();
            if producer.raw_message_delivery.any_known(|r| *r) {
                label.push("raw delivery".into());
            }
            if producer.fifo_source.any_known(|f| *f) {
                label.push("FIFO topic".into());
            }
            if producer.message_group_id.is_set_somewhere() {
                label.push(format!("group {}", texts(&producer.message_group_id)));
            }
            let label = if label.is_empty() { "delivers".to_string() } else { label.join(", ") };
            self.link(&id, &producer.queue, queue_ids, EdgeKind::Sends, &label);
            if producer.dead_letter.is_set_somewhere() {
                self.link(&id, &producer.dead_letter, queue_ids, EdgeKind::DeadLetters, "failed deliveries");
            }
        }
        for unknown in &model.unknown_producers {
            let note = format!("the queue it delivers to is not known: {}", unknown.why);
            self.node(Kind::Producer, &unknown.resource, Vec::new(), vec![note]);
        }
    }

    /// A node per consumer with its function's settings (and per source
    /// not resolved), an edge from the queue it reads.
    fn consumers(&mut self, model: &Model, queue_ids: &[String]) {
        for consumer in &model.consumers {
            let function = consumer.function.iter().find_map(|a| match a.value.known() {
                Some(Target::Function(f)) => model.functions.get(*f),
                _ => None,
            });
            let mut details = Vec::new();
            match function {
                Some(f) => {
                    details.push(format!("function {}", function_name(&f.resource)));
                    details.push(format!("timeout {}", secs(&f.timeout, 3)));
                    if f.reserved_concurrency.any_known(|c| *c >= 0) {
                        details.push(format!("reserved concurrency {}", ints(&f.reserved_concurrency, None)));
                    }
                }
                None => details.push(format!("function {}", targets(&consumer.function))),
            }
            let reports = consumer.response_types.any_known(|r| r.iter().any(|t| t == "ReportBatchItemFailures"));
            details.push(format!("partial batch failures {}", if reports { "reported" } else { "not reported" }));
            let id = self.node(Kind::Consumer, &consumer.resource, details, Vec::new());
            if let Some(f) = function {
                self.alias(&f.resource, &id);
            }
            let window = secs(&consumer.batching_window, 0);
            let label = format!("batch {}, window {window}", ints(&consumer.batch_size, Some(10)));
            self.link_in(&id, &consumer.queue, queue_ids, &label);
        }
        for unknown in &model.unknown_sources {
            let note = format!("the queue it reads could not be resolved: {}", unknown.why);
            self.node(Kind::Consumer, &unknown.resource, Vec::new(), vec![note]);
        }
    }

    /// Code nodes: one per owner of SQS calls, an edge per queue and
    /// operation.
    fn calls(&mut self, model: &Model, queue_ids: &[String]) {
        let mut drawn: HashSet<(String, String, &'static str)> = HashSet::new();
        for call in &model.calls {
            let file = call.origin.location().map(|l| l.file).unwrap_or_default();
            let owner = format!("{} in {file}", call.owner);
            let id = self.node(Kind::Code, &owner, Vec::new(), Vec::new());
            self.alias(&call.owner, &id);
            let operation = call.operation.name();
            // A worker's receives, deletes and visibility changes read the
            // queue; only a send writes to it.
            let receives = call.operation.consumes();
            match &call.queue {
                Value::Known(target) => {
                    let to = self.target(target, queue_ids);
                    if drawn.insert((id.clone(), to.clone(), operation)) {
                        let (from, to) = if receives { (to, id.clone()) } else { (id.clone(), to) };
                        let kind = if receives { EdgeKind::Consumes } else { EdgeKind::Sends };
                        self.edge(&from, &to, kind, operation.to_string());
                    }
                }
                Value::Unknown(why) => self.note_on(&id, format!("{operation}: its queue is not known: {why}")),
                Value::Absent => self.note_on(&id, format!("{operation}: it names no queue sqsguard reads")),
            }
        }
    }

    /// The node of `target`: a queue of the model, or an external one.
    fn target(&mut self, target: &Target, queue_ids: &[String]) -> String {
        match target {
            Target::Queue(q) if *q < queue_ids.len() => queue_ids[*q].clone(),
            Target::Queue(q) => self.node(Kind::External, &format!("queue #{q}"), Vec::new(), Vec::new()),
            Target::Function(f) => self.node(Kind::External, &format!("function #{f}"), Vec::new(), Vec::new()),
            Target::External(name) => self.node(Kind::External, name, Vec::new(), Vec::new()),
        }
    }

    /// Edges from `from` to each alternative of `to`; an unknown one is a
    /// note on `from`.
    fn link(&mut self, from: &str, to: &Attr<Target>, queue_ids: &[String], kind: EdgeKind, label: &str) {
        for alt in to.iter() {
            match &alt.value {
                Value::Known(target) => {
                    let to = self.target(target, queue_ids);
                    self.edge(from, &to, kind, label.to_string());
                }
                Value::Unknown(why) => self.note_on(from, format!("its queue is not known: {why}")),
                Value::Absent => self.note_on(from, "it names no queue".into()),
            }
        }
    }

    /// Edges from each alternative of the consumer's queue to it.
    fn link_in(&mut self, consumer: &str, queue: &Attr<Target>, queue_ids: &[String], label: &str) {
        for alt in queue.iter() {
            match &alt.value {
                Value::Known(target) => {
                    let from = self.target(target, queue_ids);
                    self.edge(&from, consumer, EdgeKind::Consumes, label.to_string());
                }
                Value::Unknown(why) => {
                    self.note_on(consumer, format!("the queue it reads could not be resolved: {why}"))
                }
                Value::Absent => self.note_on(consumer, "it names no queue".into()),
            }
        }
    }

    /// The ID of the node of `kind` named `name` in this scope, drawn once.
    fn node(&mut self, kind: Kind, name: &str, details: Vec<String>, notes: Vec<String>) -> String {
        let id = format!("{}#{}:{name}", self.scope, kind_word(kind));
        if self.at.contains_key(&id) {
            for note in notes {
                self.note_on(&id, note);
            }
        } else {
            let i = self.graph.nodes.len();
            self.at.insert(id.clone(), i);
            self.by_resource.entry(name.to_string()).or_default().push(i);
            let (scope, name) = (self.scope.clone(), name.to_string());
            self.graph.nodes.push(Node { id: id.clone(), kind, scope, name, details, findings: Vec::new(), notes });
        }
        id
    }

    /// Findings on `resource` are drawn on the node `id` too.
    fn alias(&mut self, resource: &str, id: &str) {
        let Some(&i) = self.at.get(id) else { return };
        let list = self.by_resource.entry(resource.to_string()).or_default();
        // Nodes are added in order: a repeat is the last one.
        if list.last() != Some(&i) {
            list.push(i);
        }
    }

    fn note_on(&mut self, id: &str, note: String) {
        if let Some(&i) = self.at.get(id)
            && !self.graph.nodes[i].notes.contains(&note)
        {
            self.graph.nodes[i].notes.push(note);
        }
    }

    fn edge(&mut self, from: &str, to: &str, kind: EdgeKind, label: String) {
        self.graph.edges.push(Edge { from: from.to_string(), to: to.to_string(), kind, label });
    }

    /// Each finding on the nodes of its resource, else of a related one;
    /// one on nothing drawn is a note of the graph.
    fn mark(&mut self, findings: &[Finding]) {
        for f in findings {
            let nodes = std::iter::once(&f.resource)
                .chain(&f.related)
                .find_map(|r| self.by_resource.get(r.as_str()).filter(|v| !v.is_empty()));
            let line = f.origin.location().map(|l| l.line).filter(|&l| l > 0);
            let mark =
                Mark { rule: f.code().to_string(), severity: f.severity, message: f.full_message().into_owned(), line };
            match nodes {
                Some(nodes) => {
                    for &i in nodes {
                        self.graph.nodes[i].findings.push(mark.clone());
                    }
                }
                None => {
                    let at = f.origin.location().map(|l| format!("{}:{}: ", l.file, l.line)).unwrap_or_default();
                    self.graph.notes.push(format!(
                        "{at}{} {} on {} is on nothing drawn: {}",
                        f.code(),
                        f.severity.as_str(),
                        f.resource,
                        f.full_message()
                    ));
                }
            }
        }
    }
}
