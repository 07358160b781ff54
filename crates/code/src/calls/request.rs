//! A call's request: its parameters by the API's names, a batch's
//! entries, and the SdkCall they make.

use std::collections::HashSet;

use tree_sitter::Node;

use super::*;

impl<'a> Reader<'a> {
    /// The call of `call` (the call, or a v3 command), or `None` when it is
    /// not one of the SQS API.
    pub(super) fn call(&self, call: Node<'a>, op_node: Node<'a>, receiver: Option<Node<'a>>) -> Option<SdkCall> {
        let written = self.text_of(op_node);
        let (request, queue_expr, sqs, typed) = self.request(call, written, receiver)?;
        let operation = typed.or_else(|| operation(written))?;
        if !sqs || !self.sqs_client(call, receiver, &request) {
            return None;
        }
        let mut args = Vec::new();
        let mut bodies = Vec::new();
        // A batching client adds to what the code writes (see
        // `batching_client`): a parameter left out may be its to set.
        let mut complete = request.complete && !receiver.is_some_and(|r| self.batching_client(r, 0));
        let mut queue = None;
        let mut each_entry = Vec::new();
        let mut written_entries = None;
        // A receipt handle written as the queue's URL is that (SQS208).
        let queue_url = request.params.iter().find(|p| p.0 == "QueueUrl").map(|p| self.text_of(p.2));
        for (name, span, value) in &request.params {
            match *name {
                "QueueUrl" | "QueueName" => queue = Some(self.queue(*value, 0)),
                "MessageBody" => bodies.push(*value),
                "Entries" if operation.is_batch() => match self.batch(*value, queue_url) {
                    Some(batch) => {
                        complete &= batch.complete;
                        bodies.extend(batch.bodies);
                        args.extend(batch.common);
                        each_entry = batch.each;
                        written_entries = batch.written;
                    }
                    None => complete = false,
                },
                _ => {}
            }
            args.push(self.arg(name, *span, *value, queue_url));
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
        // What the client and the code around a call add to it.
        let (client_timeout, heartbeat) = match operation {
            Operation::ReceiveMessage => (self.client_timeout(call, receiver), None),
            Operation::ChangeMessageVisibility | Operation::ChangeMessageVisibilityBatch => {
                (None, self.heartbeat(call))
            }
            _ => (None, None),
        };
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
            entries: each_entry,
            written_entries,
            in_loop: self.repeated(call),
            queue,
            result,
            client_timeout,
            heartbeat,
            received: None,
            nondeterministic,
        })
    }

    /// The request a call writes, as its language writes it: the request,
    /// what names its queue when the request does not (a boto3 resource's
    /// Queue), whether it is SQS's, and (Java) the operation its request
    /// type names.
    #[allow(clippy::type_complexity)]
    fn request(
        &self,
        call: Node<'a>,
        written: &str,
        receiver: Option<Node<'a>>,
    ) -> Option<(Request<'a>, Option<Node<'a>>, bool, Option<Operation>)> {
        let without_type = |(request, queue, sqs)| Some((request, queue, sqs, None));
        match self.language {
            Language::Python => without_type(self.python(call, written, receiver)?),
            Language::JavaScript | Language::TypeScript | Language::Tsx => {
                without_type(self.javascript(call, receiver)?)
            }
            Language::Go => without_type(self.go(call, receiver)?),
            Language::Java => self.java(call, written, receiver),
        }
    }

    /// A batch's `Entries`, when they are read.
    fn batch(&self, value: Node<'a>, queue_url: Option<&str>) -> Option<Batch<'a>> {
        let mut batch = Batch { complete: true, written: self.written_count(value), ..Batch::default() };
        let mut common: Option<Vec<Arg>> = None;
        for entry in self.entries(value, 0)? {
            batch.complete &= entry.complete;
            let written: Vec<Arg> = entry.params.iter().map(|(n, s, v)| self.arg(n, *s, *v, queue_url)).collect();
            batch.bodies.extend(entry.params.iter().filter(|(n, _, _)| *n == "MessageBody").map(|p| p.2));
            batch.each.push(written.clone());
            common = Some(match common {
                None => written,
                Some(c) => c.into_iter().filter(|a| written.iter().any(|w| w.name == a.name)).collect(),
            });
        }
        batch.common = common.unwrap_or_default();
        Some(batch)
    }

    /// A parameter as the model has it; a `ReceiptHandle` with the part
    /// of a message it reads.
    pub(super) fn arg(&self, name: &'static str, span: Span, value: Node<'a>, queue_url: Option<&str>) -> Arg {
        let reads = if name == "ReceiptHandle" { self.part_read(value, queue_url) } else { None };
        Arg { name, int: self.int(value, 0), origin: self.origin(span), reads }
    }

    /// A parameter `(API name, where, value)` from a key and its value.
    pub(super) fn param(
        &self,
        key: Node<'a>,
        whole: Node<'a>,
        value: Node<'a>,
    ) -> Option<(&'static str, Span, Node<'a>)> {
        Some((api_name(self.text_of(key))?, unit::span(whole), value))
    }

    /// The entries of a batch, each a request of its own.
    pub(super) fn entries(&self, node: Node<'a>, steps: usize) -> Option<Vec<Request<'a>>> {
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

    /// How many entries a list written out in the code holds (`[a, b]`,
    /// Go's `{a, b}`, Java's `List.of(a, b)` or `.entries(a, b)`): `None`
    /// for one that is built, or from elsewhere.
    fn written_count(&self, node: Node<'a>) -> Option<usize> {
        let node = self.strip(node);
        let items = match node.kind() {
            "list" | "array" | "argument_list" | "literal_value" => node,
            "composite_literal" => node.child_by_field_name("body")?,
            "method_invocation" => match node.child_by_field_name("name").map(|n| self.text_of(n)) {
                Some("of" | "asList") => node.child_by_field_name("arguments")?,
                _ => return None,
            },
            _ => return None,
        };
        let mut cursor = items.walk();
        let mut count = 0;
        for item in items.named_children(&mut cursor) {
            match item.kind() {
                "list_splat" | "spread_element" | "dictionary_splat" => return None,
                kind if kind.contains("comment") => {}
                _ => count += 1,
            }
        }
        Some(count)
    }

    /// What an arrow function's body returns: the body itself, or the one
    /// `return` of a block.
    pub(super) fn returned(&self, body: Node<'a>) -> Option<Node<'a>> {
        if body.kind() != "statement_block" {
            return Some(body);
        }
        let mut cursor = body.walk();
        let ret = body.named_children(&mut cursor).find(|c| c.kind() == "return_statement")?;
        ret.named_child(0)
    }

    /// The objects appended to a list named `name` after byte `after`, in
    /// the same function.
    pub(super) fn appended(&self, name: &str, after: usize) -> Vec<Request<'a>> {
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
    pub(super) fn object(&self, node: Node<'a>, steps: usize) -> Request<'a> {
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
}

/// What a batch call's `Entries` hold.
#[derive(Default)]
struct Batch<'a> {
    /// The parameters every entry writes.
    common: Vec<Arg>,
    /// Each entry's parameters.
    each: Vec<Vec<Arg>>,
    /// The entries' message bodies.
    bodies: Vec<Node<'a>>,
    /// Whether every entry is read whole.
    complete: bool,
    /// How many entries the list writes out (see `written_count`).
    written: Option<usize>,
}
