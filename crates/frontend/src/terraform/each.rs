//! `count` and `for_each` in a module's evaluation: the instances a
//! block makes, `each.*` / `count.index`, and the attributes of another
//! resource (its instances' numbers, or a reference that links).

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Block, Body};
use hcl_edit::template::Element;

use super::eval::{Scope, attr_at, labels};
use super::instances::{Instances, MAX_COUNT, absent_default, per_instance};
use crate::value::{Part, R, RV, Text};
use sqsguard_source::Span;

impl Scope {
    /// `attribute` of the resource `address` of this module. A number or a
    /// bool it sets (or AWS's default for an absent one the field table
    /// knows) is that value, kept from being edited here; anything else (an
    /// ARN, a name, an ID) stays a reference, which is what links.
    pub(super) fn resource_attribute(&self, address: &str, key: Option<&str>, attribute: &str, span: Span) -> R {
        let symbolic = || {
            let part = Part::Attr { resource: format!("{}{address}", self.prefix), attribute: attribute.to_string() };
            R::new(RV::Str(Text(vec![part])), span)
        };
        let Some((file, block)) = self.resource_block(address) else { return symbolic() };
        let value = match block.body.get_attribute(attribute) {
            Some(attr) => {
                let mut instances = self.instances_of_resource(address);
                if let (Some(key), Instances::Keyed { items, .. }) = (key, &mut instances) {
                    *items = items.iter().filter(|(k, _)| k.literal().as_deref() == Some(key)).cloned().collect();
                }
                self.guarded(&format!("{address}.{attribute}"), span, |s| {
                    s.within(instances, |s| s.eval(&attr.value, file))
                })
            }
            None => match absent_default(address.split('.').next().unwrap_or_default(), attribute) {
                Some(n) => R::new(RV::Num(n as f64), span),
                None => return symbolic(),
            },
        };
        let alternatives = value.alternatives();
        let scalar = |r: &R| matches!(r.v, RV::Num(_) | RV::Bool(_));
        if alternatives.iter().any(|(_, r)| scalar(r))
            && alternatives.iter().all(|(_, r)| scalar(r) || matches!(r.v, RV::Unknown(_)))
        {
            value.derived(span)
        } else {
            symbolic()
        }
    }

    /// The block of the resource `address` of this module, with its file.
    fn resource_block(&self, address: &str) -> Option<(usize, &Block)> {
        let &(file, index) = self.resources.get(address)?;
        let block = self.files.get(file)?.body.get(index)?.as_block()?;
        Some((file, block))
    }

    /// A resource block's props, its `count.index` / `each.*` evaluated for
    /// its instances.
    pub(crate) fn resource(&self, body: &Body, file: usize, span: Span) -> R {
        self.for_instances_of(body, file, |s| s.block(body, file, span))
    }

    /// `f` evaluated for the instances of the block `body` (a resource or a
    /// module call) makes with its `count` or `for_each`.
    pub(crate) fn for_instances_of<T>(&self, body: &Body, file: usize, f: impl FnOnce(&Self) -> T) -> T {
        let instances = self.instances_of(body, file);
        self.within(instances, f)
    }

    fn within<T>(&self, instances: Instances, f: impl FnOnce(&Self) -> T) -> T {
        self.instances.borrow_mut().push(instances);
        let value = f(self);
        self.instances.borrow_mut().pop();
        value
    }

    /// The instances of the resource or module call (`module.NAME`)
    /// `address` of this module, evaluated once: `for_each` and `count`
    /// cannot read `each`, so they are the same wherever they are asked.
    fn instances_of_resource(&self, address: &str) -> Instances {
        if let Some(known) = self.instance_cache.borrow().get(address) {
            return known.clone();
        }
        let block = match address.strip_prefix("module.") {
            Some(name) => self.module_block(name),
            None => self.resource_block(address),
        };
        let instances = match block {
            Some((f, block)) => self.instances_of(&block.body, f),
            None => Instances::Unknown(format!("{address} is not in this module")),
        };
        self.instance_cache.borrow_mut().insert(address.to_string(), instances.clone());
        instances
    }

    /// The instances a resource block's `for_each` or `count` makes.
    fn instances_of(&self, body: &Body, file: usize) -> Instances {
        if let Some(attr) = body.get_attribute("for_each") {
            if let Some(of) = self.whole_resource(&attr.value) {
                return of;
            }
            let collection = self.eval(&attr.value, file);
            let items = match &collection.v {
                RV::Map(entries) => {
                    entries.iter().map(|(k, ks, v)| (R::new(RV::Str(Text::lit(k.clone())), *ks), v.clone())).collect()
                }
                RV::List(items) => {
                    let mut keyed = Vec::new();
                    for item in items {
                        match item.literal() {
                            Some(k) => keyed.push((R::new(RV::Str(Text::lit(k)), item.span), item.clone())),
                            None => return Instances::Unknown("a for_each key only known at plan time".into()),
                        }
                    }
                    keyed
                }
                RV::Unknown(why) => return Instances::Unknown(why.clone()),
                _ => return Instances::Unknown("a for_each collection only known at plan time".into()),
            };
            return Instances::Keyed { var: "each.key", items: items.into() };
        }
        if let Some(attr) = body.get_attribute("count") {
            let count = self.eval(&attr.value, file);
            return match count.v {
                RV::Num(n) if n >= 0.0 && n.fract() == 0.0 && n <= MAX_COUNT => Instances::Keyed {
                    var: "count.index",
                    items: (0..n as usize)
                        .map(|i| (R::new(RV::Num(i as f64), count.span), R::new(RV::Null, count.span)))
                        .collect::<Vec<_>>()
                        .into(),
                },
                RV::Unknown(why) => Instances::Unknown(why),
                _ => Instances::Unknown("a count only known at plan time".into()),
            };
        }
        Instances::One
    }

    /// `aws_sqs_queue.tenant` or `module.queue` written whole: a resource
    /// or a module call of this module.
    fn whole_resource(&self, expr: &Expression) -> Option<Instances> {
        let expr = match expr {
            // `"${aws_sqs_queue.tenant}"`: how Terraform JSON writes it.
            Expression::StringTemplate(t) => match (t.len(), t.get(0)) {
                (1, Some(Element::Interpolation(i))) => &i.expr,
                _ => return None,
            },
            Expression::Parenthesis(p) => p.inner(),
            other => other,
        };
        let Expression::Traversal(t) = expr else { return None };
        let Expression::Variable(kind) = &t.expr else { return None };
        let [op] = t.operators.as_slice() else { return None };
        let TraversalOperator::GetAttr(name) = op.value() else { return None };
        if kind.as_str() == "module" {
            return Some(Instances::OfModule(name.as_str().to_string()));
        }
        let address = format!("{}.{}", kind.as_str(), name.as_str());
        self.resources.contains_key(&address).then_some(Instances::Of(address))
    }

    /// The block of the call of module `name` of this module, with its file.
    fn module_block(&self, name: &str) -> Option<(usize, &Block)> {
        self.files.iter().enumerate().find_map(|(fi, f)| {
            f.body
                .blocks()
                .find(|b| b.ident.as_str() == "module" && labels(b).first().map(String::as_str) == Some(name))
                .map(|b| (fi, b))
        })
    }

    /// `count.index`, `each.key`, `each.value...` of the resource being
    /// evaluated.
    pub(super) fn instance_reference(
        &self,
        root: &str,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
        file: usize,
        span: Span,
    ) -> R {
        let attr_at = |i: usize| attr_at(ops, i);
        let current = self.instances.borrow().last().cloned().unwrap_or(Instances::One);
        // `for_each = aws_sqs_queue.tenant`: the keys are that resource's.
        let keyed = |current: &Instances| match current {
            Instances::Of(address) => self.instances_of_resource(address),
            Instances::OfModule(name) => self.instances_of_resource(&format!("module.{name}")),
            other => other.clone(),
        };
        match (root, attr_at(0), &current) {
            ("each", Some("value"), Instances::Of(address)) => match attr_at(1) {
                Some(attribute) => self.resource_attribute(address, None, attribute, span),
                None => R::unknown(format!("the whole of {address}"), span),
            },
            ("each", Some("value"), Instances::OfModule(name)) => match attr_at(1) {
                Some(output) => {
                    let value = self.module_output(name, output, span);
                    self.step(value, &ops[2..], file, span)
                }
                None => R::unknown(format!("the whole of module.{name}"), span),
            },
            ("each", Some("value"), Instances::Keyed { var: "each.key", items }) => {
                let value = per_instance("each.key", items, |(_, v)| v.clone(), span);
                self.step(value, &ops[1..], file, span)
            }
            ("each", Some("key"), _) | ("count", Some("index"), _) => match keyed(&current) {
                Instances::Keyed { var, items } if var.starts_with(root) => {
                    per_instance(var, &items, |(k, _)| k.clone(), span)
                }
                Instances::Unknown(why) => R::unknown(why, span),
                _ => R::unknown(format!("{root}.* outside a resource that has it"), span),
            },
            (_, _, Instances::Unknown(why)) => R::unknown(why.clone(), span),
            _ => R::unknown(format!("{root}.* outside a resource that has it"), span),
        }
    }
}
