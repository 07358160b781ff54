//! `--format junit`: one testsuite per file, a failing testcase per finding,
//! a passing testcase for each file without one, so test dashboards show
//! what was checked as well as what failed. Live findings are grouped in a
//! suite per account and Region. What a run left out (an account-Region not
//! audited in full, a file named and not linted) is an `<error>` testcase,
//! so an incomplete run never counts as passing.

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::text::live_name;
use super::{Gaps, location, printable};
use sqsguard_finding::Finding;
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::Origin;

/// The name of the passing testcase of a file without findings.
pub(crate) const CLEAN_CASE: &str = "no findings";

/// A suite: files first (by path), then live groups.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Suite {
    File(String),
    Live(String),
}

impl Suite {
    fn name(&self) -> &str {
        match self {
            Suite::File(name) | Suite::Live(name) => name,
        }
    }
}

#[derive(Default)]
struct Cases<'a> {
    findings: Vec<&'a Finding>,
    notes: Vec<String>,
    /// What was left out (a pair not audited in full, a file named and not
    /// linted): an `<error>` testcase each, and no passing one.
    gaps: Vec<(&'static str, String)>,
}

pub(crate) fn write(outcome: &Outcome, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut suites: BTreeMap<Suite, Cases> = BTreeMap::new();
    for file in &outcome.linted {
        suites.entry(Suite::File(file.clone())).or_default();
    }
    for f in &outcome.findings {
        suites.entry(suite_of(&f.origin)).or_default().findings.push(f);
    }
    for note in &outcome.notes {
        let text = match note.origin.location() {
            Some(l) => format!("note: {}:{}:{}: {}", printable(&l.file), l.line, l.column, printable(&note.message)),
            None => format!("note: {}", printable(&note.message)),
        };
        suites.entry(suite_of(&note.origin)).or_default().notes.push(text);
    }
    let gaps = Gaps::of(outcome);
    for (gap, sentence) in gaps.unaudited {
        let scope: Vec<&str> = gap.account.iter().map(String::as_str).chain([gap.region.as_str()]).collect();
        let name = if gap.partial { "read in part" } else { "not audited" };
        suites.entry(Suite::Live(format!("live {}", scope.join("/")))).or_default().gaps.push((name, sentence));
    }
    for (file, sentence, _) in gaps.unlinted {
        suites.entry(Suite::File(file.to_string())).or_default().gaps.push(("not linted", sentence));
    }

    let mut report = Report::new("sqsguard");
    for (suite, cases) in suites {
        let mut ts = TestSuite::new(printable(suite.name()));
        if cases.findings.is_empty() && cases.gaps.is_empty() {
            let mut case = TestCase::new(CLEAN_CASE, TestCaseStatus::success());
            case.set_classname("sqsguard");
            ts.add_test_case(case);
        }
        ts.add_test_cases(cases.gaps.into_iter().map(|(name, sentence)| gap_case(name, &sentence)));
        ts.add_test_cases(cases.findings.into_iter().map(test_case));
        if !cases.notes.is_empty() {
            ts.set_system_out(cases.notes.join("\n"));
        }
        report.add_test_suite(ts);
    }
    report.serialize(out).map_err(std::io::Error::other)
}

fn suite_of(origin: &Origin) -> Suite {
    match origin {
        Origin::File { file, .. } => Suite::File(file.display_path()),
        Origin::Live(live) => {
            let scope: Vec<&str> = [&live.account, &live.region].into_iter().flatten().map(String::as_str).collect();
            Suite::Live(if scope.is_empty() { "live".to_string() } else { format!("live {}", scope.join("/")) })
        }
    }
}

/// A finding as a failing testcase named by its code and resource: a live
/// one's by the queue's or consumer's name (its suite is its account and
/// Region), as the text formats say it; the URL or UUID is JSON's.
fn test_case(f: &Finding) -> TestCase {
    let (place, subject) = match (&f.origin, location(f)) {
        (_, Some(l)) => (format!("{}:{}:{}", printable(&l.file), l.line, l.column), f.resource.clone()),
        (Origin::Live(live), None) => {
            let name = live_name(f).unwrap_or_default();
            (super::text::live_locator(live).map_or_else(|| name.clone(), |l| format!("{l} {name}")), name)
        }
        (Origin::File { .. }, None) => (String::new(), f.resource.clone()),
    };
    let (message, fix) = (f.full_message(), f.full_fix());
    let (message, fix) = (printable(&message), printable(&fix));
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status.set_message(message.as_ref()).set_type(f.severity.as_str()).set_description(format!(
        "{place}: {} ({})\n{message}\nfix: {fix}",
        f.code(),
        f.name()
    ));
    let mut case = TestCase::new(format!("{} {}", f.code(), printable(&subject)), status);
    case.set_classname(f.name());
    case
}

/// A run that left something out: an error (the run could not check it),
/// not a failure (a finding).
fn gap_case(name: &str, sentence: &str) -> TestCase {
    let sentence = printable(sentence);
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
    status.set_message(sentence.as_ref()).set_type("incomplete").set_description(sentence.as_ref());
    let mut case = TestCase::new(name, status);
    case.set_classname("sqsguard");
    case
}
