//! `audit --format html` and `report merge --format html`: the page is
//! loaded in headless Chromium (Debian's, through puppeteer from
//! tests/mermaid, by tests/mermaid/check_page.js) with every request that
//! is not the page's own file refused and recorded. It must load with no
//! console error, ask for nothing on the network, show the counts of the
//! audit's JSON, sort and filter; at 10,000 queues it shows one page of
//! rows and draws a bounded graph. Against moto for the live audit, as
//! tests/ext/audit.rs; needs `--features audit`.
//!
//! `SQSGUARD_SCREENSHOT=docs/img/audit-html.png` also writes the moto
//! page's picture for docs/audit.md.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing
#![cfg(feature = "audit")]

use crate::common;

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

/// What check_page.js reads of `page`, or `None` (loudly; a failure under
/// CI) without puppeteer or Chromium.
fn check_page(page: &Path, extra: &[&str]) -> Option<Value> {
    let script = common::root().join("tests/mermaid/check_page.js");
    let puppeteer = common::root().join("tests/mermaid/node_modules/puppeteer");
    if !puppeteer.exists() || !Path::new("/usr/bin/chromium").exists() {
        common::missing("tests/mermaid/node_modules (npm ci --prefix tests/mermaid) or Debian's chromium");
        return None;
    }
    let out = Command::new("node").arg(&script).arg(page).args(extra).output().unwrap();
    assert!(out.status.success(), "check_page.js: {}", String::from_utf8_lossy(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Offline and clean: nothing asked of the network, nothing thrown.
    assert_eq!(result["requests"], json!([]), "the page asked the network");
    assert_eq!(result["errors"], json!([]), "the page reported errors");
    Some(result)
}

/// The page's counts are the JSON report's.
fn assert_counts(result: &Value, doc: &Value) {
    let summary = &doc["summary"];
    let findings = doc["findings"].as_array().unwrap();
    let unaudited = summary.get("unaudited").and_then(Value::as_array).map_or(0, Vec::len);
    let expected = json!({
        "queues": summary["files"],
        "account_regions": summary["account_regions"],
        "errors": summary["errors"],
        "warnings": summary["warnings"],
        "infos": summary["infos"],
        "findings": findings.len(),
        "unaudited": unaudited,
    });
    assert_eq!(result["counts"], expected);
    assert_eq!(result["pagers"]["findings"]["rows"], findings.len());
    assert_eq!(result["unaudited"].as_array().unwrap().len(), unaudited);
}

/// After a click on the Findings heading, each row is no better than the
/// one above: errors first, then warnings, then infos.
fn assert_worst_first(result: &Value) {
    let sorted: Vec<Vec<u64>> = serde_json::from_value(result["sorted"].clone()).unwrap();
    assert!(!sorted.is_empty());
    assert!(sorted.windows(2).all(|w| w[0] >= w[1]), "not worst first: {sorted:?}");
}

fn sqsguard(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .envs(env.iter().copied())
        .current_dir(common::root())
        .output()
        .unwrap()
}

#[test]
fn a_live_audit_page_loads_offline_with_the_counts_of_its_json() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["problems"]);
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let creds = [("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test")];
    let at = ["audit", "--region", "us-east-1", "--endpoint-url", moto.endpoint.as_str()];
    let json_run = sqsguard(&[&at[..], &["--format", "json"]].concat(), &creds);
    let doc: Value = serde_json::from_slice(&json_run.stdout).unwrap();
    let html_run = sqsguard(&[&at[..], &["--format", "html", "--output", page.to_str().unwrap()]].concat(), &creds);
    // The page changes where the report goes, not the exit status.
    assert_eq!(html_run.status.code(), json_run.status.code());
    assert_eq!(html_run.stdout, b"", "the page goes to --output only");
    let text = std::fs::read_to_string(&page).unwrap();
    assert!(
        text.starts_with("<!DOCTYPE html>") && text.contains(r#"<script type="application/json" id="audit-data">"#)
    );

    let mut extra = vec!["--filter", "backlog"];
    let shot = std::env::var("SQSGUARD_SCREENSHOT").ok();
    if let Some(shot) = &shot {
        extra.extend(["--screenshot", shot.as_str()]);
    }
    let Some(result) = check_page(&page, &extra) else { return };
    assert_counts(&result, &doc);
    assert_eq!(doc["summary"]["files"], 5, "the scenario's queues");
    // A live audit lists every queue it read, with or without findings.
    assert_eq!(result["pagers"]["queues"]["rows"], 5);
    let mut names: Vec<String> = serde_json::from_value(result["names"].clone()).unwrap();
    names.sort();
    assert_eq!(names, ["backlog", "jobs", "jobs-dlq", "orders", "orders-dlq"]);
    assert_worst_first(&result);
    // A queue's name leaves that queue and its findings.
    assert_eq!(result["filtered"]["names"], json!(["backlog"]));
    let backlog =
        doc["findings"].as_array().unwrap().iter().filter(|f| f["resource"].as_str().unwrap().ends_with("/backlog"));
    assert_eq!(result["filtered"]["findings"], backlog.count());
    // The queues with an error: as many as the JSON's findings name
    // (the mappings' by the queue they read).
    assert_eq!(result["with_errors"], 2);
    // The graph of the account-Region, with its consumers and DLQs.
    assert!(result["graph"]["nodes"].as_u64().unwrap() >= 5, "{}", result["graph"]);
    assert_eq!(result["graph"]["scopes"], 1);
    // A consumer's findings name its function and queue, not its mapping's UUID.
    let resources: Vec<String> = serde_json::from_value(result["resources"].clone()).unwrap();
    assert!(resources.iter().any(|r| r == "jobs-worker on jobs"), "{resources:?}");
    assert!(resources.iter().all(|r| !r.contains("://") && r.len() < 40), "{resources:?}");
    // A live function is named as people name it, not by its ARN.
    let text = result["graph"]["text"].as_str().unwrap();
    assert!(text.contains("function orders-worker") && !text.contains("arn:aws:lambda"), "{text}");
}

/// `python3 benches/gen_audit.py N OUT`: a synthetic audit report.
fn synthetic(n: usize, dir: &Path) -> (std::path::PathBuf, Value) {
    let path = dir.join(format!("audit-{n}.json"));
    let out = Command::new("python3")
        .arg(common::root().join("benches/gen_audit.py"))
        .arg(n.to_string())
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    (path, doc)
}

fn merge_to_page(report: &Path, page: &Path) {
    let out = sqsguard(
        &["report", "merge", report.to_str().unwrap(), "--format", "html", "--output", page.to_str().unwrap()],
        &[],
    );
    // Findings at warning and above: 1, as `report merge` says.
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote "), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn ten_thousand_queues_make_a_paged_page_from_a_saved_report() {
    let dir = tempfile::tempdir().unwrap();
    let (report, doc) = synthetic(10_000, dir.path());
    let page = dir.path().join("page.html");
    merge_to_page(&report, &page);
    let Some(result) = check_page(&page, &["--filter", "q00042"]) else { return };
    assert_counts(&result, &doc);
    // One page of 100 rows of the 10,000, and the next one after a click.
    assert_eq!(result["pagers"]["queues"], json!({"page": 1, "pages": 100, "rows": 10_000, "shown": 100}));
    assert_eq!(result["next"], json!({"page": 2, "pages": 100, "rows": 10_000, "shown": 100}));
    assert_eq!(result["pagers"]["findings"]["pages"], doc["findings"].as_array().unwrap().len().div_ceil(100));
    assert_worst_first(&result);
    assert_eq!(result["sorted"][0], json!([1, 1, 0]), "a queue with an error and a warning comes first");
    assert_eq!(result["filtered"]["names"], json!(["q00042.fifo"]));
    assert_eq!(result["filtered"]["findings"], 1);
    // Every 5th queue has an error.
    assert_eq!(result["with_errors"], 2000);
    // Never the whole estate at once.
    let drawn = result["graph"]["nodes"].as_u64().unwrap();
    assert!((1..=300).contains(&drawn), "{drawn} nodes drawn");
}

#[test]
fn names_with_quotes_and_tags_are_shown_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let (report, doc) = synthetic(20, dir.path());
    let page = dir.path().join("page.html");
    merge_to_page(&report, &page);
    let text = std::fs::read_to_string(&page).unwrap();
    // The data cannot end its script: the only `</script>`s are the page's two.
    assert_eq!(text.matches("</script>").count(), 2);
    let Some(result) = check_page(&page, &["--filter", "<script>"]) else { return };
    assert_counts(&result, &doc);
    assert_eq!(result["filtered"]["names"], json!(["q\"<b>&amp;<script>-é-名"]));
    assert_eq!(result["unaudited"][0][3], "AssumeRole: AccessDenied <not authorized> & refused");
}

#[test]
fn html_is_a_format_of_audits_only() {
    for args in
        [&["lint", "--format", "html", "examples"][..], &["drift", "x.yaml", "--region", "r", "--format", "html"]]
    {
        let out = sqsguard(args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'html'"), "{args:?}");
    }
}

#[test]
fn output_writes_any_format_to_a_file_without_colours() {
    let dir = tempfile::tempdir().unwrap();
    let (report, _) = synthetic(20, dir.path());
    let report = report.to_str().unwrap();
    let printed = sqsguard(&["report", "merge", report, "--format", "json"], &[]);
    let file = dir.path().join("out.json");
    let written = sqsguard(&["report", "merge", report, "--format", "json", "--output", file.to_str().unwrap()], &[]);
    assert_eq!(written.status.code(), printed.status.code());
    assert_eq!(written.stdout, b"");
    assert_eq!(std::fs::read(&file).unwrap(), printed.stdout);
    let file = dir.path().join("out.txt");
    let pretty = sqsguard(
        &["report", "merge", report, "--output", file.to_str().unwrap()],
        &[("FORCE_COLOR", "1"), ("COLUMNS", "100")],
    );
    assert_eq!(pretty.stdout, b"");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("SQS002") && !text.contains('\u{1b}'), "{text}");
}
