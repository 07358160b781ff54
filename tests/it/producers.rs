//! What feeds a queue, read from templates: the policy documents SQS019
//! and SQS020 evaluate however they are written (a JSON string, a
//! `Fn::Sub`, `NotAction`, `NotPrincipal`, wildcards in any case, a
//! document that does not parse), each evaluated or unknown and never a
//! guess; producers whose queue is not known said in a note.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use serde_json::Value;

const HEAD: &str = "AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Jobs:
    Type: AWS::SQS::Queue
  Topic:
    Type: AWS::SNS::Topic
  ToJobs:
    Type: AWS::SNS::Subscription
    Properties:
      TopicArn: !Ref Topic
      Protocol: sqs
      Endpoint: !GetAtt Jobs.Arn
";

/// The codes SQS019-SQS021 report on `template`, and its notes.
fn lint(template: &str) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("t.yaml"), template).unwrap();
    let out = common::sqsguard(&[
        "lint",
        "--format",
        "json",
        "--select",
        "SQS019,SQS020,SQS021",
        dir.path().join("t.yaml").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("not JSON: {stderr}"));
    let codes = doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect();
    let notes = doc["notes"]
        .as_array()
        .map(|n| n.iter().map(|n| n["message"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    (codes, notes)
}

/// The template with a queue policy on Jobs whose PolicyDocument is `document`.
fn with_policy(document: &str) -> String {
    format!(
        "{HEAD}  Policy:\n    Type: AWS::SQS::QueuePolicy\n    Properties:\n      Queues: [!Ref Jobs]\n      PolicyDocument: {document}\n"
    )
}

#[test]
fn policy_documents_are_evaluated_however_they_are_written() {
    let allow = |principal: &str, action: &str| {
        format!(
            "{{Statement: [{{Effect: Allow, Principal: {principal}, {action}, Resource: !GetAtt Jobs.Arn, Condition: {{ArnEquals: {{aws:SourceArn: !Ref Topic}}}}}}]}}"
        )
    };
    let sns = "{Service: sns.amazonaws.com}";
    let cases: &[(&str, String, &[&str])] = &[
        ("no policy", HEAD.to_string(), &["SQS019"]),
        ("the service, by name", with_policy(&allow(sns, "Action: sqs:SendMessage")), &[]),
        ("upper case wildcard", with_policy(&allow(sns, "Action: 'SQS:SEND*'")), &[]),
        ("a list with another action", with_policy(&allow(sns, "Action: [sqs:GetQueueUrl, 'sqs:*']")), &[]),
        ("NotAction leaving SendMessage in", with_policy(&allow(sns, "NotAction: sqs:DeleteQueue")), &[]),
        ("NotAction taking it out", with_policy(&allow(sns, "NotAction: 'sqs:Send*'")), &["SQS019"]),
        ("another service", with_policy(&allow("{Service: events.amazonaws.com}", "Action: sqs:*")), &["SQS019"]),
        (
            "an account, not the service",
            with_policy(&allow("{AWS: arn:aws:iam::123456789012:root}", "Action: sqs:*")),
            &["SQS019"],
        ),
        ("everyone, on this topic", with_policy(&allow("'*'", "Action: sqs:SendMessage")), &[]),
        // Unknown: never a finding.
        (
            "NotPrincipal",
            with_policy(
                "{Statement: [{Effect: Allow, NotPrincipal: {AWS: arn:aws:iam::1:root}, Action: '*', Resource: '*'}]}",
            ),
            &[],
        ),
        (
            "a condition on another key",
            with_policy(
                "{Statement: [{Effect: Allow, Principal: {Service: sns.amazonaws.com}, Action: '*', Resource: '*', Condition: {Bool: {aws:SecureTransport: 'true'}}}]}",
            ),
            &[],
        ),
        (
            "a JSON string that allows",
            with_policy(
                r#"'{"Statement": [{"Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"}, "Action": "sqs:SendMessage", "Resource": "*"}]}'"#,
            ),
            &[],
        ),
        ("a JSON string that does not parse", with_policy(r#"'{"Statement": [{"Effect": "Allow",'"#), &[]),
        (
            "a Fn::Sub document",
            with_policy(
                r#"!Sub '{"Statement": [{"Effect": "Allow", "Principal": {"Service": "sns.amazonaws.com"}, "Action": "sqs:SendMessage", "Resource": "${Jobs.Arn}"}]}'"#,
            ),
            &[],
        ),
        (
            "a principal from a parameter",
            with_policy(
                "{Statement: [{Effect: Allow, Principal: {Service: !Ref AWS::URLSuffix}, Action: '*', Resource: '*'}]}",
            ),
            &[],
        ),
    ];
    for (what, template, want) in cases {
        let (codes, _) = lint(template);
        assert_eq!(codes, *want, "{what}:\n{template}");
    }
}

#[test]
fn a_producer_whose_queue_is_not_known_is_a_note_not_a_finding() {
    let template = HEAD.replace("Endpoint: !GetAtt Jobs.Arn", "Endpoint: !ImportValue shared-queue-arn");
    let (codes, notes) = lint(&template);
    assert!(codes.is_empty(), "{codes:?}");
    let note = notes
        .iter()
        .find(|n| n.starts_with("ToJobs: the queue it delivers to"))
        .unwrap_or_else(|| panic!("{notes:#?}"));
    assert!(note.contains("`!ImportValue shared-queue-arn`") && note.contains("SQS019"), "{note}");
    // A target whose ARN names another service is no queue: nothing to say.
    let api = "  Rule:\n    Type: AWS::Events::Rule\n    Properties:\n      Targets:\n        - Id: api\n          Arn: !Sub arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:abc/prod/GET/x\n";
    let (codes, notes) = lint(&format!("{HEAD}{api}"));
    assert_eq!(codes, ["SQS019"], "the subscription still needs its policy");
    assert!(!notes.iter().any(|n| n.starts_with("Rule:")), "{notes:#?}");
}

#[test]
fn sam_and_connectors_write_their_own_policies() {
    let connector = "  Connector:\n    Type: AWS::Serverless::Connector\n    Properties:\n      Source: {Id: Topic}\n      Destination: [{Id: Other}, {Id: Jobs}]\n      Permissions: [Write]\n";
    let sam = format!(
        "Transform: AWS::Serverless-2016-10-31\n{}",
        HEAD.trim_start_matches("AWSTemplateFormatVersion: '2010-09-09'\n")
    );
    assert!(lint(&format!("{sam}{connector}")).0.is_empty());
    let read_only = connector.replace("[Write]", "[Read]");
    assert_eq!(lint(&format!("{sam}{read_only}")).0, ["SQS019"], "a Read connector grants no send");
}
