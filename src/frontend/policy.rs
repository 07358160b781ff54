//! IAM policy documents (queue policies) into model statements: the same
//! JSON shape whether it came from CloudFormation, `jsonencode` or a JSON
//! string.

use super::convert::json_string;
use super::value::{R, RV, values_at};
use crate::model::{Origin, Statement, Value, When};
use crate::source::Source;

/// The statements of a policy document (a map, a JSON string, or a
/// conditional choosing between them).
pub fn statements(file: &Source, policy: &R) -> Vec<Statement> {
    let mut out = Vec::new();
    for (when, doc) in policy.alternatives() {
        let doc = match &doc.v {
            RV::Str(_) => json_string(doc),
            _ => Some(doc.clone()),
        };
        let Some(doc) = doc else { continue };
        let mut found = values_at(&doc, &["Statement", "*"]);
        if found.is_empty() {
            // A single statement may be written as a map.
            found = values_at(&doc, &["Statement"]);
        }
        for (w, s) in found {
            if let Some(when) = when.and(&w) {
                out.extend(statement(file, s, when));
            }
        }
    }
    out
}

/// One statement, once per branch of a conditional Effect or Principal.
fn statement(file: &Source, s: &R, when: When) -> Vec<Statement> {
    if !matches!(s.v, RV::Map(_)) {
        return Vec::new();
    }
    // `Condition: {}` restricts nothing; anything else (or a value only
    // known at deploy time) is taken as a restriction.
    let has_condition = s.entry("Condition").is_some_and(|(_, c)| !matches!(&c.v, RV::Map(m) if m.is_empty()));
    let effects = match s.entry("Effect") {
        Some((_, e)) => e.alternatives(),
        None => vec![(When::always(), s)],
    };
    let principals: Vec<(When, Option<&R>)> = match s.entry("Principal") {
        Some((_, p)) => p.alternatives().into_iter().map(|(w, p)| (w, Some(p))).collect(),
        None => vec![(When::always(), None)],
    };
    let mut out = Vec::new();
    for (we, effect) in &effects {
        for (wp, principal) in &principals {
            let Some(when) = when.and(we).and_then(|w| w.and(wp)) else { continue };
            let allow = match effect.literal() {
                Some(e) => Value::Known(e == "Allow"),
                None => Value::Unknown("Effect only known at deploy time".into()),
            };
            let (span, public) = match principal {
                Some(p) => (p.span, is_public(p)),
                None => (s.span, Value::Known(false)),
            };
            out.push(Statement {
                origin: Origin::file(file, span),
                when,
                allow,
                public_principal: public,
                has_condition,
            });
        }
    }
    out
}

/// `"*"`, `{AWS: "*"}` or `{AWS: ["*", ...]}`.
fn is_public(p: &R) -> Value<bool> {
    let star = |r: &R| match &r.v {
        RV::Str(t) => t.literal().map(|s| s == "*"),
        RV::List(items) => {
            let mut any_unknown = false;
            for i in items {
                match i.literal() {
                    Some(s) if s == "*" => return Some(true),
                    Some(_) => {}
                    None => any_unknown = true,
                }
            }
            if any_unknown { None } else { Some(false) }
        }
        _ => None,
    };
    let verdict = match &p.v {
        RV::Map(_) => match p.entry("AWS") {
            Some((_, aws)) => star(aws),
            None => Some(false),
        },
        _ => star(p),
    };
    match verdict {
        Some(b) => Value::Known(b),
        None => Value::Unknown("principal only known at deploy time".into()),
    }
}
