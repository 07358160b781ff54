//! What drift calls the live resources in its messages and notes, as the
//! audit's output does: a queue by its name, a mapping by its function and
//! queue (`jobs-worker on jobs`), a function by its name. The URL, UUID or
//! ARN is what the live model keys them by.

use sqsguard_model::{Model, Target, Value};

/// The end of a queue URL or an ARN: the name.
pub(crate) fn last_part(id: &str) -> &str {
    id.rsplit(['/', ':']).next().unwrap_or(id)
}

pub(crate) fn queue(live: &Model, q: usize) -> &str {
    last_part(&live.queues[q].resource)
}

pub(crate) fn function(live: &Model, f: usize) -> &str {
    last_part(&live.functions[f].resource)
}

/// `jobs-worker on jobs`; `the mapping UUID on jobs` when its function
/// is not known, `the mapping UUID` when neither is.
pub(crate) fn mapping(live: &Model, c: usize) -> String {
    let m = &live.consumers[c];
    let one = |alts: &[sqsguard_model::Alt<Target>]| match alts {
        [alt] => match &alt.value {
            Value::Known(t) => Some(t.clone()),
            _ => None,
        },
        _ => None,
    };
    let queue = match one(&m.queue.alts) {
        Some(Target::Queue(q)) => Some(queue(live, q).to_string()),
        Some(Target::External(id)) => Some(last_part(&id).to_string()),
        _ => None,
    };
    let function = match one(&m.function.alts) {
        Some(Target::Function(f)) => Some(function(live, f).to_string()),
        Some(Target::External(id)) => Some(last_part(&id).to_string()),
        _ => None,
    };
    match (function, queue) {
        (Some(f), Some(q)) => format!("{f} on {q}"),
        (None, Some(q)) => format!("the mapping {} on {q}", m.resource),
        (Some(f), None) => format!("{f}'s mapping {}", m.resource),
        (None, None) => format!("the mapping {}", m.resource),
    }
}
