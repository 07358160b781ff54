//! The report formats: lint's ([`Format`], also drift's), and audit's and
//! `report merge`'s, which add `html`, a page only an audit makes (lint and
//! drift findings are about lines of files, which a page of queues does not
//! show; [`super::audit_out`] writes it); and the colour and width the text
//! formats are written with.

use std::io::IsTerminal;

use clap::ValueEnum;
use clap::builder::PossibleValue;

use sqsguard_report as report;
use sqsguard_report::pretty::Style;

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    /// A code frame per finding, then the notes and a summary.
    Pretty,
    /// One line per finding: `path:line:col: CODE [*] message (resource)`.
    Concise,
    Json,
    Sarif,
    Junit,
    Github,
}

impl Format {
    /// The reporter for standard output; `view` says what the text formats
    /// leave out or add.
    pub(super) fn reporter(self, view: report::View) -> report::Format {
        let style = || Style { color: colour(std::io::stdout().is_terminal()), width: width(), view };
        match self {
            Format::Pretty => report::Format::Pretty(style()),
            Format::Concise => report::Format::Concise(style()),
            Format::Json => report::Format::Json(view),
            Format::Sarif => report::Format::Sarif,
            Format::Junit => report::Format::Junit,
            Format::Github => report::Format::Github(view),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AuditFormat {
    /// One of lint's formats.
    Text(Format),
    /// One self-contained page: accounts and Regions, queues and findings
    /// (sortable, filterable), the graph, what was not audited.
    Html,
}

impl AuditFormat {
    pub(super) const PRETTY: AuditFormat = AuditFormat::Text(Format::Pretty);
}

impl ValueEnum for AuditFormat {
    fn value_variants<'a>() -> &'a [Self] {
        use Format::*;
        &[
            AuditFormat::Text(Pretty),
            AuditFormat::Text(Concise),
            AuditFormat::Text(Json),
            AuditFormat::Text(Sarif),
            AuditFormat::Text(Junit),
            AuditFormat::Text(Github),
            AuditFormat::Html,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        match self {
            // A live finding has no file: its line starts with where it is.
            AuditFormat::Text(Format::Concise) => Some(
                PossibleValue::new("concise").help("One line per finding: `account/Region: CODE message (resource)`"),
            ),
            AuditFormat::Text(format) => format.to_possible_value(),
            AuditFormat::Html => Some(PossibleValue::new("html").help(
                "One self-contained page: accounts and Regions, queues and findings (sortable, filterable), \
                 the graph, what was not audited",
            )),
        }
    }
}

/// Whether a stream gets ANSI colours: never with NO_COLOR
/// (https://no-color.org) set and not empty; always with FORCE_COLOR or
/// CLICOLOR_FORCE set and neither empty nor `0` (a CI log that renders
/// colours); else when the stream is a terminal.
pub(super) fn colour(terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty() && v != "0");
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return false;
    }
    set("FORCE_COLOR") || set("CLICOLOR_FORCE") || terminal
}

/// The width text output wraps at: COLUMNS, else the terminal's, else 100.
pub(super) fn width() -> usize {
    let columns = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).filter(|&c: &usize| c > 0);
    columns.or_else(|| terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0))).unwrap_or(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lint_format_and_html() {
        let names: Vec<String> =
            AuditFormat::value_variants().iter().map(|f| f.to_possible_value().unwrap().get_name().into()).collect();
        let lint: Vec<String> =
            Format::value_variants().iter().map(|f| f.to_possible_value().unwrap().get_name().into()).collect();
        assert_eq!(names, [lint, vec!["html".to_string()]].concat());
    }
}
