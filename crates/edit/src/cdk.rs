//! Fixes in a CDK app's source, the syntax of construct props: one more
//! syntax for the fixer vocabulary. [`Op::Set`] of the field the construct
//! has a property for, written in TypeScript, JavaScript or Python:
//!
//! - a literal property is replaced: a number, a boolean, and
//!   `Duration.seconds(n)` (also `minutes`, `hours`, `days`) in its own
//!   unit when the new value is a whole number of it, else in seconds;
//! - an absent property is added to the props written in place (an object
//!   literal's last member, Python's keyword arguments), `Duration` spelt
//!   as the file already spells it;
//! - anything else (a variable, a props field, an expression; props not
//!   written in place; `Duration` not used in the file) has no fix: the
//!   hint names the property.
//!
//! Every other operation (a new dead-letter queue, a policy statement) is
//! a construct of its own to write: no fix.

use super::{Edit, Fix, Op, Remedy, Unfixable};
use sqsguard_model::{CdkOwner, Field, Scalar};
use sqsguard_source::{Source, Span};

/// A construct of the app's source, as a fix needs it.
pub struct Construct {
    pub file: Source,
    pub python: bool,
    /// Its props written in place: each property's name as written, its
    /// span and its value's span.
    pub props: Vec<Prop>,
    /// The props' closing bracket (`}` of the object literal, `)` of
    /// Python's arguments): where a property is added. `None` when the
    /// props are not written in place.
    pub close: Option<usize>,
    /// The last member before it (the object's last property, Python's
    /// last argument): a property is added after it.
    pub last: Option<Span>,
}

/// One property.
#[derive(Clone, Debug)]
pub struct Prop {
    pub name: String,
    pub span: Span,
    pub value: Span,
}

const NOT_A_PROP: Unfixable = Unfixable("the construct has no property for this: the hint says what to write");
const NOT_LITERAL: Unfixable =
    Unfixable("the property's value is not a literal sqsguard rewrites (a variable or an expression): set it by hand");
const NOT_IN_PLACE: Unfixable =
    Unfixable("the construct's props are not written in place (no object literal): add the property by hand");
const NO_DURATION: Unfixable = Unfixable("the file does not use Duration: add the property by hand");
const SAME: Unfixable = Unfixable("the source already sets this value: run `cdk synth` and lint again");

/// How a field's value is written in a construct's props.
enum Shape {
    Duration,
    Number,
    Bool,
    /// `reportBatchItemFailures: true` for FunctionResponseTypes.
    BatchItemFailures,
}

fn shape(field: Field) -> Option<Shape> {
    use Field::*;
    Some(match field {
        VisibilityTimeout | RetentionPeriod | DelaySeconds | ReceiveWaitTime | BatchingWindow | Timeout => {
            Shape::Duration
        }
        BatchSize | MaximumConcurrency | ReservedConcurrency => Shape::Number,
        FifoQueue | ContentBasedDedup | MappingEnabled => Shape::Bool,
        FunctionResponseTypes => Shape::BatchItemFailures,
        _ => return None,
    })
}

/// The fix of `remedy` on `construct`, an `owner`.
pub fn fix(remedy: &Remedy, owner: CdkOwner, construct: &Construct) -> Result<Fix, Unfixable> {
    let (Some(field), [Op::Set(value)]) = (remedy.field, remedy.ops.as_slice()) else { return Err(NOT_A_PROP) };
    let camel = field.cdk(owner).ok_or(NOT_A_PROP)?;
    let name = if construct.python { snake(camel) } else { camel.to_string() };
    let shape = shape(field).ok_or(NOT_A_PROP)?;
    let text = &construct.file.text;
    let edit = match construct.props.iter().find(|p| p.name == name) {
        Some(prop) => {
            let old = text.get(prop.value.start..prop.value.end).ok_or(NOT_LITERAL)?;
            let new = replaced(old, &shape, value, construct.python).ok_or(NOT_LITERAL)?;
            if new == old {
                return Err(SAME);
            }
            Edit { file: construct.file.clone(), span: prop.value, replacement: new }
        }
        None => added(construct, &name, &shape, value)?,
    };
    Ok(Fix { edits: vec![edit], applicability: remedy.applicability })
}

/// The literal `old` written with the value `value`, in its own form.
fn replaced(old: &str, shape: &Shape, value: &Scalar, python: bool) -> Option<String> {
    match (shape, value) {
        (Shape::Duration, Scalar::Int(seconds)) => {
            let (receiver, unit, _) = duration(old)?;
            Some(duration_text(receiver, Some(unit), *seconds))
        }
        (Shape::Number, Scalar::Int(n)) => old.trim().parse::<i64>().ok().map(|_| n.to_string()),
        (Shape::Bool, Scalar::Int(n)) => is_bool(old, python).then(|| boolean(*n != 0, python)),
        (Shape::Bool, Scalar::Bool(b)) => is_bool(old, python).then(|| boolean(*b, python)),
        (Shape::BatchItemFailures, Scalar::List(types)) => {
            let on = types.iter().any(|t| t == "ReportBatchItemFailures");
            is_bool(old, python).then(|| boolean(on, python))
        }
        _ => None,
    }
}

/// A property added before the props' closing bracket, after the last
/// property, on a line of its own when the props are written one a line.
fn added(construct: &Construct, name: &str, shape: &Shape, value: &Scalar) -> Result<Edit, Unfixable> {
    let close = construct.close.ok_or(NOT_IN_PLACE)?;
    let text = &construct.file.text;
    let python = construct.python;
    let rendered = match (shape, value) {
        (Shape::Duration, Scalar::Int(seconds)) => {
            let receiver = duration_in(text).ok_or(NO_DURATION)?;
            duration_text(receiver, None, *seconds)
        }
        (Shape::Number, Scalar::Int(n)) => n.to_string(),
        (Shape::Bool, Scalar::Int(n)) => boolean(*n != 0, python),
        (Shape::Bool, Scalar::Bool(b)) => boolean(*b, python),
        (Shape::BatchItemFailures, Scalar::List(types)) => {
            boolean(types.iter().any(|t| t == "ReportBatchItemFailures"), python)
        }
        _ => return Err(NOT_A_PROP),
    };
    let property = if python { format!("{name}={rendered}") } else { format!("{name}: {rendered}") };
    let Some(last) = construct.last else {
        // An empty object literal: `{}` becomes `{ name: value }`.
        return Ok(Edit {
            file: construct.file.clone(),
            span: Span::new(close, close),
            replacement: format!(" {property} "),
        });
    };
    let between = text.get(last.end..close).unwrap_or_default();
    let comma = between.trim_start().starts_with(',');
    let at = if comma { last.end + between.find(',').unwrap_or(0) + 1 } else { last.end };
    let replacement = match line_indent(text, last.start) {
        // One a line: the new one on a line of its own, as the others.
        Some(indent) if between.contains('\n') => {
            if comma {
                format!("\n{indent}{property},")
            } else {
                format!(",\n{indent}{property}")
            }
        }
        _ => format!(", {property}"),
    };
    Ok(Edit { file: construct.file.clone(), span: Span::new(at, at), replacement })
}

/// The indentation of the line `at` is on, when only spaces or tabs come
/// before it there.
fn line_indent(text: &str, at: usize) -> Option<&str> {
    let start = text.get(..at)?.rfind('\n').map_or(0, |n| n + 1);
    let before = text.get(start..at)?;
    before.chars().all(|c| c == ' ' || c == '\t').then_some(before)
}

/// `Duration.minutes(5)`, `cdk.Duration.seconds(30)`: its receiver, unit
/// and number.
fn duration(text: &str) -> Option<(&str, &str, i64)> {
    let text = text.trim();
    let open = text.find('(')?;
    let (call, rest) = text.split_at(open);
    let number = rest.strip_prefix('(')?.strip_suffix(')')?.trim().replace('_', "");
    let (receiver, unit) = call.rsplit_once('.')?;
    if !receiver.ends_with("Duration") || !["seconds", "minutes", "hours", "days"].contains(&unit) {
        return None;
    }
    Some((receiver, unit, number.parse().ok()?))
}

/// How the file spells `Duration` (`Duration`, `cdk.Duration`), from its
/// first call of a unit.
fn duration_in(text: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(found) = text.get(from..)?.find("Duration.") {
        let end = from + found + "Duration".len();
        let start =
            text.get(..end)?.rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')).map_or(0, |n| n + 1);
        let rest = text.get(end + 1..)?;
        if ["seconds(", "minutes(", "hours(", "days("].iter().any(|u| rest.starts_with(u)) {
            return text.get(start..end);
        }
        from = end;
    }
    None
}

/// `seconds` written as `receiver.unit(n)`: in `unit` when it divides,
/// else the largest unit that does, down to seconds.
fn duration_text(receiver: &str, unit: Option<&str>, seconds: i64) -> String {
    let size = |u: &str| match u {
        "minutes" => 60,
        "hours" => 3_600,
        "days" => 86_400,
        _ => 1,
    };
    let unit = match unit {
        Some(u) if seconds % size(u) == 0 => u,
        _ => "seconds",
    };
    format!("{receiver}.{unit}({})", seconds / size(unit))
}

fn is_bool(text: &str, python: bool) -> bool {
    let text = text.trim();
    if python { text == "True" || text == "False" } else { text == "true" || text == "false" }
}

fn boolean(b: bool, python: bool) -> String {
    match (b, python) {
        (true, true) => "True",
        (false, true) => "False",
        (true, false) => "true",
        (false, false) => "false",
    }
    .to_string()
}

/// `visibilityTimeout` as Python writes it: `visibility_timeout`.
pub fn snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests;
