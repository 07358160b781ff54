//! Per-rule fixtures of CloudFormation and SAM templates:
//! tests/rules/CODE/{cloudformation,sam}/bad*.{yaml,json} must make CODE
//! fire, and no other rule but those the fixture declares (`# also:
//! SQS004 (why)` in its opening comments); good*.{yaml,json} must give no
//! finding, with every rule on and with only CODE selected. Each bad
//! fixture's findings are snapshotted beside it (`common::findings`: exact
//! locations, messages, help, fixes, notes), and so is the fixture after
//! `--fix`; tests/it/pretty.rs snapshots the pretty drawing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;

/// The template front-ends this file's fixtures are for.
const FRONT_ENDS: [&str; 2] = ["cloudformation", "sam"];

#[test]
fn bad_fixtures_fire_their_rule() {
    insta::glob!("../rules", "*/{cloudformation,sam}/bad*.{yaml,json}", |path| {
        let outcome = common::assert_bad_fixture(path, &common::rule_of(path));
        common::assert_snapshot_beside(path, None, &common::findings(&outcome));
    });
}

/// Each bad fixture whose finding has a fix, after `--fix` with only its
/// rule: the `fixed` (or `unsafe_fixed`) snapshot, reviewed as text.
#[test]
fn bad_fixtures_after_fix() {
    insta::glob!("../rules", "*/{cloudformation,sam}/bad*.{yaml,json}", |path| {
        if let Some(fixed) = common::fixed_fixture(path, &common::rule_of(path)) {
            common::assert_snapshot_beside(path, Some(fixed.name()), &fixed.text);
        }
    });
}

#[test]
fn good_fixtures_are_clean() {
    insta::glob!("../rules", "*/{cloudformation,sam}/good*.{yaml,json}", |path| {
        common::assert_good_fixture(path, &common::rule_of(path));
    });
}

#[test]
fn every_rule_has_fixtures() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.kind == sqsguard::rules::Kind::Template) {
        let names: Vec<String> = FRONT_ENDS
            .iter()
            .flat_map(|front_end| std::fs::read_dir(common::rules_dir().join(rule.id.code).join(front_end)).into_iter())
            .flatten()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.starts_with("bad")), "{}: no bad CloudFormation or SAM fixture", rule.id.code);
        assert!(names.iter().any(|n| n.starts_with("good")), "{}: no good CloudFormation or SAM fixture", rule.id.code);
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
    let fixtures = common::rules_dir().join("SQS018");
    for (fixture, from, to, expected) in [
        ("cloudformation/bad.yaml", "VisibilityTimeout: 180", "VisibilityTimeout: 60", ("SQS001", "JobsQueue")),
        (
            "cloudformation/bad_get_att_queue_url.yaml",
            "VisibilityTimeout: 180",
            "VisibilityTimeout: 60",
            ("SQS001", "JobsQueue"),
        ),
        (
            "cloudformation/bad_url_string.yaml",
            "VisibilityTimeout: 180",
            "VisibilityTimeout: 60",
            ("SQS001", "JobsQueue"),
        ),
        ("sam/bad_sam.yaml", "VisibilityTimeout: 180", "VisibilityTimeout: 60", ("SQS001", "JobsQueue")),
        (
            "cloudformation/bad_dead_letter_target.yaml",
            "MessageRetentionPeriod: 1209600",
            "MessageRetentionPeriod: 345600",
            ("SQS007", "JobsQueue"),
        ),
    ] {
        let text = std::fs::read_to_string(fixtures.join(fixture)).unwrap();
        assert!(text.contains(from), "{fixture}");
        let path = dir.path().join(Path::new(fixture).file_name().unwrap());
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
    let fixtures = common::rules_dir().join("SQS018");
    for (fixture, fixable) in [
        ("cloudformation/bad.yaml", true),
        ("cloudformation/bad.json", true),
        ("cloudformation/bad_dead_letter_target.yaml", true),
        ("cloudformation/bad_get_att_queue_url.yaml", true),
        ("sam/bad_sam.yaml", true),
        ("sam/bad_sam_sns_subscription.yaml", true),
        ("cloudformation/bad_url_string.yaml", false),
        ("cloudformation/bad_if_condition.yaml", false),
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

/// Every snapshot under tests/rules is the findings (`NAME.snap`) or the
/// fixed text (`NAME.fixed.snap`, `NAME.unsafe_fixed.snap`) of a bad
/// fixture beside it, or of a Terraform module's JSON twin
/// (`NAME.json.snap`, `NAME.json.fixed.snap`, ...): one left by a fixture renamed or removed is an
/// error, as insta leaves it in place.
#[test]
fn every_snapshot_has_its_fixture() {
    let mut orphans = Vec::new();
    let mut snapshots = 0;
    for rule in std::fs::read_dir(common::rules_dir()).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
        for front_end in std::fs::read_dir(&rule).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
            for file in std::fs::read_dir(&front_end).unwrap().map(|e| e.unwrap().path()) {
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                let Some(stem) = name.strip_suffix(".snap") else { continue };
                snapshots += 1;
                let fixture = [".unsafe_fixed", ".fixed"].iter().find_map(|k| stem.strip_suffix(k)).unwrap_or(stem);
                // A Terraform module's JSON twin's, beside the module.
                let fixture =
                    fixture.strip_suffix(".json").filter(|_| front_end.ends_with("terraform")).unwrap_or(fixture);
                if !fixture.starts_with("bad") || !front_end.join(fixture).exists() {
                    orphans.push(common::relative(&file));
                }
            }
        }
    }
    assert!(snapshots > 0, "no snapshot found under tests/rules");
    assert!(orphans.is_empty(), "snapshots without their bad fixture (delete them): {orphans:#?}");
}
