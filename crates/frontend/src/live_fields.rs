//! How the live front-end reads what the API answered field by field,
//! with the templates' readers: a queue's attributes by their API names,
//! a RedrivePolicy as the templates'
//! RedrivePolicy is read. Every value is located at the live resource.

use super::link::Linker;
use std::collections::BTreeMap;

use super::value::{R, RV, Text};
use sqsguard_model::{Attr, Dialect, Field, Name, Origin, ReadFields, Redrive, Value};
use sqsguard_source::SourceFile;

const API: Dialect = Dialect::Api;

/// A queue's RedrivePolicy (a JSON document), read as the templates' are,
/// every value located at the live queue.
pub(super) fn redrive(policy: Option<&str>, url: &str, linker: &Linker, origin: &Origin) -> Attr<Redrive> {
    // SQS answers an empty string for a policy that was removed.
    let Some(policy) = policy.filter(|p| !p.is_empty()) else { return Attr::absent(origin.clone()) };
    let file = SourceFile::new(url, String::new());
    let key = API.name(Field::RedrivePolicy).to_string();
    let props = R::new(
        RV::Map(vec![(key, Default::default(), R::new(RV::Str(Text::lit(policy)), Default::default()))]),
        Default::default(),
    );
    let target = |r: &R| linker.queue_target(r);
    let via = |r: &R| linker.queue_via(r);
    let read = super::fields::redrive(&file, Some(&props), API, Default::default(), target, via);
    let mut out = located(read, origin);
    for alt in &mut out.alts {
        if let Value::Known(r) = &mut alt.value {
            r.target = located(r.target.clone(), origin);
            r.target_via = located(r.target_via.clone(), origin);
            r.max_receive_count = located(r.max_receive_count.clone(), origin);
        }
    }
    out
}

/// `attr` with every alternative located at `origin`.
fn located<T>(mut attr: Attr<T>, origin: &Origin) -> Attr<T> {
    for alt in &mut attr.alts {
        alt.origin = origin.clone();
    }
    attr
}

/// A queue's attributes (GetQueueAttributes), read by their API names.
pub(super) struct Attributes<'a> {
    pub(super) attributes: &'a BTreeMap<String, String>,
    pub(super) origin: &'a Origin,
}

impl Attributes<'_> {
    fn get(&self, field: Field) -> Option<&str> {
        self.attributes.get(API.name(field)).map(String::as_str)
    }
}

impl ReadFields for Attributes<'_> {
    fn int(&self, field: Field) -> Attr<i64> {
        match self.get(field).map(str::parse::<i64>) {
            Some(Ok(v)) => Attr::known(v, self.origin.clone()),
            Some(Err(_)) => {
                Attr::single(Value::Unknown(format!("{} is not a number", API.name(field))), self.origin.clone())
            }
            None => Attr::absent(self.origin.clone()),
        }
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        match self.get(field) {
            Some(v) => Attr::known(v == "true", self.origin.clone()),
            None => Attr::absent(self.origin.clone()),
        }
    }

    fn text(&self, field: Field) -> Attr<String> {
        match self.get(field).filter(|v| !v.is_empty()) {
            Some(v) => Attr::known(v.to_string(), self.origin.clone()),
            None => Attr::absent(self.origin.clone()),
        }
    }

    /// A list attribute, a JSON array of strings.
    fn list(&self, field: Field) -> Attr<Vec<String>> {
        match self.get(field).map(serde_json::from_str::<Vec<String>>) {
            Some(Ok(v)) => Attr::known(v, self.origin.clone()),
            Some(Err(_)) => {
                Attr::single(Value::Unknown(format!("{} is not a list", API.name(field))), self.origin.clone())
            }
            None => Attr::absent(self.origin.clone()),
        }
    }

    fn number(&self, field: Field) -> Attr<f64> {
        match self.get(field).map(str::parse::<f64>) {
            Some(Ok(v)) if v.is_finite() => Attr::known(v, self.origin.clone()),
            Some(_) => {
                Attr::single(Value::Unknown(format!("{} is not a number", API.name(field))), self.origin.clone())
            }
            None => Attr::absent(self.origin.clone()),
        }
    }

    /// A queue has no map attribute but its RedrivePolicy (read apart):
    /// any other is not understood, never absent.
    fn block(&self, field: Field) -> Attr<bool> {
        Attr::single(Value::Unknown(format!("{} is not a queue attribute", API.name(field))), self.origin.clone())
    }

    /// The queue's name is the end of its URL (set by [`load`]).
    fn name(&self, _: Field) -> Attr<Name> {
        Attr::absent(self.origin.clone())
    }
}
