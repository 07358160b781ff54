//! Serverless Framework services: per-rule fixtures
//! (tests/rules/CODE/serverless/bad*.yml fire CODE, good*.yml are clean
//! with every rule and with only CODE; snapshots beside them), variables, the
//! serverless-lift queue construct, suppressions and broken service files.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::fs;

/// `rule resource line` of each finding.
fn outline(outcome: &sqsguard::outcome::Outcome) -> Vec<String> {
    outcome
        .findings
        .iter()
        .map(|f| format!("{} {} {}", f.code(), f.resource, sqsguard::report::location(f).unwrap().line))
        .collect()
}

#[test]
fn bad_fixtures_fire_their_rule() {
    insta::glob!("../rules", "*/serverless/bad*.yml", |path| {
        let outcome = common::assert_bad_fixture(path, &common::rule_of(path));
        common::assert_snapshot_beside(path, None, &common::findings(&outcome));
    });
}

/// Each bad fixture whose finding has a fix, after `--fix` with only its
/// rule: the `fixed` (or `unsafe_fixed`) snapshot, reviewed as text.
#[test]
fn bad_fixtures_after_fix() {
    insta::glob!("../rules", "*/serverless/bad*.yml", |path| {
        if let Some(fixed) = common::fixed_fixture(path, &common::rule_of(path)) {
            common::assert_snapshot_beside(path, Some(fixed.name()), &fixed.text);
        }
    });
}

#[test]
fn good_fixtures_are_clean() {
    insta::glob!("../rules", "*/serverless/good*.yml", |path| {
        common::assert_good_fixture(path, &common::rule_of(path));
    });
}

#[test]
fn every_template_rule_has_serverless_fixtures() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.kind == sqsguard::rules::Kind::Template) {
        let dir = common::rules_dir().join(rule.id.code).join("serverless");
        let names: Vec<String> = fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no Serverless fixture folder", rule.id.code))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.starts_with("bad")), "{}: no bad Serverless fixture", rule.id.code);
        assert!(names.iter().any(|n| n.starts_with("good")), "{}: no good Serverless fixture", rule.id.code);
    }
}

fn lint_text(name: &str, text: &str) -> sqsguard::outcome::Outcome {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    fs::write(&path, text).unwrap();
    sqsguard::lint::lint_paths(&[path], &Default::default())
}

const SERVICE: &str = "service: orders\nprovider:\n  name: aws\n";

#[test]
fn any_file_name_with_service_and_an_aws_provider_is_a_service() {
    let text = format!(
        "{SERVICE}functions:\n  worker:\n    handler: app.handler\n    events:\n      - sqs: arn:aws:sqs:eu-west-1:123456789012:jobs\n"
    );
    let outcome = lint_text("orders.yaml", &text);
    assert_eq!(outcome.files, 1);
    // The queue is not in the file: only the consumer's own setting is checked.
    assert_eq!(outline(&outcome), ["SQS005 worker 8"]);
    // Another provider's service is not ours.
    let google = lint_text("serverless.yml", "service: x\nprovider:\n  name: google\n");
    assert_eq!((google.files, google.skipped), (0, 1));
    assert!(google.notes.is_empty() && google.unlinted.is_empty(), "{:?}", google.notes);
}

/// A provider written as a variable is resolved as any value is: a
/// default of `aws` is AWS, of `google` another cloud (skipped); one only
/// the deployment knows may be AWS, so it is a note and, named, fails the
/// run.
#[test]
fn a_provider_written_as_a_variable_is_resolved() {
    let service = |name: &str| {
        format!("service: x\nprovider:\n  name: {name}\nresources:\n  Resources:\n    Q: {{Type: AWS::SQS::Queue}}\n")
    };
    let aws = lint_text("serverless.yml", &service("${opt:provider, 'aws'}"));
    assert_eq!(aws.files, 1, "{}", common::render(&aws));
    let google = lint_text("serverless.yml", &service("${opt:provider, 'google'}"));
    assert_eq!((google.files, google.skipped, google.notes.len()), (0, 1, 0), "{:?}", google.notes);
    let unknown = lint_text("serverless.yml", &service("${env:PROVIDER}"));
    assert_eq!((unknown.files, unknown.unlinted.len()), (0, 1), "{:?}", unknown.notes);
    assert!(unknown.notes[0].message.contains("provider is a variable"), "{:?}", unknown.notes);
}

#[test]
fn unresolvable_and_cyclic_variables_are_unknown_not_findings_or_hangs() {
    let text = format!(
        "{SERVICE}custom:\n  a: ${{self:custom.b}}\n  b: ${{self:custom.a}}\nfunctions:\n  worker:\n    handler: app.handler\n    timeout: ${{ssm:/worker/timeout}}\n    events:\n      - sqs:\n          arn: !GetAtt Jobs.Arn\n          batchSize: ${{self:custom.a}}\n          functionResponseType: ReportBatchItemFailures\nresources:\n  Resources:\n    Jobs:\n      Type: AWS::SQS::Queue\n      Properties:\n        VisibilityTimeout: ${{env:VT}}\n        RedrivePolicy: {{deadLetterTargetArn: !GetAtt Dlq.Arn, maxReceiveCount: 5}}\n    Dlq:\n      Type: AWS::SQS::Queue\n      Properties: {{MessageRetentionPeriod: 1209600}}\n    DlqAlarm:\n      Type: AWS::CloudWatch::Alarm\n      Properties:\n        Namespace: AWS/SQS\n        MetricName: ApproximateNumberOfMessagesVisible\n        Dimensions: [{{Name: QueueName, Value: !GetAtt Dlq.QueueName}}]\n        ComparisonOperator: GreaterThanThreshold\n        Threshold: 0\n"
    );
    let outcome = lint_text("serverless.yml", &text);
    assert_eq!(outcome.files, 1);
    assert_eq!(outline(&outcome), Vec::<String>::new(), "{}", common::render(&outcome));
}

#[test]
fn a_broken_service_file_is_a_located_sqs000() {
    let outcome = lint_text("serverless.yml", &format!("{SERVICE}functions:\n  worker: [oops\n"));
    assert_eq!(outcome.findings.len(), 1);
    assert_eq!(outcome.findings[0].code(), "SQS000");
    assert_eq!(sqsguard::report::location(&outcome.findings[0]).unwrap().line, 6);
}

#[test]
fn serverless_lift_queue_constructs_are_modelled_from_their_defaults() {
    let text = format!(
        "{SERVICE}constructs:\n  jobs:\n    type: queue\n    worker:\n      handler: src/worker.handler\n      timeout: 10\n  events:\n    type: queue\n    fifo: true\n    maxRetries: 1\n    alarm: ops@example.com\n    worker:\n      handler: src/events.handler\n  site:\n    type: static-website\n    path: public\nplugins:\n  - serverless-lift\n"
    );
    let outcome = lint_text("serverless.yml", &text);
    // jobs: a DLQ without an alarm (Lift adds one only with `alarm`);
    // events: content-based deduplication (on by default for FIFO) without
    // a declared payload, and maxRetries 1 < 3. The 6 x timeout visibility,
    // the 14-day DLQ and batches of 1 are right by construction.
    assert_eq!(outline(&outcome), ["SQS015 jobs.dlq 5", "SQS003 events.queue 12", "SQS008 events.queue 13"]);
    assert!(
        outcome.notes.iter().any(|n| n.message.starts_with("constructs.site (type static-website) was not analysed"))
    );
}

/// A Lift worker's `reservedConcurrency` and the construct's
/// `maxConcurrency` are read (SQS022).
#[test]
fn serverless_lift_reserved_and_maximum_concurrency() {
    let construct = |max: &str| {
        format!(
            "{SERVICE}constructs:\n  jobs:\n    type: queue\n    alarm: ops@example.com\n{max}    worker:\n      handler: src/worker.handler\n      reservedConcurrency: 5\nplugins:\n  - serverless-lift\n"
        )
    };
    let codes = |text: String| {
        let outcome = lint_text("serverless.yml", &text);
        outcome.findings.iter().map(|f| f.code().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(codes(construct("")), ["SQS022"]);
    assert_eq!(codes(construct("    maxConcurrency: 9\n")), ["SQS022"]);
    assert!(codes(construct("    maxConcurrency: 5\n")).is_empty());
}

/// A Lift FIFO construct's `maxBatchingWindow` is a batching window on a
/// FIFO queue's consumer (SQS023); a standard construct may have one.
#[test]
fn serverless_lift_batching_window_on_a_fifo_queue() {
    let construct = |fifo: &str, window: &str| {
        format!(
            "{SERVICE}constructs:\n  jobs:\n    type: queue\n    alarm: ops@example.com\n{fifo}{window}    worker:\n      handler: src/worker.handler\nplugins:\n  - serverless-lift\n"
        )
    };
    let sqs023 = |text: String| {
        let outcome = lint_text("serverless.yml", &text);
        outcome.findings.iter().filter(|f| f.code() == "SQS023").map(|f| f.resource.clone()).collect::<Vec<_>>()
    };
    let (fifo, window) = ("    fifo: true\n", "    maxBatchingWindow: 5\n");
    assert_eq!(sqs023(construct(fifo, window)), ["jobs.worker"]);
    assert!(sqs023(construct(fifo, "")).is_empty());
    assert!(sqs023(construct("", window)).is_empty());
}

#[test]
fn comments_and_metadata_suppress_in_a_service() {
    let text = format!(
        "{SERVICE}functions:\n  # sqsguard:ignore SQS005 the handler is idempotent per batch\n  worker:\n    handler: app.handler\n    events:\n      - sqs: arn:aws:sqs:eu-west-1:123456789012:jobs\n"
    );
    let outcome = lint_text("serverless.yml", &text);
    assert!(outcome.findings.is_empty(), "{}", common::render(&outcome));
    assert_eq!(outcome.suppressed, 1);
}

#[test]
fn variables_that_nest_or_fan_out_stay_bounded() {
    // 100,000 nested defaults: bounded depth, unknown, no stack overflow.
    let deep = format!("{}'x'{}", "${opt:region, ".repeat(100_000), "}".repeat(100_000));
    let outcome = lint_text("serverless.yml", &format!("{SERVICE}  region: \"{deep}\"\n"));
    assert_eq!(outcome.files, 1);
    // Each level doubles the one below: resolved once each, and capped.
    let mut text = format!("{SERVICE}custom:\n  a0: x\n");
    for i in 1..60 {
        text.push_str(&format!("  a{i}: \"${{self:custom.a{}}}${{self:custom.a{}}}\"\n", i - 1, i - 1));
    }
    text.push_str("functions:\n  f:\n    handler: h\n    name: ${self:custom.a59}\n");
    assert_eq!(lint_text("serverless.yml", &text).files, 1);
}

#[test]
fn the_stage_is_provider_stage_and_variables_nest_in_addresses() {
    let text = "service: orders\nprovider:\n  name: aws\n  stage: prod\ncustom:\n  timeouts: {prod: 60, dev: 5}\nfunctions:\n  worker:\n    handler: h\n    timeout: ${self:custom.timeouts.${sls:stage}}\n    events:\n      - sqs: !GetAtt Jobs.Arn\nresources:\n  Resources:\n    Jobs:\n      Type: AWS::SQS::Queue\n      Properties:\n        VisibilityTimeout: 30\n";
    let outcome = lint_text("serverless.yml", text);
    assert!(outline(&outcome).contains(&"SQS002 Jobs 18".to_string()), "{}", common::render(&outcome));
}

#[test]
fn resources_as_a_list_are_merged_and_unread_items_noted() {
    let text = "service: orders\nprovider:\n  name: aws\nresources:\n  - Resources:\n      Jobs:\n        Type: AWS::SQS::Queue\n  - ${file(resources/more.yml)}\n  - Resources:\n      Other:\n        Type: AWS::SQS::Queue\n        Properties: {ReceiveMessageWaitTimeSeconds: 20}\n";
    let outcome = lint_text("serverless.yml", text);
    let found = outline(&outcome);
    assert!(
        found.contains(&"SQS004 Jobs 6".to_string()) && found.contains(&"SQS004 Other 10".to_string()),
        "{found:?}"
    );
    assert_eq!(outcome.notes.len(), 1, "{:?}", outcome.notes);
    assert!(outcome.notes[0].message.starts_with("`${file(resources/more.yml)}` was not read"), "{:?}", outcome.notes);
    assert!(outcome.notes[0].message.contains("more.yml was not found"), "{:?}", outcome.notes);
}

/// `resources` as a list of `${file(...)}` (a YAML file whole, a JSON
/// file's key) is read and merged; a variable in an included file is the
/// service's; the finding points into the included file. Linting the
/// folder does not lint the included file again on its own (it would be
/// SQS015 there, without the alarm of alarms.json).
#[test]
fn resources_from_included_files_are_linted_where_they_are_written() {
    let dir = common::root().join("tests/fixtures/serverless/includes");
    for path in [dir.clone(), dir.join("serverless.yml")] {
        let outcome = common::lint(&path);
        let found: Vec<String> = outcome
            .findings
            .iter()
            .map(|f| {
                let at = sqsguard::report::location(f).unwrap();
                format!("{} {} {}:{}", f.code(), f.resource, at.file.rsplit('/').next().unwrap(), at.line)
            })
            .collect();
        assert_eq!(found, ["SQS002 JobsQueue queues.yml:6"], "{}", common::render(&outcome));
        assert!(outcome.notes.is_empty(), "{:#?}", outcome.notes);
        assert_eq!(outcome.files, 4, "the service, its two included files and its handler");
    }
}

/// A `${file(...)}` that is missing, outside the repository, without the
/// key asked for, or that includes itself is unknown, with a note naming
/// the expression (located in the file that writes it); `resources:` may
/// be one include, not a list.
#[test]
fn includes_that_cannot_be_read_are_notes() {
    let top = tempfile::tempdir().unwrap();
    fs::write(top.path().join("outside.yml"), "Resources: {}\n").unwrap();
    let repo = top.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::write(repo.join("cycle.yml"), "Resources:\n  Loop: ${file(./cycle.yml):Resources}\n").unwrap();
    fs::write(repo.join("queue.yml"), "Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n").unwrap();
    let service = |resources: &str| {
        let path = repo.join("serverless.yml");
        fs::write(&path, format!("{SERVICE}resources: {resources}\n")).unwrap();
        sqsguard::lint::lint_paths(&[path], &Default::default())
    };
    // One include, not a list: its queue is linted, in queue.yml.
    let one = service("${file(./queue.yml)}");
    assert_eq!(outline(&one), ["SQS004 Jobs 2", "SQS006 Jobs 2"], "{}", common::render(&one));
    assert!(sqsguard::report::location(&one.findings[0]).unwrap().file.ends_with("queue.yml"));
    for (written, why) in [
        ("${file(./missing.yml)}", "missing.yml was not found"),
        ("${file(../outside.yml)}", "is outside the repository"),
        ("${file(./queue.yml):Nope}", "./queue.yml has no Nope"),
        ("${file(./cycle.yml)}", "./cycle.yml includes itself (a cycle)"),
    ] {
        let outcome = service(written);
        assert!(outcome.findings.is_empty(), "{written}: {}", common::render(&outcome));
        let note = outcome.notes.iter().find(|n| n.message.contains("was not read")).unwrap_or_else(|| {
            panic!("{written}: {:#?}", outcome.notes);
        });
        assert!(note.message.contains(why) && note.message.contains("${file("), "{written}: {}", note.message);
    }
}

/// A service that takes a file's value over and over stops at a bound,
/// with a note, rather than copy the file without end.
#[test]
fn includes_used_without_end_stay_bounded() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("big.yml"), format!("items: [{}]\n", vec!["x"; 1000].join(", "))).unwrap();
    let mut text = format!("{SERVICE}custom:\n");
    for i in 0..2000 {
        text.push_str(&format!("  c{i}: ${{file(./big.yml)}}\n"));
    }
    let path = dir.path().join("serverless.yml");
    fs::write(&path, text).unwrap();
    let outcome = sqsguard::lint::lint_paths(&[path], &Default::default());
    assert_eq!(outcome.files, 2);
    assert!(
        outcome.notes.iter().any(|n| n.message.contains("already takes 1024 values from files")),
        "{:?}",
        outcome.notes.first()
    );
}
