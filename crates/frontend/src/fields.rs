//! Reading attributes with their alternatives: a key of a resolved map
//! (through conditionals), a key of a map inside it, values found by path,
//! and a queue's RedrivePolicy, as every template front-end reads them.

use super::convert;
use super::value::{R, RV};
use sqsguard_model::{Alt, Attr, Dialect, Field, Origin, Redrive, Target, Value, Via, When};
use sqsguard_source::{Source, Span};

/// Attribute `key` of `map` (following conditionals on both levels), read
/// with `conv`. Absent alternatives are located at `absent_at`.
pub(crate) fn attr<T>(
    file: &Source,
    map: Option<&R>,
    key: &str,
    absent_at: Span,
    conv: impl Fn(&R) -> Value<T>,
) -> Attr<T> {
    let Some(map) = map else {
        return Attr::absent(Origin::file(file, absent_at));
    };
    let value_of = |v: &R| if v.v == RV::NoValue || v.v == RV::Null { Value::Absent } else { conv(v) };
    // Nothing conditional (most values): one alternative, no search for them.
    if !matches!(map.v, RV::If { .. }) {
        match map.entry(key) {
            None => return Attr::absent(Origin::file(file, absent_at)),
            Some((_, v)) if !matches!(v.v, RV::If { .. }) => {
                return Attr { alts: vec![alt_of(file, value_of(v), v, When::always())] };
            }
            Some(_) => {}
        }
    }
    let mut alts = Vec::new();
    for (w, m) in map.alternatives() {
        match m.entry(key) {
            None => alts.push(Alt::new(Value::Absent, Origin::file(file, absent_at), w)),
            Some((_, v)) => {
                for (w2, v) in v.alternatives() {
                    let Some(when) = w.and(&w2) else { continue };
                    alts.push(alt_of(file, value_of(v), v, when));
                }
            }
        }
    }
    Attr { alts }
}

/// Attribute `inner` of the map that attribute `outer` of `map` holds
/// (`ScalingConfig.MaximumConcurrency`), read with `conv`: absent where
/// either is (located at `absent_at`, or at the outer map when only the
/// inner key is missing), unknown where the outer value is no map.
pub(crate) fn nested_attr<T>(
    file: &Source,
    map: Option<&R>,
    outer: &str,
    inner: &str,
    absent_at: Span,
    conv: impl Fn(&R) -> Value<T>,
) -> Attr<T> {
    let holder = attr(file, map, outer, absent_at, |r| Value::Known(r.clone()));
    let mut alts = Vec::new();
    for alt in holder.alts {
        match alt.value {
            Value::Known(r) if matches!(r.v, RV::Map(_) | RV::If { .. }) => {
                for a in attr(file, Some(&r), inner, r.span, &conv).alts {
                    if let Some(when) = alt.when.and(&a.when) {
                        alts.push(Alt { when, ..a });
                    }
                }
            }
            Value::Known(r) => {
                let why = format!("{outer} is not a mapping");
                alts.push(Alt::new(Value::Unknown(why), Origin::file(file, r.span), alt.when));
            }
            Value::Unknown(why) => alts.push(Alt::new(Value::Unknown(why), alt.origin, alt.when)),
            Value::Absent => alts.push(Alt::new(Value::Absent, alt.origin, alt.when)),
        }
    }
    Attr { alts }
}

/// An attribute made of values found with [`value::values_at`].
pub(crate) fn attr_of<T>(file: &Source, found: Vec<(When, &R)>, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
    Attr { alts: found.into_iter().map(|(when, r)| alt_of(file, conv(r), r, when)).collect() }
}

/// The alternative `value` read from `r`: used where `r` is, written
/// where `r` remembers.
fn alt_of<T>(file: &Source, value: Value<T>, r: &R, when: When) -> Alt<T> {
    Alt { written: r.written.clone(), given: r.given.clone(), ..Alt::new(value, Origin::file(file, r.span), when) }
}

/// A queue's redrive policy (RedrivePolicy in the dialect's words), written
/// as a map or as a JSON string: its deadLetterTargetArn linked with
/// `queue_target`, and how it is written read with `queue_via`.
pub(crate) fn redrive(
    file: &Source,
    props: Option<&R>,
    dialect: Dialect,
    absent_at: Span,
    queue_target: impl Fn(&R) -> Value<Target>,
    queue_via: impl Fn(&R) -> Value<Via>,
) -> Attr<Redrive> {
    let key = dialect.name(Field::RedrivePolicy);
    let (target_key, count_key) = (dialect.name(Field::DeadLetterTarget), dialect.name(Field::MaxReceiveCount));
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
                            target: attr(file, Some(&map), target_key, map.span, &queue_target),
                            target_via: attr(file, Some(&map), target_key, map.span, &queue_via),
                            max_receive_count: attr(file, Some(&map), count_key, map.span, convert::to_int),
                        }),
                        None => Value::Unknown(format!("{key} is only known at deploy time")),
                    }
                }
                Value::Unknown(why) => Value::Unknown(why),
                Value::Absent => Value::Absent,
            };
            Alt { value, origin: alt.origin, when: alt.when, written: alt.written, given: alt.given }
        })
        .collect();
    Attr { alts }
}
