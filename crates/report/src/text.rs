//! What the text formats (pretty, concise, github) print around their
//! findings: the notes, the files skipped, the account-Regions not audited,
//! the summary line and the fixable line; and what `--quiet` and
//! `--show-skipped` change of it.

use super::{Summary, printable};
use sqsguard_finding::{Applicability, Finding};
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::{Live, Origin};

/// What the text formats leave out or add.
#[derive(Clone, Copy, Debug, Default)]
pub struct View {
    /// `--quiet`: the findings only (no notes, no summary).
    pub quiet: bool,
    /// `--show-skipped`: every file read and not linted, with why.
    pub show_skipped: bool,
    /// `--unsafe-fixes`: unsafe fixes are marked `[*]` too.
    pub unsafe_fixes: bool,
}

impl View {
    /// Whether `--fix` (with this run's `--unsafe-fixes`) would fix the
    /// finding: its `[*]` mark.
    pub(crate) fn marked(&self, finding: &Finding) -> bool {
        match finding.fix_edits().map(|fix| fix.applicability) {
            Some(Applicability::Safe) => true,
            Some(Applicability::Unsafe) => self.unsafe_fixes,
            None => false,
        }
    }

    /// Everything after the findings: notes, skipped files, what was not
    /// audited, the summary and the fixable line; nothing with `--quiet`.
    pub(crate) fn tail(&self, outcome: &Outcome) -> String {
        if self.quiet {
            return String::new();
        }
        let mut out = notes(outcome);
        if self.show_skipped {
            out.push_str(&skipped(outcome));
        }
        // A partial audit says so before its totals (docs/audit.md: it never looks clean).
        for gap in &outcome.unaudited {
            out.push_str(&format!("{}\n", printable(&format!("unaudited: {gap}"))));
        }
        if !outcome.unaudited.is_empty() {
            out.push('\n');
        }
        out.push_str(&summary_line(&Summary::of(outcome)));
        out.push('\n');
        let fixable = outcome.findings.iter().filter(|f| self.marked(f)).count();
        let hidden = outcome.findings.iter().filter(|f| f.fix_edits().is_some() && !self.marked(f)).count();
        out.push_str(&fixable_line(fixable, hidden));
        out
    }
}

/// One line per note, `note: file:line:col: message`, then a blank line.
pub(crate) fn notes(outcome: &Outcome) -> String {
    let mut out = String::new();
    for note in &outcome.notes {
        let message = printable(&note.message);
        match (&note.origin, note.origin.location()) {
            (_, Some(l)) => {
                out.push_str(&format!("note: {}:{}:{}: {message}\n", printable(&l.file), l.line, l.column));
            }
            (Origin::Live(live), None) if live_place(live).is_some() => {
                out.push_str(&format!("note: {}: {message}\n", live_place(live).unwrap_or_default()));
            }
            _ => out.push_str(&format!("note: {message}\n")),
        }
    }
    if !outcome.notes.is_empty() {
        out.push('\n');
    }
    out
}

/// `--show-skipped`: `skipped: file: why`, one line each, then a blank
/// line.
pub(crate) fn skipped(outcome: &Outcome) -> String {
    let mut out = String::new();
    for skip in &outcome.skips {
        out.push_str(&format!("skipped: {}: {}\n", printable(&skip.file), printable(&skip.why)));
    }
    if !outcome.skips.is_empty() {
        out.push('\n');
    }
    out
}

/// `account 111111111111 in us-east-1`, as far as it is known.
pub fn live_place(live: &Live) -> Option<String> {
    let place = match (&live.account, &live.region) {
        (Some(a), Some(r)) => format!("account {a} in {r}"),
        (Some(a), None) => format!("account {a}"),
        (None, Some(r)) => r.clone(),
        (None, None) => return None,
    };
    Some(printable(&place).into_owned())
}

/// What a live finding is about, by name (`jobs`, `jobs-worker on jobs`),
/// when its message does not already name it: the one place it is said.
pub(crate) fn live_subject(f: &Finding) -> Option<String> {
    let name = live_name(f)?;
    (!name.is_empty() && !names(&f.full_message(), &name)).then(|| printable(&name).into_owned())
}

/// What a live finding is about, by name, whether or not its message
/// names it; `None` for a finding in a file.
pub(crate) fn live_name(f: &Finding) -> Option<String> {
    let Origin::Live(live) = &f.origin else { return None };
    Some(match &live.name {
        Some(name) => name.clone(),
        // A merged report's finding: the queue's name from its URL.
        None if f.resource.contains("://") => f.resource.rsplit('/').next().unwrap_or_default().to_string(),
        None => f.resource.clone(),
    })
}

/// A live finding's message as a line of text without the finding's
/// code: its account and Region first, where a file finding has its path,
/// and the name of what it is about after it unless the message says it.
/// A file finding's message as it is.
pub(crate) fn live_message(f: &Finding) -> String {
    let Origin::Live(live) = &f.origin else { return f.full_message().into_owned() };
    let place = live_locator(live).map(|l| format!("{l}: ")).unwrap_or_default();
    let subject = live_subject(f).map(|s| format!(" ({s})")).unwrap_or_default();
    format!("{place}{}{subject}", f.full_message())
}

/// Whether `text` holds `name` as a whole word (not inside a longer name).
fn names(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/' | ':');
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        // A sentence's full stop or a clause's colon after a name is not
        // part of it.
        let after_ok = match after {
            None => true,
            Some('.' | ':') => text[at + name.len() + 1..].chars().next().is_none_or(char::is_whitespace),
            Some(c) => !part(c),
        };
        before.is_none_or(|c| !part(c)) && after_ok
    })
}

/// `account/Region` of a live finding, the place `--format concise` gives
/// it: `123456789012/us-east-1`, as far as it is known.
pub(crate) fn live_locator(live: &Live) -> Option<String> {
    let parts: Vec<&str> = [live.account.as_deref(), live.region.as_deref()].into_iter().flatten().collect();
    (!parts.is_empty()).then(|| printable(&parts.join("/")).into_owned())
}

/// `n` and the word for it: `1 file`, `2 files`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "[*] N fixable with `sqsguard lint --fix`", and how many more
/// `--unsafe-fixes` would fix; nothing when there is neither.
fn fixable_line(fixable: usize, hidden: usize) -> String {
    let hidden_part = match hidden {
        0 => String::new(),
        n => format!(" ({n} more with `--unsafe-fixes`)"),
    };
    match (fixable, hidden) {
        (0, 0) => String::new(),
        (0, n) => format!("{n} fixable only with `sqsguard lint --fix --unsafe-fixes`.\n"),
        (n, _) => format!("[*] {n} fixable with `sqsguard lint --fix`{hidden_part}.\n"),
    }
}

/// The totals: `sqsguard: 1 error, 2 warnings, 0 infos in 3 files (1 skipped)`.
pub(crate) fn summary_line(s: &Summary) -> String {
    let calls = s.api_calls.map(|n| format!(", {n} API calls")).unwrap_or_default();
    let suppressed = if s.suppressed > 0 { format!(", {} suppressed", s.suppressed) } else { String::new() };
    let baselined = s.baselined.map(|n| format!(", {n} in the baseline")).unwrap_or_default();
    let not_linted = if s.not_linted > 0 { format!(", {} named but not linted", s.not_linted) } else { String::new() };
    let unaudited = match s.unaudited.len() {
        0 => String::new(),
        n => format!(", {} not audited in full", plural(n, "account-Region", "account-Regions")),
    };
    // An audit counts queues and the account-Regions they were read in.
    let read = match s.account_regions {
        Some(pairs) => {
            format!("{} in {}", plural(s.files, "queue", "queues"), plural(pairs, "account-Region", "account-Regions"))
        }
        None => plural(s.files, "file", "files"),
    };
    format!(
        "sqsguard: {}, {}, {} in {read} ({} skipped{not_linted}{unaudited}{suppressed}{baselined}{calls})",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos"),
        s.skipped
    )
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn a_name_ends_at_a_clause_or_a_sentence_not_inside_a_longer_name() {
        assert!(names("to FIFO queue commands.fifo: the queue has no ...", "commands.fifo"));
        assert!(names("queue jobs has no alarm.", "jobs"));
        assert!(names("queue jobs", "jobs"));
        assert!(!names("queue jobs:dlq", "jobs"));
        assert!(!names("queue jobs.fifo", "jobs"));
        assert!(!names("queue jobs-dlq: empty", "jobs"));
    }
}
