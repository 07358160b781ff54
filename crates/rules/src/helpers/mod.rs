//! What several rules share, so that no rule file imports another: the
//! timing walk of SQS001 and SQS002, how code rules name SDK calls, and
//! the small pieces every rule uses (conditions, fixes, words).

mod calls;
mod reporting;
mod timing;

pub use calls::{call_words, known_fifo, queue_of, queue_words};
pub use reporting::{Reporting, reporting};
pub use timing::timings;

use crate::Context;
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::{Field, Scalar, When};

/// The FunctionResponseTypes value that lets Lambda read a handler's batch
/// item failures.
pub(crate) const REPORT: &str = "ReportBatchItemFailures";

/// ` (VisibilityTimeout from --stage prod; Timeout from --parameter-overrides
/// Timeout=900)`: which of a finding's values were given for the run and
/// how, or nothing when every one was read from a file.
pub(crate) fn given_words(cx: &Context<'_>, values: &[(Field, Option<&std::sync::Arc<str>>)]) -> String {
    let said: Vec<String> =
        values.iter().filter_map(|(field, given)| given.map(|g| format!("{} from {g}", cx.name(*field)))).collect();
    if said.is_empty() { String::new() } else { format!(" ({})", said.join("; ")) }
}

/// A length of time in seconds as the messages write it: `40 s`, `1.5 s`.
pub(crate) fn seconds(t: f64) -> String {
    if t.fract() == 0.0 { format!("{t:.0} s") } else { format!("{t} s") }
}

/// The conditions under which all of `whens` hold, or `None` if they cannot.
pub(crate) fn all_of(whens: &[&When]) -> Option<When> {
    let mut acc = When::always();
    for w in whens {
        acc = acc.and(w)?;
    }
    Some(acc)
}

/// `field := value` on `resource`, written where `alt` is (or added to the
/// resource when `alt` is absent).
pub(crate) fn set<T>(
    resource: &str,
    field: Field,
    value: Scalar,
    alt: &sqsguard_model::Alt<T>,
    applicability: Applicability,
) -> Remedy {
    Remedy {
        resource: resource.to_string(),
        field: Some(field),
        ops: vec![Op::Set(value)],
        at: alt.written_at().clone(),
        absent: matches!(alt.value, sqsguard_model::Value::Absent),
        conditional: !alt.when.is_always(),
        given: alt.given.clone(),
        applicability,
    }
}

/// `1 s`, `150 s`: seconds as messages print them.
pub(crate) fn secs(n: i64) -> String {
    format!("{n} s")
}
