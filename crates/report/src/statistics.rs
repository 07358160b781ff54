//! `--statistics`: how many findings each rule has, instead of the
//! findings, most first (then by code): for a first look at a large
//! repository, and for choosing what to `--select` or baseline.

use serde::Serialize;

use super::text::View;
use sqsguard_lint::outcome::Outcome;

/// One rule's count.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub(crate) struct Count {
    pub code: &'static str,
    pub name: &'static str,
    pub count: usize,
    /// How many of them `--fix` (with this run's `--unsafe-fixes`) fixes.
    pub fixable: usize,
}

/// The counts of the rules with findings, most first.
pub(crate) fn counts(outcome: &Outcome, view: View) -> Vec<Count> {
    let mut by_code: std::collections::BTreeMap<&'static str, Count> = std::collections::BTreeMap::new();
    for f in &outcome.findings {
        let entry = by_code.entry(f.code()).or_insert(Count { code: f.code(), name: f.name(), count: 0, fixable: 0 });
        entry.count += 1;
        entry.fixable += usize::from(view.marked(f));
    }
    let mut counts: Vec<Count> = by_code.into_values().collect();
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    counts
}

/// A table: the count, the code, `[*]` when `--fix` fixes some of them,
/// the name; then the notes and the summary unless `--quiet`.
pub fn render(outcome: &Outcome, view: View) -> String {
    let counts = counts(outcome, view);
    let wide = counts.iter().map(|c| c.count.to_string().len()).max().unwrap_or(1);
    let mut out = String::new();
    for c in &counts {
        let mark = if c.fixable > 0 { "[*]" } else { "   " };
        out.push_str(&format!("{:>wide$}  {}  {mark} {}\n", c.count, c.code, c.name));
    }
    if !view.quiet && !counts.is_empty() {
        out.push('\n');
    }
    out.push_str(&view.tail(outcome));
    out
}

/// The counts as a JSON array.
pub fn write_json(outcome: &Outcome, view: View, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    super::write_json(out, &counts(outcome, view))
}
