//! What was last published for a file, kept as a fingerprint.

use std::hash::{Hash, Hasher};

use lsp_types::{Diagnostic, DiagnosticSeverity, DiagnosticTag};

/// A publication: the version it was of, and its diagnostics' number and
/// hash, which tell whether another would say the same. (A parse the
/// memo takes back is told the same way, by its text's hash and length.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Published {
    pub(super) version: Option<i32>,
    count: usize,
    hash: u64,
}

impl Published {
    pub(super) fn of(version: Option<i32>, diagnostics: &[Diagnostic]) -> Self {
        let severities = [
            DiagnosticSeverity::ERROR,
            DiagnosticSeverity::WARNING,
            DiagnosticSeverity::INFORMATION,
            DiagnosticSeverity::HINT,
        ];
        let known_tags = [DiagnosticTag::UNNECESSARY, DiagnosticTag::DEPRECATED];
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for d in diagnostics {
            // Every field, by name: a field lsp-types adds fails to build here.
            let Diagnostic {
                range,
                severity,
                code,
                code_description,
                source,
                message,
                related_information,
                tags,
                data,
            } = d;
            range.hash(&mut hasher);
            severity.map(|s| which(&s, &severities)).hash(&mut hasher);
            code.hash(&mut hasher);
            code_description.as_ref().map(|c| c.href.as_str()).hash(&mut hasher);
            source.hash(&mut hasher);
            message.hash(&mut hasher);
            // The server sends none: said as lsp-types shows it.
            related_information.as_ref().map(|r| format!("{r:?}")).hash(&mut hasher);
            tags.as_ref().map(|t| t.iter().map(|tag| which(tag, &known_tags)).collect::<Vec<_>>()).hash(&mut hasher);
            data.hash(&mut hasher);
        }
        Published { version, count: diagnostics.len(), hash: hasher.finish() }
    }
}

/// Which of `known` `value` is, for a type lsp-types does not hash (a
/// severity, a tag: LSP's own are all a diagnostic holds), else how
/// lsp-types shows it.
fn which<T: PartialEq + std::fmt::Debug>(value: &T, known: &[T]) -> Result<usize, String> {
    known.iter().position(|k| k == value).ok_or_else(|| format!("{value:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{CodeDescription, DiagnosticRelatedInformation, Location, NumberOrString, Position, Range, Url};

    fn diagnostic() -> Diagnostic {
        Diagnostic {
            range: Range::new(Position::new(1, 2), Position::new(1, 4)),
            severity: Some(DiagnosticSeverity::WARNING),
            code: Some(NumberOrString::String("SQS001".to_string())),
            code_description: Some(CodeDescription { href: Url::parse("https://example.com/SQS001").unwrap() }),
            source: Some("sqsguard".to_string()),
            message: "the words".to_string(),
            related_information: Some(vec![DiagnosticRelatedInformation {
                location: Location::new(Url::parse("file:///a.yaml").unwrap(), Range::default()),
                message: "there".to_string(),
            }]),
            tags: Some(vec![DiagnosticTag::UNNECESSARY]),
            data: Some(serde_json::json!({ "name": "a-rule" })),
        }
    }

    #[test]
    fn a_publication_is_told_apart_by_its_version_and_every_field_of_every_diagnostic() {
        let same = Published::of(Some(3), &[diagnostic(), diagnostic()]);
        assert_eq!(same, Published::of(Some(3), &[diagnostic(), diagnostic()]));
        assert_ne!(same, Published::of(Some(4), &[diagnostic(), diagnostic()]));
        assert_ne!(same, Published::of(Some(3), &[diagnostic()]));
        // Each field: what it holds, and whether it is there at all.
        let changes: [fn(&mut Diagnostic); 14] = [
            |d| d.range.end.character += 1,
            |d| d.severity = Some(DiagnosticSeverity::ERROR),
            |d| d.severity = None,
            |d| d.code = Some(NumberOrString::String("SQS002".to_string())),
            |d| d.code_description = Some(CodeDescription { href: Url::parse("https://example.com/SQS002").unwrap() }),
            |d| d.code_description = None,
            |d| d.source = None,
            |d| d.message.push('!'),
            |d| d.related_information.iter_mut().flatten().for_each(|r| r.message.push('!')),
            |d| d.related_information = None,
            |d| d.tags = Some(vec![DiagnosticTag::DEPRECATED]),
            |d| d.tags = Some(Vec::new()),
            |d| d.data = Some(serde_json::json!({ "name": "b-rule" })),
            |d| d.data = None,
        ];
        for (i, change) in changes.iter().enumerate() {
            let mut changed = diagnostic();
            change(&mut changed);
            assert_ne!(same, Published::of(Some(3), &[diagnostic(), changed]), "change {i}");
        }
    }
}
