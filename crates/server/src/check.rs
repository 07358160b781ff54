//! One check of a document: `lint` of it with the editor's texts standing
//! in for the files, and what it found, per file, as diagnostics.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use lsp_types::{CodeDescription, Diagnostic, DiagnosticSeverity, NumberOrString, Position, Range, Url};

use super::documents::{Encoding, position_in};
use sqsguard_finding::{Finding, Note, Severity};
use sqsguard_lint as lint;
use sqsguard_lint::session::Session;
use sqsguard_model::Origin;
use sqsguard_report::sarif::rule_help_uri;
use sqsguard_source::{Span, lexical};

/// What one check found.
#[derive(Default)]
pub(super) struct Checked {
    pub(super) findings: Vec<Finding>,
    /// Every file the check read (lexical paths): a change to one of them
    /// checks the document again.
    pub(super) read: HashSet<PathBuf>,
    /// The findings (by index) located in each file.
    pub(super) in_file: HashMap<PathBuf, Vec<usize>>,
    /// The version of each open document the check read: its findings'
    /// places hold for those versions only.
    pub(super) versions: HashMap<PathBuf, i32>,
    /// The findings and notes of each file as the editor shows them, made
    /// with the check (on the pool, not on the loop that answers the
    /// editor).
    pub(super) diagnostics: HashMap<PathBuf, Vec<Diagnostic>>,
}

impl Checked {
    /// Every file the check has something to say about, or read.
    pub(super) fn files(&self) -> impl Iterator<Item = &PathBuf> {
        self.read.iter().chain(self.diagnostics.keys())
    }

    /// The findings located in `path`.
    pub(super) fn findings_in<'a>(&'a self, path: &Path) -> impl Iterator<Item = &'a Finding> + 'a {
        let indices = self.in_file.get(path).map(Vec::as_slice).unwrap_or_default();
        indices.iter().filter_map(|&i| self.findings.get(i))
    }
}

/// Lint what `session` names, as `sqsguard lint` would.
pub(super) fn check(session: &Session, versions: HashMap<PathBuf, i32>, encoding: Encoding) -> Checked {
    let run = match lint::Run::new(session) {
        Ok(run) => run,
        // The session's one config was read already, so this is not met;
        // were it, the document would say why it was not checked.
        Err(e) => {
            let diagnostics = session.inputs.paths.iter().map(|p| (lexical(p), problem_diagnostics(&e, encoding)));
            return Checked { versions, diagnostics: diagnostics.collect(), ..Checked::default() };
        }
    };
    let read = run.files_read().map(|p| lexical(p)).collect();
    let outcome = run.into_outcome(session);
    let mut in_file: HashMap<PathBuf, Vec<usize>> = HashMap::new();
    let mut diagnostics: HashMap<PathBuf, Vec<Diagnostic>> = HashMap::new();
    for (i, f) in outcome.findings.iter().enumerate() {
        if let Some(path) = file_of(&f.origin) {
            diagnostics.entry(path.clone()).or_default().push(diagnostic(f, encoding));
            in_file.entry(path).or_default().push(i);
        }
    }
    for n in &outcome.notes {
        if let Some(path) = file_of(&n.origin) {
            diagnostics.entry(path).or_default().push(note_diagnostic(n, encoding));
        }
    }
    Checked { findings: outcome.findings, read, in_file, versions, diagnostics }
}

fn file_of(origin: &Origin) -> Option<PathBuf> {
    match origin {
        Origin::File { file, .. } => Some(lexical(&file.path)),
        Origin::Live(_) => None,
    }
}

/// The range of a span of the origin's file.
pub(super) fn range_of(origin: &Origin, encoding: Encoding) -> Range {
    match origin {
        Origin::File { file, span } => span_range(file, *span, encoding),
        Origin::Live(_) => Range::default(),
    }
}

pub(super) fn span_range(file: &sqsguard_source::Source, span: Span, encoding: Encoding) -> Range {
    Range::new(position_in(file, span.start, encoding), position_in(file, span.end.max(span.start), encoding))
}

/// A finding as the editor shows it.
pub(super) fn diagnostic(finding: &Finding, encoding: Encoding) -> Diagnostic {
    let severity = match finding.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
    };
    let message = match finding.resource.as_str() {
        "" => finding.full_message().into_owned(),
        resource => format!("{} ({resource})", finding.full_message()),
    };
    Diagnostic {
        range: range_of(&finding.origin, encoding),
        severity: Some(severity),
        code: Some(NumberOrString::String(finding.code().to_string())),
        code_description: help_url(finding.code()).map(|href| CodeDescription { href }),
        source: Some("sqsguard".to_string()),
        message,
        related_information: None,
        tags: None,
        data: Some(serde_json::json!({ "name": finding.name() })),
    }
}

/// The page of the rule `code`, parsed once per rule: a change of a large
/// template republishes hundreds of diagnostics.
fn help_url(code: &str) -> Option<Url> {
    static PAGES: std::sync::LazyLock<HashMap<&'static str, Url>> = std::sync::LazyLock::new(|| {
        sqsguard_rules::ALL
            .iter()
            .filter_map(|r| Some((r.id.code, Url::parse(&rule_help_uri(r.id.code)).ok()?)))
            .collect()
    });
    PAGES.get(code).cloned().or_else(|| Url::parse(&rule_help_uri(code)).ok())
}

/// A note, located: a hint (not a finding).
pub(super) fn note_diagnostic(note: &Note, encoding: Encoding) -> Diagnostic {
    Diagnostic {
        range: range_of(&note.origin, encoding),
        severity: Some(DiagnosticSeverity::HINT),
        source: Some("sqsguard".to_string()),
        message: note.message.clone(),
        ..Diagnostic::default()
    }
}

/// A config's problem, located in it.
pub(super) fn problem_diagnostics(error: &sqsguard_finding::error::Error, encoding: Encoding) -> Vec<Diagnostic> {
    let whole = |message: String| Diagnostic {
        range: Range::new(Position::new(0, 0), Position::new(0, 0)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("sqsguard".to_string()),
        message,
        ..Diagnostic::default()
    };
    match error {
        sqsguard_finding::error::Error::Invalid { what, file, problems } => problems
            .iter()
            .map(|(span, message)| Diagnostic {
                range: span_range(file, *span, encoding),
                message: format!("{what}: {message}"),
                ..whole(String::new())
            })
            .collect(),
        other => vec![whole(other.to_string())],
    }
}

/// Whether two ranges share a position (an empty one touching counts).
pub(super) fn overlaps(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_finding::{FindingContext, FindingData, Given};
    use sqsguard_source::SourceFile;

    /// The editor shows what the other formats print: the rule's words,
    /// the value given for the run, the construct, each once, then the
    /// resource.
    #[test]
    fn a_diagnostic_says_the_context_once() {
        let file = SourceFile::new("template.yaml", "Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n".to_string());
        let finding = Finding::from(FindingData {
            rule: &sqsguard_rules::by_code("SQS006").unwrap().id,
            severity: Severity::Warning,
            resource: "Jobs".to_string(),
            related: Vec::new(),
            origin: Origin::file(&file, Span::new(2, 6)),
            message: "short polling".to_string(),
            fix: "poll long".into(),
            remedy: None,
            autofix: None,
            context: FindingContext {
                given: Some(Given { field: "ReceiveMessageWaitTimeSeconds", from: "--stage prod".into() }),
                created_by: Some("declare it"),
                construct: Some("App/Jobs".into()),
                synthesized: None,
                stale: false,
            },
        });
        assert_eq!(
            diagnostic(&finding, Encoding::Utf16).message,
            "short polling (ReceiveMessageWaitTimeSeconds from --stage prod) (CDK construct App/Jobs) (Jobs)"
        );
    }
}
