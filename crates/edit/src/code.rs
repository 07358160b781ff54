//! Fixes of code: a name read in the wrong place renamed, in the
//! spelling the code already uses for it (the API's `ReceiptHandle` is
//! `"ReceiptHandle"` in a boto3 response, `receiptHandle` in a Lambda
//! record or a Java v2 getter, `getReceiptHandle` in Java v1,
//! `receipt_handle` on a boto3 resource's message).

use super::Edit;
use sqsguard_model::code::Language;
use sqsguard_source::{Source, Span};

/// The edit that makes the name at `span` name `to` (the API's spelling),
/// or `None` when what is there is not a plain name of a code file.
pub(crate) fn rename(file: &Source, span: Span, to: &str) -> Option<Edit> {
    // Only a code file: a template's inline code (`ZipFile`) is the
    // template's text, and keeps the hint.
    let language = Language::of_path(&file.path)?;
    let old = file.text.get(span.start..span.end)?;
    if old.is_empty() || !old.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    // boto3's resource objects spell their attributes in snake case,
    // even a one-word one (`message.body`): a Python attribute is.
    let attribute = language == Language::Python && file.text[..span.start].ends_with('.');
    Some(Edit { file: file.clone(), span, replacement: spelt_as(old, to, attribute) })
}

/// `to` (`ReceiptHandle`) written as `old` is: a getter, snake case,
/// upper or lower camel case.
fn spelt_as(old: &str, to: &str, snake: bool) -> String {
    if let Some(rest) = old.strip_prefix("get")
        && rest.starts_with(|c: char| c.is_ascii_uppercase())
    {
        return format!("get{to}");
    }
    if snake || old.contains('_') {
        let mut out = String::new();
        for (i, c) in to.char_indices() {
            if c.is_ascii_uppercase() && i > 0 && to[..i].ends_with(|p: char| p.is_ascii_lowercase()) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        return out;
    }
    if old.starts_with(|c: char| c.is_ascii_uppercase()) {
        return to.to_string();
    }
    let mut chars = to.chars();
    chars.next().map(|first| first.to_ascii_lowercase().to_string() + chars.as_str()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spelling_of_a_name_is_kept() {
        let cases = [
            ("MessageId", false, "ReceiptHandle"),
            ("messageId", false, "receiptHandle"),
            ("body", false, "receiptHandle"),
            ("body", true, "receipt_handle"),
            ("message_id", false, "receipt_handle"),
            ("getMessageId", false, "getReceiptHandle"),
            ("getBody", false, "getReceiptHandle"),
            ("Body", false, "ReceiptHandle"),
        ];
        for (old, snake, new) in cases {
            assert_eq!(spelt_as(old, "ReceiptHandle", snake), new, "{old}");
        }
    }

    #[test]
    fn a_python_attribute_is_snake_case_and_a_key_is_as_the_record_spells_it() {
        let text = "h = m.body\nk = r[\"body\"]\n";
        let file: Source = sqsguard_source::SourceFile::new("worker.py", text.to_string());
        let at = |word: &str, nth: usize| {
            let start = text.match_indices(word).nth(nth).map(|(i, _)| i).unwrap();
            Span::new(start, start + word.len())
        };
        assert_eq!(rename(&file, at("body", 0), "ReceiptHandle").unwrap().replacement, "receipt_handle");
        assert_eq!(rename(&file, at("body", 1), "ReceiptHandle").unwrap().replacement, "receiptHandle");
        assert!(rename(&file, Span::new(0, 5), "ReceiptHandle").is_none(), "not a name");
        // The same text inline in a template is the template's: no edit.
        let template: Source = sqsguard_source::SourceFile::new("template.yaml", text.to_string());
        assert!(rename(&template, at("body", 0), "ReceiptHandle").is_none());
    }
}
