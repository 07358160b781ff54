//! Static evaluation of CloudFormation intrinsic functions.
//!
//! [`Resolver::resolve`] turns a property tree into an [`R`] tree where
//! parameter defaults, mappings, `Fn::Sub`, `Fn::Join`, `Fn::Select` and
//! `Fn::Split` are evaluated, `Ref`/`Fn::GetAtt` between resources become
//! symbolic [`Part::Attr`] references, `Fn::If` keeps both branches, and
//! anything that cannot be known before deployment (`Fn::ImportValue`, a
//! parameter without a Default, an SSM dynamic reference) is
//! [`RV::Unknown`]. Every resolved node keeps the span of the place it is
//! used, so a finding about a value from a parameter default points at the
//! attribute, not at the parameter.

use std::collections::HashMap;
use std::sync::Arc;

use super::template::Template;
use crate::stage::{Given, Stage};
use crate::value::format_num;
pub use crate::value::{Part, R, RV, Text};
use sqsguard_source::Span;
use sqsguard_syntax::{Kind, Node};

/// Resolves values against one template.
pub(crate) struct Resolver<'t, 'a> {
    pub template: &'t Template<'a>,
    /// Parameter values given for the run, which win over Defaults.
    stage: Option<&'t Stage>,
    /// Serverless: the places whose value a variable took from the
    /// command line (`--stage`, `--param`), and the words of that input.
    given: Option<&'t HashMap<Span, Arc<str>>>,
}

/// Not an intrinsic of CloudFormation: the Serverless front-end writes
/// `{UNRESOLVED: "${ssm:/path}"}` where a variable is only known at deploy
/// time, so that it resolves to unknown like any deploy-time value.
pub(crate) const UNRESOLVED: &str = "Fn::SqsguardUnresolved";

const PSEUDO: &[&str] = &[
    "AWS::AccountId",
    "AWS::NotificationARNs",
    "AWS::Partition",
    "AWS::Region",
    "AWS::StackId",
    "AWS::StackName",
    "AWS::URLSuffix",
];

impl<'t, 'a> Resolver<'t, 'a> {
    #[cfg(test)]
    pub(crate) fn new(template: &'t Template<'a>) -> Self {
        Resolver { template, stage: None, given: None }
    }

    /// A resolver that reads the stage's Parameter values, and knows which
    /// places hold a value given on the command line.
    pub(crate) fn for_stage(template: &'t Template<'a>, stage: &'t Stage, given: &'t HashMap<Span, Arc<str>>) -> Self {
        Resolver { template, stage: Some(stage), given: (!given.is_empty()).then_some(given) }
    }

    pub(crate) fn resolve(&self, node: &Node) -> R {
        let mut r = self.resolve_node(node);
        if let Some(given) = self.given.and_then(|g| g.get(&node.span))
            && r.given.is_none()
        {
            r.given = Some(given.clone());
        }
        r
    }

    fn resolve_node(&self, node: &Node) -> R {
        let span = node.span;
        match &node.kind {
            Kind::Null => R::new(RV::Null, span),
            Kind::Bool(b) => R::new(RV::Bool(*b), span),
            Kind::Number(s) => match parse_number(s) {
                Some(n) => R::new(RV::Num(n), span),
                None => R::new(RV::Str(Text::lit(s.clone())), span),
            },
            Kind::String(s) if s.contains("{{resolve:") => R::unknown(format!("dynamic reference {s}"), span),
            Kind::String(s) => R::new(RV::Str(Text::lit(s.clone())), span),
            Kind::Seq(items) => R::new(RV::List(self.resolve_list(items)), span),
            Kind::Map(entries) => {
                if let [only] = entries.as_slice()
                    && (only.key == "Ref" || only.key == "Condition" || only.key.starts_with("Fn::"))
                {
                    return self.intrinsic(&only.key, &only.value, span);
                }
                let resolved = entries
                    .iter()
                    .map(|e| (e.key.clone(), e.key_span, self.resolve(&e.value)))
                    .filter(|(_, _, v)| v.v != RV::NoValue)
                    .collect();
                R::new(RV::Map(resolved), span)
            }
        }
    }

    fn resolve_list(&self, items: &[Node]) -> Vec<R> {
        items.iter().map(|i| self.resolve(i)).filter(|r| r.v != RV::NoValue).collect()
    }

    fn intrinsic(&self, name: &str, arg: &Node, span: Span) -> R {
        match name {
            "Ref" => self.reference(arg, span),
            "Fn::GetAtt" => self.get_att(arg, span),
            "Fn::Sub" => self.sub(arg, span),
            "Fn::Join" => self.join(arg, span),
            "Fn::If" => self.if_(arg, span),
            "Fn::FindInMap" => self.find_in_map(arg, span),
            "Fn::Select" => self.select(arg, span),
            "Fn::Split" => self.split(arg, span),
            UNRESOLVED => {
                R::unknown(format!("{} is only known at deploy time", arg.as_str().unwrap_or("a variable")), span)
            }
            other => R::unknown(format!("{other} is only known at deploy time"), span),
        }
    }

    fn reference(&self, arg: &Node, span: Span) -> R {
        let Some(name) = arg.as_str() else { return R::unknown("Ref to a computed name", span) };
        if name == "AWS::NoValue" {
            return R::new(RV::NoValue, span);
        }
        if PSEUDO.contains(&name) {
            return R::new(RV::Str(Text(vec![Part::Opaque(name.to_string())])), span);
        }
        if let Some(param) = self.template.parameter(name) {
            return self.parameter(name, param, span);
        }
        if self.template.declares(name) {
            let part = Part::Attr { resource: name.to_string(), attribute: "Ref".to_string() };
            return R::new(RV::Str(Text(vec![part])), span);
        }
        // SAM: `!Ref Fn.Alias` / `!Ref Fn.Version` with AutoPublishAlias.
        if let Some((res, attr)) = name.split_once('.')
            && self.template.declares(res)
        {
            let part = Part::Attr { resource: res.to_string(), attribute: attr.to_string() };
            return R::new(RV::Str(Text(vec![part])), span);
        }
        R::unknown(format!("Ref to {name}, which the template does not declare"), span)
    }

    /// A parameter's value given for the run, else its Default, placed at
    /// the span where it is used.
    fn parameter(&self, name: &str, param: &Node, span: Span) -> R {
        if let Some(given) = self.stage.and_then(|s| s.parameter(name)) {
            return given_parameter(param, given, span);
        }
        let Some(default) = param.get("Default") else {
            return R::unknown(format!("parameter {name} has no Default"), span);
        };
        let is_list = param
            .get("Type")
            .and_then(Node::as_str)
            .is_some_and(|t| t == "CommaDelimitedList" || t.starts_with("List<"));
        let mut value = self.resolve(default);
        if is_list && let Some(s) = value.literal() {
            let items = s.split(',').map(|p| R::new(RV::Str(Text::lit(p.trim())), span)).collect();
            value = R::new(RV::List(items), span);
        }
        if let RV::Str(t) = &value.v
            && t.literal().is_some_and(|s| s.starts_with("{{resolve:"))
        {
            return R::unknown(format!("parameter {name} is a dynamic reference"), span);
        }
        if param.get("Type").and_then(Node::as_str).is_some_and(|t| t.starts_with("AWS::SSM::Parameter")) {
            return R::unknown(format!("parameter {name} is read from SSM at deploy time"), span);
        }
        value.relocated(span)
    }

    fn get_att(&self, arg: &Node, span: Span) -> R {
        let (res, attr) = match arg.as_seq() {
            Some([r, a]) => (r.as_str(), a.as_str()),
            _ => match arg.as_str().and_then(|s| s.split_once('.')) {
                Some((r, a)) => (Some(r), Some(a)),
                None => (None, None),
            },
        };
        match (res, attr) {
            (Some(r), Some(a)) if self.template.declares(r) => {
                let part = Part::Attr { resource: r.to_string(), attribute: a.to_string() };
                R::new(RV::Str(Text(vec![part])), span)
            }
            _ => R::unknown("Fn::GetAtt of something the template does not declare", span),
        }
    }

    fn sub(&self, arg: &Node, span: Span) -> R {
        let (template, vars) = match &arg.kind {
            Kind::String(s) => (s.as_str(), None),
            Kind::Seq(items) => match items.as_slice() {
                [t, v] => match t.as_str() {
                    Some(s) => (s, Some(v)),
                    None => return R::unknown("Fn::Sub of a computed string", span),
                },
                _ => return R::unknown("malformed Fn::Sub", span),
            },
            _ => return R::unknown("malformed Fn::Sub", span),
        };
        let mut text = Text::default();
        let mut rest = template;
        while let Some(start) = rest.find("${") {
            text.push(Part::Lit(rest[..start].to_string()));
            let after = &rest[start + 2..];
            let Some(end) = after.find('}') else {
                text.push(Part::Lit(rest[start..].to_string()));
                rest = "";
                break;
            };
            let name = after[..end].trim();
            rest = &after[end + 1..];
            if let Some(literal) = name.strip_prefix('!') {
                text.push(Part::Lit(format!("${{{literal}}}")));
                continue;
            }
            if let Some(var) = vars.and_then(|v| v.get(name)) {
                match self.resolve(var).v {
                    RV::Str(t) => text.extend(t),
                    RV::Num(n) => text.push(Part::Lit(format_num(n))),
                    _ => text.push(Part::Opaque(name.to_string())),
                }
                continue;
            }
            let part = match name.split_once('.') {
                Some((res, attr)) if self.template.declares(res) => {
                    Part::Attr { resource: res.to_string(), attribute: attr.to_string() }
                }
                _ => {
                    let node = Node::new(Kind::String(name.to_string()), span);
                    match self.reference(&node, span).v {
                        RV::Str(t) => {
                            text.extend(t);
                            continue;
                        }
                        RV::Num(n) => Part::Lit(format_num(n)),
                        _ => Part::Opaque(name.to_string()),
                    }
                }
            };
            text.push(part);
        }
        text.push(Part::Lit(rest.to_string()));
        if text.0.iter().any(|p| matches!(p, Part::Lit(s) if s.contains("{{resolve:"))) {
            return R::unknown("dynamic reference", span);
        }
        R::new(RV::Str(text), span)
    }

    fn join(&self, arg: &Node, span: Span) -> R {
        let Some([delim, list]) = arg.as_seq() else { return R::unknown("malformed Fn::Join", span) };
        let Some(delim) = delim.as_str() else { return R::unknown("Fn::Join with a computed delimiter", span) };
        let RV::List(items) = self.resolve(list).v else { return R::unknown("Fn::Join over a computed list", span) };
        let mut text = Text::default();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                text.push(Part::Lit(delim.to_string()));
            }
            match item.v {
                RV::Str(t) => text.extend(t),
                RV::Num(n) => text.push(Part::Lit(format_num(n))),
                _ => return R::unknown("Fn::Join over a value only known at deploy time", span),
            }
        }
        R::new(RV::Str(text), span)
    }

    fn if_(&self, arg: &Node, span: Span) -> R {
        let Some([cond, then, els]) = arg.as_seq() else { return R::unknown("malformed Fn::If", span) };
        let Some(cond) = cond.as_str() else { return R::unknown("Fn::If with a computed condition", span) };
        R::new(
            RV::If { cond: Arc::from(cond), then: Box::new(self.resolve(then)), els: Box::new(self.resolve(els)) },
            span,
        )
    }

    fn find_in_map(&self, arg: &Node, span: Span) -> R {
        let Some(args) = arg.as_seq() else { return R::unknown("malformed Fn::FindInMap", span) };
        let [map, top, second, rest @ ..] = args else { return R::unknown("malformed Fn::FindInMap", span) };
        let keys: Vec<Option<String>> = [map, top, second].iter().map(|n| self.resolve(n).literal()).collect();
        let default = rest.first().and_then(|d| d.get("DefaultValue"));
        let [Some(map), Some(top), Some(second)] = keys.as_slice() else {
            return R::unknown("Fn::FindInMap with a key only known at deploy time", span);
        };
        let found =
            self.template.mappings.and_then(|m| m.get(map)).and_then(|m| m.get(top)).and_then(|m| m.get(second));
        match found.or(default) {
            Some(node) => self.resolve(node).relocated(span),
            None => R::unknown(format!("Fn::FindInMap {map}/{top}/{second} not found"), span),
        }
    }

    fn select(&self, arg: &Node, span: Span) -> R {
        let Some([index, list]) = arg.as_seq() else { return R::unknown("malformed Fn::Select", span) };
        let index = self.resolve(index).literal().and_then(|s| s.parse::<usize>().ok());
        match (index, self.resolve(list).v) {
            (Some(i), RV::List(items)) if i < items.len() => items[i].clone().relocated(span),
            _ => R::unknown("Fn::Select over a value only known at deploy time", span),
        }
    }

    fn split(&self, arg: &Node, span: Span) -> R {
        let Some([delim, source]) = arg.as_seq() else { return R::unknown("malformed Fn::Split", span) };
        match (delim.as_str(), self.resolve(source).literal()) {
            (Some(d), Some(s)) if !d.is_empty() => {
                R::new(RV::List(s.split(d).map(|p| R::new(RV::Str(Text::lit(p)), span)).collect()), span)
            }
            _ => R::unknown("Fn::Split of a value only known at deploy time", span),
        }
    }
}

/// The value `--parameter-overrides` (or a samconfig file) gave a
/// parameter, typed as the parameter's Type says (CloudFormation passes
/// every parameter value as a string), remembering who gave it.
fn given_parameter(param: &Node, given: &Given, span: Span) -> R {
    let kind = param.get("Type").and_then(Node::as_str).unwrap_or("String");
    let text = |s: &str| R::new(RV::Str(Text::lit(s)), span);
    let mut r = if kind == "CommaDelimitedList" || kind.starts_with("List<") {
        R::new(RV::List(given.value.split(',').map(|p| text(p.trim())).collect()), span)
    } else if kind.starts_with("AWS::SSM::Parameter") {
        R::unknown(format!("{} names an SSM parameter, read at deploy time", given.from), span)
    } else if kind == "Number" {
        match parse_number(given.value.trim()) {
            Some(n) => R::new(RV::Num(n), span),
            None => R::unknown(format!("{} is not a number", given.from), span),
        }
    } else {
        text(&given.value)
    };
    if let RV::List(items) = &mut r.v {
        items.iter_mut().for_each(|i| i.given = Some(given.from.clone()));
    }
    r.given = Some(given.from.clone());
    r
}

fn parse_number(s: &str) -> Option<f64> {
    if let Some(hex) = s.strip_prefix("0x") {
        return i64::from_str_radix(hex, 16).ok().map(|n| n as f64);
    }
    if let Some(oct) = s.strip_prefix("0o") {
        return i64::from_str_radix(oct, 8).ok().map(|n| n as f64);
    }
    s.parse::<f64>().ok().filter(|n| n.is_finite())
}

#[cfg(test)]
mod tests;
