//! Resolved values: what a front-end makes of a template's or module's
//! expressions before they become model attributes.
//!
//! An [`R`] is a value plus the span where it is used. Literals are
//! evaluated; references to resources stay symbolic ([`Part::Attr`]) so they
//! can be linked; conditionals keep both branches ([`RV::If`]); what only
//! deployment can tell is [`RV::Unknown`].

use std::sync::Arc;

use sqsguard_model::{Origin, When};
use sqsguard_source::Span;

/// A resolved value and the span it is used at.
#[derive(Clone, Debug)]
pub struct R {
    pub v: RV,
    pub span: Span,
    /// A literal brought from another place (a Terraform variable's
    /// default, a local, a `.tfvars` value, a module argument): where it is
    /// written, for a fix to change it there (see [`R::written_in`]).
    pub written: Option<Arc<Origin>>,
    /// A value given for the run, not written in any file (a
    /// `--parameter-overrides` value, a value chosen by `--stage`): the
    /// input's words (see [`crate::stage::Given::from`]).
    pub given: Option<Arc<str>>,
}

/// Values compare by what they hold and where they are used.
impl PartialEq for R {
    fn eq(&self, other: &R) -> bool {
        self.v == other.v && self.span == other.span
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum RV {
    Null,
    Bool(bool),
    Num(f64),
    Str(Text),
    List(Vec<R>),
    /// Entries with their key spans.
    Map(Vec<(String, Span, R)>),
    If {
        cond: Arc<str>,
        then: Box<R>,
        els: Box<R>,
    },
    /// `Ref: AWS::NoValue`: the property is removed.
    NoValue,
    Unknown(String),
}

/// A string made of literal text and references resolved only at deploy time.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Text(pub Vec<Part>);

#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Lit(String),
    /// `Ref` (attribute "Ref") or `Fn::GetAtt` of a resource in the template.
    Attr {
        resource: String,
        attribute: String,
    },
    /// A pseudo parameter or another value only known at deploy time.
    Opaque(String),
}

impl Text {
    pub(crate) fn lit(s: impl Into<String>) -> Self {
        Text(vec![Part::Lit(s.into())])
    }

    /// The whole string, when every part is literal.
    pub(crate) fn literal(&self) -> Option<String> {
        let mut out = String::new();
        for p in &self.0 {
            match p {
                Part::Lit(s) => out.push_str(s),
                _ => return None,
            }
        }
        Some(out)
    }

    /// The resource and attribute, when the string is exactly one reference.
    pub(crate) fn reference(&self) -> Option<(&str, &str)> {
        match self.0.as_slice() {
            [Part::Attr { resource, attribute }] => Some((resource, attribute)),
            _ => None,
        }
    }

    /// The text with non-literal parts written as `${...}`.
    pub(crate) fn display(&self) -> String {
        self.0
            .iter()
            .map(|p| match p {
                Part::Lit(s) => s.clone(),
                Part::Attr { resource, attribute } if attribute == "Ref" || attribute.is_empty() => {
                    format!("${{{resource}}}")
                }
                Part::Attr { resource, attribute } => format!("${{{resource}.{attribute}}}"),
                Part::Opaque(s) => format!("${{{s}}}"),
            })
            .collect()
    }

    pub(crate) fn ends_literal(&self) -> bool {
        matches!(self.0.last(), Some(Part::Lit(_)))
    }

    pub(crate) fn push(&mut self, part: Part) {
        if matches!(&part, Part::Lit(s) if s.is_empty()) {
            return;
        }
        match (self.0.last_mut(), part) {
            (Some(Part::Lit(prev)), Part::Lit(next)) => prev.push_str(&next),
            (_, part) => self.0.push(part),
        }
    }

    pub(crate) fn extend(&mut self, other: Text) {
        for p in other.0 {
            self.push(p);
        }
    }
}

impl R {
    pub(crate) fn new(v: RV, span: Span) -> Self {
        R { v, span, written: None, given: None }
    }

    pub(crate) fn unknown(why: impl Into<String>, span: Span) -> Self {
        R::new(RV::Unknown(why.into()), span)
    }

    /// Every branch this value can take, with the conditions that lead to it;
    /// the end of a per-instance chain, which no instance reaches
    /// ([`When::is_no_instance`]), is none.
    pub(crate) fn alternatives(&self) -> Vec<(When, &R)> {
        let mut out = Vec::new();
        self.collect_alternatives(When::always(), &mut out);
        out
    }

    fn collect_alternatives<'a>(&'a self, when: When, out: &mut Vec<(When, &'a R)>) {
        match &self.v {
            RV::If { cond, then, els } => {
                then.collect_alternatives(when.with(cond, true), out);
                els.collect_alternatives(when.with(cond, false), out);
            }
            _ if when.is_no_instance() => {}
            _ => out.push((when, self)),
        }
    }

    /// The entry `key` of a map, with its key span.
    pub(crate) fn entry(&self, key: &str) -> Option<(Span, &R)> {
        match &self.v {
            RV::Map(entries) => entries.iter().find(|(k, _, _)| k == key).map(|(_, ks, v)| (*ks, v)),
            _ => None,
        }
    }

    pub(crate) fn text(&self) -> Option<&Text> {
        match &self.v {
            RV::Str(t) => Some(t),
            _ => None,
        }
    }

    /// A literal string (numbers and booleans written as text count).
    pub(crate) fn literal(&self) -> Option<String> {
        match &self.v {
            RV::Str(t) => t.literal(),
            RV::Num(n) => Some(format_num(*n)),
            RV::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }
}

pub(crate) fn format_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 { format!("{}", n as i64) } else { n.to_string() }
}

/// Every value at `path` under `r`, following conditionals; `*` steps into
/// each item of a list.
pub(crate) fn values_at<'r>(r: &'r R, path: &[&str]) -> Vec<(When, &'r R)> {
    let mut out = Vec::new();
    collect_at(r, path, When::always(), &mut out);
    out
}

fn collect_at<'r>(r: &'r R, path: &[&str], when: When, out: &mut Vec<(When, &'r R)>) {
    for (w, v) in r.alternatives() {
        let Some(when) = when.and(&w) else { continue };
        match path.split_first() {
            None => out.push((when, v)),
            Some((&"*", rest)) => {
                if let RV::List(items) = &v.v {
                    for item in items {
                        collect_at(item, rest, when.clone(), out);
                    }
                }
            }
            Some((key, rest)) => {
                if let Some((_, child)) = v.entry(key) {
                    collect_at(child, rest, when, out);
                }
            }
        }
    }
}

impl R {
    /// A value brought in from elsewhere in the same file (a parameter
    /// default, a mapping, a parenthesised expression) is reported where it
    /// is used: its top-level span moves there.
    pub(crate) fn relocated(mut self, span: Span) -> R {
        self.span = span;
        self
    }

    /// This value, as brought from `file` where it is written: each literal
    /// in it (number, bool, whole string) remembers its place there, unless
    /// it already came from further away (a default passed on as a module
    /// argument is written in the default).
    pub(crate) fn written_in(mut self, file: &sqsguard_source::Source) -> R {
        fn walk(r: &mut R, file: &sqsguard_source::Source, depth: usize) {
            if depth > sqsguard_syntax::MAX_DEPTH {
                return;
            }
            match &mut r.v {
                RV::Num(_) | RV::Bool(_) => {}
                RV::Str(t) if t.literal().is_some() => {}
                RV::List(items) => return items.iter_mut().for_each(|i| walk(i, file, depth + 1)),
                RV::Map(entries) => return entries.iter_mut().for_each(|(_, _, v)| walk(v, file, depth + 1)),
                RV::If { then, els, .. } => {
                    walk(then, file, depth + 1);
                    return walk(els, file, depth + 1);
                }
                _ => return,
            }
            if r.written.is_none() {
                r.written = Some(Arc::new(Origin::file(file, r.span)));
            }
        }
        walk(&mut self, file, 0);
        self
    }

    /// A value another resource sets, used here: reported where it is used,
    /// and never edited from here (it belongs to that resource).
    pub(crate) fn derived(self, span: Span) -> R {
        fn forget(r: &mut R, depth: usize) {
            r.written = None;
            if depth > sqsguard_syntax::MAX_DEPTH {
                return;
            }
            match &mut r.v {
                RV::List(items) => items.iter_mut().for_each(|i| forget(i, depth + 1)),
                RV::Map(entries) => entries.iter_mut().for_each(|(_, _, v)| forget(v, depth + 1)),
                RV::If { then, els, .. } => {
                    forget(then, depth + 1);
                    forget(els, depth + 1);
                }
                _ => {}
            }
        }
        let mut r = relocate_deep(self, span);
        forget(&mut r, 0);
        r
    }

    /// A value brought in from another file (a Terraform variable default,
    /// a module input) is reported where it is used: every span in it moves
    /// there, since spans inside it would point into the wrong file.
    pub(crate) fn relocated_deep(self, span: Span) -> R {
        relocate_deep(self, span)
    }
}

fn relocate_deep(mut r: R, span: Span) -> R {
    fn walk(r: &mut R, span: Span, depth: usize) {
        r.span = span;
        if depth > sqsguard_syntax::MAX_DEPTH {
            return;
        }
        match &mut r.v {
            RV::List(items) => items.iter_mut().for_each(|i| walk(i, span, depth + 1)),
            RV::Map(entries) => entries.iter_mut().for_each(|(_, ks, v)| {
                *ks = span;
                walk(v, span, depth + 1);
            }),
            RV::If { then, els, .. } => {
                walk(then, span, depth + 1);
                walk(els, span, depth + 1);
            }
            _ => {}
        }
    }
    walk(&mut r, span, 0);
    r
}

/// A parsed document as plain values, no intrinsics (plan JSON, tfvars JSON).
pub(crate) fn from_node(node: &sqsguard_syntax::Node, depth: usize) -> R {
    let v = match &node.kind {
        _ if depth > sqsguard_syntax::MAX_DEPTH => RV::Unknown("nested too deeply".into()),
        sqsguard_syntax::Kind::Null => RV::Null,
        sqsguard_syntax::Kind::Bool(b) => RV::Bool(*b),
        sqsguard_syntax::Kind::Number(n) => match n.parse::<f64>() {
            Ok(f) => RV::Num(f),
            Err(_) => RV::Str(Text::lit(n.clone())),
        },
        sqsguard_syntax::Kind::String(s) => RV::Str(Text::lit(s.clone())),
        sqsguard_syntax::Kind::Seq(items) => RV::List(items.iter().map(|i| from_node(i, depth + 1)).collect()),
        sqsguard_syntax::Kind::Map(entries) => {
            RV::Map(entries.iter().map(|e| (e.key.clone(), e.key_span, from_node(&e.value, depth + 1))).collect())
        }
    };
    R::new(v, node.span)
}
