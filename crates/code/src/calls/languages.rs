//! What each SDK writes a request as: boto3 keyword arguments and
//! resource Queues, JavaScript objects, Go struct literals, Java builder
//! chains and v1 request objects; and whether a call is SQS's at all.

use tree_sitter::Node;

use super::*;

impl<'a> Reader<'a> {
    /// boto3: `client.receive_message(QueueUrl=..., ...)`, or a resource's
    /// `queue.receive_messages(...)`.
    #[allow(clippy::type_complexity)]
    pub(super) fn python(
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
    pub(super) fn queue_object(&self, node: Node<'a>, steps: usize) -> Option<Option<Node<'a>>> {
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
    pub(super) fn mentions_sqs(&self, node: Node<'a>, steps: usize) -> bool {
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
    pub(super) fn javascript(
        &self,
        call: Node<'a>,
        receiver: Option<Node<'a>>,
    ) -> Option<(Request<'a>, Option<Node<'a>>, bool)> {
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
    pub(super) fn go(
        &self,
        call: Node<'a>,
        receiver: Option<Node<'a>>,
    ) -> Option<(Request<'a>, Option<Node<'a>>, bool)> {
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
    pub(super) fn go_input(&self, node: Node<'a>, steps: usize) -> Option<Node<'a>> {
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
    pub(super) fn java(
        &self,
        call: Node<'a>,
        method: &str,
        receiver: Option<Node<'a>>,
    ) -> Option<(Request<'a>, Option<Node<'a>>, bool, Option<Operation>)> {
        // Mockito's `verify(client).deleteMessageBatch(any(...))` (and
        // BDDMockito's `then(client).should()...`) checks that a mock was
        // called: it makes no call.
        if receiver.is_some_and(|r| {
            r.kind() == "method_invocation"
                && r.child_by_field_name("name").is_some_and(|n| matches!(self.text_of(n), "verify" | "should"))
        }) {
            return None;
        }
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
        // v1's shortcuts: `receiveMessage(queueUrl)`, `sendMessage(queueUrl,
        // body)`, `deleteMessage(queueUrl, receiptHandle)`,
        // `changeMessageVisibility(queueUrl, receiptHandle, timeout)`.
        // The SDK has no other overloads: a method of the same name with
        // other arguments is the code's own (a wrapper, a mock's helper).
        let mut request = Request { params: Vec::new(), complete: false };
        let count = args.named_child_count();
        if let Some(first) = first
            && self.is_stringish(first)
        {
            request.complete = true;
            let rest: &[&'static str] = match method {
                "sendMessage" => &["MessageBody"],
                "deleteMessage" => &["ReceiptHandle"],
                "changeMessageVisibility" => &["ReceiptHandle", "VisibilityTimeout"],
                _ => &[],
            };
            // A batch's shortcut takes the queue and the entries' list.
            let arity = if method.ends_with("Batch") { 2 } else { rest.len() + 1 };
            if count != arity {
                return None;
            }
            for (api, i) in ["QueueUrl"].iter().chain(rest).zip(0..) {
                if let Some(a) = args.named_child(i) {
                    request.params.push((api, unit::span(a), a));
                }
            }
        }
        if count > 1 && !request.complete {
            return None;
        }
        Some((request, None, true, None))
    }

    /// Whether a Java expression is a string (a literal, an environment
    /// read, or a name bound to a string or declared `String`).
    pub(super) fn is_stringish(&self, node: Node<'a>) -> bool {
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
    pub(super) fn java_chain(&self, node: Node<'a>, steps: usize) -> Option<(Request<'a>, Option<Operation>)> {
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
                    let (operation, names_request) = self.java_new(node, &mut request);
                    typed = operation;
                    is_request |= names_request;
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

    /// `new XRequest(a, b)`: the parameters its constructor takes by
    /// position, with the operation its type names and whether the type
    /// is a request (or a request entry).
    fn java_new(&self, node: Node<'a>, request: &mut Request<'a>) -> (Option<Operation>, bool) {
        let class = node.child_by_field_name("type").map(|t| self.text_of(t)).unwrap_or_default();
        let class = class.rsplit('.').next().unwrap_or(class);
        let typed = operation(class);
        let names_request = class.ends_with("Request") || class.ends_with("RequestEntry");
        let args = node.child_by_field_name("arguments");
        let positional: &[&'static str] = match class {
            "SendMessageRequest" => &["QueueUrl", "MessageBody"],
            "ReceiveMessageRequest" => &["QueueUrl"],
            "DeleteMessageRequest" => &["QueueUrl", "ReceiptHandle"],
            "ChangeMessageVisibilityRequest" => &["QueueUrl", "ReceiptHandle", "VisibilityTimeout"],
            "SendMessageBatchRequest" | "DeleteMessageBatchRequest" | "ChangeMessageVisibilityBatchRequest" => {
                &["QueueUrl", "Entries"]
            }
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
        (typed, names_request)
    }
}
