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

#[test]
fn an_unrepresentable_number_no_range_covers_is_a_note() {
    // A function's timeout and an alarm's threshold: no SQS012 range, and
    // never silently unknown.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    std::fs::write(
        &path,
        "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Worker:\n    Type: AWS::Lambda::Function\n    Properties:\n      Timeout: .inf\n  Alarm:\n    Type: AWS::CloudWatch::Alarm\n    Properties:\n      Namespace: AWS/SQS\n      MetricName: ApproximateNumberOfMessagesVisible\n      Threshold: -.inf\n      ComparisonOperator: GreaterThanThreshold\n",
    )
    .unwrap();
    let outcome = common::lint(&path);
    let notes: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).collect();
    assert!(notes.contains(&"Worker: Timeout .inf is not a number Lambda can take, so the deployment fails; the rules that compare timeouts take it as unknown"), "{notes:#?}");
    assert!(notes.contains(&"Alarm: Threshold -.inf is not a number CloudWatch can take, so the deployment fails; the rules that read alarms take it as unknown"), "{notes:#?}");
    let at = outcome.notes.iter().find(|n| n.message.starts_with("Worker")).unwrap().origin.location().unwrap();
    assert_eq!(at.line, 6);
}
