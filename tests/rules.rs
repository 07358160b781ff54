//! Per-rule fixtures: tests/fixtures/rules/CODE/bad*.{yaml,json} must make
//! CODE fire; good*.{yaml,json} must give no finding, with every rule on
//! and with only CODE selected. Each bad fixture's diagnostics are
//! snapshotted (exact locations + pretty report).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use std::path::Path;

fn code_of(path: &Path) -> String {
    path.parent().and_then(|p| p.file_name()).unwrap().to_string_lossy().into_owned()
}

#[test]
fn bad_fixtures_fire_their_rule() {
    insta::glob!("fixtures/rules/*/bad*.{yaml,json}", |path| {
        let outcome = common::assert_bad_fixture(path, &code_of(path));
        insta::assert_snapshot!(common::render(&outcome));
    });
}

#[test]
fn good_fixtures_are_clean() {
    insta::glob!("fixtures/rules/*/good*.{yaml,json}", |path| {
        common::assert_good_fixture(path, &code_of(path));
    });
}

#[test]
fn every_rule_has_fixtures() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.code != "SQS000" && !r.live_only) {
        let dir = common::root().join("tests/fixtures/rules").join(rule.code);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no fixture folder", rule.code))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.starts_with("bad")), "{}: no bad fixture", rule.code);
        assert!(names.iter().any(|n| n.starts_with("good")), "{}: no good fixture", rule.code);
    }
}
