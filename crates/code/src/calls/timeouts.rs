//! The HTTP timeout of the SDK client a receive is made with (SQS212),
//! where the code builds that client: boto3's `Config(read_timeout=10)`,
//! JavaScript v3's `NodeHttpHandler({ requestTimeout })` (or a plain
//! `requestHandler: { requestTimeout }`) and `socketTimeout`, v2's
//! `httpOptions: { timeout }` (a `requestTimeout` only with
//! `throwOnRequestTimeout: true`: otherwise current handlers only log
//! it), Go's `http.Client{Timeout: ...}` (or
//! `WithTimeout`) given to the client or its config, Java v2's
//! `socketTimeout`, `readTimeout`, `apiCallAttemptTimeout` and
//! `apiCallTimeout`, and v1's `withSocketTimeout`.
//!
//! The client is what the call is made on (for a v3 command, what `send`
//! is called on), followed through names to where it is built; what that
//! expression writes is searched, and the names it uses (a `Config`
//! bound to `cfg`, an `http.Client` bound to `hc`) are followed once.
//! Values are each language's: seconds in Python, milliseconds in
//! JavaScript and in Java v1, Go durations (`10 * time.Second`) and
//! Java's `Duration.ofSeconds(10)`, through constants and arithmetic. A
//! client built elsewhere, or a value that cannot be followed, is
//! unknown: `None`.

use tree_sitter::Node;

use super::*;
use sqsguard_model::code::ClientTimeout;

/// How a language writes a duration.
#[derive(Clone, Copy, PartialEq)]
enum Unit {
    Seconds,
    Millis,
    /// Go's `time.Duration` (a bare number is nanoseconds).
    GoDuration,
    /// Java's `java.time.Duration`.
    JavaDuration,
}

impl<'a> Reader<'a> {
    /// The shortest HTTP timeout set where the client of `call` is built.
    pub(super) fn client_timeout(&self, call: Node<'a>, receiver: Option<Node<'a>>) -> Option<ClientTimeout> {
        let client = receiver.or_else(|| self.sent_with(call))?;
        let built = self.built(client, 0)?;
        let mut found = Vec::new();
        self.timeouts_in(built, 0, &mut found);
        found.into_iter().min_by(|a, b| a.seconds.total_cmp(&b.seconds))
    }

    /// A v3 command's client: `client.send(new ReceiveMessageCommand(...))`.
    fn sent_with(&self, command: Node<'a>) -> Option<Node<'a>> {
        let mut at = command.parent()?;
        while matches!(at.kind(), "arguments" | "await_expression" | "parenthesized_expression") {
            at = at.parent()?;
        }
        let f = at.child_by_field_name("function").filter(|_| at.kind() == "call_expression")?;
        (f.child_by_field_name("property").map(|p| self.text_of(p)) == Some("send"))
            .then(|| f.child_by_field_name("object"))?
    }

    /// Where a client (a name, `self.sqs`, `this.client`) is built: a name
    /// as it is bound where it is used; a field only when the file sets it
    /// once (`self.sqs = boto3.client(...)`, a Java field's initializer).
    fn built(&self, node: Node<'a>, steps: usize) -> Option<Node<'a>> {
        if steps > MAX_STEPS {
            return None;
        }
        let node = self.strip(node);
        match node.kind() {
            "identifier" => {
                let b = self.bound(self.text_of(node), node.start_byte()).filter(|b| !b.destructure)?;
                self.built(b.value, steps + 1)
            }
            "attribute" | "member_expression" | "field_access" | "selector_expression" => {
                let field = node
                    .child_by_field_name("attribute")
                    .or_else(|| node.child_by_field_name("property"))
                    .or_else(|| node.child_by_field_name("field"))?;
                let name = self.text_of(field);
                let mut set: Vec<Node<'a>> =
                    self.walked().field_sets.iter().filter(|(f, _)| *f == name).map(|(_, v)| *v).collect();
                // A Java field's initializer; a Python or JavaScript name
                // outside every function is no field.
                if self.language == Language::Java {
                    set.extend(
                        self.bindings.iter().filter(|b| b.name == name && b.function.is_none()).map(|b| b.value),
                    );
                }
                match set[..] {
                    [one] => self.built(one, steps + 1),
                    _ => None,
                }
            }
            _ => Some(node),
        }
    }

    /// The timeouts written in `node`, and in what the names it uses are
    /// bound to (once).
    fn timeouts_in(&self, node: Node<'a>, depth: usize, out: &mut Vec<ClientTimeout>) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if let Some((name, value)) = self.setting(n)
                && let Some(unit) = self.timeout_unit(name, n)
                && let Some(seconds) = self.seconds(value, unit)
            {
                let written = self.text_of(name).to_string();
                out.push(ClientTimeout { seconds, name: written, origin: self.origin(unit::span(n)) });
            }
            if n.kind() == "identifier" && depth < 2 && n.id() != node.id() {
                let text = self.text_of(n);
                if let Some(b) = self.bound(text, n.start_byte()).filter(|b| !b.destructure) {
                    self.timeouts_in(b.value, depth + 1, out);
                }
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
    }

    /// A named setting: a keyword argument, an object's or struct's key, a
    /// builder method with its argument.
    fn setting(&self, n: Node<'a>) -> Option<(Node<'a>, Node<'a>)> {
        match n.kind() {
            "keyword_argument" => Some((n.child_by_field_name("name")?, n.child_by_field_name("value")?)),
            "pair" => Some((n.child_by_field_name("key")?, n.child_by_field_name("value")?)),
            "keyed_element" => Some((n.child_by_field_name("key")?, n.child_by_field_name("value")?)),
            "method_invocation" => {
                let args = n.child_by_field_name("arguments")?;
                Some((n.child_by_field_name("name")?, args.named_child(0).filter(|_| args.named_child_count() == 1)?))
            }
            // Go: `awshttp.NewBuildableClient().WithTimeout(10 * time.Second)`.
            "call_expression" if self.language == Language::Go => {
                let f = n.child_by_field_name("function")?;
                let args = n.child_by_field_name("arguments")?;
                Some((f.child_by_field_name("field")?, args.named_child(0).filter(|_| args.named_child_count() == 1)?))
            }
            _ => None,
        }
    }

    /// The unit of a timeout setting named `name`, or `None` when it is
    /// none the rule reads (a connect timeout does not end a long poll).
    fn timeout_unit(&self, name: Node<'a>, setting: Node<'a>) -> Option<Unit> {
        let written = self.text_of(name).trim_matches(|c| c == '"' || c == '\'');
        let plain: String = written.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
        match (self.language, plain.as_str()) {
            (Language::Python, "readtimeout") => Some(Unit::Seconds),
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "sockettimeout") => Some(Unit::Millis),
            // Since @smithy/node-http-handler 4, a request past its
            // `requestTimeout` is only logged, unless the handler is told
            // to throw: without that, which it does depends on the version.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "requesttimeout") => {
                self.throws_on_request_timeout(setting).then_some(Unit::Millis)
            }
            // v2's `httpOptions: { timeout }` only: a `timeout` key elsewhere is anyone's.
            (Language::JavaScript | Language::TypeScript | Language::Tsx, "timeout") => {
                let options = setting.parent().and_then(|o| o.parent()).filter(|p| p.kind() == "pair");
                let key = options.and_then(|p| p.child_by_field_name("key")).map(|k| self.text_of(k));
                (key.map(|k| k.trim_matches(|c| c == '"' || c == '\'')) == Some("httpOptions")).then_some(Unit::Millis)
            }
            (Language::Go, "timeout" | "withtimeout") => Some(Unit::GoDuration),
            (Language::Java, "sockettimeout" | "readtimeout" | "apicallattempttimeout" | "apicalltimeout") => {
                Some(Unit::JavaDuration)
            }
            (Language::Java, "withsockettimeout" | "setsockettimeout") => Some(Unit::Millis),
            _ => None,
        }
    }

    /// Whether the object holding a `requestTimeout` pair also says
    /// `throwOnRequestTimeout: true`.
    fn throws_on_request_timeout(&self, pair: Node<'a>) -> bool {
        let Some(object) = pair.parent() else { return false };
        let mut cursor = object.walk();
        let pairs: Vec<Node<'a>> = object.named_children(&mut cursor).collect();
        pairs.into_iter().any(|p| {
            p.child_by_field_name("key").is_some_and(|k| self.text_of(k) == "throwOnRequestTimeout")
                && p.child_by_field_name("value").is_some_and(|v| self.text_of(v) == "true")
        })
    }

    /// A duration in seconds, written in `unit`.
    fn seconds(&self, node: Node<'a>, unit: Unit) -> Option<f64> {
        let node = self.strip(node);
        match unit {
            Unit::Seconds => self.number(node, 0),
            Unit::Millis => self.number(node, 0).map(|ms| ms / 1000.0),
            Unit::GoDuration => self.go_duration(node, 0).map(|ns| ns / 1e9),
            Unit::JavaDuration => {
                // `Duration.ofSeconds(10)`, `ofMillis`, `ofMinutes`.
                let name = node.child_by_field_name("name").map(|n| self.text_of(n))?;
                let per = match name {
                    "ofMillis" => 0.001,
                    "ofSeconds" => 1.0,
                    "ofMinutes" => 60.0,
                    _ => return None,
                };
                let arg = node.child_by_field_name("arguments")?.named_child(0)?;
                self.number(arg, 0).map(|n| n * per)
            }
        }
    }

    /// A number: a literal, a name bound to one, or arithmetic of those.
    pub(super) fn number(&self, node: Node<'a>, steps: usize) -> Option<f64> {
        if steps > MAX_STEPS {
            return None;
        }
        let node = self.strip(node);
        match node.kind() {
            "float" | "number" | "float_literal" | "decimal_floating_point_literal" => {
                let t: String = self.text_of(node).chars().filter(|c| *c != '_').collect();
                t.trim_end_matches(['f', 'F', 'd', 'D']).parse().ok()
            }
            "binary_expression" | "binary_operator" => {
                let (l, r) = (node.child_by_field_name("left")?, node.child_by_field_name("right")?);
                let (l, r) = (self.number(l, steps + 1)?, self.number(r, steps + 1)?);
                match node.child_by_field_name("operator").map(|o| self.text_of(o))? {
                    "*" => Some(l * r),
                    "+" => Some(l + r),
                    "-" => Some(l - r),
                    "/" if r != 0.0 => Some(l / r),
                    _ => None,
                }
            }
            "identifier" => match self.bound(self.text_of(node), node.start_byte()) {
                Some(b) if !b.destructure => self.number(b.value, steps + 1),
                Some(_) => None,
                None => self.imported(node).and_then(|c| c.number),
            },
            "attribute" | "member_expression" | "field_access" | "selector_expression" => {
                self.imported(node).and_then(|c| c.number)
            }
            _ => self.int(node, steps).map(|i| i as f64),
        }
    }

    /// A Go duration in nanoseconds: `10 * time.Second`, `time.Duration(n)
    /// * time.Millisecond`, `time.Minute`, a bare number.
    pub(super) fn go_duration(&self, node: Node<'a>, steps: usize) -> Option<f64> {
        if steps > MAX_STEPS {
            return None;
        }
        let node = self.strip(node);
        let unit = match self.text_of(node) {
            "time.Nanosecond" => Some(1.0),
            "time.Microsecond" => Some(1e3),
            "time.Millisecond" => Some(1e6),
            "time.Second" => Some(1e9),
            "time.Minute" => Some(60e9),
            "time.Hour" => Some(3600e9),
            _ => None,
        };
        if unit.is_some() {
            return unit;
        }
        match node.kind() {
            "binary_expression" if node.child_by_field_name("operator").map(|o| self.text_of(o)) == Some("*") => {
                let (l, r) = (node.child_by_field_name("left")?, node.child_by_field_name("right")?);
                Some(self.go_duration(l, steps + 1)? * self.go_duration(r, steps + 1)?)
            }
            // `time.Duration(n)`: a conversion of a number.
            "call_expression"
                if node.child_by_field_name("function").map(|f| self.text_of(f)) == Some("time.Duration") =>
            {
                let arg = node.child_by_field_name("arguments")?.named_child(0)?;
                self.number(arg, steps + 1)
            }
            "identifier" => match self.bound(self.text_of(node), node.start_byte()) {
                Some(b) if !b.destructure => self.go_duration(b.value, steps + 1),
                Some(_) => None,
                None => self.imported(node).and_then(|c| c.go_duration),
            },
            _ => self.number(node, steps),
        }
    }
}
