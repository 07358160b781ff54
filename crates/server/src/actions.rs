//! Code actions: each finding's fix as a quick fix (safe ones preferred,
//! unsafe ones labelled), a suppression comment with a reason to write,
//! and every safe fix of a file at once (`source.fixAll.sqsguard`), made
//! by the same passes as `lint --fix`.

use std::collections::HashMap;
use std::path::Path;

use lsp_types::{CodeAction, CodeActionKind, Position, Range, TextEdit, Url, WorkspaceEdit};

use super::check::{diagnostic, span_range};
use super::documents::{Document, Documents, Encoding};
use sqsguard_finding::{Applicability, Finding};
use sqsguard_lint::session::Session;
use sqsguard_source::lexical;

/// The kind of "fix all": what `editor.codeActionsOnSave` names.
pub(super) const FIX_ALL: &str = "source.fixAll.sqsguard";

/// The fix of `finding`, as a quick fix.
pub(super) fn fix_action(finding: &Finding, docs: &Documents, encoding: Encoding) -> Option<CodeAction> {
    let fix = finding.fix_edits()?;
    let mut changes: HashMap<Url, Vec<TextEdit>> = HashMap::new();
    for edit in &fix.edits {
        let uri = docs.uri_of(&edit.file.path)?;
        let range = span_range(&edit.file, edit.span, encoding);
        changes.entry(uri).or_default().push(TextEdit { range, new_text: edit.replacement.clone() });
    }
    let safe = fix.applicability == Applicability::Safe;
    let label = if safe { "" } else { "(unsafe) " };
    Some(CodeAction {
        title: format!("{label}Fix {}: {}", finding.code(), first_sentence(&finding.full_fix())),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic(finding, encoding)]),
        edit: Some(WorkspaceEdit { changes: Some(changes), ..WorkspaceEdit::default() }),
        is_preferred: Some(safe),
        ..CodeAction::default()
    })
}

/// A suppression comment for `finding` on the line above it, indented as
/// that line, in the comment syntax of its file (none in JSON).
pub(super) fn suppress_action(finding: &Finding, document: &Document, encoding: Encoding) -> Option<CodeAction> {
    let sqsguard_model::Origin::File { file, span } = &finding.origin else { return None };
    let leader = comment_leader(&file.path, &document.text)?;
    let (line, text) = document.line_of(span.start);
    let indent: String = text.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let ending = sqsguard_source::lines::ending(&document.text);
    let comment = format!("{indent}{leader} sqsguard:ignore {} <reason>{ending}", finding.code());
    let at = Position::new(u32::try_from(line).ok()?, 0);
    let uri = document.uri.clone();
    let edit = TextEdit { range: Range::new(at, at), new_text: comment };
    Some(CodeAction {
        title: format!("Suppress {} with a comment", finding.code()),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic(finding, encoding)]),
        edit: Some(WorkspaceEdit { changes: Some(HashMap::from([(uri, vec![edit])])), ..WorkspaceEdit::default() }),
        is_preferred: Some(false),
        ..CodeAction::default()
    })
}

/// How a line comment starts in the file, if it has line comments.
fn comment_leader(path: &Path, text: &str) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let ext = name.rsplit('.').next().unwrap_or_default();
    match ext {
        "yaml" | "yml" | "tf" | "tfvars" | "hcl" | "py" => Some("#"),
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx" | "go" | "java" => Some("//"),
        // A `.template` is YAML or JSON.
        "template" if !text.trim_start().starts_with('{') => Some("#"),
        _ => None,
    }
}

/// "Fix all": every safe fix of the file (unsafe ones too when
/// `session`'s fix mode says so), through as many passes as `lint --fix`
/// makes, as one edit of the document. `None` when nothing changes.
pub(super) fn fix_all(session: &Session, document: &Document, encoding: Encoding) -> Option<CodeAction> {
    let path = session.inputs.paths.first()?;
    let fixed = sqsguard_lint::fix::passes(session).ok()?;
    let (_, (_, text, n)) = fixed.files.iter().find(|(p, _)| lexical(p) == lexical(path))?;
    let edit = minimal_edit(document, text, encoding)?;
    let uri = document.uri.clone();
    Some(CodeAction {
        title: format!("Fix all sqsguard findings in the file ({n} fixable)"),
        kind: Some(CodeActionKind::new(FIX_ALL)),
        edit: Some(WorkspaceEdit { changes: Some(HashMap::from([(uri, vec![edit])])), ..WorkspaceEdit::default() }),
        ..CodeAction::default()
    })
}

/// The one edit that turns the document's text into `text`: what lies
/// between their common start and common end.
fn minimal_edit(document: &Document, text: &str, encoding: Encoding) -> Option<TextEdit> {
    let old = document.text.as_str();
    if old == text {
        return None;
    }
    let mut start = old.bytes().zip(text.bytes()).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(start) || !text.is_char_boundary(start) {
        start -= 1;
    }
    let room = old.len().min(text.len()) - start;
    let mut common = old.bytes().rev().zip(text.bytes().rev()).take(room).take_while(|(a, b)| a == b).count();
    while !old.is_char_boundary(old.len() - common) || !text.is_char_boundary(text.len() - common) {
        common -= 1;
    }
    let range = Range::new(document.position(start, encoding), document.position(old.len() - common, encoding));
    Some(TextEdit { range, new_text: text[start..text.len() - common].to_string() })
}

/// The first sentence of a hint, for a title.
fn first_sentence(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    let end = line.find(". ").map_or(line.len(), |i| i + 1);
    let sentence = &line[..end];
    if sentence.chars().count() > 100 {
        let cut: String = sentence.chars().take(99).collect();
        format!("{cut}…")
    } else {
        sentence.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_covers_only_what_changed() {
        let uri = Url::parse("file:///t.yaml").unwrap();
        let doc = Document::new(uri, 1, "a: 1\nb: 30\nc: é\n".into());
        let edit = minimal_edit(&doc, "a: 1\nb: 180\nc: é\n", Encoding::Utf16).unwrap();
        assert_eq!(edit.range, Range::new(Position::new(1, 3), Position::new(1, 4)));
        assert_eq!(edit.new_text, "18");
        assert!(minimal_edit(&doc, &doc.text, Encoding::Utf16).is_none());
        let tail = minimal_edit(&doc, "a: 1\nb: 30\nc: é\nd: 2\n", Encoding::Utf16).unwrap();
        assert_eq!((tail.range.start, tail.new_text.as_str()), (Position::new(3, 0), "d: 2\n"));
    }

    #[test]
    fn comments_where_the_format_has_them() {
        assert_eq!(comment_leader(Path::new("t.yaml"), ""), Some("#"));
        assert_eq!(comment_leader(Path::new("main.tf"), ""), Some("#"));
        assert_eq!(comment_leader(Path::new("app.ts"), ""), Some("//"));
        assert_eq!(comment_leader(Path::new("t.json"), ""), None);
        assert_eq!(comment_leader(Path::new("main.tf.json"), ""), None);
        assert_eq!(comment_leader(Path::new("s.template"), " {\n}"), None);
        assert_eq!(first_sentence("Raise it to 180. Or lower the timeout."), "Raise it to 180.");
    }
}
