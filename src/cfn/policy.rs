//! AWS::SQS::QueuePolicy (`Queues: [url, ...]`) and
//! AWS::SQS::QueueInlinePolicy (`Queue: url`): the queues a policy applies
//! to and its statements.

use super::context::Ctx;
use super::resolve::{R, RV};
use super::template::Resource;
use crate::extract::convert::json_string;
use crate::model::{Model, QueuePolicy, Statement, Value};

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let path: &[&str] = if res.kind == "AWS::SQS::QueueInlinePolicy" { &["Queue"] } else { &["Queues", "*"] };
    let queues = ctx.values_at(&props, path).into_iter().map(|(_, q)| ctx.queue_target(q)).collect();
    let mut statements = Vec::new();
    for (when, doc) in ctx.values_at(&props, &["PolicyDocument"]) {
        let doc = match &doc.v {
            RV::Str(_) => json_string(doc),
            _ => Some(doc.clone()),
        };
        let Some(doc) = doc else { continue };
        let mut found = ctx.values_at(&doc, &["Statement", "*"]);
        if found.is_empty() {
            // A single statement may be written as a map.
            found = ctx.values_at(&doc, &["Statement"]);
        }
        for (w, s) in found {
            let Some(when) = when.and(&w) else { continue };
            let Some(statement) = statement(ctx, s, when) else { continue };
            statements.push(statement);
        }
    }
    model.policies.push(QueuePolicy {
        resource: res.id.to_string(),
        origin: ctx.origin(res.entry.key_span),
        queues,
        statements,
    });
}

fn statement(ctx: &Ctx<'_, '_>, s: &R, when: crate::model::When) -> Option<Statement> {
    if !matches!(s.v, RV::Map(_)) {
        return None;
    }
    let allow = match s.entry("Effect").and_then(|(_, e)| e.literal()) {
        Some(e) => Value::Known(e == "Allow"),
        None => Value::Unknown("Effect only known at deploy time".into()),
    };
    let (principal_span, public) = match s.entry("Principal") {
        Some((_, p)) => (p.span, is_public(p)),
        None => (s.span, Value::Known(false)),
    };
    Some(Statement {
        origin: ctx.origin(principal_span),
        when,
        allow,
        public_principal: public,
        // `Condition: {}` restricts nothing; anything else (or a value only
        // known at deploy time) is taken as a restriction.
        has_condition: s.entry("Condition").is_some_and(|(_, c)| !matches!(&c.v, RV::Map(m) if m.is_empty())),
    })
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
