//! How a template names its queue ([`Wanted`]), and the live queues such a
//! name fits: the name written, a pattern where only part of it is known
//! (each `${...}` any text), CloudFormation's generated
//! `STACK-LogicalId-RANDOM`, or a Terraform `name_prefix`. `join` joins
//! by these.

use std::collections::HashMap;

use sqsguard_model::{Dialect, Model, Value};

/// How a template names its queue.
pub(super) enum Wanted {
    Exact(String),
    /// Literal pieces in order, any text between them (and before the
    /// first or after the last when the flags say so).
    Pattern(Vec<String>),
    /// Terraform's `name_prefix`: the start of a generated name.
    Prefix(String),
    NotJoinable(String),
}

fn pattern(text: &str) -> Vec<String> {
    // `${...}` is any text: split on it, keeping empty ends (anchors).
    let mut pieces = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        pieces.push(rest[..start].to_string());
        rest = match rest[start..].find('}') {
            Some(end) => &rest[start + end + 1..],
            None => "",
        };
    }
    pieces.push(rest.to_string());
    pieces
}

/// Whether `name` is `pieces` with any text between them (first anchored
/// at the start, last at the end).
fn fits(pieces: &[String], name: &str) -> bool {
    let (Some(first), Some(last)) = (pieces.first(), pieces.last()) else { return false };
    if pieces.len() == 1 {
        return name == first;
    }
    let Some(mut rest) = name.strip_prefix(first.as_str()) else { return false };
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece.as_str()) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last.as_str())
}

pub(super) fn wanted(model: &Model, queue: usize) -> Vec<Wanted> {
    let q = &model.queues[queue];
    if q.name.alts.len() != 1 {
        return vec![Wanted::NotJoinable("its name depends on a condition".into())];
    }
    match &q.name.alts[0].value {
        Value::Known(name) if !name.text.contains("${") => vec![Wanted::Exact(name.text.clone())],
        Value::Known(name) => vec![Wanted::Pattern(pattern(&name.text))],
        Value::Unknown(why) => vec![Wanted::NotJoinable(format!("its name is not known ({why})"))],
        Value::Absent if model.dialect == Dialect::Terraform => match q.name_prefix.alts.as_slice() {
            [alt] => match &alt.value {
                Value::Known(prefix) if !prefix.contains("${") => vec![Wanted::Prefix(prefix.clone())],
                Value::Known(prefix) => vec![Wanted::NotJoinable(format!("its name_prefix {prefix} is not known"))],
                Value::Unknown(why) => vec![Wanted::NotJoinable(format!("its name_prefix is not known ({why})"))],
                Value::Absent => vec![Wanted::NotJoinable(
                    "it has no name nor name_prefix, and Terraform generates one that no file says".into(),
                )],
            },
            _ => vec![Wanted::NotJoinable("its name_prefix depends on a condition".into())],
        },
        // CloudFormation: STACK-LogicalId-RANDOM (FIFO: with `.fifo`), when
        // no --stack says which: a pattern that fits more than one is a note.
        Value::Absent => vec![Wanted::Pattern(vec![String::new(), format!("-{}-", q.resource), String::new()])],
    }
}

/// Whether a live queue's name `n` is one of those `wants` names.
pub(super) fn fits_any(wants: &[Wanted], n: &str) -> bool {
    wants.iter().any(|w| match w {
        Wanted::Prefix(p) => n.starts_with(p.as_str()),
        Wanted::Exact(name) => n == name,
        Wanted::Pattern(pieces) => fits(pieces, n),
        Wanted::NotJoinable(_) => false,
    })
}

/// The live queues (model, index) whose names fit `wants`, sorted, each
/// once; with the name prefix wanted, and why the queue cannot be joined
/// by name at all.
pub(super) fn candidates(
    wants: &[Wanted],
    by_name: &HashMap<&str, Vec<(usize, usize)>>,
    live_queues: &[(usize, usize, &str)],
) -> (Vec<(usize, usize)>, Option<String>, Option<String>) {
    let mut found: Vec<(usize, usize)> = Vec::new();
    let mut why_not = None;
    let mut prefix = None;
    for want in wants {
        match want {
            Wanted::Prefix(p) => prefix = Some(p.clone()),
            Wanted::Exact(name) => found.extend(by_name.get(name.as_str()).into_iter().flatten()),
            Wanted::NotJoinable(why) => why_not = Some(why.clone()),
            Wanted::Pattern(_) => {}
        }
    }
    // Exact names came from the index: only prefixes and patterns scan.
    if wants.iter().any(|w| matches!(w, Wanted::Prefix(_) | Wanted::Pattern(_))) {
        found.extend(live_queues.iter().filter(|(_, _, n)| fits_any(wants, n)).map(|(m, i, _)| (*m, *i)));
    }
    found.sort();
    found.dedup();
    (found, prefix, why_not)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_parts_are_any_text() {
        let p = pattern("${AWS::StackName}-jobs");
        assert!(fits(&p, "prod-jobs"));
        assert!(!fits(&p, "prod-jobs-dlq"));
        let generated = vec![String::new(), "-Jobs-".to_string(), String::new()];
        assert!(fits(&generated, "app-Jobs-1A2B3C"));
        assert!(!fits(&generated, "app-JobsDlq-1A2B3C"));
        assert!(fits(&pattern("jobs"), "jobs") && !fits(&pattern("jobs"), "jobs2"));
    }
}
