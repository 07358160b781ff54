//! Fail closed (docs/lint.md): what is or may be infrastructure is linted, or is
//! an SQS000, or a note; named on the command line and not linted, it
//! fails the run. Large plans are read, not skipped; a truncated one is a
//! located SQS000; output that cannot be written is an error, except a
//! reader that stopped listening.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

const HEAD: &str = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n";

fn sqsguard_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(dir).output().unwrap()
}

fn json_in(dir: &Path, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let out = sqsguard_in(dir, &all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("not JSON: {stderr}"));
    (out.status.code(), doc)
}

fn notes(doc: &Value) -> Vec<String> {
    doc["notes"]
        .as_array()
        .map(|n| n.iter().map(|n| n["message"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}

#[test]
fn an_unread_format_named_on_the_command_line_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("serverless.ts"), "export default {service: 'orders', provider: {name: 'aws'}};\n")
        .unwrap();
    fs::write(dir.path().join("serverless.js"), "module.exports = {service: 'orders', provider: {name: 'aws'}};\n")
        .unwrap();
    for file in ["serverless.ts", "serverless.js"] {
        let (code, doc) = json_in(dir.path(), &[file]);
        assert_eq!(code, Some(1), "{doc:#}");
        assert_eq!(doc["summary"]["not_linted"], 1, "{doc:#}");
        assert_eq!(doc["notes"][0]["file"], file, "{doc:#}");
        assert!(notes(&doc)[0].starts_with("not linted: "), "{doc:#}");
        let (code, _) = json_in(dir.path(), &[file, "--fail-on", "never"]);
        assert_eq!(code, Some(0));
    }
    // Found in a folder, it is a note and does not fail the run.
    let (code, doc) = json_in(dir.path(), &["."]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(notes(&doc).len(), 2, "{doc:#}");
    assert!(doc["summary"].get("not_linted").is_none());
    // The pretty summary says it too.
    let out = sqsguard_in(dir.path(), &["lint", "serverless.ts"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 named but not linted"));
}

#[test]
fn other_yaml_and_json_named_on_the_command_line_are_still_skipped_silently() {
    // What a pre-commit hook passes along with templates.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("ci.yml"), "name: ci\non: push\njobs: {}\n").unwrap();
    fs::write(dir.path().join("package.json"), "{\"name\": \"x\"}").unwrap();
    let (code, doc) = json_in(dir.path(), &["ci.yml", "package.json"]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert_eq!(doc["summary"]["skipped"], 2);
    assert!(notes(&doc).is_empty(), "{doc:#}");
}

#[test]
fn a_huge_template_is_an_sqs000_with_its_size() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from(HEAD);
    let mut i = 0;
    while text.len() < 30 * 1024 * 1024 {
        text.push_str(&format!(
            "  Q{i}:\n    Type: AWS::SQS::Queue\n    Properties: {{ReceiveMessageWaitTimeSeconds: 20}}\n"
        ));
        i += 1;
    }
    fs::write(dir.path().join("big.yaml"), &text).unwrap();
    let (code, doc) = json_in(dir.path(), &["big.yaml"]);
    assert_eq!(code, Some(1));
    let f = &doc["findings"][0];
    assert_eq!(f["rule"], "SQS000", "{doc:#}");
    assert!(f["message"].as_str().unwrap().contains("file is 30.0 MiB, larger than the 10 MiB"), "{f}");
    // The same as JSON is read (it may be a plan) and still refused as a template.
    let json =
        serde_json::json!({"AWSTemplateFormatVersion": "2010-09-09", "Resources": {}, "Padding": "x".repeat(12 << 20)});
    fs::write(dir.path().join("big.json"), json.to_string()).unwrap();
    let (code, doc) = json_in(dir.path(), &["big.json"]);
    assert_eq!(code, Some(1));
    assert!(doc["findings"][0]["message"].as_str().unwrap().contains("larger than the 10 MiB"), "{doc:#}");
}

fn plan_fixture() -> String {
    fs::read_to_string(common::root().join("tests/fixtures/terraform/plan/root_bad/plan.json")).unwrap()
}

#[test]
fn a_truncated_plan_is_an_sqs000_where_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan_fixture();
    let cut = &plan[..plan.len() / 2];
    fs::write(dir.path().join("plan.json"), cut).unwrap();
    let (code, doc) = json_in(dir.path(), &["plan.json"]);
    assert_eq!(code, Some(1));
    let f = &doc["findings"][0];
    assert_eq!(f["rule"], "SQS000", "{doc:#}");
    let end_line = cut.lines().count() as u64;
    assert_eq!(f["line"].as_u64(), Some(end_line), "{f}");
    assert!(f["message"].as_str().unwrap().contains("EOF"), "{f}");
}

/// `plan` with a member of 11 MB added at its end: past a template's
/// limit, so read in two passes from disk, with every offset before the
/// padding where it was.
fn padded(plan: &str) -> String {
    let end = plan.trim_end().len() - 1;
    assert_eq!(&plan[end..end + 1], "}");
    format!("{},\n  \"padding\": \"{}\"\n}}\n", plan[..end].trim_end(), "é".repeat(5_500_000))
}

#[test]
fn a_plan_too_large_to_hold_gives_the_findings_of_the_same_plan_held_whole() {
    let dir = tempfile::tempdir().unwrap();
    let plans = ["root_bad", "nested_modules", "count_for_each", "sns_dead_letter", "producers", "root_good"];
    let mut compared = 0;
    for name in plans {
        let plan =
            fs::read_to_string(common::root().join(format!("tests/fixtures/terraform/plan/{name}/plan.json"))).unwrap();
        for (file, text) in [("small", plan.clone()), ("large", padded(&plan))] {
            fs::create_dir_all(dir.path().join(file)).unwrap();
            fs::write(dir.path().join(file).join(format!("{name}.json")), text).unwrap();
        }
        assert!(fs::metadata(dir.path().join(format!("large/{name}.json"))).unwrap().len() > 10 * 1024 * 1024);
        let (small_code, small) = json_in(dir.path(), &[&format!("small/{name}.json")]);
        let (large_code, large) = json_in(dir.path(), &[&format!("large/{name}.json")]);
        assert_eq!(small_code, large_code, "{name}");
        // The same rules, resources, lines and columns; only the folder differs.
        let same = |doc: &Value| {
            let mut findings = doc["findings"].clone();
            for f in findings.as_array_mut().unwrap() {
                f["file"] = f["file"].as_str().unwrap().split_once('/').unwrap().1.into();
                f.as_object_mut().unwrap().remove("fingerprint");
                f.as_object_mut().unwrap().remove("edits");
            }
            findings
        };
        assert_eq!(same(&small), same(&large), "{name}");
        compared += small["findings"].as_array().unwrap().len();
    }
    assert!(compared > 10, "the fixtures have findings to compare");
}

#[test]
fn a_large_plan_cut_short_is_an_sqs000_where_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let plan = padded(&plan_fixture());
    let cut = &plan[..plan.len() - 1_000_000];
    fs::write(dir.path().join("plan.json"), cut).unwrap();
    let (code, doc) = json_in(dir.path(), &["plan.json"]);
    assert_eq!(code, Some(1));
    let f = &doc["findings"][0];
    assert_eq!(f["rule"], "SQS000", "{f}");
    assert_eq!(f["line"].as_u64(), Some(cut.lines().count() as u64), "{f}");
    // Columns count characters: the padding's are two bytes each.
    let last = cut.lines().last().unwrap();
    assert_eq!(f["column"].as_u64(), Some(last.chars().count() as u64 + 1), "{f}");
    assert!(f["message"].as_str().unwrap().contains("EOF"), "{f}");
}

#[test]
fn a_large_plan_with_a_byte_that_is_not_utf8_is_an_sqs000_at_that_byte() {
    let dir = tempfile::tempdir().unwrap();
    let plan = padded(&plan_fixture());
    // Inside the padding, 1 MB past its start: the line is the padding's.
    let at = plan.find("\"padding\"").unwrap() + 1_000_000;
    let at = (at..).find(|&i| plan.is_char_boundary(i)).unwrap();
    let mut bytes = plan.clone().into_bytes();
    bytes[at] = 0xff;
    fs::write(dir.path().join("plan.json"), &bytes).unwrap();
    let (code, doc) = json_in(dir.path(), &["plan.json"]);
    assert_eq!(code, Some(1));
    let f = &doc["findings"][0];
    assert_eq!(f["rule"], "SQS000", "{f}");
    assert_eq!(f["message"], "file is not valid UTF-8 (byte 0xff)", "{f}");
    assert_eq!(f["line"].as_u64(), Some(plan[..at].lines().count() as u64), "{f}");
    let line_start = plan[..at].rfind('\n').unwrap() + 1;
    assert_eq!(f["column"].as_u64(), Some(plan[line_start..at].chars().count() as u64 + 1), "{f}");
}

#[test]
fn a_plan_of_an_unknown_format_version_is_noted_and_linted() {
    let dir = tempfile::tempdir().unwrap();
    let known = dir.path().join("known");
    let newer = dir.path().join("newer");
    fs::create_dir_all(&known).unwrap();
    fs::create_dir_all(&newer).unwrap();
    let plan = plan_fixture();
    let mut doc: Value = serde_json::from_str(&plan).unwrap();
    fs::write(known.join("plan.json"), &plan).unwrap();
    doc["format_version"] = "2.0".into();
    fs::write(newer.join("plan.json"), serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let rules = |d: &Value| d["findings"].as_array().unwrap().iter().map(|f| f["rule"].to_string()).collect::<Vec<_>>();
    let (_, a) = json_in(&known, &["plan.json"]);
    let (_, b) = json_in(&newer, &["plan.json"]);
    assert!(!rules(&a).is_empty());
    assert_eq!(rules(&a), rules(&b));
    assert!(notes(&b).iter().any(|n| n.contains("format_version 2.0")), "{b:#}");
}

/// A reader that stops listening (`sqsguard lint | head -1`) ends standard
/// output quietly, and the run still exits as it would have: 1 on
/// findings, as a CI step that pipes the report to `head` relies on.
#[test]
fn a_closed_stdout_ends_quietly_with_the_status_of_the_run() {
    for (paths, format) in [("tests/corpus", "pretty"), ("examples/cloudformation/legacy-worker.yaml", "concise")] {
        let run = |stdout: Stdio| {
            Command::new(env!("CARGO_BIN_EXE_sqsguard"))
                .args(["lint", "--format", format, paths])
                .current_dir(common::root())
                .stdout(stdout)
                .stderr(Stdio::piped())
                .output()
                .unwrap()
        };
        let whole = run(Stdio::piped());
        assert_eq!(whole.status.code(), Some(1), "{paths} has findings");
        // The pipe's read end is closed before the run starts, so every
        // write to standard output fails, whatever its size.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let closed = run(Stdio::from(writer));
        let stderr = String::from_utf8_lossy(&closed.stderr);
        assert_eq!(closed.status.code(), whole.status.code(), "{paths}: {stderr}");
        assert_eq!(stderr, String::from_utf8_lossy(&whole.stderr), "nothing is said of the closed pipe");
    }
}

#[test]
fn a_full_disk_is_an_error_not_a_truncated_report() {
    let full = fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["lint", "--format", "sarif", "examples"])
        .current_dir(common::root())
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("standard output") && stderr.contains("No space left"), "{stderr}");
}

#[test]
fn an_unreadable_folder_is_a_note() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    // Others may enter the temporary folder, so the run below as `nobody`
    // reaches `locked` and nothing else stops it.
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let locked = dir.path().join("locked");
    fs::create_dir(&locked).unwrap();
    fs::write(locked.join("q.yaml"), format!("{HEAD}  Q:\n    Type: AWS::SQS::Queue\n")).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    // Root reads every folder: run as `nobody` then, when setpriv can.
    let as_nobody = fs::read_dir(&locked).is_ok();
    let mut command = if as_nobody {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_sqsguard")]);
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_sqsguard"))
    };
    let out = command.args(["lint", "--format", "json", "."]).current_dir(dir.path()).output();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    let out = match out {
        Ok(out) if !(as_nobody && out.stdout.is_empty()) => out,
        _ => {
            common::skipped("an unreadable folder (root reads every folder and setpriv could not drop to nobody)");
            return;
        }
    };
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(notes(&doc).iter().any(|n| n.contains("the folder cannot be read: permission denied")), "{doc:#}");
    assert_eq!(doc["notes"][0]["file"], "locked", "{doc:#}");
}

/// `rule resource` of every finding, sorted.
fn rules_and_resources(doc: &Value) -> Vec<String> {
    let mut out: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap(), f["resource"].as_str().unwrap()))
        .collect();
    out.sort();
    out
}

#[test]
fn a_200_mb_plan_is_linted_with_the_findings_of_its_module() {
    // benches/gen_scale.py writes a module of 31,000 queue + DLQ + mapping
    // sets and the plan `terraform show -json` prints for it (200 MB).
    let dir = tempfile::tempdir().unwrap();
    let generate = |kind: &str| {
        let out = Command::new("python3")
            .args([common::root().join("benches/gen_scale.py").to_str().unwrap(), kind, "31000"])
            .arg(dir.path().join(kind))
            .output()
            .expect("python3 runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    };
    generate("plan");
    generate("terraform");
    let plan = dir.path().join("plan/plan.json");
    assert!(fs::metadata(&plan).unwrap().len() > 190_000_000);
    let (code, from_plan) = json_in(dir.path(), &["plan/plan.json"]);
    assert_eq!(code, Some(1));
    assert_eq!(from_plan["summary"]["files"], 1, "{}", from_plan["summary"]);
    let (_, from_module) = json_in(dir.path(), &["terraform"]);
    let (a, b) = (rules_and_resources(&from_plan), rules_and_resources(&from_module));
    assert_eq!(a.len(), 4 * 31_000);
    assert!(a == b, "the plan and its module differ");
    // Findings point into the plan, whose text is not kept: still located.
    let first = &from_plan["findings"][0];
    assert_eq!(first["file"], "plan/plan.json");
    assert!(first["column"].as_u64().unwrap() > 1, "{first}");
}

/// Each `(path, text)` written under `dir`, its folders made.
fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (file, text) in files {
        fs::create_dir_all(dir.join(file).parent().unwrap()).unwrap();
        fs::write(dir.join(file), text).unwrap();
    }
}

/// The file of each finding of a JSON report.
fn finding_files(doc: &Value) -> Vec<&str> {
    doc["findings"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect()
}

/// A CDK app: `cdk.out` is gitignored (CDK's project template does it), so
/// a walk never sees it; its synthesized templates are linted all the same,
/// its stage assemblies too, and its `asset.*` folders are not read. The
/// output folder `cdk.json` names is the one read.
#[test]
fn a_cdk_apps_gitignored_output_is_linted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let queue =
        r#"{"Resources": {"Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"ReceiveMessageWaitTimeSeconds": 0}}}}"#;
    assert!(Command::new("git").args(["init", "-q"]).current_dir(d).status().unwrap().success());
    fs::write(d.join(".gitignore"), "cdk.out\nbuild/\n").unwrap();
    fs::write(d.join("cdk.json"), r#"{"app": "npx ts-node bin/app.ts"}"#).unwrap();
    write_files(
        d,
        &[
            ("cdk.out/AppStack.template.json", queue),
            ("cdk.out/assembly-Prod/ProdAppStack.template.json", queue),
            ("cdk.out/asset.0123abcd/vendored.template.json", queue),
            ("cdk.out/manifest.json", r#"{"version": "36.0.0"}"#),
        ],
    );
    // A nested stack's template, with its construct path.
    let nested = r#"{"Resources": {"JobsB2C4": {"Type": "AWS::SQS::Queue", "Metadata": {"aws:cdk:path": "AppStack/Workers/Jobs/Resource"}, "Properties": {}}}}"#;
    fs::write(
        d.join("cdk.out/AppStackWorkersNestedStackWorkersNestedStackResource1A2B3C4D.nested.template.json"),
        nested,
    )
    .unwrap();
    let (code, doc) = json_in(d, &["--select", "SQS006", "."]);
    assert_eq!(code, Some(1), "{doc:#}");
    let files = finding_files(&doc);
    assert_eq!(
        files,
        vec![
            "cdk.out/AppStack.template.json",
            "cdk.out/AppStackWorkersNestedStackWorkersNestedStackResource1A2B3C4D.nested.template.json",
            "cdk.out/assembly-Prod/ProdAppStack.template.json"
        ]
    );
    // Findings name the construct beside the logical ID CDK made of it.
    let nested = &doc["findings"][1];
    assert_eq!(nested["resource"], "JobsB2C4");
    assert!(
        nested["message"].as_str().unwrap().ends_with("(CDK construct AppStack/Workers/Jobs/Resource)"),
        "{nested}"
    );

    // `output` in cdk.json names another folder: that one is read.
    fs::write(d.join("cdk.json"), r#"{"app": "npx ts-node bin/app.ts", "output": "build/cdk"}"#).unwrap();
    fs::create_dir_all(d.join("build/cdk")).unwrap();
    fs::write(d.join("build/cdk/Other.template.json"), queue).unwrap();
    let (_, doc) = json_in(d, &["--select", "SQS006", "."]);
    let files = finding_files(&doc);
    assert_eq!(files, vec!["build/cdk/Other.template.json"], "{doc:#}");
}

/// Outside git nothing is ignored, yet a package's files under
/// `node_modules` are not the project's (never walked, as checkov does
/// not), and an assembly's own bookkeeping (its manifest, the `cdk.out`
/// version file beside it) is neither linted nor noted: only the stacks'
/// templates are read.
#[test]
fn node_modules_and_an_assemblys_bookkeeping_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let queue =
        r#"{"Resources": {"Jobs": {"Type": "AWS::SQS::Queue", "Properties": {"ReceiveMessageWaitTimeSeconds": 0}}}}"#;
    fs::write(d.join("cdk.json"), r#"{"app": "npx ts-node bin/app.ts"}"#).unwrap();
    write_files(
        d,
        &[
            ("cdk.out/AppStack.template.json", queue),
            ("cdk.out/cdk.out", r#"{"version": "55.0.0"}"#),
            (
                "cdk.out/manifest.json",
                r#"{"artifacts": {"AppStack": {"type": "aws:cloudformation:stack", "x": "AWS::SQS::Queue"}}}"#,
            ),
            ("node_modules/some-package/template.json", queue),
        ],
    );
    let (_, doc) = json_in(d, &["--select", "SQS006", "."]);
    let files = finding_files(&doc);
    assert_eq!(files, vec!["cdk.out/AppStack.template.json"], "{doc:#}");
    let notes: Vec<&str> = doc["notes"].as_array().into_iter().flatten().filter_map(|n| n["file"].as_str()).collect();
    assert!(notes.iter().all(|n| !n.contains("manifest") && !n.contains("node_modules")), "{doc:#}");
}

/// A run that lints nothing says so on standard error, with the likely
/// reason, whatever the format: an empty report is not a clean one.
#[test]
fn a_run_that_lints_nothing_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("empty")).unwrap();
    fs::write(d.join("ci.yml"), "name: ci\non: push\n").unwrap();
    let out = sqsguard_in(d, &["lint", "--format", "json", "empty"]);
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nothing linted: no .yaml, .yml, .json, .template or .tf file under empty"), "{stderr}");
    assert!(stderr.contains(".gitignore"), "{stderr}");
    let out = sqsguard_in(d, &["lint", "ci.yml"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nothing linted: of the 1 file read under ci.yml, none is a template"), "{stderr}");
    // A run that lints a file says nothing of the kind.
    fs::write(d.join("t.yaml"), "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n").unwrap();
    let out = sqsguard_in(d, &["lint", "t.yaml"]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("nothing linted"));
}

/// Each kind of link that can stay unresolved, once in CloudFormation and
/// once in Terraform: its note names the resource and the expression.
#[test]
#[expect(
    clippy::too_many_lines,
    reason = "a table: one template per syntax with every kind of unresolved link, and the note each must give"
)]
fn every_unresolved_link_is_a_note_naming_the_resource_and_the_expression() {
    let dir = tempfile::tempdir().unwrap();
    let template = format!(
        "{HEAD}  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      RedrivePolicy:
        deadLetterTargetArn: !ImportValue shared-dlq-arn
        maxReceiveCount: 5
  Mapping:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn: !ImportValue jobs-arn
      FunctionName: !ImportValue worker-arn
  JobsMapping:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn: !GetAtt Jobs.Arn
      FunctionName: !ImportValue worker-arn
  Worker:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: python3.12
      Handler: app.handler
      Role: arn:aws:iam::123456789012:role/w
      Code: {{ZipFile: x}}
      DeadLetterConfig:
        TargetArn: !ImportValue failures-arn
  Depth:
    Type: AWS::CloudWatch::Alarm
    Properties:
      Namespace: AWS/SQS
      MetricName: ApproximateNumberOfMessagesVisible
      Dimensions: [{{Name: QueueName, Value: !ImportValue dlq-name}}]
      Statistic: Maximum
      Period: 60
      EvaluationPeriods: 1
      Threshold: 0
      ComparisonOperator: GreaterThanThreshold
  Policy:
    Type: AWS::SQS::QueuePolicy
    Properties:
      Queues: [!ImportValue other-url]
      PolicyDocument: {{Statement: [{{Effect: Allow, Principal: {{Service: sns.amazonaws.com}}, Action: 'sqs:SendMessage', Resource: '*'}}]}}
"
    );
    fs::write(dir.path().join("t.yaml"), template).unwrap();
    let main_tf = r#"
data "aws_sqs_queue" "shared" {
  name = "shared"
}
resource "aws_sqs_queue" "jobs" {
  name = "jobs"
  redrive_policy = jsonencode({
    deadLetterTargetArn = data.aws_sqs_queue.shared.arn
    maxReceiveCount     = 5
  })
}
resource "aws_lambda_event_source_mapping" "jobs" {
  event_source_arn = data.aws_sqs_queue.shared.arn
  function_name    = "worker"
}
"#;
    fs::create_dir(dir.path().join("tf")).unwrap();
    fs::write(dir.path().join("tf/main.tf"), main_tf).unwrap();

    let (_, doc) = json_in(dir.path(), &["t.yaml", "tf"]);
    let notes = notes(&doc);
    for expected in [
        "Jobs: its dead-letter queue `!ImportValue shared-dlq-arn` could not be resolved",
        "Mapping: the event source it reads `!ImportValue jobs-arn` could not be resolved",
        "JobsMapping: the function it invokes `!ImportValue worker-arn` could not be resolved",
        "a dead-letter target: its queue `!ImportValue failures-arn` could not be resolved",
        "Depth: the queue of its QueueName dimension",
        "Policy: a queue it applies to",
        "aws_sqs_queue.jobs: its dead-letter queue `data.aws_sqs_queue.shared.arn` could not be resolved",
        "aws_lambda_event_source_mapping.jobs: the event source it reads `data.aws_sqs_queue.shared.arn` could not be resolved",
    ] {
        assert!(notes.iter().any(|n| n.starts_with(expected)), "no note {expected:?} in {notes:#?}");
    }
    // Notes are located, and no rule fired on a guess about the links.
    assert!(doc["notes"].as_array().unwrap().iter().all(|n| n["line"].as_u64().unwrap_or(0) >= 1), "{doc:#}");
    let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert!(!rules.iter().any(|r| ["SQS001", "SQS002", "SQS007", "SQS009"].contains(r)), "{rules:?}");
}
