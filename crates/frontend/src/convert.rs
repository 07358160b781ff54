//! Conversions from resolved values to the typed values of the model.

use super::value::{Part, R, RV, Text, format_num};
use sqsguard_model::{Name, Value};
use sqsguard_source::Span;

/// Whole numbers the model holds exactly: below 2^53 (the largest an f64,
/// which every number passes through, keeps exact) and so far beyond any
/// AWS range that past it a number is reported rather than held.
const EXACT: f64 = 9.0e15;

pub(crate) fn to_int(r: &R) -> Value<i64> {
    match &r.v {
        RV::Num(n) if n.fract() == 0.0 && n.abs() < EXACT => Value::Known(*n as i64),
        RV::Num(n) if !n.is_finite() || n.abs() >= EXACT => Value::unrepresentable_number(&format_num(*n)),
        RV::Str(t) => match t.literal().map(|s| s.trim().to_string()) {
            Some(s) => match s.parse::<i64>() {
                Ok(n) if (n as f64).abs() < EXACT => Value::Known(n),
                _ if unrepresentable(&s) => Value::unrepresentable_number(&s),
                _ => Value::Unknown(format!("{s} is not a whole number known before deployment")),
            },
            None => Value::Unknown(format!("{} is not a whole number known before deployment", t.display())),
        },
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a whole number".into()),
    }
}

pub(crate) fn to_f64(r: &R) -> Value<f64> {
    match &r.v {
        RV::Num(n) if n.is_finite() => Value::Known(*n),
        RV::Num(n) => Value::unrepresentable_number(&format_num(*n)),
        RV::Str(t) => match t.literal().map(|s| s.trim().to_string()) {
            Some(s) if unrepresentable(&s) => Value::unrepresentable_number(&s),
            Some(s) => match s.parse::<f64>() {
                Ok(n) if n.is_finite() => Value::Known(n),
                Ok(_) => Value::unrepresentable_number(&s),
                Err(_) => Value::Unknown("not a number known before deployment".into()),
            },
            None => Value::Unknown("not a number known before deployment".into()),
        },
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a number".into()),
    }
}

/// A number as written that is infinite, not a number, or a whole number
/// too large to hold exactly: YAML's `.inf`, `-.inf` and `.nan`, `1e400`,
/// or more digits than 64 bits keep.
fn unrepresentable(s: &str) -> bool {
    let body = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(body, ".inf" | ".Inf" | ".INF") || matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let numeric = !body.is_empty()
        && body.starts_with(|c: char| c.is_ascii_digit() || c == '.')
        && body.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'));
    numeric && s.parse::<f64>().is_ok_and(|n| !n.is_finite() || (n.fract() == 0.0 && n.abs() >= EXACT))
}

pub(crate) fn to_bool(r: &R) -> Value<bool> {
    match &r.v {
        RV::Bool(b) => Value::Known(*b),
        RV::Str(t) => match t.literal().map(|s| s.to_ascii_lowercase()).as_deref() {
            Some("true") => Value::Known(true),
            Some("false") => Value::Known(false),
            _ => Value::Unknown("not a boolean known before deployment".into()),
        },
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a boolean".into()),
    }
}

/// A map or block: known true when it holds anything (a Terraform block
/// is a map, or a list of them in JSON and plans), absent when empty.
pub(crate) fn to_block(r: &R) -> Value<bool> {
    match &r.v {
        RV::Map(entries) if entries.is_empty() => Value::Absent,
        RV::Map(_) => Value::Known(true),
        RV::List(items) if items.is_empty() => Value::Absent,
        RV::List(items) => {
            let holds: Vec<Value<bool>> = items.iter().map(to_block).collect();
            if holds.iter().any(|h| matches!(h, Value::Known(true))) {
                Value::Known(true)
            } else if let Some(Value::Unknown(why)) = holds.iter().find(|h| matches!(h, Value::Unknown(_))) {
                Value::Unknown(why.clone())
            } else {
                Value::Absent
            }
        }
        RV::Null | RV::NoValue => Value::Absent,
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a mapping known before deployment".into()),
    }
}

pub(crate) fn to_string(r: &R) -> Value<String> {
    match (&r.v, r.literal()) {
        (_, Some(s)) => Value::Known(s),
        (RV::Unknown(why), _) => Value::Unknown(why.clone()),
        _ => Value::Unknown("only known at deploy time".into()),
    }
}

pub(crate) fn to_name(r: &R) -> Value<Name> {
    match &r.v {
        RV::Str(t) => Value::Known(Name { text: t.display(), suffix_known: t.ends_literal() }),
        RV::Num(_) => Value::Known(Name { text: r.literal().unwrap_or_default(), suffix_known: true }),
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a name".into()),
    }
}

pub(crate) fn to_string_list(r: &R) -> Value<Vec<String>> {
    match &r.v {
        RV::List(items) => {
            let mut out = Vec::new();
            for item in items {
                match item.literal() {
                    Some(s) => out.push(s),
                    None => return Value::Unknown("list item only known at deploy time".into()),
                }
            }
            Value::Known(out)
        }
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a list".into()),
    }
}

/// A JSON document written as a string (RedrivePolicy, PolicyDocument) as a
/// resolved map located at the string. A `!Sub` string keeps its references:
/// `{"deadLetterTargetArn": "${Dlq.Arn}"}` still links to the queue Dlq.
pub(crate) fn json_string(r: &R) -> Option<R> {
    let text = r.text()?;
    // Stand-ins for the references: inside a JSON string a bare token, as
    // a whole value a quoted one (`"maxReceiveCount": ${var.n}`), so the
    // document parses and the references come back where they were.
    let mut json = String::new();
    let mut placeholders: Vec<(String, &Part)> = Vec::new();
    let (mut in_string, mut escaped) = (false, false);
    for part in &text.0 {
        match part {
            Part::Lit(s) => {
                for c in s.chars() {
                    match c {
                        _ if escaped => escaped = false,
                        '\\' if in_string => escaped = true,
                        '"' => in_string = !in_string,
                        _ => {}
                    }
                }
                json.push_str(s);
            }
            other => {
                let token = format!("@@sqsguard:{}@@", placeholders.len());
                if in_string {
                    json.push_str(&token);
                } else {
                    json.push('"');
                    json.push_str(&token);
                    json.push('"');
                }
                placeholders.push((token, other));
            }
        }
    }
    let value: serde_json::Value = serde_json::from_str(&json).ok()?;
    Some(from_json(&value, r.span, &placeholders, 0))
}

fn from_json(v: &serde_json::Value, span: Span, placeholders: &[(String, &Part)], depth: usize) -> R {
    use serde_json::Value as J;
    let v = match v {
        _ if depth > sqsguard_syntax::MAX_DEPTH => RV::Unknown("nested too deeply".into()),
        J::Null => RV::Null,
        J::Bool(b) => RV::Bool(*b),
        J::Number(n) => RV::Num(n.as_f64().unwrap_or(f64::NAN)),
        J::String(s) => RV::Str(with_placeholders(s, placeholders)),
        J::Array(items) => RV::List(items.iter().map(|i| from_json(i, span, placeholders, depth + 1)).collect()),
        J::Object(map) => {
            RV::Map(map.iter().map(|(k, v)| (k.clone(), span, from_json(v, span, placeholders, depth + 1))).collect())
        }
    };
    R { v, span, written: None, given: None }
}

/// Turn the stand-ins written for references back into those references.
fn with_placeholders(s: &str, placeholders: &[(String, &Part)]) -> Text {
    const MARK: &str = "@@sqsguard:";
    let mut text = Text::default();
    let mut rest = s;
    'scan: while let Some(at) = rest.find(MARK) {
        for (token, part) in placeholders {
            if rest[at..].starts_with(token.as_str()) {
                text.push(Part::Lit(rest[..at].to_string()));
                text.push((*part).clone());
                rest = &rest[at + token.len()..];
                continue 'scan;
            }
        }
        text.push(Part::Lit(rest[..at + MARK.len()].to_string()));
        rest = &rest[at + MARK.len()..];
    }
    text.push(Part::Lit(rest.to_string()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> R {
        R::new(RV::Str(Text::lit(s)), Span::default())
    }

    fn num(n: f64) -> R {
        R::new(RV::Num(n), Span::default())
    }

    #[test]
    fn numbers_no_attribute_can_hold_are_unrepresentable_not_unknown() {
        for written in ["1e400", "-1e400", ".inf", "-.inf", "+.inf", ".nan", ".NaN", "99999999999999999999", "1e16"] {
            assert_eq!(to_int(&lit(written)).unrepresentable(), Some(written), "{written}");
        }
        assert_eq!(to_int(&num(f64::INFINITY)).unrepresentable(), Some("inf"));
        assert_eq!(to_int(&num(1e20)).unrepresentable(), Some("100000000000000000000"));
        assert_eq!(to_int(&num(f64::NAN)).unrepresentable(), Some("NaN"));
        for written in [".inf", "1e400", ".nan"] {
            assert_eq!(to_f64(&lit(written)).unrepresentable(), Some(written), "{written}");
        }
        assert_eq!(to_f64(&num(f64::NEG_INFINITY)).unrepresentable(), Some("-inf"));
    }

    #[test]
    fn ordinary_numbers_and_words_stay_what_they_were() {
        assert_eq!(to_int(&lit("30")), Value::Known(30));
        assert_eq!(to_int(&num(8.0e15)), Value::Known(8_000_000_000_000_000));
        assert_eq!(to_int(&num(-5.0)), Value::Known(-5));
        assert_eq!(to_f64(&lit("0.5")), Value::Known(0.5));
        for word in ["30.5", "inf", "infinity", "nan", "thirty", ""] {
            let v = to_int(&lit(word));
            assert!(v.known().is_none() && v.unrepresentable().is_none(), "{word}: {v:?}");
        }
        // A value only deployment knows is no number at all.
        let v = to_int(&R::unknown("a parameter", Span::default()));
        assert_eq!((v.known(), v.unrepresentable()), (None, None));
    }
}
