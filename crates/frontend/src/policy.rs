//! IAM policy documents (queue policies) into model statements: the same
//! JSON shape whether it came from CloudFormation, `jsonencode` or a JSON
//! string. What cannot be read is unknown, never guessed: `NotPrincipal`
//! and `NotResource`, values only known at deploy time, a document that
//! does not parse.

use super::convert::json_string;
use super::value::{Part, R, RV, Text, values_at};
use sqsguard_model::policy::{Actions, Condition, Principal, SourceId};
use sqsguard_model::{Origin, Statement, Target, Value, When};
use sqsguard_source::Source;

/// The statements of a policy document (a map, a JSON string, or a
/// conditional choosing between them), and why part of it could not be
/// read. `queue` links a `Resource` value to a queue.
pub(crate) fn statements(
    file: &Source,
    policy: &R,
    queue: &dyn Fn(&R) -> Value<Target>,
) -> (Vec<Statement>, Option<String>) {
    let mut out = Vec::new();
    let mut unreadable = None;
    for (when, doc) in policy.alternatives() {
        let parsed = match &doc.v {
            // A template (a heredoc or `!Sub` with references) parses too:
            // its references stay where they are in the document.
            RV::Str(t) => match json_string(doc).filter(|d| matches!(d.v, RV::Map(_))) {
                Some(d) => Some(d),
                None if t.literal().is_some() => None,
                None => {
                    unreadable = Some(format!("the document `{}` is only known at deploy time", short(&t.display())));
                    None
                }
            },
            RV::Unknown(why) => {
                unreadable = Some(why.clone());
                None
            }
            _ => Some(doc.clone()),
        };
        let Some(doc) = parsed else {
            if unreadable.is_none() {
                unreadable = Some("the document is not JSON".into());
            }
            continue;
        };
        let mut found = values_at(&doc, &["Statement", "*"]);
        if found.is_empty() {
            // A single statement may be written as a map.
            found = values_at(&doc, &["Statement"]);
        }
        if found.is_empty() {
            unreadable.get_or_insert_with(|| "no Statement could be read".into());
        }
        for (w, s) in found {
            if let Some(when) = when.and(&w) {
                out.extend(statement(file, s, when, queue));
            }
        }
    }
    (out, unreadable)
}

fn short(s: &str) -> String {
    let mut chars = s.chars();
    let head: String = chars.by_ref().take(60).collect();
    if chars.next().is_some() { format!("{head}...") } else { head }
}

/// One statement, once per branch of a conditional Effect or Principal.
fn statement(file: &Source, s: &R, when: When, queue: &dyn Fn(&R) -> Value<Target>) -> Vec<Statement> {
    if !matches!(s.v, RV::Map(_)) {
        return Vec::new();
    }
    // `Condition: {}` restricts nothing; anything else (or a value only
    // known at deploy time) is taken as a restriction.
    let condition = s.entry("Condition").map(|(_, c)| c);
    let has_condition = condition.is_some_and(|c| !matches!(&c.v, RV::Map(m) if m.is_empty()));
    let conditions = condition.map(conditions).unwrap_or_default();
    let effects = match s.entry("Effect") {
        Some((_, e)) => e.alternatives(),
        None => vec![(When::always(), s)],
    };
    let principals: Vec<(When, Option<&R>)> = match s.entry("Principal") {
        Some((_, p)) => p.alternatives().into_iter().map(|(w, p)| (w, Some(p))).collect(),
        None => vec![(When::always(), None)],
    };
    let actions = match (s.entry("Action"), s.entry("NotAction")) {
        (Some((_, a)), None) => actions(a, false),
        (None, Some((_, a))) => actions(a, true),
        (None, None) => Value::Absent,
        (Some(_), Some(_)) => Value::Unknown("both Action and NotAction".into()),
    };
    let resources = match (s.entry("Resource"), s.entry("NotResource")) {
        (Some((_, r)), None) => resources(r, queue),
        (None, None) => Value::Absent,
        _ => Value::Unknown("NotResource".into()),
    };
    let not_principal = s.entry("NotPrincipal").is_some();
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
            let principals = match principal {
                _ if not_principal => Value::Unknown("NotPrincipal".into()),
                Some(p) => principal_list(p),
                None => Value::Absent,
            };
            out.push(Statement {
                origin: Origin::file(file, span),
                when,
                allow,
                public_principal: public,
                has_condition,
                principals,
                actions: actions.clone(),
                resources: resources.clone(),
                conditions: conditions.clone(),
            });
        }
    }
    out
}

/// The items of a string or a list of strings; `None` when one is not
/// literal or the value is neither.
fn literals(r: &R) -> Option<Vec<String>> {
    match &r.v {
        RV::List(items) => items.iter().map(R::literal).collect(),
        _ => r.literal().map(|s| vec![s]),
    }
}

fn actions(r: &R, not: bool) -> Value<Actions> {
    match literals(r) {
        Some(list) => Value::Known(Actions { not, patterns: list.iter().map(|a| a.to_ascii_lowercase()).collect() }),
        None => Value::Unknown("Action only known at deploy time".into()),
    }
}

fn resources(r: &R, queue: &dyn Fn(&R) -> Value<Target>) -> Value<Vec<Value<Target>>> {
    let items: Vec<&R> = match &r.v {
        RV::List(items) => items.iter().collect(),
        RV::Str(_) => vec![r],
        _ => return Value::Unknown("Resource only known at deploy time".into()),
    };
    let one = |item: &R| match item.literal() {
        // A wildcard names the queues it matches, which the rule compares.
        Some(text) if text.contains(['*', '?']) => Value::Known(Target::External(text)),
        _ => queue(item),
    };
    Value::Known(items.into_iter().map(one).collect())
}

/// `"*"`, `{AWS: ...}`, `{Service: ...}`, with each name classified. An
/// ARN built at deploy time (`!Sub arn:aws:iam::${AWS::AccountId}:root`) is
/// still an account or role, never `*` or a service.
fn principal_list(p: &R) -> Value<Vec<Principal>> {
    let unknown = || Value::Unknown("Principal only known at deploy time".into());
    if let Some(list) = literals(p) {
        return Value::Known(
            list.iter().map(|s| if s == "*" { Principal::Anyone } else { Principal::Other }).collect(),
        );
    }
    let RV::Map(entries) = &p.v else { return unknown() };
    let mut out = Vec::new();
    for (key, _, value) in entries {
        let items: Vec<&R> = match &value.v {
            RV::List(items) => items.iter().collect(),
            _ => vec![value],
        };
        for item in items {
            let principal = match (key.as_str(), item.literal()) {
                ("Service", Some(name)) => Principal::Service(name.to_ascii_lowercase()),
                ("AWS", Some(name)) if name == "*" => Principal::Anyone,
                (_, Some(_)) => Principal::Other,
                ("Service", None) => return unknown(),
                (_, None) if is_arn(item) => Principal::Other,
                (_, None) if is_aws_principal(key, item) => Principal::Other,
                (_, None) => return unknown(),
            };
            out.push(principal);
        }
    }
    Value::Known(out)
}

/// A value only known at deploy time that still names an account, role or
/// user, never `*` nor a service: any value of `Federated` or
/// `CanonicalUser`; under `AWS`, a resource's ARN (`!GetAtt Role.Arn`,
/// `aws_iam_role.r.arn`), the deploying account (`!Ref AWS::AccountId`,
/// `data.aws_caller_identity.current.account_id` or `.arn`), or text with
/// literal parts around such values (`arn:aws:iam::${...}:root`).
fn is_aws_principal(key: &str, item: &R) -> bool {
    if matches!(key, "Federated" | "CanonicalUser") {
        return true;
    }
    if key != "AWS" {
        return false;
    }
    let Some(text) = item.text() else { return false };
    let account = |name: &str| name == "AWS::AccountId" || caller_identity(name);
    !text.0.is_empty()
        && text.0.iter().all(|part| match part {
            Part::Lit(s) => !s.contains(['*', '?']),
            Part::Attr { attribute, .. } => attribute.eq_ignore_ascii_case("arn"),
            Part::Opaque(name) => account(name),
        })
}

/// `data.aws_caller_identity.NAME.account_id` or `.arn` (in a module too).
fn caller_identity(name: &str) -> bool {
    let Some(at) = name.find("data.aws_caller_identity.") else { return false };
    let rest = &name[at + "data.aws_caller_identity.".len()..];
    rest.rsplit_once('.').is_some_and(|(_, attribute)| matches!(attribute, "account_id" | "arn"))
}

/// Text that starts with a literal `arn:`.
fn is_arn(r: &R) -> bool {
    matches!(r.text().and_then(|t| t.0.first()), Some(Part::Lit(head)) if head.starts_with("arn:"))
}

/// `{StringEquals: {aws:SourceArn: ...}, ...}`: the keys and their values,
/// whatever the operator (every operator on a source key compares with the
/// source; a value that names another source does not match it).
fn conditions(c: &R) -> Vec<Condition> {
    let RV::Map(operators) = &c.v else {
        return vec![Condition { key: "a condition only known at deploy time".into(), values: Vec::new() }];
    };
    let mut out = Vec::new();
    for (operator, _, keys) in operators {
        let RV::Map(keys) = &keys.v else {
            out.push(Condition { key: operator.to_ascii_lowercase(), values: Vec::new() });
            continue;
        };
        for (key, _, values) in keys {
            let items: Vec<&R> = match &values.v {
                RV::List(items) => items.iter().collect(),
                _ => vec![values],
            };
            out.push(Condition { key: key.to_ascii_lowercase(), values: items.into_iter().map(source_id).collect() });
        }
    }
    out
}

/// Who a value names, for `aws:SourceArn`: a resource when it refers to one
/// (`!GetAtt Rule.Arn`, `!Ref Topic`, `aws_sns_topic.t.arn`, or an ARN
/// built around a single reference), else its literal text.
pub(crate) fn source_id(r: &R) -> Value<SourceId> {
    match &r.v {
        RV::Str(t) => text_source(t),
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a string".into()),
    }
}

fn text_source(t: &Text) -> Value<SourceId> {
    if let Some(lit) = t.literal() {
        return Value::Known(SourceId::Text(lit));
    }
    let mut refs = t.0.iter().filter_map(|p| match p {
        Part::Attr { resource, .. } => Some(resource.split('[').next().unwrap_or(resource)),
        _ => None,
    });
    match (refs.next(), refs.next()) {
        (Some(one), None) => Value::Known(SourceId::Resource(one.to_string())),
        _ => Value::Unknown(format!("`{}` is only known at deploy time", short(&t.display()))),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::Span;

    fn aws(part: Part) -> R {
        let item = R::new(RV::Str(Text(vec![part])), Span::default());
        R::new(RV::Map(vec![("AWS".into(), Span::default(), item)]), Span::default())
    }

    /// A principal only known at deploy time that is an account or role is
    /// no service and no `*`; one of unknown kind stays unknown.
    #[test]
    fn deploy_time_accounts_and_roles_are_other_principals() {
        let other = Value::Known(vec![Principal::Other]);
        assert_eq!(principal_list(&aws(Part::Opaque("AWS::AccountId".into()))), other);
        assert_eq!(principal_list(&aws(Part::Opaque("data.aws_caller_identity.current.arn".into()))), other);
        assert_eq!(principal_list(&aws(Part::Opaque("module.k.data.aws_caller_identity.me.account_id".into()))), other);
        let role = Part::Attr { resource: "aws_iam_role.admin".into(), attribute: "arn".into() };
        assert_eq!(principal_list(&aws(role)), other);
        for unknown in ["var.admins", "local.principal", "data.aws_caller_identity.current.user_id"] {
            assert!(matches!(principal_list(&aws(Part::Opaque(unknown.into()))), Value::Unknown(_)), "{unknown}");
        }
        let named = Part::Attr { resource: "Topic".into(), attribute: "TopicName".into() };
        assert!(matches!(principal_list(&aws(named)), Value::Unknown(_)));
    }
}
