//! `sqsguard graph`: the exact nodes and edges of the examples in JSON;
//! Mermaid rendered by mermaid-cli in Debian's Chromium (tests/mermaid:
//! tests/run.sh installs it) and DOT read by Graphviz when it is
//! installed; names that need escaping; what cannot be drawn is said; an
//! audit's JSON report drawn as far as it goes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;
use crate::common::mermaid;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn graph_json(args: &[&str]) -> Value {
    let mut all = vec!["graph", "--format", "json"];
    all.extend_from_slice(args);
    let out = common::sqsguard(&all);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn text(args: &[&str]) -> String {
    let mut all = vec!["graph"];
    all.extend_from_slice(args);
    let out = common::sqsguard(&all);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    common::stdout(&out)
}

/// `(id, kind, rules of its findings)` of every node.
fn nodes(doc: &Value) -> BTreeSet<(String, String, String)> {
    let list = doc["nodes"].as_array().unwrap();
    list.iter()
        .map(|n| {
            let rules: BTreeSet<&str> =
                n["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
            let rules: Vec<&str> = rules.into_iter().collect();
            (n["id"].as_str().unwrap().to_string(), n["kind"].as_str().unwrap().to_string(), rules.join(","))
        })
        .collect()
}

/// `(from, to, kind, label)` of every edge.
fn edges(doc: &Value) -> BTreeSet<(String, String, String, String)> {
    let s = |v: &Value| v.as_str().unwrap().to_string();
    doc["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (s(&e["from"]), s(&e["to"]), s(&e["kind"]), s(&e["label"])))
        .collect()
}

fn set<const N: usize, T: Ord + Clone>(items: [T; N]) -> BTreeSet<T> {
    items.into_iter().collect()
}

fn own<const N: usize>(items: [(&str, &str, &str); N]) -> BTreeSet<(String, String, String)> {
    items.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect()
}

fn own4<const N: usize>(items: [(&str, &str, &str, &str); N]) -> BTreeSet<(String, String, String, String)> {
    items.iter().map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string())).collect()
}

const LEGACY: &str = "examples/cloudformation/legacy-worker.yaml";

#[test]
fn legacy_worker_is_its_queues_consumer_and_dead_letter_link_with_their_findings() {
    let doc = graph_json(&[LEGACY]);
    assert_eq!(doc["version"], 1);
    let id = |rest: &str| format!("{LEGACY}#{rest}");
    assert_eq!(
        nodes(&doc),
        own([
            (&id("queue:ResizeJobs"), "queue", "SQS002,SQS007,SQS008"),
            (&id("queue:ResizeJobsDlq"), "dead_letter_queue", "SQS015"),
            (&id("queue:AuditEvents"), "queue", "SQS004,SQS006,SQS016,SQS017"),
            (&id("consumer:ResizeWorkerMapping"), "consumer", "SQS005,SQS011"),
        ])
    );
    assert_eq!(
        edges(&doc),
        own4([
            (&id("queue:ResizeJobs"), &id("queue:ResizeJobsDlq"), "dead_letters", "maxReceiveCount 1"),
            (&id("queue:ResizeJobs"), &id("consumer:ResizeWorkerMapping"), "consumes", "batch 50, window 0 s"),
        ])
    );
    let consumer = doc["nodes"].as_array().unwrap().iter().find(|n| n["kind"] == "consumer").unwrap();
    assert_eq!(
        consumer["details"],
        serde_json::json!(["function ResizeWorker", "timeout 60 s", "partial batch failures not reported"]),
        "the consumer says its function and the timeout the rules read (the Parameter's default)"
    );
    let queue = &doc["nodes"][0];
    assert_eq!(queue["details"], serde_json::json!(["visibility 30 s", "retention 4 d", "receive wait 0 s"]));
    assert_eq!(queue["findings"][0]["line"], 16, "a finding keeps its line");
    assert_eq!(doc["notes"], serde_json::json!([]), "every finding is on a node");
}

#[test]
fn the_terraform_example_draws_its_alarm_and_no_finding() {
    let doc = graph_json(&["examples/terraform"]);
    let id = |rest: &str| format!("examples/terraform#{rest}");
    assert_eq!(
        nodes(&doc),
        own([
            (&id("queue:aws_sqs_queue.thumbnails"), "queue", ""),
            (&id("queue:aws_sqs_queue.thumbnails_dlq"), "dead_letter_queue", ""),
            (&id("alarm:aws_cloudwatch_metric_alarm.thumbnails_dlq"), "alarm", ""),
            (&id("consumer:aws_lambda_event_source_mapping.thumbnailer"), "consumer", ""),
        ])
    );
    assert_eq!(
        edges(&doc),
        own4([
            (
                &id("queue:aws_sqs_queue.thumbnails"),
                &id("queue:aws_sqs_queue.thumbnails_dlq"),
                "dead_letters",
                "maxReceiveCount 5"
            ),
            (
                &id("queue:aws_sqs_queue.thumbnails_dlq"),
                &id("alarm:aws_cloudwatch_metric_alarm.thumbnails_dlq"),
                "alarms",
                "ApproximateNumberOfMessagesVisible > 0"
            ),
            (
                &id("queue:aws_sqs_queue.thumbnails"),
                &id("consumer:aws_lambda_event_source_mapping.thumbnailer"),
                "consumes",
                "batch 50, window 5 s"
            ),
        ])
    );
    let consumer = doc["nodes"].as_array().unwrap().iter().find(|n| n["kind"] == "consumer").unwrap();
    assert!(consumer["details"].as_array().unwrap().contains(&"timeout 25 s".into()), "{consumer}");
}

/// A template whose names need escaping in every format: a folder with a
/// quote, `#` and `|`, a queue name with `${...}`, `<>&"`, `;` and
/// backticks; with producers, an alarm, an external dead-letter queue and
/// a mapping whose queue is only known at deploy time.
fn awkward() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("we\"ird#dir|x.v1");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("stack.yaml"), AWKWARD).unwrap();
    (dir, folder)
}

const AWKWARD: &str = r#"AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  SourceArn:
    Type: String
Resources:
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      QueueName: !Sub "${AWS::StackName}-jobs<v1>&\"q\";|`x`\\N"
      VisibilityTimeout: 400
      RedrivePolicy:
        deadLetterTargetArn: arn:aws:sqs:us-east-1:123456789012:elsewhere
        maxReceiveCount: 5
  Topic:
    Type: AWS::SNS::Topic
  Sub:
    Type: AWS::SNS::Subscription
    Properties:
      TopicArn: !Ref Topic
      Protocol: sqs
      Endpoint: !GetAtt Jobs.Arn
      RawMessageDelivery: true
  Age:
    Type: AWS::CloudWatch::Alarm
    Properties:
      Namespace: AWS/SQS
      MetricName: ApproximateAgeOfOldestMessage
      Dimensions:
        - Name: QueueName
          Value: !GetAtt Jobs.QueueName
      ComparisonOperator: GreaterThanThreshold
      Threshold: 600
      EvaluationPeriods: 1
      Period: 60
      Statistic: Maximum
  Somewhere:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn: !Ref SourceArn
      FunctionName: worker
"#;

#[test]
fn what_cannot_be_resolved_is_a_node_with_a_note_and_outside_queues_are_drawn() {
    let (_dir, folder) = awkward();
    let doc = graph_json(&[folder.to_str().unwrap()]);
    let list = doc["nodes"].as_array().unwrap();
    let unresolved = list.iter().find(|n| n["name"] == "Somewhere").expect("the mapping is drawn");
    assert_eq!(unresolved["kind"], "consumer");
    let note = unresolved["notes"][0].as_str().unwrap();
    assert!(note.starts_with("the queue it reads could not be resolved"), "{note}");
    let kinds: BTreeSet<&str> = list.iter().map(|n| n["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, set(["alarm", "consumer", "external", "producer", "queue"]));
    let labels: BTreeSet<&str> =
        doc["edges"].as_array().unwrap().iter().map(|e| e["label"].as_str().unwrap()).collect();
    assert_eq!(labels, set(["raw delivery", "maxReceiveCount 5", "ApproximateAgeOfOldestMessage > 600"]));
}

#[test]
fn mermaid_identifiers_are_plain_and_labels_quoted_whatever_the_names() {
    let (_dir, folder) = awkward();
    let mermaid = text(&[folder.to_str().unwrap()]);
    check_mermaid_structure(&mermaid);
    assert!(mermaid.contains("${AWS::StackName}-jobs#60;v1#62;#38;#34;q#34;#59;#124;#96;x#96;#92;N"), "{mermaid}");
    assert!(mermaid.contains(":::error"), "the queue with an SQS019 error is red: {mermaid}");
    mermaid::render(&mermaid, "awkward");
    for (args, name) in [(&[LEGACY][..], "legacy"), (&["examples/terraform"][..], "terraform")] {
        let mermaid = text(args);
        check_mermaid_structure(&mermaid);
        mermaid::render(&mermaid, name);
    }
}

/// Every line is a header, a comment, a subgraph's start, direction or
/// end, a node, an edge or a class definition; identifiers are
/// `[A-Za-z0-9_]`; labels hold no bare quote.
fn check_mermaid_structure(mermaid: &str) {
    let plain = |id: &str| !id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut lines = mermaid.lines();
    assert_eq!(lines.next(), Some("flowchart LR"));
    for line in lines {
        let t = line.trim();
        let quoted_once = |s: &str| s.matches('"').count() == 2;
        if t.starts_with("%% ") || t == "end" || t == "direction LR" || t.starts_with("classDef ") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("subgraph ") {
            let (id, label) = rest.split_once('[').unwrap();
            assert!(plain(id) && quoted_once(label), "{line}");
            continue;
        }
        if let Some((from, rest)) = t.split_once(" -->").or_else(|| t.split_once(" -.->")) {
            let (label, to) = match rest.strip_prefix('|') {
                Some(r) => r.rsplit_once("| ").unwrap(),
                None => ("\"\"", rest.trim()),
            };
            assert!(plain(from) && plain(to) && quoted_once(label), "{line}");
            continue;
        }
        let open = t.find(['[', '(', '{']).unwrap_or_else(|| panic!("no node: {line}"));
        assert!(plain(&t[..open]), "{line}");
        assert!(quoted_once(&t[open..]), "{line}");
    }
}

#[test]
fn dot_is_read_by_graphviz_and_quotes_every_identifier() {
    let (_dir, folder) = awkward();
    let dot = text(&["--format", "dot", folder.to_str().unwrap()]);
    assert!(dot.starts_with("digraph sqsguard {\n") && dot.ends_with("}\n"), "{dot}");
    assert!(dot.contains(r#"-jobs<v1>&\"q\";|`x`\\N"#), "a quote and a backslash are escaped: {dot}");
    let legacy = text(&["--format", "dot", LEGACY]);
    assert!(legacy.contains(r##""examples/cloudformation/legacy-worker.yaml#queue:ResizeJobs" -> "examples/cloudformation/legacy-worker.yaml#queue:ResizeJobsDlq" [label="maxReceiveCount 1"];"##), "{legacy}");
    let Ok(version) = Command::new("dot").arg("-V").output() else {
        common::skipped("Graphviz `dot` is not installed: the DOT text is checked, not rendered");
        return;
    };
    assert!(version.status.success());
    for (name, text) in [("awkward", &dot), ("legacy", &legacy)] {
        let mut child = Command::new("dot")
            .arg("-Tsvg")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), text.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stderr.is_empty(), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let svg = String::from_utf8_lossy(&out.stdout);
        let clusters = svg.matches("class=\"cluster\"").count();
        assert_eq!(clusters, 1, "{name}: one cluster per file");
    }
}

#[test]
fn a_finding_on_nothing_drawn_is_a_note_and_output_is_written_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("broken.yaml"), "AWSTemplateFormatVersion: \"2010-09-09\"\nResources: [\n").unwrap();
    let out_file = dir.path().join("graph.json");
    let out = common::sqsguard(&[
        "graph",
        "--format",
        "json",
        "--output",
        out_file.to_str().unwrap(),
        dir.path().join("broken.yaml").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "findings are in the picture, not the status");
    assert!(out.stdout.is_empty());
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out_file).unwrap()).unwrap();
    assert_eq!(doc["nodes"], serde_json::json!([]));
    let note = doc["notes"][0].as_str().unwrap();
    assert!(note.contains("SQS000 error") && note.contains("is on nothing drawn"), "{note}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("note: ") && stderr.contains("SQS000"), "{stderr}");
}

const AUDIT: &str = r#"{
  "version": 1,
  "findings": [
    {"rule": "SQS001", "name": "x", "severity": "error", "file": null, "line": null, "column": null,
     "end_line": null, "end_column": null,
     "resource": "https://sqs.us-east-1.amazonaws.com/111111111111/orders.fifo",
     "account": "111111111111", "region": "us-east-1", "message": "too short", "fix": ""},
    {"rule": "SQS101", "name": "x", "severity": "warning", "file": null, "line": null, "column": null,
     "end_line": null, "end_column": null,
     "resource": "https://sqs.us-east-1.amazonaws.com/111111111111/orders.fifo",
     "account": "111111111111", "region": "us-east-1", "message": "not empty", "fix": ""},
    {"rule": "SQS005", "name": "x", "severity": "warning", "file": null, "line": null, "column": null,
     "end_line": null, "end_column": null,
     "resource": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
     "account": "222222222222", "region": "eu-west-1", "message": "no partial failures", "fix": ""}
  ],
  "summary": {"files": 2, "skipped": 0, "errors": 1, "warnings": 2, "infos": 0, "suppressed": 0, "api_calls": 9,
              "unaudited": [{"account": "333333333333", "region": "us-east-1", "partial": false, "reason": "AccessDenied"}]}
}"#;

#[test]
fn an_audit_report_draws_its_resources_and_says_what_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("audit.json");
    std::fs::write(&report, AUDIT).unwrap();
    let path = report.to_str().unwrap();
    let by_flag = graph_json(&["--from-audit", path]);
    let by_path = graph_json(&[path]);
    assert_eq!(by_flag, by_path, "an audit report given as PATH is detected");
    assert_eq!(
        nodes(&by_flag),
        own([
            (
                "account 111111111111 in us-east-1#https://sqs.us-east-1.amazonaws.com/111111111111/orders.fifo",
                "queue",
                "SQS001,SQS101"
            ),
            ("account 222222222222 in eu-west-1#0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "consumer", "SQS005"),
        ])
    );
    assert_eq!(by_flag["nodes"][0]["name"], "orders.fifo");
    assert!(by_flag["nodes"][1]["notes"][0].as_str().unwrap().contains("UUID only"));
    assert_eq!(by_flag["edges"], serde_json::json!([]));
    let notes: Vec<&str> = by_flag["notes"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert!(notes[0].contains("so the graph has no edges"), "{notes:?}");
    assert!(notes[1].contains("333333333333") && notes[1].contains("AccessDenied"), "{notes:?}");
    let mermaid = text(&[path]);
    check_mermaid_structure(&mermaid);
    mermaid::render(&mermaid, "audit");
}

#[test]
fn an_audit_report_names_a_consumer_by_the_name_it_gives() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("audit.json");
    let named = AUDIT.replace(
        r#""resource": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","#,
        r#""resource": "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "resource_name": "jobs-worker on jobs","#,
    );
    assert_ne!(named, AUDIT, "the fixture's consumer finding");
    std::fs::write(&report, named).unwrap();
    let doc = graph_json(&["--from-audit", report.to_str().unwrap()]);
    let consumer = doc["nodes"].as_array().unwrap().iter().find(|n| n["kind"] == "consumer").unwrap();
    assert_eq!(consumer["name"], "jobs-worker on jobs");
    assert_eq!(consumer["details"], serde_json::json!(["0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"]));
    assert_eq!(consumer["notes"], serde_json::json!([]), "the name says what the UUID alone did not");
}

#[test]
fn a_file_that_is_no_audit_report_is_a_usage_error() {
    let lint = common::sqsguard(&["lint", "--format", "json", LEGACY]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lint.json");
    std::fs::write(&file, &lint.stdout).unwrap();
    let out = common::sqsguard(&["graph", "--from-audit", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a `sqsguard audit --format json` report"));
    let out = common::sqsguard(&["graph", "--format", "svg", LEGACY]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_docs_example_is_what_graph_prints() {
    let page = std::fs::read_to_string(common::root().join("docs/graph.md")).unwrap();
    let start = page.find("```mermaid\n").expect("docs/graph.md shows a Mermaid block") + "```mermaid\n".len();
    let end = start + page[start..].find("```").unwrap();
    assert_eq!(&page[start..end], text(&[LEGACY]), "docs/graph.md: run `sqsguard graph {LEGACY}` and paste it");
}

#[test]
fn code_that_sends_is_a_producer_of_its_queue() {
    let fixture = "tests/rules/SQS205/go/bad";
    let doc = graph_json(&[fixture]);
    let scope = format!("{fixture}/template.yaml");
    let code = format!("{scope}#code:WorkerFunction in {fixture}/src/main.go");
    assert!(nodes(&doc).contains(&(code.clone(), "code".into(), "SQS205".into())), "{doc}");
    assert!(
        edges(&doc).contains(&(code, format!("{scope}#queue:OrdersQueue"), "sends".into(), "SendMessage".into())),
        "{doc}"
    );
}

/// The picture README.md and docs/graph.md show, docs/img/graph-example.svg,
/// is rendered from docs/img/graph-example.mmd, which is what `graph`
/// prints for the example today: a change to either fails here, until both
/// are made again (CONTRIBUTING.md says how). The SVG holds every name the
/// Mermaid source draws, so it is that source's picture.
#[test]
fn the_readme_picture_is_of_what_graph_prints_today() {
    let args = ["examples/generate/fan-in/terraform", "--var-file", "docs/img/graph-example.tfvars"];
    let read = |path: &str| std::fs::read_to_string(common::root().join(path)).unwrap();
    let source = read("docs/img/graph-example.mmd");
    assert_eq!(
        source,
        text(&args),
        "docs/img/graph-example.mmd is not what `sqsguard graph {}` prints: draw it and its SVG again (CONTRIBUTING.md, Docs)",
        args.join(" ")
    );
    // A producer, a queue with a finding, a dead-letter queue, a consumer and an alarm.
    for drawn in
        ["SNS subscription", "SQS002 error", "dead-letter queue", "function aws_lambda_function.consumer", "{{"]
    {
        assert!(source.contains(drawn), "the example draws no {drawn}: {source}");
    }
    let svg = read("docs/img/graph-example.svg");
    assert!(svg.starts_with("<svg") && svg.contains("flowchart"), "{svg:.200}");
    let names: Vec<&str> =
        source.split("<b>").skip(1).filter_map(|s| s.split_once("</b>").map(|(name, _)| name)).collect();
    assert!(names.len() >= 8, "{names:?}");
    for name in names {
        assert!(
            svg.contains(name),
            "docs/img/graph-example.svg does not show {name}: draw it again (CONTRIBUTING.md, Docs)"
        );
    }
    for page in ["README.md", "docs/graph.md"] {
        assert!(read(page).contains("img/graph-example.svg)"), "{page} shows the picture");
    }
}

/// A name holding a terminal's escapes (clear screen, a clipboard write, a
/// hyperlink) or Mermaid's `%%` reaches neither the terminal nor the
/// diagram raw: Mermaid and DOT write control characters out as lint's
/// text formats do, and `%` as an entity in Mermaid.
#[test]
fn graph_output_writes_control_characters_and_mermaid_comments_out() {
    let dir = tempfile::tempdir().unwrap();
    let template = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: \"jobs\\e[2J\\e]52;c;cHduZWQ=\\a\\e]8;;http://x\\e\\\\%%{init: {}}%%\"\n";
    std::fs::write(dir.path().join("t.yaml"), template).unwrap();
    let path = dir.path().join("t.yaml");
    for format in ["mermaid", "dot"] {
        let out = text(&["--format", format, path.to_str().unwrap()]);
        assert!(
            !out.chars().any(|c| c.is_control() && c != '\n'),
            "{format}: a control character got through: {out:?}"
        );
        assert!(out.contains("u{1b}"), "{format}: the escape is written out: {out}");
        if format == "mermaid" {
            assert!(!out.contains("%%{"), "mermaid: a directive got through: {out}");
        }
    }
}
