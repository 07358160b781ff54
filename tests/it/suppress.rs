//! Suppressions in every form: comments in YAML and HCL (above a resource,
//! on its line, on the offending value's line), CloudFormation Metadata in
//! YAML and JSON, without a reason (a note), and stale (a note).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use serde_json::Value;

/// One line per finding and note, then the counts: what a suppression
/// changes, without the prose.
fn outline(path: &str, extra: &[&str]) -> String {
    let mut args = vec!["lint", "--format", "json", path];
    args.extend(extra);
    let out = common::sqsguard(&args);
    let doc: Value = serde_json::from_str(&common::stdout(&out)).expect("json output");
    let mut text = String::new();
    for f in doc["findings"].as_array().unwrap() {
        text.push_str(&format!("finding {} {} line {}\n", f["rule"], f["resource"], f["line"]));
    }
    for n in doc["notes"].as_array().into_iter().flatten() {
        text.push_str(&format!("note line {}: {}\n", n["line"], n["message"]));
    }
    text.push_str(&format!("summary {}\n", doc["summary"]));
    text
}

#[test]
fn yaml_comments_and_metadata() {
    let got = outline("tests/fixtures/suppress/template.yaml", &[]);
    insta::assert_snapshot!(got);
}

#[test]
fn json_template_metadata() {
    insta::assert_snapshot!(outline("tests/fixtures/suppress/template.json", &[]));
}

#[test]
fn terraform_comments() {
    insta::assert_snapshot!(outline("tests/fixtures/suppress/terraform", &[]));
}

#[test]
fn each_suppression_silences_only_its_own_rule_and_resource() {
    // Removing the comments brings back exactly the suppressed findings.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(common::root().join("tests/fixtures/suppress/template.yaml")).unwrap();
    let stripped: String = text.lines().map(|l| l.split(" # sqsguard").next().unwrap()).collect::<Vec<_>>().join("\n");
    let stripped = stripped.replace("# sqsguard:ignore", "# was:");
    let path = dir.path().join("template.yaml");
    std::fs::write(&path, stripped).unwrap();
    let got = outline(path.to_str().unwrap(), &[]);
    for expected in [
        "finding \"SQS004\" \"Metrics\"",
        "finding \"SQS006\" \"Audit\"",
        "finding \"SQS016\" \"Audit\"",
        "finding \"SQS008\" \"Jobs\"",
    ] {
        assert!(got.contains(expected), "{expected} missing from\n{got}");
    }
    // The Metadata suppression is still there.
    assert!(!got.contains("SQS015"), "{got}");
    assert!(got.contains("\"suppressed\":1"), "{got}");
}

#[test]
fn a_stale_suppression_of_a_rule_switched_off_is_not_reported() {
    let got = outline("tests/fixtures/suppress/template.yaml", &["--ignore", "SQS004"]);
    assert!(!got.contains("silences no finding"), "{got}");
}

#[test]
fn a_suppression_on_the_policy_silences_the_sqs017_it_causes_and_metadata_shapes_are_read() {
    // SQS017 names the queue; the suppressions sit on the policies (a
    // comment with a rule name, and a single Metadata entry). A bare code,
    // a list of rules, and a malformed entry (a note) too.
    insta::assert_snapshot!(outline("tests/fixtures/suppress/policy.yaml", &[]));
}

#[test]
fn a_suppression_left_in_a_file_without_queues_is_stale() {
    insta::assert_snapshot!(outline("tests/fixtures/suppress/no-queue.yaml", &[]));
}

#[test]
fn a_suppression_in_a_shared_module_used_by_one_caller_is_not_stale() {
    // envs/prod passes wait = 0 (suppressed), envs/dev passes 20 (nothing
    // to suppress there): the comment is needed, so no "remove it".
    insta::assert_snapshot!(outline("tests/fixtures/suppress/shared", &[]));
}

#[test]
fn rules_switched_off_are_not_counted_as_suppressed() {
    // template.yaml suppresses SQS004, SQS006, SQS008, SQS015 and SQS016.
    let got = outline("tests/fixtures/suppress/template.yaml", &["--select", "SQS006"]);
    assert!(got.contains("\"suppressed\":1"), "only the SQS006 suppression counts:\n{got}");
}

#[test]
fn a_suppression_on_the_consumer_silences_the_sqs001_it_causes() {
    // SQS001 names the queue; the consumer's mapping is what sets the timing.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(common::root().join("tests/rules/SQS001/cloudformation/bad.yaml")).unwrap();
    let path = dir.path().join("bad.yaml");
    std::fs::write(&path, &text).unwrap();
    let before = outline(path.to_str().unwrap(), &["--select", "SQS001"]);
    assert!(before.contains("finding \"SQS001\""), "{before}");
    // OrdersMapping is the fixture's AWS::Lambda::EventSourceMapping.
    assert!(text.contains("  OrdersMapping:\n    Type: AWS::Lambda::EventSourceMapping"));
    let commented = text.replacen(
        "  OrdersMapping:\n",
        "  # sqsguard:ignore SQS001 batches finish well within 30 s\n  OrdersMapping:\n",
        1,
    );
    std::fs::write(&path, commented).unwrap();
    let after = outline(path.to_str().unwrap(), &["--select", "SQS001"]);
    assert!(!after.contains("finding \"SQS001\"") && after.contains("\"suppressed\":1"), "{after}");
}

#[test]
fn the_pretty_summary_counts_suppressed_findings() {
    let out = common::sqsguard(&["lint", "tests/fixtures/suppress/template.yaml"]);
    assert!(common::stdout(&out).contains("in 1 file (0 skipped, 5 suppressed)"), "{}", common::stdout(&out));
}

#[test]
fn a_comment_applies_through_a_run_of_comments_and_a_blank_line_ends_it() {
    let dir = tempfile::tempdir().unwrap();
    let queue = "    Type: AWS::SQS::Queue\n    Properties: {RedrivePolicy: {deadLetterTargetArn: arn:aws:sqs:eu-west-1:1:d, maxReceiveCount: 5}}\n";
    let text = format!(
        "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  # sqsguard:ignore SQS006 polled by a batch job with its own wait\n  # (see ops/runbook.md)\n  Polled:\n{queue}  # sqsguard:ignore SQS006 this one is separated by a blank line\n\n  Separated:\n{queue}"
    );
    let path = dir.path().join("t.yaml");
    std::fs::write(&path, text).unwrap();
    let got = outline(path.to_str().unwrap(), &[]);
    // The first comment reaches Polled through the comment line below it.
    assert!(!got.contains("\"Polled\""), "{got}");
    // The second applies to nothing: Separated keeps its finding, and the
    // comment is told that it silences nothing.
    assert!(got.contains("finding \"SQS006\" \"Separated\" line 10"), "{got}");
    assert!(got.contains("note line 8: \"sqsguard:ignore SQS006 silences no finding here; remove it\""), "{got}");
    assert!(got.contains("\"suppressed\":1"), "{got}");
}
