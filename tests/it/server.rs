//! `sqsguard server` in process, over lsp-server's memory connection: what
//! no single request shows (the latest change wins, a config's problems
//! land on the config, a module's unsaved siblings are read). The real
//! clients drive the binary in tests/lsp (pytest-lsp) and tests/ext/nvim.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;
use crate::common::lsp;

use lsp::{Client, codes, url};
use serde_json::json;

/// The worker of tests/fixtures/server, its function at 30 s: the queue's
/// 30 s is enough for SQS002, not for SQS001 (6 x).
fn template() -> String {
    let worker = std::fs::read_to_string(common::root().join("tests/fixtures/server/worker.yaml")).unwrap();
    worker.replace("      Timeout: 60\n", "      Timeout: 30\n")
}

#[test]
fn the_latest_change_wins_and_versions_only_go_forward() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let file = root.join("t.yaml");
    std::fs::write(&file, template()).unwrap();
    let mut client = Client::start(&root, json!({"select": ["SQS001"]}));
    client.open(&file, &template());
    assert_eq!(codes(&client.diagnostics(&file, |_| true)), ["SQS001"]);
    // Fifty changes at once: the timeout climbs past what the queue allows
    // and back; the last one (a clean 5 s function) is what stays.
    for v in 2..=51 {
        let timeout = if v == 51 { 5 } else { 30 + v };
        client.change(&file, v, &template().replace("      Timeout: 30\n", &format!("      Timeout: {timeout}\n")));
    }
    let last = client.diagnostics(&file, |p| p["version"] == 51);
    assert_eq!(codes(&last), Vec::<String>::new());
    let versions: Vec<i64> = client
        .seen
        .iter()
        .filter(|n| n.method == "textDocument/publishDiagnostics")
        .map(|n| n.params["version"].as_i64().unwrap())
        .collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "published out of order: {versions:?}");
    client.stop();
}

#[test]
fn a_broken_config_is_said_on_itself_and_the_defaults_govern() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (file, config) = (root.join("t.yaml"), root.join(".sqsguard.yaml"));
    std::fs::write(&file, template()).unwrap();
    std::fs::write(&config, "select: [SQS001]\n").unwrap();
    let mut client = Client::start(&root, json!(null));
    client.open(&file, &template());
    assert_eq!(codes(&client.diagnostics(&file, |_| true)), ["SQS001"]);
    // Unsaved: a code that names no rule.
    client.open(&config, "select: [SQS001]\n");
    client.change(&config, 2, "select: [SQS999]\n");
    let said = client.diagnostics(&config, |p| !p["diagnostics"].as_array().unwrap().is_empty());
    let problem = &said["diagnostics"][0];
    assert!(problem["message"].as_str().unwrap().contains("SQS999"), "{problem}");
    assert_eq!(problem["range"]["start"], json!({"line": 0, "character": 9}));
    // Every rule again, as without a config.
    let all = client.diagnostics(&file, |p| codes(p).len() > 1);
    assert!(codes(&all).contains(&"SQS001".to_string()) && codes(&all).contains(&"SQS004".to_string()));
    // Fixed: the config governs again, and its diagnostic is gone.
    client.change(&config, 3, "select: [SQS004]\n");
    assert_eq!(codes(&client.diagnostics(&file, |p| codes(p) == ["SQS004"])), ["SQS004"]);
    client.diagnostics(&config, |p| p["diagnostics"].as_array().unwrap().is_empty());
    client.stop();
}

#[test]
fn a_module_reads_its_unsaved_siblings_and_a_closed_one_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (queue, lambda) = (root.join("queue.tf"), root.join("lambda.tf"));
    let queue_tf = "resource \"aws_sqs_queue\" \"q\" {\n  visibility_timeout_seconds = 180\n}\n";
    let lambda_tf = "resource \"aws_lambda_function\" \"f\" {\n  function_name = \"f\"\n  timeout = 30\n}\n\
        resource \"aws_lambda_event_source_mapping\" \"m\" {\n  event_source_arn = aws_sqs_queue.q.arn\n  \
        function_name = aws_lambda_function.f.arn\n}\n";
    std::fs::write(&queue, queue_tf).unwrap();
    std::fs::write(&lambda, lambda_tf).unwrap();
    let mut client = Client::start(&root, json!({"select": ["SQS001"]}));
    client.open(&queue, queue_tf);
    client.open(&lambda, lambda_tf);
    assert!(codes(&client.diagnostics(&queue, |_| true)).is_empty());
    // The unsaved sibling's timeout moves the finding onto the queue.
    client.change(&lambda, 2, &lambda_tf.replace("timeout = 30", "timeout = 60"));
    let moved = client.diagnostics(&queue, |p| !codes(p).is_empty());
    assert_eq!(codes(&moved), ["SQS001"]);
    assert_eq!(moved["diagnostics"][0]["range"]["start"], json!({"line": 1, "character": 31}));
    // Closed unsaved: the file on disk (30 s) counts again.
    client.close(&lambda);
    assert!(codes(&client.diagnostics(&queue, |p| codes(p).is_empty())).is_empty());
    client.stop();
}

#[test]
fn unsaved_buffers_are_checked_from_their_text_and_the_log_says_what_they_miss() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut client = Client::start(&root, json!({"select": ["SQS001"]}));
    // An editor's new buffer: no path, a language.
    client.open_uri("untitled:Untitled-1", "yaml", &template());
    assert_eq!(codes(&client.diagnostics_of("untitled:Untitled-1", |_| true)), ["SQS001"]);
    // A file not on disk yet, in a folder that is, and in one that is not.
    let (new, deep) = (root.join("new.yaml"), root.join("not/yet/t.yaml"));
    client.open(&new, &template());
    assert_eq!(codes(&client.diagnostics(&new, |_| true)), ["SQS001"]);
    client.open(&deep, &template());
    assert_eq!(codes(&client.diagnostics(&deep, |_| true)), ["SQS001"]);
    // The untitled one and the one without a folder are said to be unsaved.
    let logs: Vec<String> = client
        .seen
        .iter()
        .filter(|n| n.method == "window/logMessage")
        .map(|n| n.params["message"].as_str().unwrap().to_string())
        .collect();
    let said = |what: &str| logs.iter().any(|l| l.contains(what) && l.contains("is not saved"));
    assert!(said("untitled:Untitled-1") && said("not/yet/t.yaml") && !said("new.yaml"), "{logs:?}");
    // Typed into and closed as any document.
    let fixed = template().replace("      Timeout: 30\n", "      Timeout: 5\n");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "untitled:Untitled-1", "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    assert!(codes(&client.diagnostics_of("untitled:Untitled-1", |p| p["version"] == 2)).is_empty());
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": "untitled:Untitled-1"}}));
    client.diagnostics_of("untitled:Untitled-1", |p| p["version"].is_null() && p["diagnostics"] == json!([]));
    client.stop();
}

#[test]
fn an_unsaved_template_reads_the_handler_its_folder_holds_and_an_untitled_one_says_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir(root.join("src")).unwrap();
    let app = root.join("src/app.py");
    std::fs::write(&app, "def handler(event, context):\n    for r in event[\"Records\"]:\n        print(r)\n").unwrap();
    let sam = "Transform: AWS::Serverless-2016-10-31\nResources:\n  Queue:\n    Type: AWS::SQS::Queue\n  Fn:\n    \
        Type: AWS::Serverless::Function\n    Properties:\n      Runtime: python3.12\n      Handler: app.handler\n      \
        CodeUri: src/\n      Events:\n        Q:\n          Type: SQS\n          Properties:\n            \
        Queue: !GetAtt Queue.Arn\n            FunctionResponseTypes: [ReportBatchItemFailures]\n";
    let mut client = Client::start(&root, json!({"select": ["SQS202"]}));
    // Not on disk, in a folder that is: its handler is read (SQS202 on it).
    client.open(&root.join("new.yaml"), sam);
    assert_eq!(codes(&client.diagnostics(&app, |p| !codes(p).is_empty())), ["SQS202"]);
    // Untitled: no folder to look in, and a hint says the handler was not read.
    client.open_uri("untitled:Untitled-3", "yaml", sam);
    let hint = client.diagnostics_of("untitled:Untitled-3", |p| !p["diagnostics"].as_array().unwrap().is_empty());
    let message = hint["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("the handler of Fn was not read"), "{hint}");
    client.stop();
}

/// A template of `sets` queues, each with its dead-letter queue, a
/// function whose handler is inline Python and a mapping that asks for
/// partial batch responses; every third handler spells the response's key
/// wrong (SQS203). About 1 KB a set.
fn inline_template(sets: usize) -> String {
    let mut out = String::from("AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n");
    for i in 0..sets {
        let key = if i % 3 == 0 { "BatchItemFailures" } else { "batchItemFailures" };
        out += &format!(
            "  Q{i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 180\n      RedrivePolicy:\n        \
             deadLetterTargetArn: !GetAtt Q{i}Dlq.Arn\n        maxReceiveCount: 5\n  Q{i}Dlq:\n    Type: AWS::SQS::Queue\n    \
             Properties:\n      MessageRetentionPeriod: 1209600\n  F{i}:\n    Type: AWS::Lambda::Function\n    Properties:\n      \
             Runtime: python3.12\n      Handler: index.handler\n      Role: arn:aws:iam::123456789012:role/worker\n      \
             Timeout: 30\n      Code:\n        ZipFile: |\n          import json\n\n\n          def handler(event, context):\n              \
             failures = []\n              for record in event[\"Records\"]:\n                  try:\n                      \
             print(json.loads(record[\"body\"])[\"id\"], {i})\n                  except Exception:\n                      \
             failures.append({{\"itemIdentifier\": record[\"messageId\"]}})\n              return {{\"{key}\": failures}}\n  \
             M{i}:\n    Type: AWS::Lambda::EventSourceMapping\n    Properties:\n      EventSourceArn: !GetAtt Q{i}.Arn\n      \
             FunctionName: !Ref F{i}\n      BatchSize: 10\n      FunctionResponseTypes: [ReportBatchItemFailures]\n"
        );
    }
    out
}

/// What a fresh server publishes first for `text` at `file`: a check
/// with nothing kept from an earlier text.
fn fresh(root: &std::path::Path, file: &std::path::Path, text: &str) -> serde_json::Value {
    let mut client = Client::start(root, json!(null));
    client.open(file, text);
    let published = client.diagnostics(file, |_| true);
    client.stop();
    published["diagnostics"].clone()
}

/// What an edit is called, and what it makes of a text.
type Edit = (&'static str, Box<dyn Fn(&str) -> String>);

/// The server keeps the parse of each function's inline code while its
/// text stays: whatever an edit changes (a queue, one handler, the lines
/// above every handler, a runtime, a resource's name), each version's
/// diagnostics are those a fresh check of the same text gives.
#[test]
fn edits_of_a_template_with_inline_code_give_what_a_fresh_check_gives() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let file = root.join("t.yaml");
    let first = inline_template(40);
    assert!(first.len() > 32 * 1024, "large enough to be parsed in pieces: {}", first.len());
    std::fs::write(&file, &first).unwrap();
    let sqs203 = |d: &serde_json::Value| d.as_array().unwrap().iter().filter(|d| d["code"] == "SQS203").count();
    let hints = |d: &serde_json::Value| d.as_array().unwrap().iter().filter(|d| d["severity"] == 4).count();
    let fix_q0 = |t: &str| t.replacen("return {\"BatchItemFailures\"", "return {\"batchItemFailures\"", 1);
    let edits: Vec<Edit> = vec![
        // A queue: no handler's text changes.
        ("a queue", Box::new(|t| t.replacen("VisibilityTimeout: 180", "VisibilityTimeout: 20", 1))),
        // One handler, fixed.
        ("a handler", Box::new(fix_q0)),
        // Every handler moves down two lines.
        ("the lines above", Box::new(|t| t.replacen("Resources:\n", "Resources:\n  # moved\n  # down\n", 1))),
        // The same text read as another language.
        ("a runtime", Box::new(|t| t.replacen("Runtime: python3.12", "Runtime: nodejs20.x", 1))),
        // A handler that no longer parses, then mended.
        ("a broken handler", Box::new(|t| t.replacen("[\"id\"], 1)\n", "[\"id\"], 1\n", 1))),
        ("a mended handler", Box::new(|t| t.replacen("[\"id\"], 1\n", "[\"id\"], 1)\n", 1))),
        // A function renamed: its code's place is another resource's.
        ("a name", Box::new(|t| t.replace("F3:\n", "Renamed3:\n").replace("!Ref F3\n", "!Ref Renamed3\n"))),
    ];
    let mut client = Client::start(&root, json!(null));
    client.open(&file, &first);
    let opened = client.diagnostics(&file, |_| true);
    assert_eq!(opened["diagnostics"], fresh(&root, &file, &first));
    assert_eq!(sqs203(&opened["diagnostics"]), 14, "every third handler: {opened}");
    let mut text = first.clone();
    let mut seen = vec![opened["diagnostics"].clone()];
    for (i, (what, edit)) in edits.iter().enumerate() {
        let version = i32::try_from(i).unwrap() + 2;
        let next = edit(&text);
        assert_ne!(next, text, "{what}: the edit changes the text");
        text = next;
        client.change(&file, version, &text);
        let published = client.diagnostics(&file, |p| p["version"] == version);
        assert_eq!(published["diagnostics"], fresh(&root, &file, &text), "after {what}");
        seen.push(published["diagnostics"].clone());
    }
    // The edits made a difference the check had to see: one SQS203 fewer
    // once Q0's handler is fixed, every place two lines down, a note for
    // the handler that did not parse and none once it is mended.
    assert_eq!(sqs203(&seen[2]), 13);
    assert_ne!(seen[3], seen[2]);
    assert_eq!(hints(&seen[5]), hints(&seen[4]) + 1, "{}", seen[5]);
    assert_eq!(hints(&seen[6]), hints(&seen[4]));
    // Back to the first text: the first diagnostics.
    client.change(&file, 100, &first);
    assert_eq!(client.diagnostics(&file, |p| p["version"] == 100)["diagnostics"], opened["diagnostics"]);
    client.stop();
}

/// A worker file no template names, typed into: its code rules as
/// diagnostics at the argument, and SQS208's fix as a quick fix (unsafe:
/// a change of code) that renames what the delete reads.
#[test]
fn a_worker_file_gets_its_diagnostics_and_sqs208_s_quick_fix_as_it_is_typed() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let worker = root.join("worker.py");
    let good = "import boto3\n\nsqs = boto3.client(\"sqs\")\nURL = \"https://sqs.us-east-1.amazonaws.com/123456789012/jobs\"\n\n\
        def poll():\n    while True:\n        out = sqs.receive_message(QueueUrl=URL, MaxNumberOfMessages=10, WaitTimeSeconds=20)\n        \
        for m in out.get(\"Messages\", []):\n            sqs.delete_message(QueueUrl=URL, ReceiptHandle=m[\"ReceiptHandle\"])\n";
    std::fs::write(&worker, good).unwrap();
    let mut client = Client::start(&root, json!(null));
    client.open(&worker, good);
    assert!(codes(&client.diagnostics(&worker, |p| p["version"] == 1)).is_empty());
    // Typed: the delete now reads the message's ID.
    let bad = good.replace("m[\"ReceiptHandle\"]", "m[\"MessageId\"]");
    client.change(&worker, 2, &bad);
    let published = client.diagnostics(&worker, |p| p["version"] == 2);
    assert_eq!(codes(&published), ["SQS208"]);
    let diagnostic = &published["diagnostics"][0];
    // At the argument: `ReceiptHandle=m["MessageId"]` on line 10.
    assert_eq!(diagnostic["range"]["start"], json!({"line": 9, "character": 45}), "{diagnostic}");
    let actions = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": url(&worker)}, "range": diagnostic["range"], "context": {"diagnostics": [diagnostic]}}),
    );
    let fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"].as_str().is_some_and(|t| t.starts_with("(unsafe) Fix SQS208")))
        .unwrap_or_else(|| panic!("no fix of SQS208 in {actions:#}"));
    let edits = fix["edit"]["changes"][url(&worker)].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0]["newText"], "ReceiptHandle");
    assert_eq!(edits[0]["range"]["start"], json!({"line": 9, "character": 62}));
    assert_eq!(edits[0]["range"]["end"], json!({"line": 9, "character": 71}));
    client.stop();
}
