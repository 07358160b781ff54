//! Per-rule fixtures: tests/fixtures/rules/CODE/bad*.{yaml,json} must make
//! CODE fire, and no other rule but those the fixture declares (`# also:
//! SQS004 (why)` in its opening comments); good*.{yaml,json} must give no
//! finding, with every rule on and with only CODE selected. Each bad
//! fixture's findings are snapshotted (`common::findings`: exact locations,
//! messages, help, fixes, notes); tests/it/pretty.rs snapshots the drawing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;

fn code_of(path: &Path) -> String {
    path.parent().and_then(|p| p.file_name()).unwrap().to_string_lossy().into_owned()
}

#[test]
fn bad_fixtures_fire_their_rule() {
    insta::glob!("..", "fixtures/rules/*/bad*.{yaml,json}", |path| {
        let outcome = common::assert_bad_fixture(path, &code_of(path));
        insta::assert_snapshot!(common::findings(&outcome));
    });
}

/// Each bad fixture whose finding has a fix, after `--fix` with only its
/// rule: the `fixed` (or `unsafe_fixed`) snapshot, reviewed as text.
#[test]
fn bad_fixtures_after_fix() {
    insta::glob!("..", "fixtures/rules/*/bad*.{yaml,json}", |path| {
        if let Some(fixed) = common::fixed_fixture(path, &code_of(path)) {
            insta::assert_snapshot!(fixed.name(), fixed.text);
        }
    });
}

#[test]
fn good_fixtures_are_clean() {
    insta::glob!("..", "fixtures/rules/*/good*.{yaml,json}", |path| {
        common::assert_good_fixture(path, &code_of(path));
    });
}

#[test]
fn every_rule_has_fixtures() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.kind == sqsguard::rules::Kind::Template) {
        let dir = common::root().join("tests/fixtures/rules").join(rule.id.code);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no fixture folder", rule.id.code))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.starts_with("bad")), "{}: no bad fixture", rule.id.code);
        assert!(names.iter().any(|n| n.starts_with("good")), "{}: no good fixture", rule.id.code);
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

/// SQS018 does not cut the link it reports: a mapping that names its queue
/// by URL still consumes it, and a RedrivePolicy to a DLQ's URL still sends
/// to that DLQ, so the rules about the pair fire as they would through the
/// ARN (each pair of edits makes one of them fire).
#[test]
fn a_queue_named_by_its_url_is_still_linked() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = common::root().join("tests/fixtures/rules/SQS018");
    for (fixture, from, to, expected) in [
        ("bad.yaml", "VisibilityTimeout: 180", "VisibilityTimeout: 60", ("SQS001", "JobsQueue")),
        ("bad_get_att_queue_url.yaml", "VisibilityTimeout: 180", "VisibilityTimeout: 60", ("SQS001", "JobsQueue")),
        ("bad_url_string.yaml", "VisibilityTimeout: 180", "VisibilityTimeout: 60", ("SQS001", "JobsQueue")),
        ("bad_sam.yaml", "VisibilityTimeout: 180", "VisibilityTimeout: 60", ("SQS001", "JobsQueue")),
        (
            "bad_dead_letter_target.yaml",
            "MessageRetentionPeriod: 1209600",
            "MessageRetentionPeriod: 345600",
            ("SQS007", "JobsQueue"),
        ),
    ] {
        let text = std::fs::read_to_string(fixtures.join(fixture)).unwrap();
        assert!(text.contains(from), "{fixture}");
        let path = dir.path().join(fixture);
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let outcome = common::lint(&path);
        let found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
        assert!(found.contains(&expected), "{fixture}: {found:?}");
        assert!(found.iter().any(|(code, _)| *code == "SQS018"), "{fixture}: {found:?}");
    }
}

/// A reference to a queue's URL is fixed in place; a URL written out, or a
/// reference in one branch of a condition, is not.
#[test]
fn only_a_reference_to_a_queue_url_gets_a_fix() {
    let fixtures = common::root().join("tests/fixtures/rules/SQS018");
    for (fixture, fixable) in [
        ("bad.yaml", true),
        ("bad.json", true),
        ("bad_dead_letter_target.yaml", true),
        ("bad_get_att_queue_url.yaml", true),
        ("bad_sam.yaml", true),
        ("bad_sam_sns_subscription.yaml", true),
        ("bad_url_string.yaml", false),
        ("bad_if_condition.yaml", false),
    ] {
        let outcome = common::lint_only(&fixtures.join(fixture), "SQS018");
        let fixes: Vec<bool> = outcome.findings.iter().map(|f| f.fix_edits().is_some()).collect();
        assert_eq!(fixes, vec![fixable], "{fixture}");
    }
}

/// The bad-fixture check lints with every rule: another rule firing fails
/// it unless the fixture declares that rule, and a declared rule that does
/// not fire fails it too.
#[test]
fn the_bad_fixture_check_fails_on_an_undeclared_or_stale_other_rule() {
    let dir = tempfile::tempdir().unwrap();
    let body = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties: {VisibilityTimeout: 30}\n  F:\n    Type: AWS::Lambda::Function\n    Properties: {Timeout: 20}\n  M:\n    Type: AWS::Lambda::EventSourceMapping\n    Properties: {EventSourceArn: !GetAtt Q.Arn, FunctionName: !Ref F, FunctionResponseTypes: [ReportBatchItemFailures]}\n";
    let check = |name: &str, head: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("{head}{body}")).unwrap();
        std::panic::catch_unwind(|| common::assert_bad_fixture(&path, "SQS001")).is_ok()
    };
    assert!(!check("undeclared.yaml", "# SQS001, and Q has no DLQ.\n"), "SQS004 fires undeclared");
    assert!(check("declared.yaml", "# SQS001.\n# also: SQS004 (Q has no DLQ)\n"));
    assert!(!check("stale.yaml", "# also: SQS004, SQS005\n"), "SQS005 is declared but does not fire");
    let path = dir.path().join("declared.yaml");
    assert_eq!(common::declared_others(&path).into_iter().collect::<Vec<_>>(), ["SQS004"]);
}
