//! What every front-end shares to turn its resolved values into the model:
//! the resolved value type ([`value`]), conversions to typed values
//! ([`convert`]), linking references to queues and functions ([`link`]),
//! reading attributes with their alternatives ([`attr`]), and finding
//! dead-letter targets ([`dead_letter`]).

pub mod convert;
pub mod dead_letter;
pub mod link;
pub mod policy;
pub mod value;

use crate::model::{Alt, Attr, Origin, Redrive, Target, Value, When};
use crate::source::{Source, Span};
use value::{R, RV};

/// Attribute `key` of `map` (following conditionals on both levels), read
/// with `conv`. Absent alternatives are located at `absent_at`.
pub fn attr<T>(file: &Source, map: Option<&R>, key: &str, absent_at: Span, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
    let Some(map) = map else {
        return Attr::absent(Origin::file(file, absent_at));
    };
    let mut alts = Vec::new();
    for (w, m) in map.alternatives() {
        match m.entry(key) {
            None => alts.push(Alt { value: Value::Absent, origin: Origin::file(file, absent_at), when: w }),
            Some((_, v)) => {
                for (w2, v) in v.alternatives() {
                    let Some(when) = w.and(&w2) else { continue };
                    let value = if v.v == RV::NoValue || v.v == RV::Null { Value::Absent } else { conv(v) };
                    alts.push(Alt { value, origin: Origin::file(file, v.span), when });
                }
            }
        }
    }
    Attr { alts }
}

/// An attribute made of values found with [`value::values_at`].
pub fn attr_of<T>(file: &Source, found: Vec<(When, &R)>, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
    Attr {
        alts: found
            .into_iter()
            .map(|(when, r)| Alt { value: conv(r), origin: Origin::file(file, r.span), when })
            .collect(),
    }
}

/// A queue's redrive policy (`key` of `props`), written as a map or as a
/// JSON string: its deadLetterTargetArn linked with `queue_target`.
pub fn redrive(
    file: &Source,
    props: Option<&R>,
    key: &str,
    absent_at: Span,
    queue_target: impl Fn(&R) -> Value<Target>,
) -> Attr<Redrive> {
    let raw = attr(file, props, key, absent_at, |r| Value::Known(r.clone()));
    let alts = raw
        .alts
        .into_iter()
        .map(|alt| {
            let value = match alt.value {
                Value::Known(r) => {
                    let map = match &r.v {
                        RV::Map(_) | RV::If { .. } => Some(r.clone()),
                        _ => convert::json_string(&r),
                    };
                    match map {
                        Some(map) => Value::Known(Redrive {
                            target: attr(file, Some(&map), "deadLetterTargetArn", map.span, &queue_target),
                            max_receive_count: attr(file, Some(&map), "maxReceiveCount", map.span, convert::to_int),
                        }),
                        None => Value::Unknown(format!("{key} is only known at deploy time")),
                    }
                }
                Value::Unknown(why) => Value::Unknown(why),
                Value::Absent => Value::Absent,
            };
            Alt { value, origin: alt.origin, when: alt.when }
        })
        .collect();
    Attr { alts }
}
