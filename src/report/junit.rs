//! `--format junit`: one testsuite per file, a failing testcase per finding,
//! a passing testcase for each file without one, so test dashboards show
//! what was checked as well as what failed. Live findings are grouped in a
//! suite per account and Region.

use std::collections::BTreeMap;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::location;
use crate::finding::Finding;
use crate::model::Origin;
use crate::outcome::Outcome;

/// The name of the passing testcase of a file without findings.
pub const CLEAN_CASE: &str = "no findings";

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
}

pub fn write(outcome: &Outcome, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut suites: BTreeMap<Suite, Cases> = BTreeMap::new();
    for file in &outcome.linted {
        suites.entry(Suite::File(file.clone())).or_default();
    }
    for f in &outcome.findings {
        suites.entry(suite_of(&f.origin)).or_default().findings.push(f);
    }
    for note in &outcome.notes {
        let text = match note.origin.location() {
            Some(l) => format!("note: {}:{}:{}: {}", l.file, l.line, l.column, note.message),
            None => format!("note: {}", note.message),
        };
        suites.entry(suite_of(&note.origin)).or_default().notes.push(text);
    }

    let mut report = Report::new("sqsguard");
    for (suite, cases) in suites {
        let mut ts = TestSuite::new(suite.name());
        if cases.findings.is_empty() {
            let mut case = TestCase::new(CLEAN_CASE, TestCaseStatus::success());
            case.set_classname("sqsguard");
            ts.add_test_case(case);
        }
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

fn test_case(f: &Finding) -> TestCase {
    let place = match (&f.origin, location(f)) {
        (_, Some(l)) => format!("{}:{}:{}", l.file, l.line, l.column),
        (Origin::Live(live), None) => live.id.clone(),
        (Origin::File { .. }, None) => String::new(),
    };
    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
    status
        .set_message(f.message.as_str())
        .set_type(f.severity.as_str())
        .set_description(format!("{place}: {} ({})\n{}\nfix: {}", f.code, f.name, f.message, f.fix));
    let mut case = TestCase::new(format!("{} {}", f.code, f.resource), status);
    case.set_classname(f.name);
    case
}
