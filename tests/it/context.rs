//! What the run knows about a finding besides its rule's words (a value
//! given for the run, the CDK construct, the tool that created the queue)
//! is kept apart from them: the rule's message and fix are as the rule
//! wrote them, and the reporters say the whole.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use sqsguard::config::{Config, Stage};
use sqsguard::finding::Finding;
use sqsguard::frontend::stage::Given;

fn folder(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    dir
}

fn only(outcome: &sqsguard::outcome::Outcome, code: &str) -> Finding {
    let found: Vec<&Finding> = outcome.findings.iter().filter(|f| f.code() == code).collect();
    assert_eq!(found.len(), 1, "{}", common::render(outcome));
    found[0].clone()
}

/// A queue no Lambda reads whose long polling is a Parameter (default 20):
/// SQS006 with Wait=0, about the queue's own value, which the rule's words
/// do not say where from.
const POLLED: &str = "Parameters:
  Wait:
    Type: Number
    Default: 20
Resources:
  Polled:
    Type: AWS::SQS::Queue
    Properties:
      ReceiveMessageWaitTimeSeconds: !Ref Wait
";

#[test]
fn a_value_given_for_the_run_is_context_not_words() {
    let dir = folder("template.yaml", POLLED);
    let mut config = Config::default();
    config.filter.select = vec!["SQS006".to_string()];
    config.stage = Stage { overrides: vec![Given::new("Wait", "0", "--parameter-overrides")], ..Stage::default() };
    let finding = only(&sqsguard::lint::lint_paths(&[dir.path().join("template.yaml")], &config), "SQS006");
    let given = finding.context.given.as_ref().unwrap_or_else(|| panic!("{finding:#?}"));
    assert_eq!((given.field, &*given.from), ("ReceiveMessageWaitTimeSeconds", "--parameter-overrides Wait=0"));
    assert!(!finding.message.contains("--parameter-overrides"), "{}", finding.message);
    let whole = format!("{} (ReceiveMessageWaitTimeSeconds from --parameter-overrides Wait=0)", finding.message);
    assert_eq!(finding.full_message(), whole);
    assert_eq!(finding.context.construct, None);
    assert_eq!(finding.context.created_by, None);
}

#[test]
fn a_cdk_construct_is_context_not_words() {
    let template = r#"{"Resources": {"JobsB2C4": {"Type": "AWS::SQS::Queue", "Metadata": {"aws:cdk:path": "App/Workers/Jobs/Resource"}, "Properties": {"ReceiveMessageWaitTimeSeconds": 0}}}}"#;
    let dir = folder("App.template.json", template);
    let mut config = Config::default();
    config.filter.select = vec!["SQS006".to_string()];
    let finding = only(&sqsguard::lint::lint_paths(&[dir.path().join("App.template.json")], &config), "SQS006");
    assert_eq!(finding.context.construct.as_deref(), Some("App/Workers/Jobs/Resource"));
    assert!(!finding.message.contains("CDK construct"), "{}", finding.message);
    assert_eq!(finding.full_message(), format!("{} (CDK construct App/Workers/Jobs/Resource)", finding.message));
    assert_eq!(finding.context.given, None);
}

#[test]
fn a_queue_sam_creates_is_context_of_the_fix() {
    let fixture = common::root().join("tests/rules/SQS004/sam/bad_sam_sns_subscription.yaml");
    let finding = only(&common::lint_only(&fixture, "SQS004"), "SQS004");
    let how = finding.context.created_by.expect("SAM created the queue");
    assert!(how.starts_with("SAM creates this queue"), "{how}");
    assert!(!finding.fix.contains(how), "{}", finding.fix);
    assert_eq!(finding.full_fix(), format!("{how}; then {}", finding.fix));
    assert_eq!(finding.full_message(), finding.message, "no context of the message");
}
