//! What `lint` prints, beyond the findings themselves: the concise
//! format, `--statistics`, `--quiet`, `--show-skipped`, standard input,
//! `--sarif-file`, the GitHub format's log lines, colour and width, and
//! the excerpt of a long line.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::process::Output;

use common::{root, sqsguard, stdout};

const WORKER: &str = "examples/cloudformation/legacy-worker.yaml";

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn concise_is_one_line_per_finding_then_the_summary() {
    let out = sqsguard(&["lint", WORKER, "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "examples/cloudformation/legacy-worker.yaml:16:26: SQS002 [*] VisibilityTimeout 30 s < 60 s timeout of function ResizeWorker (consumer ResizeWorkerMapping): Lambda rejects the mapping with \"Queue visibility timeout: 30 seconds is less than Function timeout: 60 seconds\" (ResizeJobs)"
    );
    let findings: Vec<&str> = lines.iter().copied().take_while(|l| !l.is_empty()).collect();
    assert_eq!(findings.len(), 10, "{text}");
    for line in &findings {
        // path:line:col: CODE, and the resource in brackets at the end.
        let mut parts = line.splitn(4, ':');
        assert_eq!(parts.next(), Some(WORKER), "{line}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{line}");
        assert!(parts.next().unwrap().parse::<usize>().is_ok(), "{line}");
        assert!(parts.next().unwrap().starts_with(" SQS0"), "{line}");
        assert!(line.ends_with(')'), "{line}");
    }
    assert!(
        text.contains("\n\nsqsguard: 3 errors, 7 warnings, 0 infos in 1 file (0 skipped)\n[*] 6 fixable with"),
        "{text}"
    );
}

#[test]
fn quiet_prints_the_findings_only() {
    for format in ["concise", "pretty"] {
        let out = sqsguard(&["lint", WORKER, "--format", format, "--quiet"]);
        assert_eq!(out.status.code(), Some(1), "the exit status stays");
        let text = stdout(&out);
        assert!(text.contains("SQS002"), "{text}");
        assert!(!text.contains("sqsguard: 3 errors") && !text.contains("fixable"), "{format}: {text}");
    }
    // Notes go too: the folder holds files that are no template.
    let out = sqsguard(&["lint", "examples", "--format", "concise", "--quiet"]);
    assert!(!stdout(&out).contains("note:") && !stdout(&out).contains("skipped"), "{}", stdout(&out));
    let loud = sqsguard(&["lint", "examples", "--format", "concise"]);
    assert!(skipped_count(&stdout(&loud)) > 0, "{}", stdout(&loud));
}

/// The summary line's "(N skipped)".
fn skipped_count(text: &str) -> usize {
    let summary = text.lines().find(|l| l.starts_with("sqsguard: ")).expect("a summary line");
    let (_, after) = summary.split_once(" (").unwrap();
    after.split_once(" skipped").unwrap().0.parse().unwrap()
}

#[test]
fn statistics_count_findings_per_rule() {
    let out = sqsguard(&["lint", WORKER, "--statistics", "--select", "SQS002,SQS004,SQS017"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.starts_with("1  SQS002  [*] visibility-timeout-below-function-timeout\n1  SQS004      missing-dlq\n1  SQS017      public-queue-policy\n\nsqsguard: 2 errors, 1 warning"), "{text}");
    let out = sqsguard(&["lint", "examples/cloudformation", "--statistics", "--format", "json"]);
    let counts: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let counts = counts.as_array().unwrap();
    assert_eq!(counts.len(), 10);
    assert_eq!(counts[0]["code"], "SQS002");
    assert_eq!(counts[0]["count"], 1);
    assert_eq!(counts[0]["fixable"], 1);
    let total: u64 = counts.iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(total, 10);
    // A format that is a document of findings has no statistics form.
    let out = sqsguard(&["lint", WORKER, "--statistics", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--statistics"), "{}", stderr(&out));
}

#[test]
fn show_skipped_lists_each_skipped_file_with_why() {
    let out = sqsguard(&["lint", "examples", "--format", "concise", "--show-skipped"]);
    let text = stdout(&out);
    let skipped: Vec<&str> = text.lines().filter(|l| l.starts_with("skipped: ")).collect();
    assert_eq!(skipped.len(), skipped_count(&text), "as many as the summary counts:\n{text}");
    assert!(skipped.len() >= 9, "{text}");
    assert!(
        skipped.contains(&"skipped: examples/github-workflow.yml: YAML or JSON, but no CloudFormation or SAM template, Serverless Framework service, Terraform plan or CDK output"),
        "{skipped:#?}"
    );
    let json = sqsguard(&["lint", "examples", "--format", "json", "--show-skipped"]);
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(doc["skipped"].as_array().map(Vec::len), Some(skipped.len()), "{doc}");
    assert!(!stdout(&sqsguard(&["lint", "examples", "--format", "concise"])).contains("skipped: "));
}

#[test]
fn standard_input_is_linted_as_the_named_file() {
    let text = std::fs::read_to_string(root().join(WORKER)).unwrap();
    let out = common::sqsguard_with(
        &["lint", "-", "--stdin-filename", "stacks/worker.yaml", "--format", "concise"],
        &text,
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.starts_with("stacks/worker.yaml:16:26: SQS002 [*] "), "{shown}");
    assert!(shown.contains("in 1 file (0 skipped)"), "{shown}");

    // The name picks the format: the same text as Terraform is not a module.
    let hcl = "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n  receive_wait_time_seconds = 0\n}\n";
    let out =
        common::sqsguard_with(&["lint", "-", "--stdin-filename", "infra/main.tf", "--format", "concise"], hcl, &[]);
    assert!(stdout(&out).contains("infra/main.tf:3:31: SQS006 [*] "), "{}{}", stdout(&out), stderr(&out));

    // --fix: the fixed text on standard output, the report on standard error.
    let out = common::sqsguard_with(
        &["lint", "-", "--stdin-filename", "stacks/worker.yaml", "--fix", "--format", "concise"],
        &text,
        &[],
    );
    let fixed = stdout(&out);
    assert!(fixed.contains("VisibilityTimeout: 361") && fixed.contains("maxReceiveCount: 3"), "{fixed}");
    // The same text `--fix` writes to the file.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("worker.yaml");
    std::fs::write(&copy, &text).unwrap();
    sqsguard(&["lint", copy.to_str().unwrap(), "--fix"]);
    assert_eq!(fixed, std::fs::read_to_string(&copy).unwrap());
    let report = stderr(&out);
    assert!(report.contains("stacks/worker.yaml:58:24: SQS017 "), "{report}");
    assert!(!report.contains("SQS002"), "fixed: {report}");
    assert!(report.contains("sqsguard: fixed 7 findings in 1 file (in 2 passes"), "{report}");
    assert_eq!(out.status.code(), Some(1), "SQS017 remains");

    // --sarif-file with --fix of standard input: what remains.
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("left.sarif");
    let args =
        ["lint", "-", "--stdin-filename", "stacks/worker.yaml", "--fix", "--sarif-file", sarif.to_str().unwrap()];
    common::sqsguard_with(&args, &text, &[]);
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    let rules: Vec<&str> =
        doc["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["ruleId"].as_str().unwrap()).collect();
    assert!(rules.contains(&"SQS017") && !rules.contains(&"SQS002"), "{rules:?}");

    // Nothing to fix: the text comes back as it was.
    let clean = "AWSTemplateFormatVersion: '2010-09-09'\nResources: {}\n";
    let out = common::sqsguard_with(&["lint", "-", "--stdin-filename", "t.yaml", "--fix"], clean, &[]);
    assert_eq!(stdout(&out), clean);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn standard_input_needs_a_name_and_stands_alone() {
    for args in [
        &["lint", "-"][..],
        &["lint", "-", WORKER, "--stdin-filename", "x.yaml"],
        &["lint", WORKER, "--stdin-filename", "x.yaml"],
        &["lint", "-", "--stdin-filename", "x.yaml", "--write-baseline", "target/stdin-baseline.json"],
    ] {
        let out = common::sqsguard_with(args, "Resources: {}\n", &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("stdin") || stderr(&out).contains("standard input"), "{}", stderr(&out));
    }
}

#[test]
fn sarif_file_is_written_beside_the_chosen_format() {
    let dir = tempfile::tempdir().unwrap();
    let sarif = dir.path().join("out.sarif");
    let out = sqsguard(&["lint", WORKER, "--format", "concise", "--sarif-file", sarif.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains(": SQS002 [*] "));
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    assert_eq!(doc["version"], "2.1.0");
    assert_eq!(doc["runs"][0]["results"].as_array().unwrap().len(), 10);
}

#[test]
fn the_github_format_logs_each_finding_as_a_line_and_an_annotation() {
    let out = sqsguard(&["lint", WORKER, "--format", "github", "--select", "SQS017"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("examples/cloudformation/legacy-worker.yaml:56:24: SQS017 policy AuditEventsPolicy"),
        "{text}"
    );
    assert!(lines[1].starts_with("::error file=examples/cloudformation/legacy-worker.yaml,line=56,col=24,"), "{text}");
    assert!(lines[1].contains("title=SQS017 public-queue-policy::"), "{text}");
}

#[test]
fn colour_follows_no_color_force_color_and_the_terminal() {
    let run = |env: &[(&str, &str)]| {
        let out = common::sqsguard_with(&["lint", WORKER, "--select", "SQS017"], "", env);
        stdout(&out).contains('\u{1b}')
    };
    assert!(!run(&[]), "a pipe gets no colour");
    assert!(run(&[("FORCE_COLOR", "1")]));
    assert!(run(&[("CLICOLOR_FORCE", "1")]));
    assert!(!run(&[("FORCE_COLOR", "0")]));
    assert!(!run(&[("FORCE_COLOR", "1"), ("NO_COLOR", "1")]), "NO_COLOR wins");
}

#[test]
fn pretty_output_wraps_at_the_width_given() {
    let widest = |columns: &str| {
        let out = common::sqsguard_with(&["lint", WORKER, "--select", "SQS005"], "", &[("COLUMNS", columns)]);
        stdout(&out).lines().map(|l| l.chars().count()).max().unwrap()
    };
    assert!(widest("60") <= 60, "{}", widest("60"));
    assert!(widest("200") > 100, "a wide terminal gets long lines: {}", widest("200"));
}

#[test]
fn a_finding_on_a_long_line_shows_an_excerpt() {
    // A plan as `terraform show -json` writes it: one line.
    let plan: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/fixtures/terraform/plan/count_for_each/plan.json")).unwrap(),
    )
    .unwrap();
    let mut one_line = serde_json::to_string(&plan).unwrap();
    // Much longer than any excerpt, with two-byte characters before the
    // finding (its column counts characters).
    one_line = one_line.replacen("{", &format!("{{\"padding\":\"{}\",", "xé".repeat(100_000)), 1);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plan.json");
    std::fs::write(&file, &one_line).unwrap();
    let out = sqsguard(&["lint", file.to_str().unwrap(), "--select", "SQS006"]);
    let text = stdout(&out);
    assert!(text.contains("SQS006"), "{text}");
    assert!(text.len() < 2_000, "{} bytes for one finding:\n{}", text.len(), &text[..text.len().min(3000)]);
    let frame = text.lines().find(|l| l.starts_with(" 1 │ ")).expect("the code frame's line");
    assert!(frame.contains("… ") && frame.contains("\"receive_wait_time_seconds\":0"), "{frame}");
    assert!(frame.chars().count() <= 210, "{frame}");
    // The header still names the finding's real column.
    let json = sqsguard(&["lint", file.to_str().unwrap(), "--select", "SQS006", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let column = &doc["findings"][0]["column"];
    assert!(column.as_u64().unwrap() > 200_000, "{column}");
    assert!(text.contains(&format!("plan.json:1:{column}]")), "{text}");
}

#[test]
fn fix_counts_agree_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("worker.yaml");
    std::fs::copy(root().join(WORKER), &file).unwrap();
    // The report marks 6 fixable; fixing them makes a seventh fixable
    // (the retention fix follows the new visibility timeout), and the
    // count says so rather than disagree in silence.
    let report = stdout(&sqsguard(&["lint", file.to_str().unwrap()]));
    assert!(report.contains("[*] 6 fixable with `sqsguard lint --fix`"), "{report}");
    let passes = "(in 2 passes: the first fixes made others fixable)";
    let diff = sqsguard(&["lint", file.to_str().unwrap(), "--diff"]);
    assert!(
        stderr(&diff).contains(&format!("sqsguard: the diff fixes 7 findings in 1 file {passes}")),
        "{}",
        stderr(&diff)
    );
    let out = sqsguard(&["lint", file.to_str().unwrap(), "--fix"]);
    let (said, report) = (stderr(&out), stdout(&out));
    assert!(said.contains(&format!("sqsguard: fixed 7 findings in 1 file {passes}\n")), "{said}");
    // What remains: no "no safe fixes" after fixing some.
    // (SQS005 is not among them: the inline handler was read and returns
    // no batch item failures, so its fix would only move the problem.)
    assert!(report.ends_with("1 fixable only with `sqsguard lint --fix --unsafe-fixes`.\n"), "{report}");
    assert!(!said.contains("(s)") && !report.contains("(s)"), "{said}{report}");
    // --quiet: the report's findings only, and no count on standard error.
    std::fs::copy(root().join(WORKER), &file).unwrap();
    let out = sqsguard(&["lint", file.to_str().unwrap(), "--fix", "--quiet"]);
    assert_eq!(stderr(&out), "");
    assert!(stdout(&out).contains("SQS017") && !stdout(&out).contains("sqsguard:"), "{}", stdout(&out));
}
