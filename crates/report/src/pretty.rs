//! Human output: one miette report per finding (code frame, rule code and
//! name, severity, message, fix), then a summary line. As in ruff, a
//! finding `--fix` would fix is marked `[*]` after its code, and a last
//! line says how many are fixable.

use std::fmt;

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode,
    SourceSpan, SpanContents,
};

use super::printable;
use super::text::{View, live_place};
use sqsguard_finding::{Finding, Severity};
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::Origin;
use sqsguard_source::Source;

/// How to draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// ANSI colours (a terminal, NO_COLOR unset, or FORCE_COLOR).
    pub color: bool,
    /// Wrap width.
    pub width: usize,
    /// What is left out or added around the findings.
    pub view: View,
}

pub fn render(outcome: &Outcome, style: Style) -> String {
    let mut out = String::new();
    // An audit of several accounts or Regions: a heading for each, in the
    // findings' order (account, then Region).
    let place = |f: &Finding| match &f.origin {
        Origin::Live(live) => live_place(live),
        Origin::File { .. } => None,
    };
    let places: std::collections::BTreeSet<Option<String>> = outcome.findings.iter().map(place).collect();
    let mut last = None;
    for finding in &outcome.findings {
        let here = place(finding);
        if places.len() > 1 && here != last {
            if let Some(p) = &here {
                out.push_str(&format!("── {p} ──\n\n"));
            }
            last = here;
        }
        out.push_str(&render_reports(std::iter::once((finding, style.view.marked(finding))), style));
    }
    out.push_str(&style.view.tail(outcome));
    out
}

/// One report per finding, without the summary line.
pub fn reports(findings: &[Finding], style: Style) -> String {
    render_reports(findings.iter().map(|f| (f, false)), style)
}

/// One report per finding, marked `[*]` where the flag says so.
fn render_reports<'a>(findings: impl Iterator<Item = (&'a Finding, bool)>, style: Style) -> String {
    let theme = if style.color { GraphicalTheme::unicode() } else { GraphicalTheme::unicode_nocolor() };
    // Lines break at spaces only: a UUID, an ARN or an `aws` command split
    // at a hyphen cannot be copied.
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_links(false)
        .with_word_splitter(textwrap::WordSplitter::NoHyphenation);
    let mut out = String::new();
    for (finding, fixable) in findings {
        let report = Report::new(finding, fixable);
        if handler.render_report(&mut out, &report).is_err() {
            out.push_str(&format!("{}: {}\n", finding.code(), report.title));
        }
        out.push('\n');
    }
    out
}

/// A finding as miette draws it. Every text of the finding's own (its
/// message, fix, resource and file name) is [`printable`]: miette prints
/// what it is given raw.
struct Report<'a> {
    finding: &'a Finding,
    /// `--fix` would fix it: `[*]` after the code.
    fixable: bool,
    title: String,
    fix: String,
    source: Option<Window>,
    label: Option<LabeledSpan>,
}

impl<'a> Report<'a> {
    fn new(finding: &'a Finding, fixable: bool) -> Self {
        let (source, label) = match &finding.origin {
            // A plan too large to keep in memory: its place, without a snippet.
            Origin::File { file, .. } if file.is_detached() => (None, None),
            Origin::File { file, span } => {
                let mut source =
                    Window { file: file.clone(), name: printable(&file.display_path()).into_owned(), excerpt: None };
                let mut len = span.len().max(usize::from(!file.text.is_empty() && span.start < file.text.len()));
                let mut start = span.start;
                // Name the resource under the code frame unless the frame
                // already shows it (a finding on the resource's own key).
                let spanned = file.text.get(span.start..span.end).unwrap_or_default();
                let mut text = (!finding.resource.is_empty() && spanned.trim_matches('"') != finding.resource)
                    .then(|| format!("in {}", printable(&finding.resource)));
                // A CDK finding at its construct: the template's line under it.
                if let Some(at) = &finding.context.synthesized {
                    let place = format!("synthesized at {}:{}:{}", printable(&at.file), at.line, at.column);
                    text = Some(text.map_or(place.clone(), |t| format!("{t}, {place}")));
                }
                if let Some(excerpt) = super::excerpt::of(file, span.start, len) {
                    (start, len) = excerpt.label;
                    source.excerpt = Some(excerpt);
                }
                let label = LabeledSpan::new(text, start, len);
                (Some(source), Some(label))
            }
            Origin::Live(_) => (None, None),
        };
        let title = match &finding.origin {
            // No code frame: the message names the queue or consumer, or
            // its name follows once.
            Origin::Live(_) => match super::text::live_subject(finding) {
                Some(subject) => format!("{} ({subject})", finding.full_message()),
                None => finding.full_message().into_owned(),
            },
            Origin::File { file, span } if file.is_detached() => {
                let l = file.location(*span);
                format!("{} ({}:{}:{})", finding.full_message(), l.file, l.line, l.column)
            }
            Origin::File { .. } => finding.full_message().into_owned(),
        };
        let title = printable(&title).into_owned();
        Report { finding, fixable, title, fix: printable(&finding.full_fix()).into_owned(), source, label }
    }
}

/// A file as miette reads it, without copying it and without scanning it
/// from the start for every finding: miette reads a window of whole lines
/// around the span, and the window's positions are moved back to the
/// file's. A template with thousands of findings prints in linear time.
struct Window {
    file: Source,
    name: String,
    /// The finding's line is too long to show whole: what is shown of it.
    excerpt: Option<super::excerpt::Excerpt>,
}

impl SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if let Some(cut) = &self.excerpt {
            let span = SourceSpan::new(cut.start.into(), cut.text.len());
            let contents =
                MietteSpanContents::new_named(self.name.clone(), cut.text.as_bytes(), span, cut.line, cut.column, 1);
            return Ok(Box::new(contents.with_language("yaml")));
        }
        // miette ends lines at LF only: a lone CR is one to this file.
        let text = self.file.text_with_lf_breaks().as_bytes();
        let end = span.offset().saturating_add(span.len());
        // One more line each way than miette shows, so it sees the line
        // breaks around its context as in the whole file.
        let first = self.file.line_index(span.offset()).saturating_sub(context_lines_before + 1);
        let last = self.file.line_index(end).saturating_add(context_lines_after + 2);
        let start = self.file.line_offset(first).unwrap_or(0);
        let stop = self.file.line_offset(last).unwrap_or(text.len()).max(start);
        let local = SourceSpan::new(span.offset().saturating_sub(start).into(), span.len());
        let inner = text[start..stop].read_span(&local, context_lines_before, context_lines_after)?;
        let contents = MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            SourceSpan::new((inner.span().offset() + start).into(), inner.span().len()),
            inner.line() + first,
            inner.column(),
            inner.line_count() + first,
        );
        Ok(Box::new(contents.with_language("yaml")))
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
        let f = self.finding;
        let mark = if self.fixable { " [*]" } else { "" };
        Some(Box::new(format!("{}{mark} {} ({})", f.code(), f.name(), f.severity.as_str())))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.fix))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.label.clone().map(|l| Box::new(std::iter::once(l)) as Box<dyn Iterator<Item = LabeledSpan>>)
    }
}

#[cfg(test)]
mod tests {
    use miette::NamedSource;

    use super::*;
    use sqsguard_source::SourceFile;

    /// The window gives miette what the whole file would, for every span.
    #[test]
    fn a_window_reads_as_the_whole_file() {
        for text in ["", "a", "a: 1\nb: 2\n", "one\ntwo\nthree\nfour\nfive", "x\r\ny\r\nz\r\n", "\n\n\nq: é\n\n"] {
            let file = SourceFile::new("t.yaml", text.to_string());
            let window = Window { file: file.clone(), name: "t.yaml".into(), excerpt: None };
            let whole = NamedSource::new("t.yaml", text.to_string()).with_language("yaml");
            for start in 0..=text.len() {
                for len in 0..3 {
                    for context in 0..3 {
                        let span = SourceSpan::new(start.into(), len);
                        let got = window.read_span(&span, context, context);
                        let want = whole.read_span(&span, context, context);
                        let shown = |r: Result<Box<dyn SpanContents<'_> + '_>, MietteError>| {
                            r.map(|c| (c.data().to_vec(), *c.span(), c.line(), c.column(), c.line_count()))
                                .map_err(|e| e.to_string())
                        };
                        assert_eq!(shown(got), shown(want), "{text:?} {start}+{len} context {context}");
                    }
                }
            }
        }
    }
}
