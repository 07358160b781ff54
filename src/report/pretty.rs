//! Human output: one miette report per finding (code frame, rule code and
//! name, severity, message, fix), then a summary line.

use std::fmt;

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode};

use super::Summary;
use crate::finding::{Finding, Severity};
use crate::lint::Outcome;
use crate::model::Origin;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// ANSI colours (a terminal, NO_COLOR unset).
    pub color: bool,
    /// Wrap width.
    pub width: usize,
}

pub fn render(outcome: &Outcome, style: Style) -> String {
    let mut out = reports(&outcome.findings, style);
    for note in &outcome.notes {
        match super::origin_location(&note.origin) {
            Some(l) => out.push_str(&format!("note: {}:{}:{}: {}\n", l.file, l.line, l.column, note.message)),
            None => out.push_str(&format!("note: {}\n", note.message)),
        }
    }
    if !outcome.notes.is_empty() {
        out.push('\n');
    }
    out.push_str(&summary_line(&Summary::of(outcome)));
    out.push('\n');
    out
}

/// One report per finding, without the summary line.
pub fn reports(findings: &[Finding], style: Style) -> String {
    let theme = if style.color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(style.width).with_links(false);
    let mut out = String::new();
    for finding in findings {
        let report = Report::new(finding);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", finding.code, finding.message));
        }
        out.push('\n');
    }
    out
}

pub fn summary_line(s: &Summary) -> String {
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let calls = s.api_calls.map(|n| format!(", {n} API calls")).unwrap_or_default();
    let suppressed = if s.suppressed > 0 { format!(", {} suppressed", s.suppressed) } else { String::new() };
    let baselined = s.baselined.map(|n| format!(", {n} in the baseline")).unwrap_or_default();
    format!(
        "sqsguard: {}, {}, {} in {} ({} skipped{suppressed}{baselined}{calls})",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos"),
        plural(s.files, "file", "files"),
        s.skipped
    )
}

struct Report<'a> {
    finding: &'a Finding,
    title: String,
    source: Option<NamedSource<String>>,
    label: Option<LabeledSpan>,
}

impl<'a> Report<'a> {
    fn new(finding: &'a Finding) -> Self {
        let (source, label) = match &finding.origin {
            Origin::File { file, span } => {
                let source = NamedSource::new(file.display_path(), file.text.clone()).with_language("yaml");
                let len = span.len().max(usize::from(!file.text.is_empty() && span.start < file.text.len()));
                // Name the resource under the code frame unless the frame
                // already shows it (a finding on the resource's own key).
                let spanned = file.text.get(span.start..span.end).unwrap_or_default();
                let text = (!finding.resource.is_empty() && spanned.trim_matches('"') != finding.resource)
                    .then(|| format!("in {}", finding.resource));
                let label = LabeledSpan::new(text, span.start, len);
                (Some(source), Some(label))
            }
            Origin::Live { .. } => (None, None),
        };
        let title = match &finding.origin {
            Origin::Live { id, .. } => format!("{} ({id})", finding.message),
            Origin::File { .. } => finding.message.clone(),
        };
        Report { finding, title, source, label }
    }
}

impl fmt::Debug for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

impl std::error::Error for Report<'_> {}

impl Diagnostic for Report<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        // The severity in words too: CI logs have no colours, and the
        // glyphs alone are easy to miss.
        Some(Box::new(format!("{} {} ({})", self.finding.code, self.finding.name, self.finding.severity.as_str())))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.finding.fix))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.label.clone().map(|l| Box::new(std::iter::once(l)) as Box<dyn Iterator<Item = LabeledSpan>>)
    }
}
