//! Values: what an expression is once names are followed (a literal, an
//! integer, an environment read, a queue), and the clocks, UUIDs and random
//! numbers a message body holds.

use std::collections::HashSet;

use tree_sitter::Node;

use super::*;

impl<'a> Reader<'a> {
    /// `node` without what does not change its value: parentheses, type
    /// assertions, `&`, `await`, a default (`process.env.X || "..."`), and
    /// one-argument wrappers (`aws.String(x)`, `str(x)`, `aws.Int32(20)`).
    pub(super) fn strip(&self, mut node: Node<'a>) -> Node<'a> {
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
    pub(super) fn literal(&self, node: Node<'a>) -> Option<String> {
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
    pub(super) fn int(&self, node: Node<'a>, steps: usize) -> Option<i64> {
        let node = self.strip(node);
        match node.kind() {
            "integer" | "number" | "int_literal" | "decimal_integer_literal" => {
                let t: String = self.text_of(node).chars().filter(|c| *c != '_').collect();
                t.trim_end_matches(['L', 'l', 'n']).parse().ok()
            }
            "identifier" if steps < MAX_STEPS => {
                let Some(b) = self.bound(self.text_of(node), node.start_byte()) else {
                    return self.imported(node).and_then(|c| c.number).filter(|n| n.fract() == 0.0).map(|n| n as i64);
                };
                if b.destructure {
                    return None;
                }
                self.int(b.value, steps + 1)
            }
            // `settings.READ_TIMEOUT`, `Config.BATCH`: another file's.
            "attribute" | "member_expression" | "field_access" | "selector_expression" => {
                self.imported(node).and_then(|c| c.number).filter(|n| n.fract() == 0.0).map(|n| n as i64)
            }
            // `-5`: Python's `argument`, Go's and Java's `operand`.
            "unary_operator" | "unary_expression" if self.text_of(node).starts_with('-') && steps < MAX_STEPS => {
                let operand = node.child_by_field_name("argument").or_else(|| node.child_by_field_name("operand"))?;
                self.int(operand, steps + 1)?.checked_neg()
            }
            _ => None,
        }
    }

    /// The constant of another file of the program `node` names, as the
    /// worker writes it (`READ_TIMEOUT`, `cfg.READ_TIMEOUT`).
    pub(super) fn imported(&self, node: Node<'a>) -> Option<imported::Constant> {
        self.scope.imported?.of(self.unit).get(self.text_of(node)).copied()
    }

    /// The environment variable `node` reads, if it reads one.
    pub(super) fn env_read(&self, node: Node<'a>) -> Option<&str> {
        self.env_reads.iter().find(|(r, _)| r.id() == node.id()).map(|(_, v)| v.as_str())
    }

    /// The queue an expression names.
    pub(super) fn queue(&self, node: Node<'a>, steps: usize) -> Value<Target> {
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
    pub(super) fn queue_url_lookup(&self, node: Node<'a>, steps: usize) -> Option<Value<Target>> {
        let text = self.text_of(node);
        let plain = text.to_ascii_lowercase().replace('_', "");
        if !plain.contains("getqueueurl") && !plain.contains("getqueuebyname") {
            return None;
        }
        let name = self.find_param(node, "QueueName")?;
        Some(self.queue(name, steps + 1))
    }

    /// The value of the first parameter named `api` written in `node`.
    pub(super) fn find_param(&self, node: Node<'a>, api: &str) -> Option<Node<'a>> {
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
    pub(super) fn env_queue(&self, var: &str) -> Value<Target> {
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
    pub(super) fn named(&self, text: &str) -> Value<Target> {
        let text = text.trim();
        let name = if text.starts_with("arn:") {
            text.rsplit(':').next().unwrap_or(text)
        } else {
            text.trim_end_matches('/').rsplit('/').next().unwrap_or(text)
        };
        let ours = self.scope.queues.find(name);
        match ours {
            Some(i) => Value::Known(Target::Queue(i)),
            None => Value::Known(Target::External(text.to_string())),
        }
    }

    /// Where the values of a message body come from that differ on every
    /// call: the sources written in it, and in what the names in it are
    /// bound to.
    pub(super) fn nondeterministic(
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
            // A source is remembered apart from the nodes visited (by the
            // complement of its id): a value can be a source itself
            // (`body["t"] = uuid.uuid4()`), visited before it is reported.
            if start <= s.start_byte() && s.end_byte() <= end && seen.insert(!s.id()) {
                out.push((self.origin(unit::span(*s)), self.text_of(*s).to_string()));
            }
        }
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if matches!(n.kind(), "identifier" | "shorthand_property_identifier") && !self.is_member_name(n) {
                let name = self.text_of(n);
                let bound = self.bound(name, n.start_byte());
                if let Some(b) = bound
                    && !(b.value.start_byte() <= start && end <= b.value.end_byte())
                {
                    self.nondeterministic(b.value, steps + 1, seen, out);
                }
                // What was added to it since (`body.update({...})`).
                let since = bound.map_or(0, |b| b.at);
                for value in self.added(name, since, n.start_byte()) {
                    if !(value.start_byte() <= start && end <= value.end_byte()) {
                        self.nondeterministic(value, steps + 1, seen, out);
                    }
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
    pub(super) fn is_member_name(&self, n: Node<'a>) -> bool {
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
}
