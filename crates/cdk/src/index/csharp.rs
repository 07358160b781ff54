//! Constructs in C# apps, for the same index: `new Queue(this, "Jobs",
//! new QueueProps { VisibilityTimeout = Duration.Seconds(30) })` (props
//! are the object initializer's assignments) and
//! `fn.AddEventSource(new SqsEventSource(queue, new SqsEventSourceProps { ... }))`.
//! Located, never fixed.

use sqsguard_edit::cdk::Prop;
use tree_sitter::Node;

use super::{Added, Context, Made, Walk, span};

impl<'u> Walk<'u> {
    /// What a C# node adds; whether its children were walked.
    pub(super) fn csharp(&mut self, node: Node<'_>, context: &Context<'u>) -> bool {
        match self.kind(node) {
            "object_creation_expression" => {
                if let Some(made) = self.csharp_new(node, context) {
                    self.out.made.push(made);
                }
            }
            "invocation_expression" => self.csharp_added(node, context),
            // `var jobs = new Queue(...)`: the value is the declarator's
            // last child, under no field name.
            "variable_declarator" => {
                let name = self.field(node, "name");
                let value = node.named_child(u32::try_from(node.named_child_count().saturating_sub(1)).unwrap_or(0));
                if let (Some(name), Some(value)) = (name, value.filter(|v| Some(*v) != name)) {
                    self.node(value, &Context { bound: Some(self.text(name)), ..*context });
                    return true;
                }
            }
            _ => return false,
        }
        self.children(node, &Context { bound: None, ..*context });
        true
    }

    /// The expressions of an argument list (each under its `argument`).
    fn csharp_arguments<'t>(&self, node: Node<'t>) -> Vec<Node<'t>> {
        self.arguments(node)
            .unwrap_or_default()
            .into_iter()
            .map(|a| {
                if self.kind(a) == "argument" {
                    a.named_child(u32::try_from(a.named_child_count().saturating_sub(1)).unwrap_or(0)).unwrap_or(a)
                } else {
                    a
                }
            })
            .collect()
    }

    fn csharp_new(&self, node: Node<'_>, context: &Context<'u>) -> Option<Made> {
        let class = self.text(self.field(node, "type")?);
        let class = class.rsplit('.').next().unwrap_or(class);
        let args = self.csharp_arguments(node);
        let at = if class.ends_with("EventSource") { 1 } else { 2 };
        let props = args.get(at).map(|props| self.initializer(*props)).unwrap_or_default();
        let mut made = self.made_of(node, class, &args, props, context)?;
        made.first = args.first().map(|n| self.csharp_last_name(*n).to_string());
        Some(made)
    }

    /// The assignments of `new QueueProps { VisibilityTimeout = ... }`.
    fn initializer(&self, node: Node<'_>) -> Vec<Prop> {
        let Some(initializer) = self.field(node, "initializer") else { return Vec::new() };
        let mut cursor = initializer.walk();
        let assignments: Vec<Node<'_>> =
            initializer.named_children(&mut cursor).filter(|n| self.kind(*n) == "assignment_expression").collect();
        assignments
            .into_iter()
            .filter_map(|a| {
                let (left, right) = (self.field(a, "left")?, self.field(a, "right")?);
                Some(Prop { name: self.text(left).trim().to_string(), span: span(a), value: span(right) })
            })
            .collect()
    }

    /// `jobs`, `this.jobs`: `jobs`.
    fn csharp_last_name(&self, node: Node<'_>) -> &'u str {
        let last = if self.kind(node) == "member_access_expression" { self.field(node, "name") } else { None };
        self.text(last.unwrap_or(node))
    }

    /// `receiver.AddEventSource(new SqsEventSource(...))`.
    fn csharp_added(&mut self, call: Node<'_>, context: &Context<'u>) {
        let Some(function) = self.field(call, "function").filter(|f| self.kind(*f) == "member_access_expression")
        else {
            return;
        };
        let (Some(receiver), Some(name)) = (self.field(function, "expression"), self.field(function, "name")) else {
            return;
        };
        if self.text(name) != "AddEventSource" {
            return;
        }
        let first = self.csharp_arguments(call).first().copied();
        let Some(source) =
            first.filter(|f| self.kind(*f) == "object_creation_expression").and_then(|f| self.csharp_new(f, context))
        else {
            return;
        };
        let receiver = self.csharp_last_name(receiver).to_string();
        self.out.added.push(Added { receiver, call: span(call), lines: (0, 0), source });
    }
}
