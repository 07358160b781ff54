//! How the graph writes what the rules read: a node's kind, a queue's
//! details and the values on nodes and edges (seconds as durations, the
//! alternatives of a value that depends on a condition, `?` for unknown).

use super::Kind;
use sqsguard_model::{Attr, Field, Name, Target, Value};

pub(super) fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Producer => "producer",
        Kind::Code => "code",
        Kind::Queue | Kind::DeadLetterQueue => "queue",
        Kind::Consumer => "consumer",
        Kind::Alarm => "alarm",
        Kind::External => "external",
        Kind::Other => "resource",
    }
}

/// What the rules read of a queue.
pub(super) fn queue_details(q: &sqsguard_model::Queue) -> Vec<String> {
    let mut details = Vec::new();
    let names = names(&q.name);
    if !names.is_empty() && names != q.resource {
        details.push(format!("name {names}"));
    }
    if q.fifo.any_known(|f| *f) {
        details.push("FIFO".into());
    }
    details.push(format!("visibility {}", seconds(&q.visibility_timeout, Field::VisibilityTimeout)));
    details.push(format!("retention {}", seconds(&q.retention_period, Field::RetentionPeriod)));
    details.push(format!("receive wait {}", seconds(&q.receive_wait_time, Field::ReceiveWaitTime)));
    details
}

pub(super) fn names(attr: &Attr<Name>) -> String {
    let all: Vec<&str> = attr.iter().filter_map(|a| a.value.known()).map(|n| n.text.as_str()).collect();
    all.join(" | ")
}

/// Each alternative as written: a number, `?` when unknown, `default` (or
/// the default) when absent; alternatives joined with ` | `.
pub(super) fn ints(attr: &Attr<i64>, default: Option<i64>) -> String {
    alternatives(attr.iter().map(|a| match &a.value {
        Value::Known(v) => v.to_string(),
        Value::Unknown(_) => "?".into(),
        Value::Absent => default.map_or_else(|| "default".into(), |d| d.to_string()),
    }))
}

/// As [`ints`], in seconds.
pub(super) fn secs(attr: &Attr<i64>, default: i64) -> String {
    alternatives(attr.iter().map(|a| match &a.value {
        Value::Known(v) => duration(*v),
        Value::Unknown(_) => "?".into(),
        Value::Absent => duration(default),
    }))
}

/// Seconds with AWS's default for an absent value, in the largest whole
/// unit (`4 d`, `30 s`).
pub(super) fn seconds(attr: &Attr<i64>, field: Field) -> String {
    alternatives(attr.iter().map(|a| match a.value.or_aws_default(field) {
        Some(s) => duration(s),
        None => "?".into(),
    }))
}

pub(super) fn duration(s: i64) -> String {
    match s {
        0 => "0 s".into(),
        s if s % 86_400 == 0 => format!("{} d", s / 86_400),
        s if s % 3_600 == 0 => format!("{} h", s / 3_600),
        s if s % 60 == 0 && s >= 600 => format!("{} min", s / 60),
        s => format!("{s} s"),
    }
}

pub(super) fn floats(attr: &Attr<f64>) -> String {
    alternatives(attr.iter().map(|a| match &a.value {
        Value::Known(v) => v.to_string(),
        _ => "?".into(),
    }))
}

pub(super) fn comparison(attr: &Attr<String>) -> String {
    alternatives(attr.iter().map(|a| match a.value.known().map(String::as_str) {
        Some("GreaterThanThreshold") => ">".to_string(),
        Some("GreaterThanOrEqualToThreshold") => ">=".into(),
        Some("LessThanThreshold") => "<".into(),
        Some("LessThanOrEqualToThreshold") => "<=".into(),
        Some(other) => other.into(),
        None => "?".into(),
    }))
}

pub(super) fn texts(attr: &Attr<String>) -> String {
    alternatives(attr.iter().map(|a| a.value.known().cloned().unwrap_or_else(|| "?".into())))
}

pub(super) fn targets(attr: &Attr<Target>) -> String {
    alternatives(attr.iter().map(|a| match &a.value {
        Value::Known(Target::External(name)) => name.clone(),
        Value::Known(_) => "of the template".into(),
        Value::Unknown(_) => "not known".into(),
        Value::Absent => "none".into(),
    }))
}

/// Distinct values in order, joined with ` | `.
pub(super) fn alternatives(values: impl Iterator<Item = String>) -> String {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out.join(" | ")
}

/// A function as people name it: the name out of a live function's ARN
/// (`arn:aws:lambda:REGION:ACCOUNT:function:NAME`), a template's logical
/// ID as it is.
pub(super) fn function_name(resource: &str) -> &str {
    match resource.split_once(":function:") {
        Some((arn, name)) if arn.starts_with("arn:") => name,
        _ => resource,
    }
}
