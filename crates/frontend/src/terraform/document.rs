//! `data "aws_iam_policy_document"` as the IAM JSON it renders, for a
//! queue policy whose `policy` is its `.json`; and one statement of it,
//! which the registry's SQS module builds from `queue_policy_statements`
//! objects of the same shape. `frontend::policy` reads the result as it
//! reads any other document.
//!
//! What the data source would render from something not read here (a
//! `dynamic` block, a merged `source_policy_documents`, `count`) makes
//! the whole document unknown: never a guess at what it allows.

use hcl_edit::expr::TraversalOperator;

use super::eval::{Scope, attr_at};
use crate::value::{Part, R, RV, Text};
use sqsguard_source::Span;

/// `data "archive_file"`: the zip a Lambda function's code is packaged in.
pub(crate) const ARCHIVE: &str = "archive_file";

/// The data source of the deploying account.
const CALLER_IDENTITY: &str = "aws_caller_identity";

/// Arguments that merge other documents into the data source's.
const MERGED: &[&str] = &["source_json", "override_json", "source_policy_documents", "override_policy_documents"];

/// Statement arguments copied as they are, with their IAM names.
const COPIED: &[(&str, &str)] = &[
    ("sid", "Sid"),
    ("actions", "Action"),
    ("not_actions", "NotAction"),
    ("resources", "Resource"),
    ("not_resources", "NotResource"),
];

impl Scope {
    /// `data.TYPE.NAME...`: an `aws_iam_policy_document`'s `json` (or
    /// `minified_json`) is built from its block; an `archive_file`'s
    /// attributes stay references to it (the Lambda reader reads what it
    /// packages); any other data source is only known at plan time.
    pub(super) fn data_source(&self, ops: &[hcl_edit::Decorated<TraversalOperator>], file: usize, span: Span) -> R {
        let plan_time = || R::unknown("data sources are only known at plan time", span);
        let (Some(kind), Some(name), Some(attribute)) = (attr_at(ops, 0), attr_at(ops, 1), attr_at(ops, 2)) else {
            return plan_time();
        };
        if kind == ARCHIVE && ops.len() == 3 && self.data.contains_key(&format!("{kind}.{name}")) {
            // What the archive holds is read where it is used (a Lambda
            // function's `filename`): the reference stays symbolic.
            let resource = format!("{}data.{kind}.{name}", self.prefix);
            let part = Part::Attr { resource, attribute: attribute.to_string() };
            return R::new(RV::Str(Text(vec![part])), span);
        }
        if kind == CALLER_IDENTITY && matches!(attribute, "account_id" | "arn") && ops.len() == 3 {
            // The deploying account (or its caller's ARN), as CloudFormation's
            // `AWS::AccountId`: unknown text, but an account's, so a policy
            // statement naming it is no service and no `*`.
            let part = Part::Opaque(format!("{}data.{kind}.{name}.{attribute}", self.prefix));
            return R::new(RV::Str(Text(vec![part])), span);
        }
        if kind != "aws_iam_policy_document" || !matches!(attribute, "json" | "minified_json") || ops.len() != 3 {
            return plan_time();
        }
        let address = format!("data.{kind}.{name}");
        let block = self.data.get(&format!("{kind}.{name}")).and_then(|&(df, bi)| {
            let f = self.files.get(df)?;
            Some((df, f, f.body.get(bi)?.as_block()?))
        });
        let Some((df, f, block)) = block else { return R::unknown(format!("{address} is not in this module"), span) };
        let block_span = f.span(block, span);
        let body = self.guarded(&address, span, |s| s.block(&block.body, df, block_span));
        match document(&body, block_span) {
            // Statements stay located in the block when it is in the same
            // file as the reference; else at the reference.
            Ok(doc) if df == file => doc,
            Ok(doc) => doc.relocated_deep(span),
            Err(why) => R::unknown(format!("{address}: {why}"), span),
        }
    }
}

/// The document a data source's evaluated body renders.
pub(crate) fn document(body: &R, span: Span) -> Result<R, String> {
    if !matches!(body.v, RV::Map(_)) {
        return Err("its arguments are only known at plan time".into());
    }
    for key in MERGED {
        if body.entry(key).is_some_and(|(_, v)| v.v != RV::Null) {
            return Err(format!("it merges {key}, which is not read"));
        }
    }
    for key in ["dynamic", "count", "for_each"] {
        if body.entry(key).is_some() {
            return Err(format!("it has {key}, which is not read"));
        }
    }
    let mut statements = Vec::new();
    if let Some((_, s)) = body.entry("statement") {
        for item in items(s).ok_or("its statements are only known at plan time")? {
            statements.push(statement(item)?);
        }
    }
    let version = R::new(RV::Str(Text::lit("2012-10-17")), span);
    let entries = vec![
        ("Version".to_string(), span, version),
        ("Statement".to_string(), span, R::new(RV::List(statements), span)),
    ];
    Ok(R::new(RV::Map(entries), span))
}

/// One `statement` (a block, or an object of `queue_policy_statements`)
/// as an IAM statement: `effect` (Allow when absent), actions, resources,
/// `principals { type identifiers }` and `condition { test variable values }`
/// (the registry module also takes `conditions`).
pub(crate) fn statement(s: &R) -> Result<R, String> {
    if !matches!(s.v, RV::Map(_)) {
        return Err("a statement only known at plan time".into());
    }
    if s.entry("dynamic").is_some() {
        return Err("a statement has a dynamic block, which is not read".into());
    }
    let set = |key: &str| s.entry(key).filter(|(_, v)| v.v != RV::Null);
    let mut entries = Vec::new();
    let effect = set("effect").map_or_else(|| R::new(RV::Str(Text::lit("Allow")), s.span), |(_, e)| e.clone());
    entries.push(("Effect".to_string(), effect.span, effect));
    for (key, iam) in COPIED {
        if let Some((at, v)) = set(key) {
            entries.push((iam.to_string(), at, v.clone()));
        }
    }
    for (key, iam) in [("principals", "Principal"), ("not_principals", "NotPrincipal")] {
        if let Some((at, v)) = set(key) {
            entries.push((iam.to_string(), at, principal(v)));
        }
    }
    let mut conditions = Vec::new();
    for key in ["condition", "conditions"] {
        if let Some((_, v)) = set(key) {
            match items(v) {
                Some(list) => conditions.extend(list),
                // Any condition, even one only known at plan time, restricts.
                None => conditions.push(v),
            }
        }
    }
    if let Some(first) = conditions.first() {
        entries.push(("Condition".to_string(), first.span, condition(&conditions)));
    }
    Ok(R::new(RV::Map(entries), s.span))
}

/// The blocks of a repeated block type (one block is a map), or the items
/// of a list; `None` for a value only known at plan time.
fn items(r: &R) -> Option<Vec<&R>> {
    match &r.v {
        RV::List(items) => Some(items.iter().collect()),
        RV::Map(_) => Some(vec![r]),
        RV::Null => Some(Vec::new()),
        _ => None,
    }
}

/// `principals` blocks as `{Service: [...], AWS: [...]}`, identifiers of
/// blocks of one type together; type `*` and a type only known at plan
/// time count as `AWS` (so a wildcard among them is public).
fn principal(principals: &R) -> R {
    let Some(blocks) = items(principals) else {
        return R::unknown("principals only known at plan time", principals.span);
    };
    let mut by_type: Vec<(String, Span, R)> = Vec::new();
    for block in blocks {
        let kind = block.entry("type").and_then(|(_, t)| t.literal()).filter(|t| t != "*");
        let kind = kind.unwrap_or_else(|| "AWS".to_string());
        let identifiers = match block.entry("identifiers").map(|(_, i)| i) {
            Some(R { v: RV::List(ids), .. }) => ids.clone(),
            Some(other) => vec![other.clone()],
            None => vec![R::unknown("a principal without identifiers", block.span)],
        };
        match by_type.iter_mut().find(|(k, _, _)| *k == kind) {
            Some((_, _, R { v: RV::List(all), .. })) => all.extend(identifiers),
            _ => by_type.push((kind, block.span, R::new(RV::List(identifiers), block.span))),
        }
    }
    R::new(RV::Map(by_type), principals.span)
}

/// `condition` blocks as `{test: {variable: values}}`. A test or variable
/// only known at plan time, or one test on one variable twice, makes the
/// condition unknown (it still restricts).
fn condition(blocks: &[&R]) -> R {
    let span = blocks.first().map_or(Span::default(), |b| b.span);
    let mut tests: Vec<(String, Span, R)> = Vec::new();
    for block in blocks {
        let literal = |key: &str| block.entry(key).and_then(|(_, v)| v.literal());
        let (Some(test), Some(variable)) = (literal("test"), literal("variable")) else {
            return R::unknown("a condition only known at plan time", block.span);
        };
        let values = match block.entry("values").map(|(_, v)| v) {
            Some(v @ R { v: RV::List(_), .. }) => v.clone(),
            Some(v) => R::new(RV::List(vec![v.clone()]), v.span),
            None => return R::unknown("a condition without values", block.span),
        };
        let at = tests.iter().position(|(t, _, _)| *t == test);
        let at = at.unwrap_or_else(|| {
            tests.push((test, block.span, R::new(RV::Map(Vec::new()), block.span)));
            tests.len() - 1
        });
        let Some((_, _, R { v: RV::Map(variables), .. })) = tests.get_mut(at) else {
            return R::unknown("a condition", block.span);
        };
        if variables.iter().any(|(v, _, _)| *v == variable) {
            return R::unknown("two conditions of one test on one key", block.span);
        }
        variables.push((variable, block.span, values));
    }
    R::new(RV::Map(tests), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> R {
        R::new(RV::Str(Text::lit(text)), Span::default())
    }

    fn map(entries: &[(&str, R)]) -> R {
        let entries = entries.iter().map(|(k, v)| (k.to_string(), Span::default(), v.clone())).collect();
        R::new(RV::Map(entries), Span::default())
    }

    fn list(items: &[R]) -> R {
        R::new(RV::List(items.to_vec()), Span::default())
    }

    fn condition_block(test: &str, variable: &str, value: &str) -> R {
        map(&[("test", s(test)), ("variable", s(variable)), ("values", list(&[s(value)]))])
    }

    #[test]
    fn conditions_group_by_test_and_a_repeated_key_is_unknown() {
        let two = [
            condition_block("ArnEquals", "aws:SourceArn", "arn:a"),
            condition_block("ArnEquals", "aws:SourceAccount", "1"),
        ];
        let c = condition(&two.iter().collect::<Vec<_>>());
        let (_, arn_equals) = c.entry("ArnEquals").expect("grouped under the test");
        assert!(arn_equals.entry("aws:SourceArn").is_some() && arn_equals.entry("aws:SourceAccount").is_some());
        let twice =
            [condition_block("ArnLike", "aws:SourceArn", "a"), condition_block("ArnLike", "aws:SourceArn", "b")];
        assert!(matches!(condition(&twice.iter().collect::<Vec<_>>()).v, RV::Unknown(_)));
    }

    #[test]
    fn principals_of_one_type_join_and_star_is_aws() {
        let blocks = list(&[
            map(&[("type", s("Service")), ("identifiers", list(&[s("sns.amazonaws.com")]))]),
            map(&[("type", s("Service")), ("identifiers", list(&[s("events.amazonaws.com")]))]),
            map(&[("type", s("*")), ("identifiers", list(&[s("*")]))]),
        ]);
        let p = principal(&blocks);
        let services = p.entry("Service").and_then(|(_, v)| if let RV::List(l) = &v.v { Some(l.len()) } else { None });
        assert_eq!(services, Some(2));
        assert!(p.entry("AWS").is_some());
    }

    #[test]
    fn a_statement_defaults_to_allow_and_renames_its_arguments() {
        let st = statement(&map(&[("actions", list(&[s("sqs:SendMessage")])), ("not_resources", list(&[s("x")]))]))
            .expect("a map is a statement");
        assert_eq!(st.entry("Effect").and_then(|(_, e)| e.literal()).as_deref(), Some("Allow"));
        assert!(st.entry("Action").is_some() && st.entry("NotResource").is_some() && st.entry("Condition").is_none());
        assert!(statement(&map(&[("dynamic", s("x"))])).is_err());
        let merged = map(&[("source_policy_documents", list(&[s("{}")]))]);
        assert!(document(&merged, Span::default()).is_err());
    }
}
