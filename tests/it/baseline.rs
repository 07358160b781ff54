//! Baselines: record today's findings, then fail only on new ones; a
//! recorded finding stays recorded when its resource moves or the file is
//! reformatted.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;
use std::process::Output;

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    common::sqsguard(args)
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// legacy-worker.yaml with the ResizeJobs queue moved 20+ lines down (to
/// the end of the file, after 20 comment lines) and indentation of its
/// properties changed from 4 to 6 spaces inside the block.
fn moved(original: &str) -> String {
    let start = original.find("  ResizeJobs:\n").unwrap();
    let end = original.find("  ResizeJobsDlq:\n").unwrap();
    let block = &original[start..end];
    let rest = format!("{}{}", &original[..start], &original[end..]);
    let padding: String = (0..20).map(|i| format!("  # padding line {i}\n")).collect();
    format!("{}\n{padding}{}", rest.trim_end(), block.trim_end()) + "\n"
}

#[test]
fn a_baseline_absorbs_todays_findings_and_survives_moves() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("worker.yaml");
    let original = std::fs::read_to_string(common::root().join("examples/cloudformation/legacy-worker.yaml")).unwrap();
    std::fs::write(&template, &original).unwrap();
    let baseline = dir.path().join("baseline.json");

    let write = run(&["lint", s(&template), "--write-baseline", s(&baseline)]);
    assert_eq!(write.status.code(), Some(0), "{}", String::from_utf8_lossy(&write.stderr));
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(recorded["findings"].as_array().unwrap().len(), 10);

    let again = run(&["lint", "--format", "json", s(&template), "--baseline", s(&baseline)]);
    assert_eq!(again.status.code(), Some(0));
    let doc = json(&again);
    assert_eq!(doc["findings"], serde_json::json!([]));
    assert_eq!(doc["summary"]["baselined"], 10);

    // Move ResizeJobs 20+ lines down: every finding keeps its identity.
    let text = moved(&original);
    assert!(text.find("  ResizeJobs:\n").unwrap() > original.find("  ResizeJobs:\n").unwrap() + 20 * 10);
    std::fs::write(&template, &text).unwrap();
    let without = json(&run(&["lint", "--format", "json", s(&template)]));
    assert_eq!(without["findings"].as_array().unwrap().len(), 10, "the move changes no finding");
    let after_move = run(&["lint", "--format", "json", s(&template), "--baseline", s(&baseline)]);
    assert_eq!(json(&after_move)["findings"], serde_json::json!([]), "moved findings are still baselined");
    assert_eq!(after_move.status.code(), Some(0));

    // A new problem is reported, and only it.
    std::fs::write(&template, format!("{text}\n  NewQueue:\n    Type: AWS::SQS::Queue\n")).unwrap();
    let new = run(&["lint", "--format", "json", s(&template), "--baseline", s(&baseline)]);
    assert_eq!(new.status.code(), Some(1));
    let rules: Vec<(String, String)> = json(&new)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap().to_string(), f["resource"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(rules, vec![("SQS004".to_string(), "NewQueue".to_string()), ("SQS006".into(), "NewQueue".into())]);
}

#[test]
fn a_second_identical_finding_is_not_absorbed_by_one_record() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.yaml");
    let body = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      ReceiveMessageWaitTimeSeconds: 20\n";
    std::fs::write(&a, body).unwrap();
    let baseline = dir.path().join("b.json");
    assert_eq!(run(&["lint", s(&a), "--write-baseline", s(&baseline)]).status.code(), Some(0));
    // The same finding in another file is new.
    let b = dir.path().join("b.yaml");
    std::fs::write(&b, body).unwrap();
    let out = run(&["lint", "--format", "json", s(dir.path()), "--baseline", s(&baseline)]);
    let doc = json(&out);
    let files: Vec<&str> = doc["findings"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(files, vec![s(&b)]);
    assert_eq!(doc["summary"]["baselined"], 1);
}

#[test]
fn an_invalid_or_missing_baseline_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"version\": 1, \"findings\": [{\"rule\": 3}]}").unwrap();
    for path in [bad.as_path(), Path::new("no/such/baseline.json")] {
        let out = run(&["lint", "examples", "--baseline", s(path)]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(s(path)) && stderr.lines().count() == 1, "{stderr}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_baseline_matches_however_the_path_is_typed() {
    // Written with a relative path from the repository root, read with an
    // absolute one and with `..` in it.
    let baseline = tempfile::NamedTempFile::new().unwrap();
    let b = baseline.path().to_str().unwrap();
    let relative = "examples/cloudformation/legacy-worker.yaml";
    assert_eq!(run(&["lint", relative, "--write-baseline", b]).status.code(), Some(0));
    let absolute = common::root().join(relative);
    let dotted = "examples/../examples/cloudformation/legacy-worker.yaml";
    for path in [s(&absolute), dotted] {
        let out = run(&["lint", "--format", "json", path, "--baseline", b]);
        assert_eq!(json(&out)["summary"]["baselined"], 10, "{path}");
        assert_eq!(out.status.code(), Some(0), "{path}");
    }
}
