//! A call of a registry module as its models read it: the inputs set,
//! where the call is, and the resources and notes made from them.

use std::collections::HashMap;

use crate::terraform::resources::Resource;
use crate::value::{Part, R, RV, Text};
use sqsguard_finding::Note;
use sqsguard_model::{ModuleCall, ModuleSource, Origin};
use sqsguard_source::{Source, Span};

/// The resources a module call creates, its outputs, and what of it was
/// not understood.
pub(super) type Modelled = (Vec<Resource>, HashMap<String, R>, Vec<Note>);

pub(super) struct Module<'a> {
    /// The registry module: `terraform-aws-modules/sqs/aws`.
    pub(super) source: &'static str,
    pub(super) prefix: &'a str,
    pub(super) args: &'a HashMap<String, R>,
    pub(super) file: &'a Source,
    pub(super) header: Span,
}

impl Module<'_> {
    /// An input that is set (not null).
    pub(super) fn arg(&self, name: &str) -> Option<R> {
        self.args.get(name).filter(|r| r.v != RV::Null).cloned()
    }

    pub(super) fn first(&self, names: &[&str]) -> Option<R> {
        names.iter().find_map(|n| self.arg(n))
    }

    pub(super) fn reference(&self, address: &str, attribute: &str) -> R {
        let part = Part::Attr { resource: format!("{}{address}", self.prefix), attribute: attribute.to_string() };
        R::new(RV::Str(Text(vec![part])), self.header)
    }

    pub(super) fn resource(&self, kind: &str, address: &str, entries: Vec<(&str, R)>) -> Resource {
        let entries = entries.into_iter().map(|(k, v)| (k.to_string(), v.span, v)).collect();
        Resource {
            kind: kind.to_string(),
            address: format!("{}{address}", self.prefix),
            source: self.file.clone(),
            header: self.header,
            props: R::new(RV::Map(entries), self.header),
            module: Some(ModuleCall {
                call: self.prefix.trim_end_matches('.').to_string(),
                source: ModuleSource::Registry(self.source.to_string()),
                inputs: "",
            }),
        }
    }

    pub(super) fn is_true(&self, name: &str, default: bool) -> Option<bool> {
        match self.arg(name).map(|r| r.v) {
            None => Some(default),
            Some(RV::Bool(b)) => Some(b),
            Some(_) => None,
        }
    }

    /// A note about the input `name` of this call, at its value (or at the
    /// `module` block).
    pub(super) fn note(&self, notes: &mut Vec<Note>, name: &str, why: &str) {
        let span = self.args.get(name).map_or(self.header, |r| r.span);
        self.note_at(notes, span, name, why);
    }

    /// A note about `what` (an input, or a part of one) at `span`.
    pub(super) fn note_at(&self, notes: &mut Vec<Note>, span: Span, what: &str, why: &str) {
        let module = self.prefix.trim_end_matches('.');
        notes.push(Note { origin: Origin::file(self.file, span), message: format!("{module}: {what} {why}") });
    }
}
