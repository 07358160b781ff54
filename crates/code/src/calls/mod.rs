//! The SQS API calls of a code file, read into the model's
//! [`SdkCall`]s: which operation, the request's parameters by the API's
//! names, the queue it calls, what becomes of a batch call's result, and
//! the values of its message body that differ on every call.
//!
//! The calls, clocks, environment reads and bindings are found by the
//! language's queries (`rules/code/LANGUAGE/{sdk-calls,nondeterministic,
//! env-reads,assignments}.scm`); what a request holds is read here, from
//! the tree: boto3's keyword arguments, a JavaScript object, a Go struct
//! literal, a Java builder chain. A name is followed to what it is bound to
//! in the same function, else in the file's top level, a few steps at most.
//! What cannot be read stays unknown (`Value::Unknown`, `complete: false`),
//! never a "no".

use std::collections::HashMap;

use tree_sitter::Node;

use super::fields;
use super::lang::{Language, Pattern};
use super::query;
use super::unit::{self, Unit};
use sqsguard_model::code::{Arg, EnvVar, Operation, ResultUse, SdkCall};
use sqsguard_model::{Origin, Queue, Target, Value};
use sqsguard_source::Span;

mod added;
mod client;
mod heartbeat;
mod imported;
mod languages;
mod parts;
mod received;
mod received_flow;
mod received_into;
mod received_uses;
mod repeated;
mod request;
mod result;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_flow;
#[cfg(test)]
mod tests_heartbeat;
#[cfg(test)]
mod tests_parts;
#[cfg(test)]
mod tests_received;
#[cfg(test)]
mod tests_timeouts;
mod timeouts;
mod values;
mod walked;

pub(crate) use imported::Imports;

/// What the calls of a file are read against.
pub(crate) struct Scope<'a> {
    /// The function whose code it is (its resource), when a template owns
    /// the file; else each call's owner is its enclosing function.
    pub owner: Option<&'a str>,
    /// The environment that function sets.
    pub env: &'a [EnvVar],
    /// The queues a literal URL, ARN or name is matched against.
    pub queues: &'a QueueNames,
    /// The numbers a worker takes from the other files of its program
    /// ([`imported`]); none for a function's code.
    pub imported: Option<&'a Imports<'a>>,
}

/// The queues a literal URL, ARN or name is matched against, by name:
/// each name's first queue, built once for a template or a run, so that a
/// call looks its queue up instead of searching every queue (a template
/// of thousands of functions with inline code made that quadratic).
#[derive(Debug, Default)]
pub(crate) struct QueueNames(HashMap<String, usize>);

impl QueueNames {
    /// Each known, non-empty name of `queues` and the index of the first
    /// queue that has it.
    pub(crate) fn of(queues: &[Queue]) -> Self {
        let mut names = HashMap::new();
        for (i, queue) in queues.iter().enumerate() {
            for alt in queue.name.iter() {
                if let Value::Known(name) = &alt.value
                    && !name.text.is_empty()
                {
                    names.entry(name.text.clone()).or_insert(i);
                }
            }
        }
        QueueNames(names)
    }

    /// The index of the first queue named `name`.
    pub(crate) fn find(&self, name: &str) -> Option<usize> {
        self.0.get(name).copied()
    }
}

/// How far a name is followed through what it is bound to.
const MAX_STEPS: usize = 6;

/// The request parameters the rules read, by the API's names.
const PARAMETERS: &[&str] = &[
    "QueueUrl",
    "WaitTimeSeconds",
    "MaxNumberOfMessages",
    "VisibilityTimeout",
    "MessageGroupId",
    "MessageDeduplicationId",
    "MessageBody",
    "Entries",
    "DelaySeconds",
    "Id",
    "ReceiptHandle",
    "MessageAttributes",
    "AttributeNames",
    "MessageAttributeNames",
    "MessageSystemAttributeNames",
    "ReceiveRequestAttemptId",
    "QueueName",
];

/// The API's name of a parameter as a language writes it (`WaitTimeSeconds`,
/// `waitTimeSeconds`, `withWaitTimeSeconds`).
fn api_name(written: &str) -> Option<&'static str> {
    let written = written.trim_matches(|c| c == '"' || c == '\'' || c == '`');
    let plain: String = written.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    let find = |p: &str| PARAMETERS.iter().copied().find(|n| n.eq_ignore_ascii_case(p));
    find(&plain).or_else(|| plain.strip_prefix("with").and_then(find))
}

/// The operation a method, command or request type names.
fn operation(written: &str) -> Option<Operation> {
    let plain: String = written.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    let plain = plain.strip_suffix("command").or_else(|| plain.strip_suffix("request")).unwrap_or(&plain);
    let plain = plain.strip_suffix("input").unwrap_or(plain);
    Some(match plain {
        "receivemessage" | "receivemessages" => Operation::ReceiveMessage,
        "sendmessage" => Operation::SendMessage,
        "sendmessagebatch" | "sendmessages" => Operation::SendMessageBatch,
        "deletemessage" => Operation::DeleteMessage,
        "deletemessagebatch" | "deletemessages" => Operation::DeleteMessageBatch,
        "changemessagevisibility" => Operation::ChangeMessageVisibility,
        "changemessagevisibilitybatch" => Operation::ChangeMessageVisibilityBatch,
        _ => return None,
    })
}

/// Every SQS API call of `unit`.
pub(crate) fn read(unit: &Unit, scope: &Scope<'_>) -> Vec<SdkCall> {
    // The first walk (`Unit::find`) saw no call an SQS pattern matches:
    // nothing below would be found.
    if !unit.calls_sqs {
        return Vec::new();
    }
    let mut found: Vec<(Node<'_>, Node<'_>, Option<Node<'_>>)> = Vec::new();
    let root = unit.tree.root_node();
    let mut bindings = Vec::new();
    let (mut sources, mut env_reads) = (Vec::new(), Vec::new());
    const FOUND_HERE: &[Pattern] =
        &[Pattern::SdkCalls, Pattern::Nondeterministic, Pattern::EnvReads, Pattern::Assignments];
    query::each_match(unit.language, FOUND_HERE, root, unit.source.text.as_bytes(), |pattern, m| match pattern {
        Pattern::SdkCalls => {
            let Some(call) = m.node("call") else { return };
            let (op, receiver) = match m.node("operation") {
                Some(op) => (Some(op), m.node("receiver")),
                None => (fields::callee_name(call), fields::callee_object(call)),
            };
            if let Some(op) = op {
                found.push((call, op, receiver));
            }
        }
        Pattern::Nondeterministic => sources.extend(m.node("source")),
        Pattern::EnvReads => {
            if let (Some(read), Some(var)) = (m.node("read"), m.node("variable")) {
                env_reads.push((read, unquote(&m.text(var)).to_string()));
            } else if let Some(read) = m.node("env_read") {
                for var in fields::env_variables(read) {
                    env_reads.push((read, unquote(&m.text(var)).to_string()));
                }
            }
        }
        Pattern::Assignments => bound_by(m, &mut bindings),
        _ => {}
    });
    // A pattern matched a call whose operation could not be read: what the
    // reader gathers for a call is not needed then.
    if found.is_empty() {
        return Vec::new();
    }
    let mut reader = Reader::new(unit, scope, sources, env_reads, bindings);
    found.sort_by_key(|(c, _, _)| c.start_byte());
    found.dedup_by_key(|(c, _, _)| c.id());
    let mut calls: Vec<(Node<'_>, SdkCall)> =
        found.into_iter().filter_map(|(call, op, receiver)| Some((call, reader.call(call, op, receiver)?))).collect();
    // Where received messages go is read once every visibility change of
    // the file is known: a receipt handle given to one that keeps the
    // message hidden for a while stays with SQS (SQS207).
    reader.visibility = calls
        .iter()
        .filter(|(_, c)| {
            matches!(c.operation, Operation::ChangeMessageVisibility | Operation::ChangeMessageVisibilityBatch)
        })
        .filter(|(_, c)| c.arg("VisibilityTimeout").and_then(|a| a.int).is_some_and(|v| v > 0))
        .map(|(call, _)| unit::span(*call))
        .collect();
    for (call, c) in &mut calls {
        if c.operation == Operation::ReceiveMessage {
            c.received = Some(reader.received(*call));
        }
    }
    calls.into_iter().map(|(_, c)| c).collect()
}

/// `(where, name, value, destructured)` of a binding.
type Bound<'a> = (usize, String, Node<'a>, bool);

/// The bindings a match of the assignments pattern makes: its `@name`
/// and `@value`, or each of a multiple assignment's.
fn bound_by<'a>(m: &query::Match<'_, 'a>, bindings: &mut Vec<Bound<'a>>) {
    let Some(a) = m.node("assignment") else { return };
    if let (Some(name), Some(value)) = (m.node("name"), m.node("value")) {
        bindings.push((a.start_byte(), m.text(name), value, m.node("destructure").is_some()));
    } else {
        for (name, value, destructure) in fields::bindings(a) {
            bindings.push((a.start_byte(), m.text(name), value, destructure));
        }
    }
}

/// A name bound to a value.
struct Binding<'a> {
    name: String,
    value: Node<'a>,
    /// Where the binding starts.
    at: usize,
    /// The innermost function it is in; `None` at the top level.
    function: Option<Span>,
    /// `const { QUEUE_URL } = process.env`: the name is a property of the value.
    destructure: bool,
}

/// A request's parameters as written.
#[derive(Default)]
struct Request<'a> {
    /// `(API name, where it is written, its value)`.
    params: Vec<(&'static str, Span, Node<'a>)>,
    complete: bool,
}

struct Reader<'a> {
    unit: &'a Unit,
    text: &'a str,
    scope: &'a Scope<'a>,
    language: Language,
    sources: Vec<Node<'a>>,
    env_reads: Vec<(Node<'a>, String)>,
    bindings: Vec<Binding<'a>>,
    functions: Vec<Span>,
    /// The file names SQS somewhere (an import, a client, a name): a call
    /// on a client that is not known is SQS's only then.
    uses_sqs: bool,
    /// What is added to names (`body.update(...)`), found on the first
    /// message body followed ([`added`]).
    additions: std::cell::OnceCell<Vec<added::Addition<'a>>>,
    /// The file's field assignments and timer calls ([`walked`]).
    walked: std::cell::OnceCell<walked::Walked<'a>>,
    /// Whether the file deletes messages anywhere ([`received`]).
    deletes: std::cell::OnceCell<bool>,
    /// The visibility changes of the file that set a known, positive
    /// timeout: a receipt handle given to one stays with SQS ([`received`]).
    /// One that sets 0 (or a value not read) may hand the message back
    /// on purpose, as a tool that only looks at a queue does.
    visibility: Vec<Span>,
}

impl<'a> Reader<'a> {
    fn new(
        unit: &'a Unit,
        scope: &'a Scope<'a>,
        sources: Vec<Node<'a>>,
        env_reads: Vec<(Node<'a>, String)>,
        bindings: Vec<(usize, String, Node<'a>, bool)>,
    ) -> Self {
        let functions: Vec<Span> = unit.defs.iter().filter(|d| d.is_function).map(|d| d.span).collect();
        let mut reader = Reader {
            unit,
            text: &unit.source.text,
            scope,
            language: unit.language,
            sources,
            env_reads,
            bindings: Vec::new(),
            functions,
            uses_sqs: unit.source.text.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"sqs")),
            additions: std::cell::OnceCell::new(),
            walked: std::cell::OnceCell::new(),
            deletes: std::cell::OnceCell::new(),
            visibility: Vec::new(),
        };
        reader.bindings = bindings
            .into_iter()
            .map(|(at, name, value, destructure)| Binding {
                name,
                value,
                at,
                function: reader.innermost(at),
                destructure,
            })
            .collect();
        reader
    }

    fn text_of(&self, node: Node<'_>) -> &'a str {
        self.text.get(node.start_byte()..node.end_byte()).unwrap_or_default()
    }

    fn origin(&self, span: Span) -> Origin {
        self.unit.origin(span)
    }

    /// The innermost function holding byte `at`.
    fn innermost(&self, at: usize) -> Option<Span> {
        self.functions.iter().filter(|f| f.start <= at && at < f.end).min_by_key(|f| f.end - f.start).copied()
    }

    /// What `name`, used at byte `at`, is bound to: the last binding before
    /// it in a function around it, else a binding at the top level.
    fn bound(&self, name: &str, at: usize) -> Option<&Binding<'a>> {
        let local = self
            .bindings
            .iter()
            .filter(|b| b.name == name && b.at < at)
            .filter(|b| b.function.is_some_and(|f| f.start <= at && at < f.end))
            .max_by_key(|b| b.at);
        local.or_else(|| {
            let top = || self.bindings.iter().filter(|b| b.name == name && b.function.is_none());
            top().filter(|b| b.at < at).max_by_key(|b| b.at).or_else(|| top().next())
        })
    }
}

/// A string literal's text without its quotes.
fn unquote(text: &str) -> &str {
    let t = text.trim();
    for q in ["\"\"\"", "'''", "\"", "'", "`"] {
        if t.len() >= 2 * q.len()
            && let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q))
        {
            return inner;
        }
    }
    t
}
