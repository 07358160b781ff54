//! Hover on a rule code, wherever it is written (a suppression comment,
//! `.sqsguard.yaml`, a diagnostic's place): the rule's page.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position, Range};

use super::documents::{Document, Encoding};
use sqsguard_rules as rules;

/// The page of the rule whose code is under `at`, if one is.
pub(super) fn hover(document: &Document, at: Position, encoding: Encoding) -> Option<Hover> {
    let offset = document.offset(at, encoding);
    let (_, line) = document.line_of(offset);
    let line_start = line_start_of(document, offset);
    let within = offset - line_start;
    let is_word = |c: char| c.is_ascii_alphanumeric();
    let start = line[..within].rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
    let end = line[within..].find(|c: char| !is_word(c)).map_or(line.len(), |i| within + i);
    let word = &line[start..end];
    let rule = rules::by_code(&word.to_ascii_uppercase())?;
    let range =
        Range::new(document.position(line_start + start, encoding), document.position(line_start + end, encoding));
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: rule.page() }),
        range: Some(range),
    })
}

/// The pages of these rules (each once), one after the other: what a
/// hover on a diagnostic's place shows.
pub(super) fn pages<'a>(codes: impl Iterator<Item = &'a str>) -> Option<Hover> {
    let mut codes: Vec<&str> = codes.collect();
    codes.sort_unstable();
    codes.dedup();
    let pages: Vec<String> = codes.iter().filter_map(|c| rules::by_code(c)).map(|r| r.page()).collect();
    (!pages.is_empty()).then(|| Hover {
        contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: pages.join("\n\n---\n\n") }),
        range: None,
    })
}

/// The byte offset where the line holding `offset` starts.
fn line_start_of(document: &Document, offset: usize) -> usize {
    sqsguard_source::lines::line_start(&document.text, offset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::Url;

    #[test]
    fn a_code_in_a_comment_shows_its_page_and_other_words_nothing() {
        let text = "Resources:\n  # sqsguard:ignore SQS004 the DLQ is elsewhere\n  Q: {}\n";
        let doc = Document::new(Url::parse("file:///t.yaml").unwrap(), 1, text.into());
        let shown = hover(&doc, Position::new(1, 22), Encoding::Utf16).unwrap();
        let HoverContents::Markup(page) = shown.contents else { panic!("markdown expected") };
        assert!(page.value.starts_with("# SQS004 "), "{}", page.value);
        assert_eq!(shown.range, Some(Range::new(Position::new(1, 20), Position::new(1, 26))));
        assert!(hover(&doc, Position::new(1, 8), Encoding::Utf16).is_none());
        assert!(hover(&doc, Position::new(9, 0), Encoding::Utf16).is_none());
    }
}
