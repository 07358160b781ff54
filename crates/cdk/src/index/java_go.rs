//! Constructs in Java and Go apps, for the same index: Java's
//! `new Queue(this, "Jobs", QueueProps.builder()...build())` and
//! `Queue.Builder.create(this, "Jobs").visibilityTimeout(...).build()`,
//! Go's `awssqs.NewQueue(stack, jsii.String("Jobs"), &awssqs.QueueProps{...})`;
//! their event sources (`fn.addEventSource(new SqsEventSource(...))`,
//! `fn.AddEventSource(awslambdaeventsources.NewSqsEventSource(...))`).
//! A Go construct's "class" is the function that creates it
//! (`NewPipeline` creates a `Pipeline`). Props are located, never fixed
//! (`sqsguard_edit::cdk` writes TypeScript, JavaScript and Python).

use crate::syntax::Syntax;
use sqsguard_edit::cdk::Prop;
use sqsguard_model::code::Language;
use sqsguard_source::{Position, Span};
use tree_sitter::Node;

use super::{Added, Context, Made, Walk, span};

impl<'u> Walk<'u> {
    /// What a Java or Go node adds; whether its children were walked.
    pub(super) fn java_go(&mut self, node: Node<'_>, context: &Context<'u>) -> bool {
        let go = self.unit.language.is(Language::Go);
        match self.kind(node) {
            "object_creation_expression" if !go => {
                if let Some(made) = self.java_new(node, context) {
                    self.out.made.push(made);
                }
            }
            "method_invocation" if !go => {
                if let Some(made) = self.java_create(node, context) {
                    self.out.made.push(made);
                }
                self.event_source(node, "addEventSource", context);
                // A builder chain's value is bound to the name its outermost
                // call is: keep the name down the chain.
                if let Some(object) = self.field(node, "object") {
                    self.node(object, context);
                }
                let inner = Context { bound: None, ..*context };
                let mut cursor = node.walk();
                let others: Vec<Node<'_>> =
                    node.named_children(&mut cursor).filter(|c| Some(*c) != self.field(node, "object")).collect();
                others.into_iter().for_each(|c| self.node(c, &inner));
                return true;
            }
            "call_expression" if go => {
                if let Some(made) = self.go_new(node, context) {
                    self.out.made.push(made);
                }
                self.event_source(node, "AddEventSource", context);
            }
            "function_declaration" if go => {
                let name = self.field(node, "name").map(|n| self.text(n));
                let class =
                    name.map(|n| n.strip_prefix("New").filter(|c| c.starts_with(char::is_uppercase)).unwrap_or(n));
                self.children(node, &Context { class, bound: None, ..*context });
                return true;
            }
            "short_var_declaration" | "assignment_statement" if go => {
                let first = |field: &str| self.field(node, field).and_then(|l| l.named_child(0));
                if let (Some(name), Some(value)) = (first("left"), first("right")) {
                    self.node(value, &Context { bound: Some(self.last_name(name)), ..*context });
                    return true;
                }
            }
            _ => return false,
        }
        self.children(node, &Context { bound: None, ..*context });
        true
    }

    pub(super) fn children(&mut self, node: Node<'_>, context: &Context<'u>) {
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        children.into_iter().for_each(|c| self.node(c, context));
    }

    /// `new Queue(this, "Jobs", props)`, `new SqsEventSource(queue, props)`.
    fn java_new(&self, node: Node<'_>, context: &Context<'u>) -> Option<Made> {
        let class = self.last_name(self.field(node, "type")?);
        let args = self.arguments(node)?;
        let at = if class.ends_with("EventSource") { 1 } else { 2 };
        let props = args.get(at).map(|props| self.builder_chain(*props)).unwrap_or_default();
        self.made_of(node, class, &args, props, context)
    }

    /// `Queue.Builder.create(this, "Jobs")`, its props the calls on it.
    fn java_create(&self, node: Node<'_>, context: &Context<'u>) -> Option<Made> {
        let object = self.field(node, "object")?;
        if self.text(self.field(node, "name")?) != "create" || !self.text(object).ends_with(".Builder") {
            return None;
        }
        let class = self.last_name(self.field(object, "object").unwrap_or(object));
        let args = self.arguments(node)?;
        let mut outer = node;
        while let Some(parent) = outer.parent().filter(|p| self.kind(*p) == "method_invocation") {
            if self.field(parent, "object") != Some(outer) {
                break;
            }
            outer = parent;
        }
        self.made_of(node, class, &args, self.builder_chain(outer), context)
    }

    /// The calls of a builder chain, `.visibilityTimeout(Duration.seconds(30))`,
    /// each a property (not `builder`, `create` or `build`).
    fn builder_chain(&self, mut node: Node<'_>) -> Vec<Prop> {
        let mut props = Vec::new();
        while self.kind(node) == "method_invocation" {
            let (Some(name), Some(arguments)) = (self.field(node, "name"), self.field(node, "arguments")) else {
                break;
            };
            let name_text = self.text(name);
            if !matches!(name_text, "builder" | "create" | "build") {
                let value = arguments.named_child(0).map_or(span(arguments), span);
                props.push(Prop {
                    name: name_text.to_string(),
                    span: Span::new(name.start_byte(), node.end_byte()),
                    value,
                });
            }
            match self.field(node, "object") {
                Some(object) => node = object,
                None => break,
            }
        }
        props.reverse();
        props
    }

    /// `awssqs.NewQueue(scope, jsii.String("Jobs"), &awssqs.QueueProps{...})`,
    /// `NewPipeline(stack, "Orders")`.
    fn go_new(&self, node: Node<'_>, context: &Context<'u>) -> Option<Made> {
        let function = self.field(node, "function")?;
        let name = self.last_name(function);
        let class = name.strip_prefix("New").filter(|c| c.starts_with(char::is_uppercase))?;
        let args = self.arguments(node)?;
        let at = if class.ends_with("EventSource") { 1 } else { 2 };
        let props = args.get(at).map(|props| self.go_fields(*props)).unwrap_or_default();
        self.made_of(node, class, &args, props, context)
    }

    /// The fields of `&awssqs.QueueProps{VisibilityTimeout: ...}`.
    fn go_fields(&self, node: Node<'_>) -> Vec<Prop> {
        let literal = if self.kind(node) == "unary_expression" { self.field(node, "operand") } else { Some(node) };
        let Some(body) = literal.filter(|l| self.kind(*l) == "composite_literal").and_then(|l| self.field(l, "body"))
        else {
            return Vec::new();
        };
        let mut cursor = body.walk();
        let elements: Vec<Node<'_>> =
            body.named_children(&mut cursor).filter(|e| self.kind(*e) == "keyed_element").collect();
        elements
            .into_iter()
            .filter_map(|e| {
                let (key, value) = (self.field(e, "key")?, self.field(e, "value")?);
                Some(Prop { name: self.text(key).trim().to_string(), span: span(e), value: span(value) })
            })
            .collect()
    }

    pub(super) fn arguments<'t>(&self, node: Node<'t>) -> Option<Vec<Node<'t>>> {
        let arguments = self.field(node, "arguments")?;
        let mut cursor = arguments.walk();
        Some(arguments.named_children(&mut cursor).filter(|n| !self.kind(*n).contains("comment")).collect())
    }

    /// A construct from its class, arguments and props: the id is the
    /// second argument, a string (Go's `jsii.String("Jobs")` too).
    pub(super) fn made_of(
        &self,
        node: Node<'_>,
        class: &str,
        args: &[Node<'_>],
        props: Vec<Prop>,
        context: &Context<'u>,
    ) -> Option<Made> {
        let event_source = class.ends_with("EventSource");
        let id_node = args.get(1).copied().filter(|_| !event_source);
        if !class.starts_with(char::is_uppercase) || (!event_source && id_node.is_none()) {
            return None;
        }
        let id = id_node.and_then(|n| self.string(n));
        let end = id_node.map_or(node.start_byte(), |n| n.end_byte());
        Some(Made {
            file: self.unit.source.clone(),
            at: 0,
            class: class.to_string(),
            id,
            head: Span::new(node.start_byte(), end.max(node.start_byte() + 1)),
            start: Position::default(),
            within: context.class.map(String::from),
            bound: context.bound.map(String::from),
            props,
            insert: None,
            first: args.first().map(|n| self.last_name(*n).to_string()),
            in_loop: context.in_loop,
        })
    }

    /// A Java or Go string literal's text, directly or in `jsii.String(...)`.
    pub(super) fn string(&self, node: Node<'_>) -> Option<String> {
        match self.kind(node) {
            "string_literal" | "interpreted_string_literal" | "raw_string_literal" => {
                let text = self.text(node);
                let inner = text.get(1..text.len().checked_sub(1)?)?;
                (!inner.contains('\\')).then(|| inner.to_string())
            }
            "call_expression" if self.text(self.field(node, "function")?).ends_with("String") => {
                self.string(self.arguments(node)?.first().copied()?)
            }
            _ => None,
        }
    }

    /// `receiver.addEventSource(new SqsEventSource(...))`, Go's
    /// `receiver.AddEventSource(...NewSqsEventSource(...))`.
    fn event_source(&mut self, call: Node<'_>, method: &str, context: &Context<'u>) {
        let (receiver, name) = match self.unit.language {
            Syntax::Code(Language::Go) => {
                let function = self.field(call, "function");
                (function.and_then(|f| self.field(f, "operand")), function.and_then(|f| self.field(f, "field")))
            }
            _ => (self.field(call, "object"), self.field(call, "name")),
        };
        let (Some(receiver), Some(name)) = (receiver, name) else { return };
        if self.text(name) != method {
            return;
        }
        let Some(first) = self.arguments(call).and_then(|a| a.first().copied()) else { return };
        let source = match self.unit.language {
            Syntax::Code(Language::Go) => self.go_new(first, context),
            _ => (self.kind(first) == "object_creation_expression").then(|| self.java_new(first, context)).flatten(),
        };
        if let Some(source) = source {
            let receiver = self.last_name(receiver).to_string();
            self.out.added.push(Added { receiver, call: span(call), lines: (0, 0), source });
        }
    }
}
