//! The instances of a `count` / `for_each` resource or module call, and a
//! value per instance: instances that agree are one value, the others
//! alternatives on `each.key == "a"` (see [`sqsguard_model::When`]).

use std::rc::Rc;
use std::sync::Arc;

use crate::value::{R, RV, format_num};
use sqsguard_source::Span;

/// The instances of a `count` / `for_each` resource, as far as they are known.
#[derive(Clone)]
pub(crate) enum Instances {
    /// Neither `count` nor `for_each`.
    One,
    /// `for_each` over a resource of the module: its instances, key for key.
    Of(String),
    /// `for_each` over a module call: its instances' outputs, key for key.
    OfModule(String),
    /// Each instance's key (`each.key`, `count.index`) and `each.value`
    /// (shared: every reference in the block reads the same instances).
    Keyed { var: &'static str, items: Rc<[(R, R)]> },
    /// A collection only known at plan time.
    Unknown(String),
}

/// More `count` instances than this are not told apart.
pub(crate) const MAX_COUNT: f64 = 10_000.0;

/// Distinct values beyond this many are not told apart: the value is
/// unknown rather than a condition per instance.
const MAX_DISTINCT: usize = 16;

/// One value per instance: the value, when every instance agrees; else an
/// alternative per distinct value, on the condition `each.key == "a"` (or
/// `each.key in ["a", "b"]` for instances that agree).
pub(crate) fn per_instance(var: &str, items: &[(R, R)], pick: impl Fn(&(R, R)) -> R, span: Span) -> R {
    let mut groups: Vec<(Vec<String>, R)> = Vec::new();
    for item in items {
        let key = match &item.0.v {
            RV::Num(n) => format_num(*n),
            _ => serde_json::Value::String(item.0.literal().unwrap_or_default()).to_string(),
        };
        let value = pick(item);
        let full = groups.len() == MAX_DISTINCT;
        match groups.iter_mut().find(|(_, v)| v.v == value.v) {
            Some((keys, _)) => keys.push(key),
            // Past the limit there is no need to look further (and a
            // `count` of thousands would cost its square).
            None if full => {
                return R::unknown(format!("more than {MAX_DISTINCT} instances with different values"), span);
            }
            None => groups.push((vec![key], value)),
        }
    }
    match groups.len() {
        0 => R::unknown("no instance", span),
        1 => groups.swap_remove(0).1.relocated(span),
        _ => {
            let mut value = R::unknown("no other instance", span);
            for (keys, then) in groups.into_iter().rev() {
                let cond = match keys.as_slice() {
                    [key] => format!("{var} == {key}"),
                    _ => format!("{var} in [{}]", keys.join(", ")),
                };
                value = R::new(RV::If { cond: Arc::from(cond), then: Box::new(then), els: Box::new(value) }, span);
            }
            value
        }
    }
}

/// AWS's value of an absent numeric attribute of a resource of `kind`, from
/// the field table.
pub(crate) fn absent_default(kind: &str, attribute: &str) -> Option<i64> {
    use sqsguard_model::Field;
    use sqsguard_model::field::QUEUE_SETTINGS;
    let fields: &[Field] = match kind {
        "aws_sqs_queue" => &QUEUE_SETTINGS,
        "aws_lambda_function" => &[Field::Timeout],
        "aws_lambda_event_source_mapping" => &[Field::BatchSize, Field::BatchingWindow],
        _ => return None,
    };
    let field = fields.iter().find(|f| sqsguard_model::Dialect::Terraform.name(**f) == attribute)?;
    // Numbers only: booleans default to false, which is not a number.
    field.range().and(field.default())
}
