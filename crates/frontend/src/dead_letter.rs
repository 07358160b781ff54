//! Finding dead-letter targets by the shape of the properties that name
//! them, however deep they sit: front-ends list their shapes (CloudFormation
//! `DeadLetterConfig.Arn`, Terraform `dead_letter_config.target_arn`, ...)
//! instead of enumerating every resource type that can have one.

use super::convert::json_string;
use super::value::{R, RV};
use sqsguard_model::When;

/// A key that holds a dead-letter target, and the key of the target in it.
pub(crate) type Shape = (&'static str, &'static str);

/// Every value in `r` found at one of the `shapes`, with its conditions.
/// A holder written as a JSON string (a RedrivePolicy) is parsed.
pub(crate) fn search(r: &R, shapes: &[Shape]) -> Vec<(When, R)> {
    let mut out = Vec::new();
    walk(r, shapes, When::always(), &mut out, 0);
    out
}

fn walk(r: &R, shapes: &[Shape], when: When, out: &mut Vec<(When, R)>, depth: usize) {
    if depth > sqsguard_syntax::MAX_DEPTH {
        return;
    }
    for (w, v) in r.alternatives() {
        let Some(when) = when.and(&w) else { continue };
        match &v.v {
            RV::Map(entries) => {
                for (key, _, child) in entries {
                    for (_, inner) in shapes.iter().filter(|(holder, _)| holder == key) {
                        for (w2, holder) in child.alternatives() {
                            let Some(when) = when.and(&w2) else { continue };
                            let holder = match &holder.v {
                                RV::Str(_) => json_string(holder),
                                _ => Some(holder.clone()),
                            };
                            for (w3, t) in holder.iter().flat_map(|h| super::value::values_at(h, &[inner])) {
                                if let Some(when) = when.and(&w3) {
                                    out.push((when, t.clone()));
                                }
                            }
                        }
                    }
                    walk(child, shapes, when.clone(), out, depth + 1);
                }
            }
            RV::List(items) => {
                for item in items {
                    walk(item, shapes, when.clone(), out, depth + 1);
                }
            }
            _ => {}
        }
    }
}
