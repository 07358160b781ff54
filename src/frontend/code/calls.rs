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

use std::collections::HashSet;

use tree_sitter::Node;

use super::lang::{Language, Pattern};
use super::unit::{self, Unit};
use crate::model::code::{Arg, EnvVar, Operation, ResultUse, SdkCall};
use crate::model::{Origin, Queue, Target, Value};
use crate::source::Span;

/// What the calls of a file are read against.
pub struct Scope<'a> {
    /// The function whose code it is (its resource), when a template owns
    /// the file; else each call's owner is its enclosing function.
    pub owner: Option<&'a str>,
    /// The environment that function sets.
    pub env: &'a [EnvVar],
    /// The queues a literal URL, ARN or name is matched against.
    pub queues: &'a [Queue],
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
        "deletemessagebatch" | "deletemessages" => Operation::DeleteMessageBatch,
        "changemessagevisibilitybatch" => Operation::ChangeMessageVisibilityBatch,
        _ => return None,
    })
}

/// Every SQS API call of `unit`.
pub fn read(unit: &Unit, scope: &Scope<'_>) -> Vec<SdkCall> {
    let reader = Reader::new(unit, scope);
    let mut found: Vec<(Node<'_>, Node<'_>, Option<Node<'_>>)> = Vec::new();
    let root = unit.tree.root_node();
    unit::each_match(unit.language, Pattern::SdkCalls, root, unit.source.text.as_bytes(), |m| {
        if let (Some(call), Some(op)) = (m.node("call"), m.node("operation")) {
            found.push((call, op, m.node("receiver")));
        }
    });
    found.sort_by_key(|(c, _, _)| c.start_byte());
    found.dedup_by_key(|(c, _, _)| c.id());
    found.into_iter().filter_map(|(call, op, receiver)| reader.call(call, op, receiver)).collect()
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
}

impl<'a> Reader<'a> {
    fn new(unit: &'a Unit, scope: &'a Scope<'a>) -> Self {
        let root = unit.tree.root_node();
        let bytes = unit.source.text.as_bytes();
        let functions: Vec<Span> = unit.defs.iter().filter(|d| d.is_function).map(|d| d.span).collect();
        let mut reader = Reader {
            unit,
            text: &unit.source.text,
            scope,
            language: unit.language,
            sources: Vec::new(),
            env_reads: Vec::new(),
            bindings: Vec::new(),
            functions,
        };
        unit::each_match(unit.language, Pattern::Nondeterministic, root, bytes, |m| {
            if let Some(s) = m.node("source") {
                reader.sources.push(s);
            }
        });
        unit::each_match(unit.language, Pattern::EnvReads, root, bytes, |m| {
            if let (Some(read), Some(var)) = (m.node("read"), m.node("variable")) {
                reader.env_reads.push((read, unquote(&m.text(var)).to_string()));
            }
        });
        let mut bindings = Vec::new();
        unit::each_match(unit.language, Pattern::Assignments, root, bytes, |m| {
            if let (Some(a), Some(name), Some(value)) = (m.node("assignment"), m.node("name"), m.node("value")) {
                bindings.push((a.start_byte(), m.text(name), value, m.node("destructure").is_some()));
            }
        });
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
        Origin::file(&self.unit.source, span)
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

    /// `node` without what does not change its value: parentheses, type
    /// assertions, `&`, `await`, a default (`process.env.X || "..."`), and
    /// one-argument wrappers (`aws.String(x)`, `str(x)`, `aws.Int32(20)`).
    fn strip(&self, mut node: Node<'a>) -> Node<'a> {
        for _ in 0..16 {
            let next = match node.kind() {
                "parenthesized_expression"
                | "non_null_expression"
                | "as_expression"
                | "satisfies_expression"
                | "await"
                | "await_expression"
                | "type_assertion" => node.named_child(0),
                "unary_expression" if self.text_of(node).starts_with('&') => node.child_by_field_name("operand"),
                "literal_element" => node.named_child(0),
                "binary_expression" | "boolean_operator" => {
                    let op = node.child_by_field_name("operator").map(|o| self.text_of(o));
                    match op {
                        Some("||" | "??" | "or") => node.child_by_field_name("left"),
                        _ => None,
                    }
                }
                "call" | "call_expression" => {
                    let callee = node.child_by_field_name("function").map(|f| self.text_of(f)).unwrap_or_default();
                    let last = callee.rsplit(['.', ':']).next().unwrap_or_default();
                    let args = node.child_by_field_name("arguments");
                    let one = args.filter(|a| a.named_child_count() == 1).and_then(|a| a.named_child(0));
                    let wraps = matches!(
                        last,
                        "String" | "Int32" | "Int64" | "Int" | "Bool" | "str" | "int" | "int32" | "int64" | "Number"
                    );
                    if wraps { one } else { None }
                }
                _ => None,
            };
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        node
    }

    /// A string literal's text, when it has no interpolation.
    fn literal(&self, node: Node<'a>) -> Option<String> {
        match node.kind() {
            "string" => {
                let mut cursor = node.walk();
                if node
                    .named_children(&mut cursor)
                    .any(|c| c.kind() == "interpolation" || c.kind() == "template_substitution")
                {
                    return None;
                }
                Some(unquote(self.text_of(node).trim_start_matches(['r', 'b', 'u', 'R', 'B', 'U'])).to_string())
            }
            "interpreted_string_literal" | "raw_string_literal" | "string_literal" => {
                Some(unquote(self.text_of(node)).to_string())
            }
            "template_string" => {
                let mut cursor = node.walk();
                let plain = !node.named_children(&mut cursor).any(|c| c.kind() == "template_substitution");
                plain.then(|| unquote(self.text_of(node)).to_string())
            }
            _ => None,
        }
    }

    /// An integer literal's value (`20`, `20L`, `aws.Int32(20)`, or a name
    /// bound to one).
    fn int(&self, node: Node<'a>, steps: usize) -> Option<i64> {
        let node = self.strip(node);
        match node.kind() {
            "integer" | "number" | "int_literal" | "decimal_integer_literal" => {
                let t: String = self.text_of(node).chars().filter(|c| *c != '_').collect();
                t.trim_end_matches(['L', 'l', 'n']).parse().ok()
            }
            "identifier" if steps < MAX_STEPS => {
                let b = self.bound(self.text_of(node), node.start_byte())?;
                if b.destructure {
                    return None;
                }
                self.int(b.value, steps + 1)
            }
            _ => None,
        }
    }

    /// The environment variable `node` reads, if it reads one.
    fn env_read(&self, node: Node<'a>) -> Option<&str> {
        self.env_reads.iter().find(|(r, _)| r.id() == node.id()).map(|(_, v)| v.as_str())
    }

    /// The queue an expression names.
    fn queue(&self, node: Node<'a>, steps: usize) -> Value<Target> {
        let written = || Value::Unknown(self.text_of(node).to_string());
        let inner = self.strip(node);
        if let Some(var) = self.env_read(inner) {
            return self.env_queue(var);
        }
        if let Some(text) = self.literal(inner) {
            return self.named(&text);
        }
        match inner.kind() {
            "identifier" | "shorthand_property_identifier" if steps < MAX_STEPS => {
                let name = self.text_of(inner);
                let Some(b) = self.bound(name, inner.start_byte()) else { return written() };
                if b.destructure {
                    if self.text_of(b.value) == "process.env" {
                        return self.env_queue(name);
                    }
                    return written();
                }
                self.queue(b.value, steps + 1)
            }
            _ => self.queue_url_lookup(inner, steps).unwrap_or_else(written),
        }
    }

    /// `sqs.get_queue_url(QueueName="jobs")["QueueUrl"]` and the like: the
    /// queue named by the `QueueName` of a GetQueueUrl call in `node`.
    fn queue_url_lookup(&self, node: Node<'a>, steps: usize) -> Option<Value<Target>> {
        let text = self.text_of(node);
        let plain = text.to_ascii_lowercase().replace('_', "");
        if !plain.contains("getqueueurl") && !plain.contains("getqueuebyname") {
            return None;
        }
        let name = self.find_param(node, "QueueName")?;
        Some(self.queue(name, steps + 1))
    }

    /// The value of the first parameter named `api` written in `node`.
    fn find_param(&self, node: Node<'a>, api: &str) -> Option<Node<'a>> {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let (key, value) = match n.kind() {
                "keyword_argument" | "pair" | "keyed_element" => {
                    let key = n.child_by_field_name("name").or_else(|| n.child_by_field_name("key"));
                    (key, n.child_by_field_name("value"))
                }
                "method_invocation" => {
                    let args = n.child_by_field_name("arguments").and_then(|a| a.named_child(0));
                    (n.child_by_field_name("name"), args)
                }
                _ => (None, None),
            };
            if let (Some(k), Some(v)) = (key, value)
                && api_name(self.text_of(k)) == Some(api)
            {
                return Some(v);
            }
            for i in (0..n.named_child_count()).rev() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        None
    }

    /// The queue an environment variable names, as the owning function's
    /// template sets it.
    fn env_queue(&self, var: &str) -> Value<Target> {
        match self.scope.env.iter().find(|e| e.name == var) {
            Some(e) => match &e.queue {
                Value::Known(t) => Value::Known(t.clone()),
                Value::Unknown(why) => Value::Unknown(format!("environment variable {var}: {why}")),
                Value::Absent => Value::Unknown(format!("environment variable {var}")),
            },
            None => Value::Unknown(format!("environment variable {var}")),
        }
    }

    /// The queue a literal URL, ARN or name names: one of the model's by
    /// name, else an external one.
    fn named(&self, text: &str) -> Value<Target> {
        let text = text.trim();
        let name = if text.starts_with("arn:") {
            text.rsplit(':').next().unwrap_or(text)
        } else {
            text.trim_end_matches('/').rsplit('/').next().unwrap_or(text)
        };
        let ours = self.scope.queues.iter().position(|q| {
            q.name.iter().any(|alt| matches!(&alt.value, Value::Known(n) if n.text == name && !name.is_empty()))
        });
        match ours {
            Some(i) => Value::Known(Target::Queue(i)),
            None => Value::Known(Target::External(text.to_string())),
        }
    }

    /// The call of `call` (the call, or a v3 command), or `None` when it is
    /// not one of the SQS API.
    fn call(&self, call: Node<'a>, op_node: Node<'a>, receiver: Option<Node<'a>>) -> Option<SdkCall> {
        let written = self.text_of(op_node);
        let mut operation = operation(written)?;
        let (request, queue_expr, sqs) = match self.language {
            Language::Python => self.python(call, written, receiver)?,
            Language::JavaScript | Language::TypeScript | Language::Tsx => self.javascript(call, receiver)?,
            Language::Go => self.go(call, receiver)?,
            Language::Java => {
                let (request, queue, sqs, typed) = self.java(call, receiver)?;
                if let Some(op) = typed {
                    operation = op;
                }
                (request, queue, sqs)
            }
        };
        if !sqs {
            return None;
        }
        let mut args = Vec::new();
        let mut bodies = Vec::new();
        let mut complete = request.complete;
        let mut queue = None;
        for (name, span, value) in &request.params {
            match *name {
                "QueueUrl" | "QueueName" => queue = Some(self.queue(*value, 0)),
                "MessageBody" => bodies.push(*value),
                "Entries" if operation.is_batch() => match self.entries(*value, 0) {
                    Some(entries) => {
                        let mut common: Option<Vec<Arg>> = None;
                        for entry in entries {
                            complete &= entry.complete;
                            let written: Vec<Arg> = entry.params.iter().map(|(n, s, v)| self.arg(n, *s, *v)).collect();
                            bodies.extend(entry.params.iter().filter(|(n, _, _)| *n == "MessageBody").map(|p| p.2));
                            common = Some(match common {
                                None => written,
                                Some(c) => c.into_iter().filter(|a| written.iter().any(|w| w.name == a.name)).collect(),
                            });
                        }
                        args.extend(common.unwrap_or_default());
                    }
                    None => complete = false,
                },
                _ => {}
            }
            args.push(self.arg(name, *span, *value));
        }
        if operation.is_batch() && !request.params.iter().any(|p| p.0 == "Entries") && request.complete {
            // A batch whose entries are not written is not read.
            complete = false;
        }
        let queue = match (queue, queue_expr) {
            (Some(q), _) => q,
            (None, Some(expr)) => self.queue(expr, 0),
            (None, None) => Value::Unknown("the queue is not written in the call".to_string()),
        };
        let mut nondeterministic = Vec::new();
        let mut seen = HashSet::new();
        for body in bodies {
            self.nondeterministic(body, 0, &mut seen, &mut nondeterministic);
        }
        let result = if operation.is_batch() { self.result(call) } else { ResultUse::Unknown };
        let owner = match self.scope.owner {
            Some(o) => o.to_string(),
            None => self.enclosing(call),
        };
        Some(SdkCall {
            owner,
            language: self.language,
            origin: self.origin(unit::span(op_node)),
            operation,
            args,
            complete,
            queue,
            result,
            nondeterministic,
        })
    }

    fn arg(&self, name: &'static str, span: Span, value: Node<'a>) -> Arg {
        Arg { name, int: self.int(value, 0), origin: self.origin(span) }
    }

    /// A parameter `(API name, where, value)` from a key and its value.
    fn param(&self, key: Node<'a>, whole: Node<'a>, value: Node<'a>) -> Option<(&'static str, Span, Node<'a>)> {
        Some((api_name(self.text_of(key))?, unit::span(whole), value))
    }

    /// The entries of a batch, each a request of its own.
    fn entries(&self, node: Node<'a>, steps: usize) -> Option<Vec<Request<'a>>> {
        if steps > MAX_STEPS {
            return None;
        }
        let node = self.strip(node);
        match node.kind() {
            "identifier" => {
                let b = self.bound(self.text_of(node), node.start_byte())?;
                if b.destructure {
                    return None;
                }
                let mut out = self.entries(b.value, steps + 1)?;
                // `entries.append({...})`, `entries.push({...})` after it.
                out.extend(self.appended(self.text_of(node), b.at));
                Some(out)
            }
            "list" | "array" => {
                let mut out = Vec::new();
                for i in 0..node.named_child_count() {
                    let item = node.named_child(i as u32)?;
                    if matches!(item.kind(), "list_splat" | "spread_element") {
                        return None;
                    }
                    out.push(self.object(item, steps + 1));
                }
                Some(out)
            }
            // Java: `.entries(e1, e2)`.
            "argument_list" => {
                let mut out = Vec::new();
                for i in 0..node.named_child_count() {
                    out.push(self.object(node.named_child(i as u32)?, steps + 1));
                }
                Some(out)
            }
            "list_comprehension" => Some(vec![self.object(node.child_by_field_name("body")?, steps + 1)]),
            "call_expression" if self.language != Language::Go => {
                // `items.map((m) => ({...}))`
                let f = node.child_by_field_name("function")?;
                let method = f.child_by_field_name("property").map(|p| self.text_of(p));
                if method != Some("map") {
                    return None;
                }
                let callback = node.child_by_field_name("arguments")?.named_child(0)?;
                let body = callback.child_by_field_name("body")?;
                Some(vec![self.object(self.returned(body)?, steps + 1)])
            }
            "composite_literal" => self.entries(node.child_by_field_name("body")?, steps + 1),
            // Java: `new ArrayList<>()`, filled with `add(...)`.
            "object_creation_expression" => {
                let class = node.child_by_field_name("type").map(|t| self.text_of(t)).unwrap_or_default();
                (class.starts_with("ArrayList") || class.starts_with("LinkedList")).then(Vec::new)
            }
            "literal_value" => {
                let mut out = Vec::new();
                for i in 0..node.named_child_count() {
                    out.push(self.object(node.named_child(i as u32)?, steps + 1));
                }
                Some(out)
            }
            // Java: `List.of(e1, e2)`, `Arrays.asList(...)`.
            "method_invocation" => {
                let name = node.child_by_field_name("name").map(|n| self.text_of(n))?;
                if !matches!(name, "of" | "asList") {
                    // One entry: `SendMessageBatchRequestEntry.builder()...build()`.
                    return Some(vec![self.object(node, steps + 1)]);
                }
                let args = node.child_by_field_name("arguments")?;
                let mut out = Vec::new();
                for i in 0..args.named_child_count() {
                    out.push(self.object(args.named_child(i as u32)?, steps + 1));
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// What an arrow function's body returns: the body itself, or the one
    /// `return` of a block.
    fn returned(&self, body: Node<'a>) -> Option<Node<'a>> {
        if body.kind() != "statement_block" {
            return Some(body);
        }
        let mut cursor = body.walk();
        let ret = body.named_children(&mut cursor).find(|c| c.kind() == "return_statement")?;
        ret.named_child(0)
    }

    /// The objects appended to a list named `name` after byte `after`, in
    /// the same function.
    fn appended(&self, name: &str, after: usize) -> Vec<Request<'a>> {
        let Some(function) = self.innermost(after) else { return Vec::new() };
        let mut out = Vec::new();
        let root = self.unit.tree.root_node();
        let Some(scope) = root.descendant_for_byte_range(function.start, function.end) else { return out };
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if n.kind() == "method_invocation"
                && n.child_by_field_name("object").is_some_and(|o| self.text_of(o) == name)
                && n.child_by_field_name("name").is_some_and(|m| self.text_of(m) == "add")
                && let Some(item) = n.child_by_field_name("arguments").and_then(|a| a.named_child(0))
            {
                out.push(self.object(item, 1));
            }
            if matches!(n.kind(), "call" | "call_expression")
                && let Some(f) = n.child_by_field_name("function")
                && let Some(obj) = f.child_by_field_name("object")
                && self.text_of(obj) == name
                && let Some(m) = f.child_by_field_name("attribute").or_else(|| f.child_by_field_name("property"))
                && matches!(self.text_of(m), "append" | "push")
                && let Some(item) = n.child_by_field_name("arguments").and_then(|a| a.named_child(0))
            {
                out.push(self.object(item, 1));
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        out
    }

    /// The parameters an object, dictionary, struct literal or Java builder
    /// chain writes.
    fn object(&self, node: Node<'a>, steps: usize) -> Request<'a> {
        let node = self.strip(node);
        let mut request = Request { params: Vec::new(), complete: true };
        match node.kind() {
            "dictionary" | "object" => {
                for i in 0..node.named_child_count() {
                    let Some(item) = node.named_child(i as u32) else { continue };
                    match item.kind() {
                        "pair" => {
                            if let (Some(k), Some(v)) =
                                (item.child_by_field_name("key"), item.child_by_field_name("value"))
                                && let Some(p) = self.param(k, item, v)
                            {
                                request.params.push(p);
                            }
                        }
                        "shorthand_property_identifier" => {
                            if let Some(p) = self.param(item, item, item) {
                                request.params.push(p);
                            }
                        }
                        "comment" => {}
                        _ => request.complete = false,
                    }
                }
            }
            "composite_literal" => {
                if let Some(body) = node.child_by_field_name("body") {
                    return self.object(body, steps);
                }
            }
            "literal_value" => {
                for i in 0..node.named_child_count() {
                    let Some(item) = node.named_child(i as u32) else { continue };
                    if item.kind() != "keyed_element" {
                        continue;
                    }
                    if let (Some(k), Some(v)) = (item.child_by_field_name("key"), item.child_by_field_name("value"))
                        && let Some(p) = self.param(k, item, v)
                    {
                        request.params.push(p);
                    }
                }
            }
            "identifier" if steps < MAX_STEPS => match self.bound(self.text_of(node), node.start_byte()) {
                Some(b) if !b.destructure => return self.object(b.value, steps + 1),
                _ => request.complete = false,
            },
            "method_invocation" | "object_creation_expression" | "lambda_expression" => {
                return self.java_chain(node, steps).map(|(r, _)| r).unwrap_or_default();
            }
            _ => request.complete = false,
        }
        request
    }

    /// boto3: `client.receive_message(QueueUrl=..., ...)`, or a resource's
    /// `queue.receive_messages(...)`.
    #[allow(clippy::type_complexity)]
    fn python(
        &self,
        call: Node<'a>,
        method: &str,
        receiver: Option<Node<'a>>,
    ) -> Option<(Request<'a>, Option<Node<'a>>, bool)> {
        let args = call.child_by_field_name("arguments")?;
        let mut request = Request { params: Vec::new(), complete: true };
        for i in 0..args.named_child_count() {
            let Some(a) = args.named_child(i as u32) else { continue };
            match a.kind() {
                "keyword_argument" => {
                    if let (Some(k), Some(v)) = (a.child_by_field_name("name"), a.child_by_field_name("value"))
                        && let Some(p) = self.param(k, a, v)
                    {
                        request.params.push(p);
                    }
                }
                "dictionary_splat" => {
                    let inner = a.named_child(0).map(|n| self.object(n, 1));
                    match inner {
                        Some(r) if r.complete => request.params.extend(r.params),
                        _ => request.complete = false,
                    }
                }
                "comment" => {}
                _ => request.complete = false,
            }
        }
        let has = |name: &str| request.params.iter().any(|p| p.0 == name);
        // A resource's Queue: the queue is what the method is called on.
        let queue_object = receiver.and_then(|r| self.queue_object(r, 0));
        let sqs = has("QueueUrl")
            || queue_object.is_some()
            || matches!(method, "receive_messages" | "send_messages" | "delete_messages")
            || receiver.is_some_and(|r| self.mentions_sqs(r, 0));
        Some((request, queue_object.flatten(), sqs))
    }

    /// What a boto3 resource `Queue` is made from: `sqs.Queue(url)`,
    /// `sqs.get_queue_by_name(QueueName=...)` (directly, or a name bound to
    /// one). `Some(None)`: a Queue whose queue is not written.
    fn queue_object(&self, node: Node<'a>, steps: usize) -> Option<Option<Node<'a>>> {
        let node = self.strip(node);
        match node.kind() {
            "call" => {
                let f = node.child_by_field_name("function")?;
                let last = f.child_by_field_name("attribute").map_or(self.text_of(f), |a| self.text_of(a));
                let args = node.child_by_field_name("arguments")?;
                match last {
                    "Queue" => Some(args.named_child(0).map(|a| {
                        if a.kind() == "keyword_argument" { a.child_by_field_name("value").unwrap_or(a) } else { a }
                    })),
                    "get_queue_by_name" | "create_queue" => Some(self.find_param(args, "QueueName")),
                    _ => None,
                }
            }
            "identifier" if steps < MAX_STEPS => {
                let b = self.bound(self.text_of(node), node.start_byte())?;
                self.queue_object(b.value, steps + 1)
            }
            _ => None,
        }
    }

    /// Whether what a method is called on is (or is bound to) an SQS client
    /// (`boto3.client("sqs")`, `new SQSClient(...)`, `sqs.NewFromConfig`), or
    /// is named so (`sqs`, `sqsClient`, `queue`).
    fn mentions_sqs(&self, node: Node<'a>, steps: usize) -> bool {
        let text = self.text_of(node).to_ascii_lowercase();
        if text.contains("sqs") || text.contains("queue") {
            return true;
        }
        let node = self.strip(node);
        if matches!(node.kind(), "identifier" | "field_identifier")
            && steps < MAX_STEPS
            && let Some(b) = self.bound(self.text_of(node), node.start_byte())
        {
            return self.mentions_sqs(b.value, steps + 1);
        }
        // `this.client`, `self.client`, `w.client`: a field named once.
        if let Some(field) = node
            .child_by_field_name("attribute")
            .or_else(|| node.child_by_field_name("property"))
            .or_else(|| node.child_by_field_name("field"))
        {
            let name = self.text_of(field);
            return self.text.lines().any(|l| {
                let l = l.to_ascii_lowercase();
                l.contains(&name.to_ascii_lowercase()) && l.contains("sqs") && (l.contains('=') || l.contains(':'))
            });
        }
        false
    }

    /// JavaScript: a v3 command's object (`new SendMessageCommand({...})`)
    /// or a method's (`sqs.sendMessage({...})`).
    fn javascript(&self, call: Node<'a>, receiver: Option<Node<'a>>) -> Option<(Request<'a>, Option<Node<'a>>, bool)> {
        let args = call.child_by_field_name("arguments");
        let request = match args.and_then(|a| a.named_child(0)) {
            Some(first) => self.object(first, 0),
            None => Request { params: Vec::new(), complete: false },
        };
        let sqs = call.kind() == "new_expression"
            || request.params.iter().any(|p| matches!(p.0, "QueueUrl" | "Entries"))
            || receiver.is_some_and(|r| self.mentions_sqs(r, 0));
        Some((request, None, sqs))
    }

    /// Go: `client.SendMessage(ctx, &sqs.SendMessageInput{...})`.
    fn go(&self, call: Node<'a>, receiver: Option<Node<'a>>) -> Option<(Request<'a>, Option<Node<'a>>, bool)> {
        let args = call.child_by_field_name("arguments")?;
        let mut request = Request { params: Vec::new(), complete: false };
        let mut typed = false;
        for i in 0..args.named_child_count() {
            let Some(a) = args.named_child(i as u32) else { continue };
            let input = self.go_input(a, 0);
            if let Some(lit) = input {
                typed |= lit
                    .child_by_field_name("type")
                    .is_some_and(|t| self.text_of(t).starts_with("sqs.") || self.text_of(t).ends_with("Input"));
                request = self.object(lit, 0);
                break;
            }
        }
        let sqs = typed || receiver.is_some_and(|r| self.mentions_sqs(r, 0));
        Some((request, None, sqs))
    }

    /// The struct literal an argument is (or a name bound to one).
    fn go_input(&self, node: Node<'a>, steps: usize) -> Option<Node<'a>> {
        let node = self.strip(node);
        match node.kind() {
            "composite_literal" => Some(node),
            "identifier" if steps < MAX_STEPS => {
                let b = self.bound(self.text_of(node), node.start_byte())?;
                self.go_input(b.value, steps + 1)
            }
            _ => None,
        }
    }

    /// Java: the request a client method is given (a builder chain, a
    /// consumer lambda, `new XRequest(...)`, or a name bound to one), and the
    /// operation its type names.
    #[allow(clippy::type_complexity)]
    fn java(
        &self,
        call: Node<'a>,
        receiver: Option<Node<'a>>,
    ) -> Option<(Request<'a>, Option<Node<'a>>, bool, Option<Operation>)> {
        let args = call.child_by_field_name("arguments")?;
        let first = args.named_child(0);
        if let Some(first) = first
            && let Some((request, typed)) = self.java_chain(first, 0)
        {
            return Some((request, None, true, typed));
        }
        if !receiver.is_some_and(|r| self.mentions_sqs(r, 0)) {
            return None;
        }
        // v1's shortcuts: `receiveMessage(queueUrl)`, `sendMessage(queueUrl, body)`.
        let mut request = Request { params: Vec::new(), complete: false };
        if let Some(first) = first
            && self.is_stringish(first)
        {
            request.complete = true;
            request.params.push(("QueueUrl", unit::span(first), first));
            if let Some(body) = args.named_child(1) {
                request.params.push(("MessageBody", unit::span(body), body));
            }
        }
        Some((request, None, true, None))
    }

    /// Whether a Java expression is a string (a literal, an environment
    /// read, or a name bound to a string or declared `String`).
    fn is_stringish(&self, node: Node<'a>) -> bool {
        if node.kind() == "string_literal" || self.env_read(node).is_some() {
            return true;
        }
        if node.kind() == "identifier" {
            let name = self.text_of(node);
            return match self.bound(name, node.start_byte()) {
                Some(b) => {
                    b.value.kind() == "string_literal"
                        || self.env_read(b.value).is_some()
                        || b.value.parent().and_then(|d| d.parent()).is_some_and(|decl| {
                            decl.child_by_field_name("type").is_some_and(|t| self.text_of(t) == "String")
                        })
                }
                None => name.to_ascii_lowercase().contains("url"),
            };
        }
        false
    }

    /// A Java request: `XRequest.builder().a(..).b(..).build()`, a consumer
    /// `r -> r.a(..).b(..)`, `new XRequest(url).withA(..)`, or a name bound
    /// to one; with the operation its type names, when it names one.
    fn java_chain(&self, node: Node<'a>, steps: usize) -> Option<(Request<'a>, Option<Operation>)> {
        if steps > MAX_STEPS {
            return None;
        }
        let mut request = Request { params: Vec::new(), complete: true };
        let mut node = self.strip(node);
        let mut lambda_param = None;
        if node.kind() == "lambda_expression" {
            lambda_param =
                node.child_by_field_name("parameters").map(|p| self.text_of(p).trim_matches(['(', ')']).trim());
            node = node.child_by_field_name("body")?;
        }
        if node.kind() == "identifier" && lambda_param != Some(self.text_of(node)) {
            let b = self.bound(self.text_of(node), node.start_byte())?;
            return self.java_chain(b.value, steps + 1);
        }
        let mut typed = None;
        let mut is_request = lambda_param.is_some();
        loop {
            match node.kind() {
                "method_invocation" => {
                    let name = node.child_by_field_name("name").map(|n| self.text_of(n)).unwrap_or_default();
                    let object = node.child_by_field_name("object");
                    match name {
                        "build" => {}
                        "builder" => {
                            let class = object.map(|o| self.text_of(o)).unwrap_or_default();
                            typed = operation(class.rsplit('.').next().unwrap_or(class));
                            is_request |= class.ends_with("Request") || class.ends_with("RequestEntry");
                            break;
                        }
                        _ => {
                            if let Some(value) = node.child_by_field_name("arguments").and_then(|a| a.named_child(0))
                                && let Some(api) = api_name(name)
                            {
                                let from =
                                    node.child_by_field_name("name").map_or(node.start_byte(), |n| n.start_byte());
                                let entries_many = api == "Entries"
                                    && node.child_by_field_name("arguments").is_some_and(|a| a.named_child_count() > 1);
                                let value = if entries_many { node.child_by_field_name("arguments")? } else { value };
                                request.params.push((api, Span::new(from, node.end_byte()), value));
                            } else if name.starts_with("set") || api_name(name).is_none() {
                                // A builder method sqsguard does not know.
                            }
                        }
                    }
                    match object {
                        Some(o) => node = o,
                        None => break,
                    }
                }
                "object_creation_expression" => {
                    let class = node.child_by_field_name("type").map(|t| self.text_of(t)).unwrap_or_default();
                    let class = class.rsplit('.').next().unwrap_or(class);
                    typed = operation(class);
                    is_request |= class.ends_with("Request") || class.ends_with("RequestEntry");
                    let args = node.child_by_field_name("arguments");
                    let positional: &[&'static str] = match class {
                        "SendMessageRequest" => &["QueueUrl", "MessageBody"],
                        "ReceiveMessageRequest" => &["QueueUrl"],
                        "SendMessageBatchRequest"
                        | "DeleteMessageBatchRequest"
                        | "ChangeMessageVisibilityBatchRequest" => &["QueueUrl", "Entries"],
                        "SendMessageBatchRequestEntry" => &["Id", "MessageBody"],
                        "DeleteMessageBatchRequestEntry" => &["Id", "ReceiptHandle"],
                        "ChangeMessageVisibilityBatchRequestEntry" => &["Id", "ReceiptHandle"],
                        _ => &[],
                    };
                    if let Some(args) = args {
                        for (i, api) in positional.iter().enumerate() {
                            if let Some(a) = args.named_child(i as u32) {
                                request.params.push((api, unit::span(a), a));
                            }
                        }
                    }
                    break;
                }
                "identifier" if lambda_param == Some(self.text_of(node)) => break,
                "identifier" => {
                    // `builder.a(..)` on a builder bound to a name: not read.
                    request.complete = false;
                    break;
                }
                _ => {
                    request.complete = false;
                    break;
                }
            }
        }
        is_request.then_some((request, typed))
    }

    /// Where the values of a message body come from that differ on every
    /// call: the sources written in it, and in what the names in it are
    /// bound to.
    fn nondeterministic(
        &self,
        node: Node<'a>,
        steps: usize,
        seen: &mut HashSet<usize>,
        out: &mut Vec<(Origin, String)>,
    ) {
        if steps > MAX_STEPS || !seen.insert(node.id()) {
            return;
        }
        let (start, end) = (node.start_byte(), node.end_byte());
        for s in &self.sources {
            if start <= s.start_byte() && s.end_byte() <= end && seen.insert(s.id()) {
                out.push((self.origin(unit::span(*s)), self.text_of(*s).to_string()));
            }
        }
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "identifier" | "shorthand_property_identifier") && !self.is_member_name(n) {
                if let Some(b) = self.bound(self.text_of(n), n.start_byte())
                    && !(b.value.start_byte() <= start && end <= b.value.end_byte())
                {
                    self.nondeterministic(b.value, steps + 1, seen, out);
                }
                continue;
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
    }

    /// Whether an identifier names a member or a keyword, not a variable
    /// (`x.time`, `default=str`'s `default`, Java's `obj.method()`).
    fn is_member_name(&self, n: Node<'a>) -> bool {
        let Some(parent) = n.parent() else { return false };
        let is = |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == n.id());
        match parent.kind() {
            "attribute" => is("attribute"),
            "keyword_argument" => is("name"),
            "method_invocation" => is("name"),
            "field_access" => is("field"),
            _ => false,
        }
    }

    /// What becomes of a batch call's result.
    fn result(&self, call: Node<'a>) -> ResultUse {
        let mut node = call;
        // JavaScript v3: the command's result is what `send` returns.
        if call.kind() == "new_expression" {
            match self.sent(call) {
                Some(send) => node = send,
                None => return ResultUse::Unknown,
            }
        }
        for _ in 0..16 {
            let Some(parent) = node.parent() else { return ResultUse::Unknown };
            match parent.kind() {
                "await" | "await_expression" | "parenthesized_expression" | "as_expression" | "non_null_expression" => {
                    node = parent;
                }
                // `.promise()`, `.join()`, `.get()`: the same result, later.
                "member_expression" | "method_invocation" | "attribute"
                    if parent
                        .child_by_field_name("property")
                        .or_else(|| parent.child_by_field_name("name"))
                        .or_else(|| parent.child_by_field_name("attribute"))
                        .is_some_and(|p| matches!(self.text_of(p), "promise" | "join" | "get" | "result"))
                        && parent.child_by_field_name("object").is_some_and(|o| o.id() == node.id()) =>
                {
                    node = if parent.kind() == "member_expression" {
                        match parent.parent() {
                            Some(p) if matches!(p.kind(), "call_expression") => p,
                            _ => return ResultUse::Checked,
                        }
                    } else {
                        parent
                    };
                }
                "expression_statement" => return ResultUse::Discarded,
                "assignment" | "assignment_expression" | "variable_declarator" => {
                    let target = parent.child_by_field_name("left").or_else(|| parent.child_by_field_name("name"));
                    return match target {
                        Some(t) if t.kind() == "identifier" => self.failed_read(self.text_of(t), call),
                        Some(t) if t.kind() == "object_pattern" => {
                            if self.text_of(t).contains("Failed") {
                                ResultUse::Checked
                            } else {
                                ResultUse::FailedUnread
                            }
                        }
                        _ => ResultUse::Checked,
                    };
                }
                // Go: `out, err := client.SendMessageBatch(...)`.
                "expression_list" => {
                    let Some(stmt) = parent.parent() else { return ResultUse::Unknown };
                    match stmt.kind() {
                        "short_var_declaration" | "assignment_statement" => {
                            let first = stmt.child_by_field_name("left").and_then(|l| l.named_child(0));
                            return match first.map(|f| self.text_of(f)) {
                                Some("_") => ResultUse::Discarded,
                                Some(name) => self.failed_read(name, call),
                                None => ResultUse::Unknown,
                            };
                        }
                        _ => return ResultUse::Checked,
                    }
                }
                _ => return ResultUse::Checked,
            }
        }
        ResultUse::Unknown
    }

    /// The `send(...)` call a v3 command is sent with: the command passed
    /// directly, or a name bound to it passed in the same function.
    fn sent(&self, command: Node<'a>) -> Option<Node<'a>> {
        let is_send = |call: Node<'a>| {
            call.kind() == "call_expression"
                && call
                    .child_by_field_name("function")
                    .and_then(|f| f.child_by_field_name("property"))
                    .is_some_and(|p| self.text_of(p) == "send")
        };
        let parent = command.parent()?;
        if parent.kind() == "arguments" {
            let call = parent.parent()?;
            return is_send(call).then_some(call);
        }
        if parent.kind() != "variable_declarator" && parent.kind() != "assignment_expression" {
            return None;
        }
        let name = parent.child_by_field_name("name").or_else(|| parent.child_by_field_name("left"))?;
        let name = self.text_of(name);
        let scope = self.innermost(command.start_byte());
        let root = self.unit.tree.root_node();
        let (from, to) = scope.map_or((0, self.text.len()), |s| (s.start, s.end));
        let mut stack = vec![root.descendant_for_byte_range(from, to)?];
        while let Some(n) = stack.pop() {
            if n.start_byte() > command.end_byte()
                && is_send(n)
                && n.child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                    .is_some_and(|a| self.text_of(a) == name)
            {
                return Some(n);
            }
            for i in (0..n.named_child_count()).rev() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        None
    }

    /// Whether the result bound to `name` by `call` has its `Failed` list
    /// read (or leaves the function) after it.
    fn failed_read(&self, name: &str, call: Node<'a>) -> ResultUse {
        const READS: &[&str] = &[
            ".Failed",
            "?.Failed",
            "[\"Failed\"]",
            "['Failed']",
            ".get(\"Failed\"",
            ".get('Failed'",
            ".failed()",
            ".getFailed()",
            ".hasFailed()",
        ];
        let scope = self.innermost(call.start_byte());
        let (from, to) = scope.map_or((call.end_byte(), self.text.len()), |s| (call.end_byte(), s.end));
        let root = self.unit.tree.root_node();
        let Some(within) = root.descendant_for_byte_range(from.min(to), to) else { return ResultUse::Unknown };
        // The node that holds the whole rest of the function.
        let mut within = within;
        while within.end_byte() < to || within.start_byte() > call.start_byte() {
            match within.parent() {
                Some(p) => within = p,
                None => break,
            }
        }
        let mut stack = vec![within];
        while let Some(n) = stack.pop() {
            if n.start_byte() >= from && n.kind() == "identifier" && self.text_of(n) == name {
                let rest = self.text.get(n.end_byte()..).unwrap_or_default();
                let rest: String = rest.chars().take(24).filter(|c| !c.is_whitespace()).collect();
                if READS.iter().any(|r| rest.starts_with(r)) {
                    return ResultUse::Checked;
                }
                if let Some(p) = n.parent() {
                    let leaves = match p.kind() {
                        "return_statement"
                        | "argument_list"
                        | "arguments"
                        | "pair"
                        | "keyword_argument"
                        | "shorthand_property_identifier"
                        | "list"
                        | "array"
                        | "yield" => true,
                        "expression_list" => p.parent().is_some_and(|g| g.kind() == "return_statement"),
                        _ => false,
                    };
                    if leaves {
                        return ResultUse::Checked;
                    }
                }
            }
            if n.kind() == "shorthand_property_identifier" && self.text_of(n) == name && n.start_byte() >= from {
                return ResultUse::Checked;
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        ResultUse::FailedUnread
    }

    /// The function (and class) a call is in, as written: `poll`,
    /// `Worker.run`, `-` at the top level.
    fn enclosing(&self, call: Node<'a>) -> String {
        let mut function: Option<String> = None;
        let mut class: Option<String> = None;
        let mut at = call.parent();
        while let Some(n) = at {
            let name = |field: &str| n.child_by_field_name(field).map(|x| self.text_of(x).to_string());
            match n.kind() {
                "function_definition"
                | "function_declaration"
                | "generator_function_declaration"
                | "method_definition"
                | "constructor_declaration"
                    if function.is_none() =>
                {
                    function = name("name");
                }
                "method_declaration" if function.is_none() => {
                    function = name("name");
                    // Go: the receiver's type.
                    if let Some(receiver) = n.child_by_field_name("receiver") {
                        let t = self.text_of(receiver);
                        let t = t.trim_matches(['(', ')']).split_whitespace().last().unwrap_or_default();
                        class = Some(t.trim_start_matches('*').to_string());
                    }
                }
                "arrow_function" | "function_expression" | "function" if function.is_none() => {
                    if let Some(p) = n.parent()
                        && p.kind() == "variable_declarator"
                    {
                        function = p.child_by_field_name("name").map(|x| self.text_of(x).to_string());
                    }
                }
                "class_definition"
                | "class_declaration"
                | "class"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                    if function.is_some() && class.is_none() =>
                {
                    class = name("name");
                }
                _ => {}
            }
            at = n.parent();
        }
        match (class, function) {
            (Some(c), Some(f)) => format!("{c}.{f}"),
            (None, Some(f)) => f,
            _ => "-".to_string(),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::code::EnvVar;
    use crate::source::SourceFile;

    fn calls_with(language: Language, text: &str, env: &[EnvVar]) -> Vec<SdkCall> {
        let source = SourceFile::new("worker", text.to_string());
        let unit = Unit::parse(&source, language).unwrap_or_else(|e| panic!("{}", e.why));
        read(&unit, &Scope { owner: None, env, queues: &[] })
    }

    fn calls(language: Language, text: &str) -> Vec<SdkCall> {
        calls_with(language, text, &[])
    }

    fn names(call: &SdkCall) -> Vec<&str> {
        call.args.iter().map(|a| a.name).collect()
    }

    fn external(call: &SdkCall) -> Option<&str> {
        match &call.queue {
            Value::Known(Target::External(q)) => Some(q),
            _ => None,
        }
    }

    #[test]
    fn python_clients_and_resources() {
        let found = calls(
            Language::Python,
            r#"import os, uuid, json, boto3
QUEUE_URL = os.environ["QUEUE_URL"]
sqs = boto3.client("sqs")

def poll():
    sqs.receive_message(QueueUrl=QUEUE_URL, MaxNumberOfMessages=10)
    sqs.receive_message(QueueUrl="https://sqs.us-east-1.amazonaws.com/123456789012/jobs", WaitTimeSeconds=20)

class Worker:
    def run(self):
        resp = sqs.send_message_batch(QueueUrl=QUEUE_URL, Entries=[{"Id": "1", "MessageBody": "x", "MessageGroupId": "g"}])
        print(resp["Successful"])

def produce(order):
    payload = {"id": str(uuid.uuid4()), "order": order}
    sqs.send_message(QueueUrl=QUEUE_URL, MessageBody=json.dumps(payload))
    sqs.delete_message_batch(QueueUrl=QUEUE_URL, Entries=[])
    r = sqs.change_message_visibility_batch(QueueUrl=QUEUE_URL, Entries=[])
    if r.get("Failed"):
        raise RuntimeError()
    queue = boto3.resource("sqs").get_queue_by_name(QueueName="orders.fifo")
    queue.receive_messages(WaitTimeSeconds=5)
    send_message("not sqs")
"#,
        );
        assert_eq!(found.len(), 7, "{found:#?}");
        assert_eq!(found[0].operation, Operation::ReceiveMessage);
        assert_eq!(found[0].owner, "poll");
        assert!(found[0].arg("WaitTimeSeconds").is_none() && found[0].complete);
        assert!(matches!(&found[0].queue, Value::Unknown(why) if why.contains("QUEUE_URL")), "{:?}", found[0].queue);
        assert_eq!(found[1].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
        assert_eq!(external(&found[1]), Some("https://sqs.us-east-1.amazonaws.com/123456789012/jobs"));
        assert_eq!(found[2].owner, "Worker.run");
        assert_eq!(found[2].result, ResultUse::FailedUnread);
        assert!(names(&found[2]).contains(&"MessageGroupId"), "{:?}", names(&found[2]));
        assert_eq!(found[3].nondeterministic.len(), 1);
        assert_eq!(found[3].nondeterministic[0].1, "uuid.uuid4()");
        assert_eq!(found[4].result, ResultUse::Discarded);
        assert_eq!(found[5].result, ResultUse::Checked);
        assert_eq!(found[6].operation, Operation::ReceiveMessage);
        assert_eq!(external(&found[6]), Some("orders.fifo"));
        assert_eq!(found[6].arg("WaitTimeSeconds").and_then(|a| a.int), Some(5));
    }

    #[test]
    fn python_environment_names_the_queue() {
        let env = [EnvVar { name: "JOBS".into(), queue: Value::Known(Target::Queue(3)) }];
        let found = calls_with(
            Language::Python,
            "import os\ndef poll(sqs):\n    url = os.getenv('JOBS')\n    sqs.receive_message(QueueUrl=url)\n    sqs.receive_message(QueueUrl=os.environ.get('JOBS'))\n",
            &env,
        );
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|c| c.queue == Value::Known(Target::Queue(3))), "{found:#?}");
    }

    #[test]
    fn javascript_v3_and_v2() {
        let found = calls(
            Language::JavaScript,
            r#"import { SQSClient, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const QUEUE_URL = process.env.QUEUE_URL;
export async function poll() {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl: QUEUE_URL, WaitTimeSeconds: 20 }));
  await client.send(new SendMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: items.map((i) => ({ Id: i.id, MessageBody: JSON.stringify(i) })) }));
  const cmd = new SendMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: [] });
  const res = await client.send(cmd);
  if (res.Failed?.length) throw new Error("x");
  const body = { at: Date.now() };
  await client.send(new SendMessageCommand({ QueueUrl: process.env["OTHER"], MessageBody: JSON.stringify(body), ...extra }));
}
class Worker {
  async run() {
    const r = await sqs.sendMessageBatch({ QueueUrl: "q", Entries: [{ Id: "1", MessageBody: "b" }] }).promise();
    return 1;
  }
}
"#,
        );
        assert_eq!(found.len(), 5, "{found:#?}");
        assert_eq!(found[0].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
        assert_eq!(found[0].owner, "poll");
        assert_eq!(found[1].result, ResultUse::Discarded);
        assert_eq!(names(&found[1]), ["QueueUrl", "Id", "MessageBody", "Entries"]);
        assert_eq!(found[2].result, ResultUse::Checked);
        assert_eq!(found[3].nondeterministic.len(), 1, "{:?}", found[3].nondeterministic);
        assert!(!found[3].complete);
        assert!(matches!(&found[3].queue, Value::Unknown(w) if w.contains("OTHER")));
        assert_eq!(found[4].owner, "Worker.run");
        assert_eq!(found[4].result, ResultUse::FailedUnread);
    }

    #[test]
    fn typescript_reads_as_javascript() {
        let found = calls(
            Language::TypeScript,
            "const url: string = process.env.QUEUE_URL!;\nexport const handler = async (): Promise<void> => {\n  await client.send(new ReceiveMessageCommand({ QueueUrl: url as string }));\n};\n",
        );
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].owner, "handler");
        assert!(matches!(&found[0].queue, Value::Unknown(w) if w.contains("QUEUE_URL")), "{:?}", found[0].queue);
    }

    #[test]
    fn go_sdk_v2() {
        let found = calls(
            Language::Go,
            r#"package main

import (
	"os"
	"time"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

var queueURL = os.Getenv("QUEUE_URL")

type Worker struct{ client *sqs.Client }

func (w *Worker) Run(ctx context.Context) {
	w.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queueURL), WaitTimeSeconds: 20})
	in := &sqs.SendMessageBatchInput{QueueUrl: &queueURL, Entries: []types.SendMessageBatchRequestEntry{{Id: aws.String("1"), MessageBody: aws.String(time.Now().String())}}}
	_, err := w.client.SendMessageBatch(ctx, in)
	out, _ := w.client.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: &queueURL})
	if len(out.Failed) > 0 {
	}
	_ = err
}
"#,
        );
        assert_eq!(found.len(), 3, "{found:#?}");
        assert_eq!(found[0].owner, "Worker.Run");
        assert_eq!(found[0].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
        assert!(matches!(&found[0].queue, Value::Unknown(w) if w.contains("QUEUE_URL")), "{:?}", found[0].queue);
        assert_eq!(found[1].result, ResultUse::Discarded);
        assert_eq!(found[1].nondeterministic.len(), 1);
        assert!(names(&found[1]).contains(&"Id"));
        assert_eq!(found[2].result, ResultUse::Checked);
        assert!(!found[2].complete, "a batch without entries is not read");
    }

    #[test]
    fn java_v2_builders_and_v1_requests() {
        let found = calls(
            Language::Java,
            r#"class Poller {
  private static final String QUEUE_URL = System.getenv("QUEUE_URL");
  void poll(SqsClient sqsClient) {
    ReceiveMessageRequest req = ReceiveMessageRequest.builder().queueUrl(QUEUE_URL).waitTimeSeconds(20).build();
    sqsClient.receiveMessage(req);
    sqsClient.receiveMessage(r -> r.queueUrl(QUEUE_URL).maxNumberOfMessages(10));
    sqsClient.sendMessageBatch(SendMessageBatchRequest.builder().queueUrl(QUEUE_URL)
        .entries(SendMessageBatchRequestEntry.builder().id("1").messageBody(UUID.randomUUID().toString()).build()).build());
    SendMessageBatchResponse resp = sqsClient.sendMessageBatch(b -> b.queueUrl(QUEUE_URL));
    if (resp.hasFailed()) { }
    sqs.receiveMessage(new ReceiveMessageRequest(QUEUE_URL).withWaitTimeSeconds(20L));
    sqs.receiveMessage(QUEUE_URL);
  }
}
"#,
        );
        assert_eq!(found.len(), 6, "{found:#?}");
        assert_eq!(found[0].owner, "Poller.poll");
        assert_eq!(found[0].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
        assert!(matches!(&found[0].queue, Value::Unknown(w) if w.contains("QUEUE_URL")), "{:?}", found[0].queue);
        assert!(found[1].arg("WaitTimeSeconds").is_none() && found[1].complete);
        assert_eq!(found[2].result, ResultUse::Discarded);
        assert_eq!(found[2].nondeterministic.len(), 1, "{:?}", found[2]);
        assert_eq!(found[3].result, ResultUse::Checked);
        assert_eq!(found[4].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
        assert!(found[5].arg("WaitTimeSeconds").is_none() && found[5].complete, "{:?}", found[5]);
    }
}
