//! Static evaluation of Terraform expressions into resolved values.
//!
//! Variables take their default, overridden by `terraform.tfvars`,
//! `*.auto.tfvars` or a module call's arguments; locals are evaluated (with
//! a cycle guard); `jsonencode(...)` keeps its argument's structure;
//! references to resources of the module stay symbolic
//! (`aws_sqs_queue.jobs.arn`) so they can be linked, except a number or a
//! bool another resource sets (`6 * aws_lambda_function.f.timeout`), which
//! is that resource's value; a conditional with an unknown condition keeps
//! both branches.
//!
//! A `count` or `for_each` resource is analysed once, under its address.
//! Its `each.key`, `each.value` and `count.index` are known when the
//! collection is: each instance is an alternative (`each.key == "a"`), and
//! instances that agree are one value. `for_each` over another resource
//! (`for_each = aws_sqs_queue.tenant`, then `each.value.arn`) chains
//! instance to instance: `each.value` is that resource. An
//! `aws_iam_policy_document`'s `json` is the document (`document.rs`);
//! other data sources, remote state, collections only known at plan time and functions not
//! evaluated here are unknown, and rules skip them.
//!
//! This file is the evaluator's core (expressions, templates, traversals,
//! variables, locals and module outputs are one recursion); the scope it
//! evaluates against is in `scope.rs`, the parsed files and evaluated resources it shares
//! with the readers are in `file.rs`, `count`/`for_each` are in `each.rs`
//! and `instances.rs`, functions and operators in `functions.rs`.

use std::path::Path;
use std::sync::Arc;

use hcl_edit::expr::{Expression, FuncCall, ObjectKey, TraversalOperator, UnaryOperator};
use hcl_edit::structure::{Body, Structure};
use hcl_edit::template::{Element, Template};

pub(crate) mod file;
mod scope;

use super::functions::{self, binary};
use crate::value::{Part, R, RV, Text, format_num};
use sqsguard_source::Span;

pub use file::{File, Resource, attr_at, labels};
pub use scope::{Child, Scope};

impl Scope {
    /// The span of a node of file `file` (see [`File::span`]).
    fn span(&self, file: usize, node: &impl hcl_edit::Span, fallback: Span) -> Span {
        self.files.get(file).map_or(fallback, |f| f.span(node, fallback))
    }

    fn text(&self, file: usize, span: Span) -> &str {
        self.files.get(file).and_then(|f| f.source.text.get(span.start..span.end)).unwrap_or_default()
    }

    /// A block's body as a map: attributes by key, nested blocks by type
    /// (a list when the type repeats). `dynamic` blocks are unknown.
    pub(crate) fn block(&self, body: &Body, file: usize, span: Span) -> R {
        let mut entries: Vec<(String, Span, R)> = Vec::new();
        for structure in body.iter() {
            match structure {
                Structure::Attribute(attr) => {
                    let key_span = self.span(file, &attr.key, span);
                    entries.push((attr.key.as_str().to_string(), key_span, self.eval(&attr.value, file)));
                }
                Structure::Block(b) => {
                    let b_span = self.span(file, b, span);
                    let key = b.ident.as_str().to_string();
                    let value = if key == "dynamic" {
                        R::unknown("dynamic block", b_span)
                    } else {
                        self.block(&b.body, file, b_span)
                    };
                    match entries.iter_mut().find(|(k, _, _)| *k == key) {
                        Some((_, _, existing)) => match &mut existing.v {
                            RV::List(items) => items.push(value),
                            _ => {
                                let first = std::mem::replace(existing, R::new(RV::Null, b_span));
                                *existing = R::new(RV::List(vec![first, value]), b_span);
                            }
                        },
                        None => entries.push((key, self.span(file, &b.ident, b_span), value)),
                    }
                }
            }
        }
        R::new(RV::Map(entries), span)
    }

    /// `expr` of file `file`, evaluated for use elsewhere (a variable's
    /// default, a local, an output, a module argument): its literals
    /// remember that they are written here.
    pub(crate) fn eval_written(&self, expr: &Expression, file: usize) -> R {
        let value = self.eval(expr, file);
        match self.files.get(file) {
            Some(f) => value.written_in(&f.source),
            None => value,
        }
    }

    pub(crate) fn eval(&self, expr: &Expression, file: usize) -> R {
        let span = self.span(file, expr, Span::default());
        let v = match expr {
            Expression::Null(_) => RV::Null,
            Expression::Bool(b) => RV::Bool(*b.value()),
            Expression::Number(n) => match n.value().as_f64() {
                Some(f) => RV::Num(f),
                None => RV::Unknown("number out of range".into()),
            },
            Expression::String(s) => RV::Str(Text::lit(s.value().clone())),
            Expression::Array(a) => RV::List(a.iter().map(|e| self.eval(e, file)).collect()),
            Expression::Object(o) => RV::Map(
                o.iter()
                    .map(|(k, v)| {
                        let key = match k {
                            ObjectKey::Ident(id) => id.as_str().to_string(),
                            ObjectKey::Expression(e) => {
                                self.eval(e, file).literal().unwrap_or_else(|| "<computed>".to_string())
                            }
                        };
                        (key, self.span(file, k, span), self.eval(v.expr(), file))
                    })
                    .collect(),
            ),
            Expression::StringTemplate(t) => return self.template(t, file, span),
            Expression::HeredocTemplate(h) => return self.template(&h.template, file, span),
            Expression::Parenthesis(p) => return self.eval(p.inner(), file).relocated(span),
            Expression::Variable(v) => RV::Unknown(format!("{} is only known inside an expression", v.as_str())),
            Expression::Conditional(c) => {
                let cond = self.eval(&c.cond_expr, file);
                let (then, els) = (self.eval(&c.true_expr, file), self.eval(&c.false_expr, file));
                match cond.v {
                    RV::Bool(true) => return then.relocated(span),
                    RV::Bool(false) => return els.relocated(span),
                    _ => {
                        let shown = self.text(file, self.span(file, &c.cond_expr, span)).trim().to_string();
                        RV::If { cond: Arc::from(shown), then: Box::new(then), els: Box::new(els) }
                    }
                }
            }
            Expression::FuncCall(f) => return self.call(f, file, span),
            Expression::Traversal(t) => return self.traversal(&t.expr, &t.operators, file, span),
            Expression::UnaryOp(u) => match (u.operator.value(), self.eval(&u.expr, file).v) {
                (UnaryOperator::Neg, RV::Num(n)) => RV::Num(-n),
                (UnaryOperator::Not, RV::Bool(b)) => RV::Bool(!b),
                _ => RV::Unknown("operation on a value only known at apply time".into()),
            },
            Expression::BinaryOp(b) => {
                binary(*b.operator.value(), self.eval(&b.lhs_expr, file), self.eval(&b.rhs_expr, file))
            }
            Expression::ForExpr(_) => RV::Unknown("for expression".into()),
        };
        R::new(v, span)
    }

    fn template(&self, t: &Template, file: usize, span: Span) -> R {
        // `"${expr}"` is the value of expr itself, whatever its type (HCL's
        // rule, and how Terraform JSON writes every expression).
        if let (1, Some(Element::Interpolation(i))) = (t.len(), t.get(0)) {
            return self.eval(&i.expr, file).relocated(span);
        }
        let mut values = Vec::new();
        for element in t.iter() {
            if let Element::Interpolation(i) = element {
                values.push(self.eval(&i.expr, file));
            }
        }
        self.template_of(t, file, span, values)
    }

    /// The text of template `t` with its interpolations' `values`; one
    /// that is a conditional (a per-instance `each.key`) makes the whole
    /// text one, branch for branch (`"jobs-${each.key}"` is `jobs-acme` or
    /// `jobs-globex`).
    fn template_of(&self, t: &Template, file: usize, span: Span, mut values: Vec<R>) -> R {
        // Two conditionals make at most 16 x 16 texts; more stay opaque.
        let conditionals = values.iter().filter(|v| matches!(v.v, RV::If { .. })).count();
        if let Some(i) = values.iter().position(|v| matches!(v.v, RV::If { .. })).filter(|_| conditionals <= 2) {
            let RV::If { cond, then, els } = values[i].v.clone() else { return R::unknown("unreachable", span) };
            let with = |branch: R| {
                let mut vs = values.clone();
                vs[i] = branch;
                self.template_of(t, file, span, vs)
            };
            let (then, els) = (with(*then), with(*els));
            return R::new(RV::If { cond, then: Box::new(then), els: Box::new(els) }, span);
        }
        values.reverse();
        let mut text = Text::default();
        for element in t.iter() {
            match element {
                Element::Literal(s) => text.push(Part::Lit(s.value().clone())),
                Element::Interpolation(i) => {
                    let Some(value) = values.pop() else { return R::unknown("template", span) };
                    match value.v {
                        RV::Str(t) => text.extend(t),
                        RV::Num(n) => text.push(Part::Lit(format_num(n))),
                        RV::Bool(b) => text.push(Part::Lit(b.to_string())),
                        _ => {
                            text.push(Part::Opaque(self.text(file, self.span(file, &i.expr, span)).trim().to_string()))
                        }
                    }
                }
                Element::Directive(_) => return R::unknown("template directive", span),
            }
        }
        R::new(RV::Str(text), span)
    }

    fn traversal(
        &self,
        base: &Expression,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
        file: usize,
        span: Span,
    ) -> R {
        let attr_at = |i: usize| attr_at(ops, i);
        let (value, rest) = match base {
            Expression::Variable(root) => match root.as_str() {
                "var" => match attr_at(0) {
                    Some(name) => (self.variable(name, span), 1),
                    None => return R::unknown("malformed variable reference", span),
                },
                "local" => match attr_at(0) {
                    Some(name) => (self.local(name, span), 1),
                    None => return R::unknown("malformed local reference", span),
                },
                "data" => return self.data_source(ops, file, span),
                "module" => match (attr_at(0), attr_at(1)) {
                    (Some(module), Some(output)) => (self.module_output(module, output, span), 2),
                    _ => return R::unknown("a reference to a whole module", span),
                },
                "count" | "each" => return self.instance_reference(root.as_str(), ops, file, span),
                // The module's folder: where its relative paths are read
                // from (an archive's `source_dir`).
                "path" if attr_at(0) == Some("module") && ops.len() == 1 => {
                    let folder = self.files.get(file).and_then(|f| f.source.path.parent()).unwrap_or(Path::new(""));
                    let folder = if folder.as_os_str().is_empty() { Path::new(".") } else { folder };
                    let absolute = folder.canonicalize().unwrap_or_else(|_| folder.to_path_buf());
                    return R::new(RV::Str(Text::lit(absolute.to_string_lossy().into_owned())), span);
                }
                "path" | "terraform" | "self" => {
                    return R::unknown(format!("{}.* is only known at plan time", root.as_str()), span);
                }
                kind => {
                    let Some(name) = attr_at(0) else { return R::unknown("reference to a whole provider", span) };
                    let address = format!("{kind}.{name}");
                    if !self.resources.contains_key(&address) {
                        return R::unknown(format!("{address} is not in this module"), span);
                    }
                    // `aws_sqs_queue.q[0].arn`, `aws_lambda_function.f["a"]`:
                    // count/for_each instances are analysed once, under the
                    // resource's address; a literal key picks one instance's
                    // settings.
                    let mut i = 1;
                    let mut key = None;
                    while let Some(op) = ops.get(i).map(|o| o.value()) {
                        match op {
                            TraversalOperator::Index(e) if i == 1 => key = self.eval(e, file).literal(),
                            TraversalOperator::LegacyIndex(n) if i == 1 => key = Some(n.value().to_string()),
                            TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) => {}
                            _ => break,
                        }
                        i += 1;
                    }
                    return match attr_at(i) {
                        Some(attribute) => self.resource_attribute(&address, key.as_deref(), attribute, span),
                        None => R::unknown(format!("a reference to the whole of {address}"), span),
                    };
                }
            },
            other => (self.eval(other, file), 0),
        };
        self.step(value, &ops[rest..], file, span)
    }

    /// `value` followed by the traversal `ops` (`.key`, `[index]`), in
    /// each branch of a conditional value.
    pub(super) fn step(&self, value: R, ops: &[hcl_edit::Decorated<TraversalOperator>], file: usize, span: Span) -> R {
        if ops.is_empty() {
            return value.relocated_deep(span);
        }
        if let RV::If { cond, then, els } = value.v {
            let then = self.step(*then, ops, file, span);
            let els = self.step(*els, ops, file, span);
            return R::new(RV::If { cond, then: Box::new(then), els: Box::new(els) }, span);
        }
        let mut value = value;
        for op in ops {
            value = match (op.value(), &value.v) {
                (TraversalOperator::GetAttr(key), RV::Map(_)) => match value.entry(key.as_str()) {
                    Some((_, v)) => v.clone(),
                    None => return R::unknown(format!("no attribute {}", key.as_str()), span),
                },
                (TraversalOperator::Index(e), RV::Map(_) | RV::List(_)) => {
                    let key = self.eval(e, file).literal();
                    match (key, &value.v) {
                        (Some(k), RV::Map(_)) => match value.entry(&k) {
                            Some((_, v)) => v.clone(),
                            None => return R::unknown(format!("no key {k}"), span),
                        },
                        (Some(k), RV::List(items)) => match k.parse::<usize>().ok().and_then(|i| items.get(i)) {
                            Some(v) => v.clone(),
                            None => return R::unknown(format!("no index {k}"), span),
                        },
                        _ => return R::unknown("index only known at plan time", span),
                    }
                }
                (TraversalOperator::LegacyIndex(i), RV::List(items)) => match items.get(*i.value() as usize) {
                    Some(v) => v.clone(),
                    None => return R::unknown("no such index", span),
                },
                (_, RV::Unknown(_)) => return value.relocated(span),
                (_, RV::If { .. }) => return self.step(value, std::slice::from_ref(op), file, span),
                _ => return R::unknown("traversal of a value only known at plan time", span),
            };
        }
        value.relocated_deep(span)
    }

    /// An output of a module called from this one.
    pub(super) fn module_output(&self, module: &str, output: &str, span: Span) -> R {
        let children = self.children.borrow();
        for child in children.iter() {
            match child {
                Child::Local { name, scope } if name == module => {
                    return match scope.outputs.get(output) {
                        Some((file, expr)) => {
                            scope.guarded(&format!("output.{output}"), span, |s| s.eval_written(expr, *file))
                        }
                        None => R::unknown(format!("module {module} has no output {output}"), span),
                    };
                }
                Child::Registry { name, outputs, .. } if name == module => {
                    return match outputs.get(output) {
                        Some(value) => value.clone(),
                        None => R::unknown(format!("output {output} of module {module} is not modelled"), span),
                    };
                }
                _ => {}
            }
        }
        R::unknown(format!("module {module} is not loaded"), span)
    }

    /// A variable's value: module argument or tfvars first, then its default.
    fn variable(&self, name: &str, span: Span) -> R {
        if let Some(value) = self.inputs.get(name) {
            return value.clone();
        }
        match self.defaults.get(name) {
            Some((file, Some(default))) => {
                self.guarded(&format!("var.{name}"), span, |s| s.eval_written(default, *file))
            }
            Some((_, None)) => R::unknown(format!("variable {name} has no default"), span),
            None => R::unknown(format!("variable {name} is not declared"), span),
        }
    }

    fn local(&self, name: &str, span: Span) -> R {
        match self.locals.get(name) {
            Some((file, expr)) => self.guarded(&format!("local.{name}"), span, |s| s.eval_written(expr, *file)),
            None => R::unknown(format!("local {name} is not declared"), span),
        }
    }

    /// Evaluate with a guard against reference cycles (`a = local.b`, `b = local.a`).
    pub(super) fn guarded(&self, key: &str, span: Span, f: impl FnOnce(&Self) -> R) -> R {
        if self.evaluating.borrow().iter().any(|k| k == key) || self.evaluating.borrow().len() > 64 {
            return R::unknown(format!("{key} refers to itself"), span);
        }
        self.evaluating.borrow_mut().push(key.to_string());
        let value = f(self);
        self.evaluating.borrow_mut().pop();
        value
    }

    fn call(&self, f: &FuncCall, file: usize, span: Span) -> R {
        if !f.name.namespace.is_empty() {
            return R::unknown("provider function", span);
        }
        let args: Vec<R> = f.args.iter().map(|a| self.eval(a, file)).collect();
        functions::call(f.name.name.as_str(), &args, span)
    }
}
