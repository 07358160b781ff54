//! The code rules on small projects: tests/rules/CODE/LANG/bad*/ and
//! good*/, each a template and the code it names (or a worker's code
//! alone), LANG one of python, javascript, typescript, go, java.
//!
//! A bad project makes CODE fire and no other rule but those its template
//! declares (`# also: SQS004 (why)`), and with only CODE selected only CODE
//! fires; its findings are snapshotted beside it (`NAME.snap`), and when
//! they have a fix, the project after `--fix` too (`NAME.fixed.snap`). A good project is clean with every
//! rule on and with only its own.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::PathBuf;

const LANGUAGES: &[&str] = &["python", "javascript", "typescript", "go", "java"];

/// Every project of the code fixtures whose folder name starts with
/// `kind` (`bad`, `good`): (rule, language, folder).
fn projects(kind: &str) -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    for language in LANGUAGES {
        for (rule, project) in common::rule_fixtures(language, kind).into_iter().filter(|(_, p)| p.is_dir()) {
            out.push((rule, language.to_string(), project));
        }
    }
    out.sort();
    out
}

#[test]
fn bad_projects_fire_their_rule() {
    let bad = projects("bad");
    assert!(!bad.is_empty());
    for (rule, _, project) in bad {
        let outcome = common::assert_bad_fixture(&project, &rule);
        // Every handler and call of a fixture is read: nothing is left unsaid.
        assert!(outcome.notes.is_empty(), "{}: {:#?}", project.display(), outcome.notes);
        common::assert_snapshot_beside(&project, None, &common::findings(&outcome));
    }
}

#[test]
fn bad_projects_after_fix() {
    for (rule, _, project) in projects("bad") {
        if let Some(fixed) = common::fixed_fixture(&project, &rule) {
            common::assert_snapshot_beside(&project, Some(fixed.name()), &fixed.text);
        }
    }
}

#[test]
fn good_projects_are_clean() {
    for (_, _, project) in projects("good") {
        let rule = common::rule_of(&project);
        common::assert_good_fixture(&project, &rule);
        let notes = common::lint(&project).notes;
        assert!(notes.is_empty(), "{}: {notes:#?}", project.display());
    }
}

/// Each code rule has a bad and a good project in every language.
#[test]
fn every_code_rule_has_projects_in_every_language() {
    let (bad, good) = (projects("bad"), projects("good"));
    let has = |list: &[(String, String, PathBuf)], rule: &str, language: &str| {
        list.iter().any(|(r, l, _)| r == rule && l == language)
    };
    let mut missing = Vec::new();
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.id.code.starts_with("SQS2")) {
        for language in LANGUAGES {
            for (kind, list) in [("bad", &bad), ("good", &good)] {
                if !has(list, rule.id.code, language) {
                    missing.push(format!("{}/{language}/{kind}*", rule.id.code));
                }
            }
        }
    }
    assert!(missing.is_empty(), "no project in tests/rules for: {missing:#?}");
}

/// `--no-code` reads the template alone: the handler's rules are silent.
#[test]
fn no_code_reads_templates_only() {
    let project = common::root().join("tests/rules/SQS201/python/bad_sam");
    let relative = common::relative(&project);
    let arg = relative.to_string_lossy();
    let with = common::sqsguard(&["lint", "--format", "json", "--select", "SQS201", &arg]);
    let without = common::sqsguard(&["lint", "--format", "json", "--select", "SQS201", "--no-code", &arg]);
    let codes = |out: &std::process::Output| -> Vec<String> {
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(codes(&with), ["SQS201"]);
    assert!(codes(&without).is_empty());
}

/// A queue and a SAM function that consumes it, whose handler is
/// `src/app.py`'s `handler`.
const ONE_CONSUMER: &str = "Transform: AWS::Serverless-2016-10-31\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n  F:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: src/\n      Handler: app.handler\n      Runtime: python3.12\n      Events:\n        E:\n          Type: SQS\n          Properties: {Queue: !GetAtt Q.Arn}\n";

/// A handler that cannot be found is a note naming the function and the
/// path tried, and the template is still linted.
#[test]
fn a_missing_handler_is_a_note() {
    let dir = common::scratch();
    let template = dir.path().join("template.yaml");
    std::fs::write(&template, ONE_CONSUMER).unwrap();
    let outcome = common::lint(&template);
    assert_eq!(outcome.files, 1);
    let note = outcome.notes.iter().find(|n| n.message.starts_with("the handler of F")).expect("a note");
    assert!(note.message.contains("src/app.py was not found"), "{}", note.message);
    assert_eq!(note.origin.location().unwrap().line, 9, "at Handler");
}

/// Code that does not parse is a note with its place, never SQS000, and
/// the rest is still linted.
#[test]
fn a_handler_that_does_not_parse_is_a_note() {
    let dir = common::scratch();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/app.py"), "def handler(event, context:\n    return {\n").unwrap();
    let template = dir.path().join("template.yaml");
    std::fs::write(&template, ONE_CONSUMER).unwrap();
    let outcome = common::lint(&template);
    assert!(outcome.findings.iter().all(|f| f.code() != "SQS000"));
    assert!(outcome.findings.iter().any(|f| f.code() == "SQS004"), "the template is linted");
    let note = outcome.notes.iter().find(|n| n.message.starts_with("the handler of F")).expect("a note");
    assert!(note.message.contains("app.py:1:") && note.message.contains("is not valid Python"), "{}", note.message);
}

/// A handler named alone (a pre-commit hook's changed file) re-checks the
/// template that names it, and no template that does not.
#[test]
fn a_named_handler_brings_in_its_template() {
    let project = common::relative(&common::root().join("tests/rules/SQS201/python/bad_sam"));
    let handler = project.join("src/app.py");
    let out = common::sqsguard(&["lint", "--format", "json", "--fail-on", "never", &handler.to_string_lossy()]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap().to_string(), f["file"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(found, [("SQS201".to_string(), handler.to_string_lossy().into_owned())]);
    // Its template and itself; the templates above them (tests/fixtures/...)
    // read no app.py and are not linted.
    assert_eq!(doc["summary"]["files"], 2, "{}", doc["summary"]);
}

/// A code finding is suppressed by a comment in the code's own syntax, on
/// its line or the line above, as a template's is.
#[test]
fn code_findings_are_suppressed_by_comments_in_the_code() {
    let dir = common::scratch();
    let project = common::root().join("tests/rules/SQS201/python/bad_sam");
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::copy(project.join("template.yaml"), dir.path().join("template.yaml")).unwrap();
    let code = std::fs::read_to_string(project.join("src/app.py")).unwrap();
    let marked = code.replacen(
        "    return {\"batchItemFailures\": failures}",
        "    # sqsguard:ignore SQS201 the mapping is switched by the deploy script\n    return {\"batchItemFailures\": failures}",
        1,
    );
    assert_ne!(code, marked);
    std::fs::write(dir.path().join("src/app.py"), marked).unwrap();
    let outcome = common::lint_only(dir.path(), "SQS201");
    assert!(outcome.findings.is_empty(), "{}", common::render(&outcome));
    assert_eq!(outcome.suppressed, 1);
}

/// Code that cannot be read within bounds (a 5 MB minified bundle, a
/// binary named `.js`, nesting thousands deep, a syntax error) is a note
/// each, in a run that still lints the rest, without a panic or a hang.
#[test]
fn hostile_code_files_are_notes() {
    let dir = common::scratch();
    let root = dir.path();
    // Each mentions the SQS API, so the pre-filter lets it through.
    let mut bundle = String::from("const c=new SQSClient({});c.send(new SendMessageCommand({QueueUrl:u}));");
    while bundle.len() < 5 * 1024 * 1024 {
        bundle.push_str("var a=function(b){return b+1};");
    }
    std::fs::write(root.join("bundle.min.js"), bundle).unwrap();
    std::fs::write(root.join("binary.js"), b"sendMessage\0\x01\x02\xff\xfe").unwrap();
    let deep = format!(
        "import boto3\nx = {}1{}\nboto3.client('sqs').send_message(QueueUrl=u, MessageBody=b)\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    std::fs::write(root.join("deep.py"), deep).unwrap();
    std::fs::write(root.join("broken.py"), "def poll(:\n    sqs.receive_message(QueueUrl=u\n").unwrap();
    std::fs::write(
        root.join("worker.py"),
        "import boto3\n\nsqs = boto3.client('sqs')\n\n\ndef poll(url):\n    return sqs.receive_message(QueueUrl=url)\n",
    )
    .unwrap();
    let started = std::time::Instant::now();
    let outcome = common::lint(root);
    assert!(started.elapsed() < std::time::Duration::from_secs(60), "took {:?}", started.elapsed());
    let noted = |name: &str| {
        outcome
            .notes
            .iter()
            .any(|n| n.origin.location().is_some_and(|l| l.file.ends_with(name)) || n.message.contains(name))
    };
    for name in ["bundle.min.js", "binary.js", "deep.py", "broken.py"] {
        assert!(noted(name), "no note for {name}: {:#?}", outcome.notes);
    }
    assert!(outcome.findings.iter().all(|f| f.code() != "SQS000"), "{}", common::render(&outcome));
    let found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(found, [("SQS204", "poll")], "the readable worker is still linted");
}

/// Every output format carries a code finding at its place in the code.
#[test]
fn every_format_carries_code_findings() {
    let project = common::relative(&common::root().join("tests/rules/SQS201/python/bad_sam"));
    let arg = project.to_string_lossy().into_owned();
    let file = format!("{arg}/src/app.py");
    let json: serde_json::Value =
        serde_json::from_slice(&common::sqsguard(&["lint", "--format", "json", &arg]).stdout).unwrap();
    let finding = &json["findings"][0];
    assert_eq!((finding["rule"].as_str(), finding["file"].as_str()), (Some("SQS201"), Some(file.as_str())));
    let line = finding["line"].as_u64().unwrap();
    let sarif: serde_json::Value =
        serde_json::from_slice(&common::sqsguard(&["lint", "--format", "sarif", &arg]).stdout).unwrap();
    let location = &sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], file.as_str());
    assert_eq!(location["region"]["startLine"].as_u64(), Some(line));
    let github = common::stdout(&common::sqsguard(&["lint", "--format", "github", &arg]));
    assert!(github.contains(&format!("::error file={file},line={line},")), "{github}");
    let junit = common::stdout(&common::sqsguard(&["lint", "--format", "junit", &arg]));
    assert!(junit.contains(&file) && junit.contains("SQS201"), "{junit}");
    let pretty = common::stdout(&common::sqsguard(&["lint", &arg]));
    assert!(pretty.contains(&format!("{file}:{line}:")), "{pretty}");
}

/// A consumer's handler whose answer cannot be known (it is what a wrapper
/// that sqsguard does not read makes) is a note, not silence.
#[test]
fn a_handler_that_cannot_be_judged_is_a_note() {
    let dir = common::scratch();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/index.mjs"),
        "import middy from '@middy/core';\n\nconst main = async (event) => {};\n\nexport const handler = middy(main);\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("template.yaml"),
        "Transform: AWS::Serverless-2016-10-31\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n  F:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: src/\n      Handler: index.handler\n      Runtime: nodejs20.x\n      Events:\n        E:\n          Type: SQS\n          Properties: {Queue: !GetAtt Q.Arn, FunctionResponseTypes: [ReportBatchItemFailures]}\n",
    )
    .unwrap();
    let outcome = common::lint(dir.path());
    assert!(outcome.findings.iter().all(|f| f.code() != "SQS202"), "{}", common::render(&outcome));
    let note = outcome.notes.iter().find(|n| n.message.contains("is not known")).expect("a note");
    assert!(note.message.contains("`middy`"), "{}", note.message);
    assert!(note.origin.location().unwrap().file.ends_with("index.mjs"));
}

/// Handler rules need the mapping, not the queue: a mapping whose source is
/// an `arn:aws:sqs:` ARN with deploy-time parts (an account from
/// `${env:...}`, `${AWS::AccountId}` or `data.aws_caller_identity`, a name
/// from a parameter) is still judged against its handler, in Serverless,
/// CloudFormation and Terraform; the queue's own rules are a note.
#[test]
fn handler_rules_judge_a_mapping_whose_queue_is_unresolved() {
    let base = common::root().join("tests/fixtures/unresolved-queue");
    for (project, rule) in
        [("serverless", "SQS201"), ("cloudformation", "SQS201"), ("terraform", "SQS201"), ("returns-nothing", "SQS202")]
    {
        let outcome = common::lint(&base.join(project));
        let codes: Vec<&str> = outcome.findings.iter().map(|f| f.code()).collect();
        assert!(codes.contains(&rule), "{project}: {}", common::render(&outcome));
        let finding = outcome.findings.iter().find(|f| f.code() == rule).unwrap();
        assert!(finding.full_message().contains("of a queue only known at deploy time"), "{}", finding.full_message());
        assert!(
            // The rules a queue link blinds come from the catalog: a new
            // rule that reads the link joins the list.
            outcome.notes.iter().any(|n| n.message.contains("SQS001, SQS002, SQS010, SQS011")
                && n.message.contains("were not checked for it")),
            "{project}: the queue's rules are a note: {:#?}",
            outcome.notes
        );
    }
}

/// The 30-line worker a new user wrote with four bugs (a 10 s read timeout
/// on a 20 s long poll, a 40 s heartbeat that sets 30 s, a delete by
/// MessageId, a receive in `while True` without MaxNumberOfMessages) gets
/// exactly those four findings, each where its bug is.
#[test]
fn a_worker_with_four_bugs_gets_four_findings() {
    let outcome = common::lint(&common::root().join("tests/fixtures/workers/four_bugs.py"));
    let found: Vec<(&str, usize)> =
        outcome.findings.iter().map(|f| (f.code(), sqsguard::report::location(f).unwrap().line)).collect();
    assert_eq!(found, [("SQS210", 12), ("SQS209", 22), ("SQS212", 22), ("SQS208", 26)], "{}", common::render(&outcome));
}

/// In `graph`, a worker is a consumer: its receive, delete and heartbeat
/// are edges from the queue to it, and its findings are on its nodes.
#[test]
fn a_worker_is_drawn_as_a_consumer_with_its_findings() {
    let worker = common::relative(&common::root().join("tests/fixtures/workers/four_bugs.py"));
    let out = common::sqsguard(&["graph", "--format", "json", &worker.to_string_lossy()]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut edges: Vec<(String, String)> = doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["kind"].as_str().unwrap().to_string(), e["label"].as_str().unwrap().to_string()))
        .collect();
    edges.sort();
    let consumes = |op: &str| ("consumes".to_string(), op.to_string());
    assert_eq!(edges, [consumes("ChangeMessageVisibility"), consumes("DeleteMessage"), consumes("ReceiveMessage")]);
    let mut on_nodes: Vec<&str> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "code")
        .flat_map(|n| n["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()))
        .collect();
    on_nodes.sort();
    assert_eq!(on_nodes, ["SQS208", "SQS209", "SQS210", "SQS212"]);
}
