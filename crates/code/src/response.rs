//! How a handler's response is spelt: which keys mean `batchItemFailures`
//! and `itemIdentifier` (and which are misspelt), what an identifier is
//! filled from, and how a batch utility is named in messages.

use super::lang::Language;
use super::unit::Unit;
use sqsguard_model::Origin;
use sqsguard_model::code::{Handler, Misspelt, WrongIdentifier};
use sqsguard_source::Span;

pub(super) const BATCH_ITEM_FAILURES: &str = "batchItemFailures";
pub(super) const ITEM_IDENTIFIER: &str = "itemIdentifier";

pub(super) enum Key {
    Failures,
    Identifier,
    Misspelt(&'static str),
}

/// What a key written in a response means.
pub(super) fn classify(language: Language, key: &str) -> Option<Key> {
    match language {
        // The SDK's types spell the fields; only what fills them matters.
        // A map's string keys are spelt by the code, as in Python.
        Language::Go => match key.strip_prefix('"').and_then(|k| k.strip_suffix('"')) {
            Some(text) => classify(Language::Python, text),
            None => (key == "ItemIdentifier").then_some(Key::Identifier),
        },
        Language::Java => {
            let last = key.rsplit('.').next().unwrap_or(key);
            (last == "BatchItemFailure" || key.ends_with("temIdentifier")).then_some(Key::Identifier)
        }
        _ => {
            if key == BATCH_ITEM_FAILURES {
                Some(Key::Failures)
            } else if key == ITEM_IDENTIFIER {
                Some(Key::Identifier)
            } else if near(key, BATCH_ITEM_FAILURES) {
                Some(Key::Misspelt(BATCH_ITEM_FAILURES))
            } else if near(key, ITEM_IDENTIFIER) {
                Some(Key::Misspelt(ITEM_IDENTIFIER))
            } else {
                None
            }
        }
    }
}

/// `written` means `meant` but is spelt otherwise: another case, `_` or
/// `-` between the words, or one letter wrong, missing, extra or swapped.
pub(super) fn near(written: &str, meant: &str) -> bool {
    let plain = |s: &str| s.chars().filter(|c| !matches!(c, '_' | '-' | ' ')).collect::<String>().to_ascii_lowercase();
    let (w, m) = (plain(written), plain(meant));
    // Spellings whose lengths differ by more than one letter are more than
    // one edit apart: most keys a handler writes (`statusCode`, `Records`)
    // are told without computing the distance.
    w == m || (w.chars().count().abs_diff(m.chars().count()) <= 1 && strsim::damerau_levenshtein(&w, &m) <= 1)
}

/// Whether an `itemIdentifier` is (or may be) the record's message ID: it
/// is wrong only when it visibly is something else.
pub(super) fn from_message_id(value: &str) -> bool {
    let plain: String =
        value.chars().filter(|c| !matches!(c, '_' | '"' | '\'')).collect::<String>().to_ascii_lowercase();
    if plain.contains("messageid") {
        return true;
    }
    let wrong = plain.contains("receipthandle")
        || plain.contains("md5ofbody")
        || plain.ends_with("body")
        || plain.ends_with("body]")
        || plain.ends_with("body()")
        || plain.ends_with("getbody()")
        || value.trim().chars().all(|c| c.is_ascii_digit())
        || matches!(plain.trim(), "i" | "index" | "idx" | "n");
    !wrong
}

pub(super) fn utility_words(language: Language, what: &str) -> String {
    match (language, what) {
        (_, "@middy/sqs-partial-batch-failure") => "middy's sqs-partial-batch-failure middleware".to_string(),
        (Language::Go | Language::Java, _) => format!("an {what}"),
        _ => format!("Powertools' {what}"),
    }
}

/// Calls that turn a value into a string (JSON): what they are given is
/// not the handler's response.
const SERIALIZERS: &[&str] = &["stringify", "dumps", "Marshal", "writeValueAsString", "toJson"];

/// Whether a span of `unit` is inside what a serializing call is given: a
/// key of an API Gateway response's `body: JSON.stringify({batchItemFailures})`
/// is no key of the response Lambda reads.
pub(crate) fn serialized(unit: &super::unit::Unit) -> impl Fn(sqsguard_source::Span) -> bool {
    let calls: Vec<sqsguard_source::Span> =
        unit.calls.iter().filter(|(_, callee)| SERIALIZERS.contains(&callee.as_str())).map(|(s, _)| *s).collect();
    move |span| calls.iter().any(|s| s.start <= span.start && span.end <= s.end)
}

/// The response keys written in a handler's body (each unit with the
/// spans of the body in it): the first that returns failures, when `yes`
/// holds nothing yet; each identifier filled from something else than the
/// message ID; each misspelt key.
pub(super) fn read_keys(body: &[(&Unit, &[Span])], yes: &mut Option<(Origin, String)>, handler: &mut Handler) {
    for (unit, spans) in body {
        let inside = |span: Span| spans.iter().any(|d| d.start <= span.start && span.end <= d.end);
        let in_a_string = serialized(unit);
        for key in unit.keys.iter().filter(|k| inside(k.span)) {
            match classify(unit.language, &key.text) {
                Some(Key::Failures) if in_a_string(key.span) => {}
                Some(Key::Failures) => {
                    yes.get_or_insert((unit.origin(key.span), format!("a `{BATCH_ITEM_FAILURES}` key")));
                }
                Some(Key::Identifier) => {
                    if let Some((span, value)) = &key.value
                        && !from_message_id(value)
                    {
                        handler
                            .wrong_identifiers
                            .push(WrongIdentifier { origin: unit.origin(*span), from: value.clone() });
                    }
                }
                Some(Key::Misspelt(meant)) => {
                    handler.misspelt.push(Misspelt { origin: unit.origin(key.span), written: key.text.clone(), meant });
                }
                None => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_spellings() {
        assert!(near("BatchItemFailures", BATCH_ITEM_FAILURES));
        assert!(near("batch_item_failures", BATCH_ITEM_FAILURES));
        assert!(near("itemIdentifer", ITEM_IDENTIFIER));
        assert!(!near("itemIds", ITEM_IDENTIFIER));
        // One letter more or less is still near; two are not.
        assert!(near("itemIdentifiers", ITEM_IDENTIFIER));
        assert!(!near("itemIdentifiersX", ITEM_IDENTIFIER));
        assert!(!near("statusCode", BATCH_ITEM_FAILURES));
    }
}
