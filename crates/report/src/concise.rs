//! `--format concise`: one line per finding, `path:line:col: CODE [*]
//! message (resource)`, the shape editors' problem matchers, `grep` and
//! a terminal's click-to-open expect; then what every text format ends
//! with (notes, summary), unless `--quiet`.

use super::text::{View, live_locator, live_subject};
use super::{location, printable};
use sqsguard_finding::Finding;
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::Origin;

pub(crate) fn render(outcome: &Outcome, view: View) -> String {
    let mut out = String::new();
    for finding in &outcome.findings {
        out.push_str(&line(finding, view.marked(finding)));
        out.push('\n');
    }
    if !view.quiet && !outcome.findings.is_empty() {
        out.push('\n');
    }
    out.push_str(&view.tail(outcome));
    out
}

/// One finding on one line; `fixable` marks it `[*]`. A live finding has
/// no file: its account and Region take the file's place, and the queue
/// (or consumer) it is about follows by name unless the message names it.
pub(crate) fn line(f: &Finding, fixable: bool) -> String {
    let mark = if fixable { " [*]" } else { "" };
    let place = match (&f.origin, location(f)) {
        (Origin::File { .. }, Some(l)) => format!("{}:{}:{}", l.file, l.line, l.column),
        (Origin::Live(live), _) => live_locator(live).unwrap_or_else(|| f.resource.clone()),
        _ => f.resource.clone(),
    };
    let resource = match &f.origin {
        Origin::File { .. } if !f.resource.is_empty() => format!(" ({})", f.resource),
        Origin::Live(_) => live_subject(f).map(|s| format!(" ({s})")).unwrap_or_default(),
        _ => String::new(),
    };
    printable(&format!("{place}: {}{mark} {}{resource}", f.code(), f.full_message())).into_owned()
}
