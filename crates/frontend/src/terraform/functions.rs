//! Terraform's functions and operators over evaluated values: what a
//! function of known arguments gives, else unknown with the reason.

use hcl_edit::expr::BinaryOperator;

use crate::convert::json_string;
use crate::value::{Part, R, RV, Text};
use sqsguard_source::Span;

/// `name(args...)`, its arguments already evaluated.
#[expect(
    clippy::too_many_lines,
    reason = "one match arm per Terraform function sqsguard evaluates: the table of what a known argument gives, which splitting would scatter"
)]
pub(crate) fn call(name: &str, args: &[R], span: Span) -> R {
    let v = match (name, args) {
        // The structure is what rules read; the JSON text is not needed.
        ("jsonencode", [x]) => return x.clone().relocated(span),
        ("jsondecode", [x]) => match json_string(x) {
            Some(v) => return v.relocated_deep(span),
            None => RV::Unknown("jsondecode of a value only known at plan time".into()),
        },
        ("tostring" | "tolist" | "toset" | "tomap" | "sensitive" | "nonsensitive", [x]) => {
            return x.clone().relocated(span);
        }
        ("tonumber", [x]) => match x.literal().and_then(|s| s.parse::<f64>().ok()) {
            Some(n) => RV::Num(n),
            None => RV::Unknown("tonumber of a value only known at plan time".into()),
        },
        ("tobool", [x]) => match x.literal().as_deref() {
            Some("true") => RV::Bool(true),
            Some("false") => RV::Bool(false),
            _ => RV::Unknown("tobool of a value only known at plan time".into()),
        },
        ("max" | "min", nums) if !nums.is_empty() => {
            let known: Option<Vec<f64>> =
                nums.iter().map(|n| if let RV::Num(x) = n.v { Some(x) } else { None }).collect();
            match known {
                Some(v) if name == "max" => RV::Num(v.into_iter().fold(f64::MIN, f64::max)),
                Some(v) => RV::Num(v.into_iter().fold(f64::MAX, f64::min)),
                None => RV::Unknown(format!("{name} of values only known at plan time")),
            }
        }
        ("ceil" | "floor", [x]) => match x.v {
            RV::Num(n) if name == "ceil" => RV::Num(n.ceil()),
            RV::Num(n) => RV::Num(n.floor()),
            _ => RV::Unknown(format!("{name} of a value only known at plan time")),
        },
        ("lookup", [map, key, rest @ ..]) if rest.len() <= 1 => match (key.literal(), &map.v) {
            (Some(k), RV::Map(_)) => match map.entry(&k) {
                Some((_, v)) => return v.clone().relocated_deep(span),
                None => match rest.first() {
                    Some(default) => return default.clone().relocated(span),
                    None => RV::Unknown(format!("lookup of missing key {k}")),
                },
            },
            _ => RV::Unknown("lookup in a value only known at plan time".into()),
        },
        ("merge", maps) => {
            let mut merged: Vec<(String, Span, R)> = Vec::new();
            for m in maps {
                let RV::Map(entries) = &m.v else {
                    return R::unknown("merge of a value only known at plan time", span);
                };
                for (k, ks, v) in entries {
                    merged.retain(|(existing, _, _)| existing != k);
                    merged.push((k.clone(), *ks, v.clone()));
                }
            }
            RV::Map(merged)
        }
        ("concat", lists) => {
            let mut all = Vec::new();
            for l in lists {
                let RV::List(items) = &l.v else {
                    return R::unknown("concat of a value only known at plan time", span);
                };
                all.extend(items.iter().cloned());
            }
            RV::List(all)
        }
        ("coalesce", values) => {
            for value in values {
                match &value.v {
                    RV::Null => continue,
                    RV::Str(t) if t.literal().is_some_and(|s| s.is_empty()) => continue,
                    RV::Unknown(_) => return value.clone().relocated(span),
                    _ => return value.clone().relocated(span),
                }
            }
            RV::Unknown("coalesce of no value".into())
        }
        ("try", values) => match values.iter().find(|v| !matches!(v.v, RV::Unknown(_))) {
            Some(v) => return v.clone().relocated(span),
            None => RV::Unknown("try of values only known at plan time".into()),
        },
        ("length", [x]) => match &x.v {
            RV::List(items) => RV::Num(items.len() as f64),
            RV::Map(entries) => RV::Num(entries.len() as f64),
            RV::Str(t) => match t.literal() {
                Some(s) => RV::Num(s.chars().count() as f64),
                None => RV::Unknown("length of a string only known at plan time".into()),
            },
            _ => RV::Unknown("length of a value only known at plan time".into()),
        },
        ("trimsuffix" | "trimprefix", [x, affix]) => match (&x.v, affix.literal()) {
            (RV::Str(t), Some(affix)) => {
                let mut parts = t.0.clone();
                let trimmed = if name == "trimsuffix" {
                    match parts.last_mut() {
                        Some(Part::Lit(last)) => {
                            last.strip_suffix(affix.as_str()).map(str::to_string).map(|s| *last = s)
                        }
                        _ => None,
                    }
                } else {
                    match parts.first_mut() {
                        Some(Part::Lit(first)) => {
                            first.strip_prefix(affix.as_str()).map(str::to_string).map(|s| *first = s)
                        }
                        _ => None,
                    }
                };
                match trimmed {
                    Some(()) => RV::Str(Text(parts)),
                    // Nothing to trim where the text is literal; an
                    // unknown end may or may not carry the affix.
                    None if t.literal().is_some() => RV::Str(t.clone()),
                    None => RV::Unknown(format!("{name} of a value only known at plan time")),
                }
            }
            _ => RV::Unknown(format!("{name} of a value only known at plan time")),
        },
        ("lower" | "upper", [x]) => match x.literal() {
            Some(s) if name == "lower" => RV::Str(Text::lit(s.to_lowercase())),
            Some(s) => RV::Str(Text::lit(s.to_uppercase())),
            None => RV::Unknown(format!("{name} of a value only known at plan time")),
        },
        ("element", [list, index]) => match (&list.v, index.literal().and_then(|i| i.parse::<usize>().ok())) {
            (RV::List(items), Some(i)) if !items.is_empty() => {
                return items[i % items.len()].clone().relocated_deep(span);
            }
            _ => RV::Unknown("element of a value only known at plan time".into()),
        },
        ("join", [sep, list]) => match (sep.literal(), &list.v) {
            (Some(sep), RV::List(items)) => {
                let mut text = Text::default();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        text.push(Part::Lit(sep.clone()));
                    }
                    match &item.v {
                        RV::Str(t) => text.extend(t.clone()),
                        _ => match item.literal() {
                            Some(s) => text.push(Part::Lit(s)),
                            None => return R::unknown("join of a value only known at plan time", span),
                        },
                    }
                }
                RV::Str(text)
            }
            _ => RV::Unknown("join of a value only known at plan time".into()),
        },
        _ => RV::Unknown(format!("{name}() is not evaluated")),
    };
    R::new(v, span)
}

/// `lhs op rhs`.
pub(crate) fn binary(op: BinaryOperator, lhs: R, rhs: R) -> RV {
    use BinaryOperator as B;
    match (op, &lhs.v, &rhs.v) {
        (B::Plus, RV::Num(a), RV::Num(b)) => RV::Num(a + b),
        (B::Minus, RV::Num(a), RV::Num(b)) => RV::Num(a - b),
        (B::Mul, RV::Num(a), RV::Num(b)) => RV::Num(a * b),
        (B::Div, RV::Num(a), RV::Num(b)) if *b != 0.0 => RV::Num(a / b),
        (B::Mod, RV::Num(a), RV::Num(b)) if *b != 0.0 => RV::Num(a % b),
        (B::Less, RV::Num(a), RV::Num(b)) => RV::Bool(a < b),
        (B::LessEq, RV::Num(a), RV::Num(b)) => RV::Bool(a <= b),
        (B::Greater, RV::Num(a), RV::Num(b)) => RV::Bool(a > b),
        (B::GreaterEq, RV::Num(a), RV::Num(b)) => RV::Bool(a >= b),
        // One known side can decide: `false && x` is false whatever x is.
        (B::And, RV::Bool(false), _) | (B::And, _, RV::Bool(false)) => RV::Bool(false),
        (B::Or, RV::Bool(true), _) | (B::Or, _, RV::Bool(true)) => RV::Bool(true),
        (B::And, RV::Bool(a), RV::Bool(b)) => RV::Bool(*a && *b),
        (B::Or, RV::Bool(a), RV::Bool(b)) => RV::Bool(*a || *b),
        (B::Eq | B::NotEq, _, _) => match (lhs.literal(), rhs.literal()) {
            (Some(a), Some(b)) => RV::Bool((a == b) == (op == B::Eq)),
            _ if matches!((&lhs.v, &rhs.v), (RV::Null, RV::Null)) => RV::Bool(op == B::Eq),
            _ => RV::Unknown("comparison of values only known at plan time".into()),
        },
        _ => RV::Unknown("operation on values only known at plan time".into()),
    }
}
