//! A schema error said as a person would: "unknown key `batchsize` in
//! `consumer`; did you mean `batch_size`?", "`consumer.type` must be
//! `lambda`, `ecs` or `other`, not `lamda`", never the validator's own
//! words ("Additional properties are not allowed", "False schema does not
//! allow", "is not valid under any of the schemas listed in the 'oneOf'").
//!
//! Everything a message names comes from the schema at the error's place:
//! the keys a mapping takes, the values an enum allows, a number's bounds,
//! the condition (`if`) under which a key is required or not allowed, the
//! `title` of each alternative of a `oneOf`, and `patternErrorMessage`
//! (the words editors show for a `pattern`, as VS Code's and the YAML
//! language server's validators do).

use jsonschema::ValidationError;
use jsonschema::error::ValidationErrorKind as K;
use serde_json::Value;

use super::words::{joined, kind_of, listed, lower_first, parent, place, resolved, shown, split_last, title_of};
use crate::suggest;

/// One problem: the JSON pointer of the value it is about, the key to
/// point at when it is about a key (an unknown one), and the words.
pub(crate) struct Said {
    pub pointer: String,
    pub key: Option<String>,
    pub message: String,
}

/// What is wrong, in words, for `error` found validating against `schema`.
/// `whole` names the document ("the spec").
pub(crate) fn say(error: &ValidationError<'_>, schema: &Value, whole: &str) -> Vec<Said> {
    let mut out = Vec::new();
    explain(error, schema, whole, &mut out, 0);
    out
}

#[expect(
    clippy::too_many_lines,
    reason = "one arm per kind of schema error, each with the sentence the user reads: the table of messages, which splitting would scatter"
)]
fn explain(error: &ValidationError<'_>, schema: &Value, whole: &str, out: &mut Vec<Said>, depth: usize) {
    let pointer = error.instance_path().to_string();
    let keyword_at = error.schema_path().to_string();
    // The schema object that holds the keyword that failed.
    let holder = schema.pointer(parent(&keyword_at)).unwrap_or(&Value::Null);
    let place = place(&pointer, whole);
    let got = shown(error.instance());
    let plain = |message: String| Said { pointer: pointer.clone(), key: None, message };
    match error.kind() {
        K::AdditionalProperties { unexpected } | K::UnevaluatedProperties { unexpected } => {
            let allowed: Vec<&str> = holder
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            for key in unexpected {
                let hint = match suggest::did_you_mean(key, allowed.iter().copied()) {
                    Some(near) => format!("; {near}"),
                    None if allowed.is_empty() => String::new(),
                    None => format!(" (it takes {})", listed(&allowed, "and")),
                };
                let message = format!("unknown key `{key}` in {place}{hint}");
                out.push(Said { pointer: pointer.clone(), key: Some(key.clone()), message });
            }
        }
        K::Required { property } => {
            let key = property.as_str().unwrap_or_default();
            out.push(plain(format!("{place} needs `{key}`{}", condition(schema, &keyword_at))));
        }
        K::FalseSchema => {
            let (parent_pointer, key) = split_last(&pointer);
            let message = format!(
                "`{key}` is not allowed in {}{}",
                self::place(parent_pointer, whole),
                condition(schema, &keyword_at)
            );
            out.push(Said { pointer: parent_pointer.to_string(), key: Some(key.to_string()), message });
        }
        K::Constant { expected_value } => {
            let cond = condition(schema, &keyword_at);
            let message = if cond.is_empty() {
                format!("{place} must be {}, not {got}", shown(expected_value))
            } else {
                format!("{place} can only be {}{cond}", shown(expected_value))
            };
            out.push(plain(message));
        }
        K::Enum { options } => {
            let allowed: Vec<String> = options.as_array().map(|o| o.iter().map(shown).collect()).unwrap_or_default();
            let words: Vec<&str> = options.as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let near = error.instance().as_str().and_then(|s| suggest::did_you_mean(s, words.iter().copied()));
            let near = near.map(|n| format!("; {n}")).unwrap_or_default();
            out.push(plain(format!("{place} must be {}, not {got}{near}", joined(&allowed, "or"))));
        }
        K::Type { .. } => {
            out.push(plain(format!("{place} must be {}, not {got}", kind_of(holder))));
        }
        K::Minimum { .. } | K::Maximum { .. } | K::ExclusiveMinimum { .. } | K::ExclusiveMaximum { .. } => {
            out.push(plain(format!("{place} must be {}, not {got}", kind_of(holder))));
        }
        K::MinLength { limit: 1 } => out.push(plain(format!("{place} must not be empty"))),
        K::MinLength { limit } => out.push(plain(format!("{place} must be at least {limit} characters long"))),
        K::MaxLength { limit } => out.push(plain(format!("{place} must be at most {limit} characters long"))),
        K::MinItems { limit } => out.push(plain(format!("{place} needs at least {limit} item(s)"))),
        K::MaxItems { limit } => out.push(plain(format!("{place} takes at most {limit} item(s)"))),
        K::UniqueItems => out.push(plain(format!("{place} lists the same item twice"))),
        K::Pattern { .. } => {
            let message = match holder.get("patternErrorMessage").and_then(Value::as_str) {
                Some(form) => format!("{place} must be {form}, not {got}"),
                None => format!("{place} cannot be {got}"),
            };
            out.push(plain(message));
        }
        K::PropertyNames { error: inner } => {
            // The inner error is about the key itself (its instance).
            let key = inner.instance().as_str().unwrap_or_default().to_string();
            let why = match inner.kind() {
                K::MinLength { .. } => "a key must not be empty".to_string(),
                K::MaxLength { limit } => format!("a key is at most {limit} characters long"),
                K::Not { .. } => {
                    let not = schema.pointer(&inner.schema_path().to_string()).unwrap_or(&Value::Null);
                    not.get("errorMessage")
                        .and_then(Value::as_str)
                        .unwrap_or("that key is not allowed here")
                        .to_string()
                }
                K::Pattern { .. } => {
                    let names = schema.pointer(parent(&inner.schema_path().to_string())).unwrap_or(&Value::Null);
                    match names.get("patternErrorMessage").and_then(Value::as_str) {
                        Some(form) => format!("a key must be {form}"),
                        None => "not a key it takes".to_string(),
                    }
                }
                _ => "not a key it takes".to_string(),
            };
            out.push(Said {
                pointer: pointer.clone(),
                key: Some(key.clone()),
                message: format!("key `{key}` in {place}: {why}"),
            });
        }
        K::OneOfNotValid { context } | K::AnyOf { context } => {
            let alternatives: Vec<&Value> =
                schema.pointer(&keyword_at).and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
            one_of(error, context, &alternatives, schema, whole, out, depth);
        }
        K::OneOfMultipleValid { .. } => {
            let alternatives: Vec<&Value> =
                schema.pointer(&keyword_at).and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default();
            let keys = required_only(&alternatives);
            let message = if keys.is_empty() {
                format!("{place} fits more than one of the forms it may take; give it only one")
            } else {
                format!("{place} takes only one of {}", joined(&keys, "or"))
            };
            out.push(plain(message));
        }
        K::Not { .. } => {
            let not = schema.pointer(&keyword_at).unwrap_or(&Value::Null);
            let reason = not.get("errorMessage").and_then(Value::as_str).unwrap_or("it is not allowed here");
            out.push(plain(format!("{place}: {reason}")));
        }
        _ => out.push(plain(format!("{place} is not valid here ({})", error.kind().keyword()))),
    }
}

/// A `oneOf` (or `anyOf`) none of whose alternatives fits. An alternative
/// is ruled out when the value is not of its type, or a key that picks it
/// (`type: sns`) has another value. One left: its own errors are the
/// problem (the producer is SNS, its `topic` is missing). None or several
/// left: what the alternatives are.
fn one_of(
    error: &ValidationError<'_>,
    context: &[Vec<ValidationError<'static>>],
    alternatives: &[&Value],
    schema: &Value,
    whole: &str,
    out: &mut Vec<Said>,
    depth: usize,
) {
    let pointer = error.instance_path().to_string();
    // Not of its type, or not its constant, or a key that picks it
    // (`type: sns`) has another value.
    let ruled_out = |errors: &Vec<ValidationError<'static>>| {
        errors.iter().any(|e| {
            let at = e.instance_path().to_string();
            match e.kind() {
                K::Type { .. } => at == pointer,
                K::Constant { .. } => at == pointer || parent(&at) == pointer,
                K::Enum { .. } => at != pointer && parent(&at) == pointer,
                _ => false,
            }
        })
    };
    let left: Vec<&Vec<ValidationError<'static>>> = context.iter().filter(|errors| !ruled_out(errors)).collect();
    if let [errors] = left.as_slice()
        && depth < 16
    {
        for e in errors.iter() {
            explain(e, schema, whole, out, depth + 1);
        }
        return;
    }
    let place = place(&pointer, whole);
    let instance = error.instance();
    let keys = required_only(alternatives);
    if !keys.is_empty() {
        let only = if alternatives.iter().any(|a| a.get("not").is_some()) { ", and only one" } else { "" };
        out.push(Said { pointer, key: None, message: format!("{place} needs one of {}{only}", joined(&keys, "or")) });
        return;
    }
    // Each alternative picked by the value of one key: say which values
    // that key takes.
    let picks: Vec<(&str, &str)> = alternatives.iter().filter_map(|a| picked_by(a, schema)).collect();
    if let Some((key, _)) = picks.first().copied()
        && picks.len() == alternatives.len()
        && picks.iter().all(|(k, _)| *k == key)
    {
        let values: Vec<String> = picks.iter().map(|(_, v)| format!("`{v}`")).collect();
        let message = match instance.get(key) {
            Some(value) => {
                let words = picks.iter().map(|(_, v)| *v);
                let near = value.as_str().and_then(|s| suggest::did_you_mean(s, words));
                let near = near.map(|n| format!("; {n}")).unwrap_or_default();
                let at = self::place(&format!("{pointer}/{key}"), whole);
                format!("{at} must be {}, not {}{near}", joined(&values, "or"), shown(value))
            }
            None => format!("{place} needs `{key}`: {}", joined(&values, "or")),
        };
        out.push(Said { pointer: format!("{pointer}/{key}"), key: None, message });
        return;
    }
    let forms: Vec<String> = alternatives.iter().map(|a| describe(a, schema)).collect();
    let mut words: Vec<&str> = Vec::new();
    for a in alternatives {
        let a = resolved(a, schema);
        words.extend(a.get("const").and_then(Value::as_str));
        words.extend(a.get("enum").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str));
    }
    let near = instance.as_str().and_then(|s| suggest::did_you_mean(s, words.iter().copied()));
    let near = near.map(|n| format!("; {n}")).unwrap_or_default();
    let message = format!("{place} must be {}, not {}{near}", joined(&forms, "or"), shown(instance));
    out.push(Said { pointer, key: None, message });
}

/// The key and constant that pick an alternative
/// (`{"properties": {"type": {"const": "sns"}}}`).
fn picked_by<'a>(alternative: &'a Value, schema: &'a Value) -> Option<(&'a str, &'a str)> {
    let properties = resolved(alternative, schema).get("properties")?.as_object()?;
    properties.iter().find_map(|(k, v)| Some((k.as_str(), v.get("const")?.as_str()?)))
}

/// The keys of alternatives that only say which keys are present
/// (`[{"required": ["schedule"]}, {"required": ["event_pattern"]}]`),
/// each alternative's as one word (`` `fields`/`key_order` `` for an
/// `anyOf` of them); empty when an alternative says more. A `not` beside
/// them (the others' keys excluded) is allowed.
fn required_only(alternatives: &[&Value]) -> Vec<String> {
    let keys_of = |node: &Value| -> Option<Vec<String>> {
        let object = node.as_object()?;
        if object.keys().any(|k| k != "required" && k != "anyOf" && k != "not") {
            return None;
        }
        let mut keys: Vec<String> = object
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|k| k.as_str().map(str::to_string))
            .collect();
        for any in object.get("anyOf").and_then(Value::as_array).into_iter().flatten() {
            let [key] = any.get("required")?.as_array()?.as_slice() else { return None };
            keys.push(key.as_str()?.to_string());
        }
        Some(keys)
    };
    let mut words = Vec::new();
    for a in alternatives {
        match keys_of(a) {
            Some(keys) if !keys.is_empty() => {
                words.push(keys.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join("/"));
            }
            _ => return Vec::new(),
        }
    }
    words
}

/// An alternative in words: its constant, its title, or its kind.
fn describe(alternative: &Value, schema: &Value) -> String {
    let a = resolved(alternative, schema);
    if let Some(c) = a.get("const") {
        return shown(c);
    }
    if let Some(options) = a.get("enum").and_then(Value::as_array) {
        let all: Vec<String> = options.iter().map(shown).collect();
        return joined(&all, "or");
    }
    match title_of(a) {
        Some(title) => {
            let title = lower_first(title);
            let keys: Vec<&str> = a
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            if keys.is_empty() { title } else { format!("a mapping with {} ({title})", listed(&keys, "and")) }
        }
        None => kind_of(a),
    }
}

/// " when `type` is `lambda`" or " unless `fifo` is `true`": the `if` of
/// the `then` or `else` the keyword at `keyword_at` sits in; empty when it
/// sits in none.
fn condition(schema: &Value, keyword_at: &str) -> String {
    let segments: Vec<&str> = keyword_at.split('/').collect();
    let Some(i) = segments.iter().rposition(|s| *s == "then" || *s == "else") else { return String::new() };
    let branch = segments[i];
    let if_at = format!("{}/if", segments[..i].join("/"));
    let Some(properties) = schema.pointer(&if_at).and_then(|c| c.get("properties")).and_then(Value::as_object) else {
        return String::new();
    };
    let mut said = Vec::new();
    for (key, test) in properties {
        if let Some(c) = test.get("const") {
            said.push(format!("`{key}` is {}", shown(c)));
        } else if let Some(options) = test.get("enum").and_then(Value::as_array) {
            let all: Vec<String> = options.iter().map(shown).collect();
            said.push(format!("`{key}` is {}", joined(&all, "or")));
        }
    }
    if said.is_empty() {
        return String::new();
    }
    let word = if branch == "then" { "when" } else { "unless" };
    format!(" {word} {}", said.join(" and "))
}
