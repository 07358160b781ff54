//! `.sqsguard.yaml`: discovery upward from the working folder, `--config`,
//! every setting changing what lint reports, and located validation errors.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn sqsguard_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(dir).output().unwrap()
}

/// (rule, severity, resource) of each finding, and the summary.
fn findings(out: &Output) -> (Vec<(String, String, String)>, Value) {
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&out.stderr)));
    let list = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().into(),
                f["severity"].as_str().unwrap().into(),
                f["resource"].as_str().unwrap().into(),
            )
        })
        .collect();
    (list, doc["summary"].clone())
}

fn project() -> std::path::PathBuf {
    common::root().join("tests/fixtures/config/project")
}

fn triple(rule: &str, severity: &str, resource: &str) -> (String, String, String) {
    (rule.into(), severity.into(), resource.into())
}

#[test]
fn the_config_above_the_working_folder_applies_every_setting() {
    let out = sqsguard_in(&project().join("infra"), &["lint", "--format", "json", "."]);
    let (got, summary) = findings(&out);
    assert_eq!(
        got,
        vec![
            // payloads: commands-*.fifo declares a timestamp field (the first match wins over *.fifo).
            triple("SQS003", "error", "aws_sqs_queue.commands"),
            // severity: SQS006 is an error here.
            triple("SQS006", "error", "aws_sqs_queue.commands"),
        ],
        "ignore (SQS016), SQS008 minimum 2, SQS001 multiplier 4, *.fifo deterministic and the excluded legacy/ \
         folder leave nothing else"
    );
    assert_eq!(summary["files"], 1, "infra/legacy/old.yaml is excluded");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn without_the_config_the_same_files_give_the_defaults() {
    let empty = tempfile::NamedTempFile::new().unwrap();
    let out = sqsguard_in(
        &project().join("infra"),
        &["lint", "--format", "json", ".", "--config", empty.path().to_str().unwrap()],
    );
    let (got, summary) = findings(&out);
    for expected in [
        triple("SQS003", "warning", "aws_sqs_queue.commands"),
        triple("SQS006", "warning", "aws_sqs_queue.commands"),
        triple("SQS016", "warning", "aws_sqs_queue.commands"),
        triple("SQS008", "warning", "aws_sqs_queue.commands"),
        triple("SQS003", "warning", "aws_sqs_queue.events"),
        triple("SQS001", "warning", "aws_sqs_queue.jobs"),
        triple("SQS004", "warning", "Old"),
    ] {
        assert!(got.contains(&expected), "{expected:?} missing from {got:?}");
    }
    assert_eq!(summary["files"], 2);
}

#[test]
fn command_line_select_replaces_and_ignore_adds() {
    let infra = project().join("infra");
    let (got, _) = findings(&sqsguard_in(&infra, &["lint", "--format", "json", ".", "--select", "SQS016"]));
    assert_eq!(got, vec![], "--select SQS016 still loses to the config's ignore");
    let (got, _) = findings(&sqsguard_in(&infra, &["lint", "--format", "json", ".", "--ignore", "SQS006"]));
    assert_eq!(got, vec![triple("SQS003", "error", "aws_sqs_queue.commands")]);
}

#[test]
fn an_explicitly_named_excluded_file_is_still_excluded() {
    // A pre-commit hook passes every changed file; exclude must hold for them too.
    let out = sqsguard_in(&project(), &["lint", "--format", "json", "infra/legacy/old.yaml"]);
    let (got, summary) = findings(&out);
    assert_eq!((got, summary["files"].clone()), (vec![], Value::from(0)));
}

#[test]
fn an_invalid_config_is_every_error_located_and_exit_2() {
    let out = common::sqsguard(&["lint", "examples", "--config", "tests/fixtures/config/invalid.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.stdout.is_empty(), "nothing is linted with a broken config");
    insta::assert_snapshot!(stderr);
}

#[test]
fn semantic_errors_are_located_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.yaml");
    std::fs::write(&path, "severity:\n  SQS999: error\npayloads:\n  - queue: \"[orders\"\n    deterministic: true\n")
        .unwrap();
    let out = common::sqsguard(&["lint", "examples", "--config", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("c.yaml:2:3"), "{stderr}");
    assert!(stderr.contains("SQS999` is no rule code"), "{stderr}");
    assert!(stderr.contains("c.yaml:4:12"), "{stderr}");
    assert!(stderr.contains("is not a glob"), "{stderr}");
}

#[test]
fn a_misspelt_rule_code_is_said_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.yaml");
    std::fs::write(&path, "select: [XYZ1]\n").unwrap();
    let out = common::sqsguard(&["lint", "examples", "--config", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr
            .contains("`select[0]` must be a rule code such as SQS001, or a prefix of codes such as SQS0, not `XYZ1`"),
        "{stderr}"
    );
    assert!(!stderr.contains("cannot be"), "{stderr}");
}

#[test]
fn a_missing_or_broken_config_is_exit_2() {
    let out = common::sqsguard(&["lint", "examples", "--config", "no/such/.sqsguard.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no/such/.sqsguard.yaml"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".sqsguard.yaml"), "select: [SQS001\n").unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "."]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".sqsguard.yaml:"));
}

#[test]
fn a_severity_override_moves_the_fail_on_threshold() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".sqsguard.yaml"), "severity: {SQS004: info, SQS006: info}\n").unwrap();
    std::fs::write(
        dir.path().join("q.yaml"),
        "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n",
    )
    .unwrap();
    let code = |fail_on: &str| sqsguard_in(dir.path(), &["lint", ".", "--fail-on", fail_on]).status.code();
    assert_eq!((code("warning"), code("info")), (Some(0), Some(1)));
    let (got, summary) = findings(&sqsguard_in(dir.path(), &["lint", "--format", "json", "."]));
    assert_eq!(got, vec![triple("SQS004", "info", "Q"), triple("SQS006", "info", "Q")]);
    assert_eq!(summary["infos"], 2);
}

#[test]
fn a_payload_schema_that_cannot_be_read_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".sqsguard.yaml"),
        "payloads:\n  - queue: \"billing-*\"\n    schema: missing.json\n",
    )
    .unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "."]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(".sqsguard.yaml:3:13") && stderr.contains("missing.json"), "{stderr}");
}

#[test]
fn include_limits_walked_files_but_not_named_ones_and_numbers_may_be_written_1e1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".sqsguard.yaml"), "include: [\"infra/**\"]\nrules: {SQS008: {minimum: 1e1}}\n")
        .unwrap();
    let queue = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      ReceiveMessageWaitTimeSeconds: 20\n      RedrivePolicy: {deadLetterTargetArn: arn:aws:sqs:eu-west-1:123456789012:d, maxReceiveCount: 5}\n";
    for folder in ["infra", "other"] {
        std::fs::create_dir(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join("q.yaml"), queue).unwrap();
    }
    let (got, summary) = findings(&sqsguard_in(dir.path(), &["lint", "--format", "json", "."]));
    // maxReceiveCount 5 < 10 (the minimum written 1e1), in infra/ only.
    assert_eq!(got, vec![triple("SQS008", "warning", "Q")]);
    assert_eq!(summary["files"], 1);
    let (_, summary) = findings(&sqsguard_in(dir.path(), &["lint", "--format", "json", "other/q.yaml"]));
    assert_eq!(summary["files"], 1, "a file named on the command line need not match include");
}

/// The config schema's `rules` section is written from the rules' own
/// declarations (each rule's options struct: names, kinds, bounds and
/// descriptions), so an option cannot be documented for editors and
/// ignored by sqsguard, or the reverse. On a difference the message holds
/// the section to paste into `schemas/config.schema.json`.
#[test]
fn the_schemas_rule_options_are_the_rules_own() {
    use sqsguard::rules::OptionKind;
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(common::root().join("schemas/config.schema.json")).unwrap())
            .unwrap();
    let mut declared = serde_json::Map::new();
    for rule in sqsguard::rules::ALL.iter().filter(|r| !r.options.is_empty()) {
        let mut properties = serde_json::Map::new();
        for spec in rule.options {
            let mut option = serde_json::Map::new();
            option.insert("description".into(), spec.description.into());
            match spec.kind {
                OptionKind::Integer { min, max } => {
                    option.insert("type".into(), "integer".into());
                    option.insert("minimum".into(), min.into());
                    if let Some(max) = max {
                        option.insert("maximum".into(), max.into());
                    }
                }
                OptionKind::Duration => {
                    option.insert("$ref".into(), "#/$defs/duration".into());
                }
            }
            properties.insert(spec.name.into(), option.into());
        }
        let section = serde_json::json!({"type": "object", "properties": properties, "additionalProperties": false});
        declared.insert(rule.id.code.into(), section);
    }
    let declared = Value::Object(declared);
    let in_schema = &schema["properties"]["rules"];
    // Written out in full, so that the order of codes and names is held too.
    assert_eq!(
        serde_json::to_string_pretty(&in_schema["properties"]).unwrap(),
        serde_json::to_string_pretty(&declared).unwrap(),
        "schemas/config.schema.json's rules.properties differs from the rules' declarations"
    );
    assert_eq!(in_schema["additionalProperties"], false, "an option no rule declares is an error");
    assert!(
        declared.as_object().unwrap().contains_key("SQS001") && declared["SQS102"]["properties"]["sla"].is_object()
    );
}
