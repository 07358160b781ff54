//! The command-line interface (README.md, docs/): exit codes, the JSON shape,
//! plain output off a terminal, rules and explain.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use common::{sqsguard, stdout};
use serde_json::Value;

#[test]
fn exit_codes_follow_fail_on() {
    let clean = "tests/fixtures/cli/clean.yaml";
    let warn = "tests/fixtures/cli/warnings-only.yaml";
    let code = |args: &[&str]| sqsguard(args).status.code();
    assert_eq!(code(&["lint", clean]), Some(0));
    assert_eq!(code(&["lint", warn]), Some(1));
    assert_eq!(code(&["lint", warn, "--fail-on", "error"]), Some(0));
    assert_eq!(code(&["lint", warn, "--fail-on", "warning"]), Some(1));
    assert_eq!(code(&["lint", warn, "--fail-on", "info"]), Some(1));
    assert_eq!(code(&["lint", warn, "--fail-on", "never"]), Some(0));
    assert_eq!(code(&["lint", warn, "--ignore", "SQS004,SQS006"]), Some(0));
    assert_eq!(code(&["lint", warn, "--select", "SQS004"]), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    let code = |args: &[&str]| sqsguard(args).status.code();
    assert_eq!(code(&["lint", "--format", "yaml", "."]), Some(2));
    assert_eq!(code(&["lint", "--no-such-flag"]), Some(2));
    assert_eq!(code(&["lint", "does/not/exist.yaml"]), Some(2));
    assert_eq!(code(&["lint", "--select", "SQS999", "tests/fixtures/cli"]), Some(2));
    assert_eq!(code(&["explain", "SQS999"]), Some(2));
    assert_eq!(code(&["frobnicate"]), Some(2));
}

#[test]
fn json_has_exactly_the_documented_shape() {
    let out = sqsguard(&["lint", "--format", "json", "tests/fixtures/cli"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&stdout(&out)).expect("valid JSON");
    assert_eq!(doc["version"], 1);
    let finding = &doc["findings"][0];
    let mut keys: Vec<&str> = finding.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    // A finding with a fix also carries its edits and their applicability.
    assert_eq!(
        keys,
        [
            "applicability",
            "column",
            "edits",
            "end_column",
            "end_line",
            "file",
            "fix",
            "line",
            "message",
            "name",
            "resource",
            "rule",
            "severity"
        ]
    );
    assert_eq!(finding["applicability"], "unsafe", "SQS004's new queue is an unsafe fix");
    let edit = &finding["edits"][0];
    let mut edit_keys: Vec<&str> = edit.as_object().unwrap().keys().map(String::as_str).collect();
    edit_keys.sort_unstable();
    assert_eq!(edit_keys, ["column", "end_column", "end_line", "file", "line", "replacement"]);
    assert_eq!(finding["file"], "tests/fixtures/cli/warnings-only.yaml");
    assert_eq!(finding["resource"], "Lonely");
    assert_eq!((finding["line"].as_u64(), finding["column"].as_u64()), (Some(4), Some(3)));
    let summary = &doc["summary"];
    assert_eq!(summary["files"], 2, "clean.yaml and warnings-only.yaml");
    assert_eq!(summary["skipped"], 1, "workflow.yaml is not a template");
    assert_eq!(summary["errors"], 0);
    assert_eq!(summary["warnings"], 2);
    assert_eq!(summary["infos"], 0);
}

#[test]
fn output_off_a_terminal_is_plain_text() {
    let out = sqsguard(&["lint", "tests/fixtures/cli/warnings-only.yaml"]);
    let text = stdout(&out);
    assert!(!text.contains('\u{1b}'), "ANSI escape in non-terminal output:\n{text}");
    assert!(text.contains("SQS004 missing-dlq (warning)"), "{text}");
    assert!(text.contains("warnings-only.yaml:4:3"), "{text}");
    assert!(text.contains("help: add a RedrivePolicy"), "{text}");
    assert!(
        text.trim_end().ends_with(
            "sqsguard: 0 errors, 2 warnings, 0 infos in 1 file (0 skipped)\n[*] 1 fixable with `sqsguard lint --fix` (1 more with `--unsafe-fixes`)."
        ),
        "{text}"
    );
}

#[test]
fn non_templates_are_skipped_silently() {
    let out = sqsguard(&["lint", "tests/fixtures/cli/workflow.yaml"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("in 0 files (1 skipped)"));
}

/// Files pre-commit passes because of their extension, named on the
/// command line as it names them: `service` and `provider` keys nested in a
/// workflow step, an Ansible task or a policy's condition make no Serverless
/// service, and another cloud's service deploys no SQS pipeline. None is a
/// note or an SQS000, and the run passes; `--show-skipped` says why each
/// was skipped.
#[test]
fn nested_service_and_provider_keys_are_no_serverless_service() {
    let dir = "tests/fixtures/not-infrastructure";
    let files =
        [".github/workflows/deploy.yml", "playbooks/site.yml", "iam/github-deploy-trust.json", "serverless.yml"];
    let paths: Vec<String> = files.iter().map(|f| format!("{dir}/{f}")).collect();
    let mut args = vec!["lint", "--show-skipped", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let out = sqsguard(&args);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{json:#}");
    assert_eq!(json["findings"], serde_json::json!([]), "{json:#}");
    assert!(json["notes"].as_array().is_none_or(Vec::is_empty), "{json:#}");
    assert_eq!(json["summary"]["skipped"], 4, "{json:#}");
    let out = sqsguard(&[&["lint", "--show-skipped"][..], &args[4..]].concat());
    let text = format!("{}{}", stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("serverless.yml: a Serverless Framework service for provider `google`"), "{text}");
    assert!(!text.contains("looks like a Serverless Framework service"), "{text}");
}

#[test]
fn rules_and_explain_cover_the_catalog() {
    let out = sqsguard(&["rules", "--format", "json"]);
    let rows: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let codes: Vec<&str> = rows.as_array().unwrap().iter().map(|r| r["code"].as_str().unwrap()).collect();
    assert_eq!(codes.len(), 35);
    assert_eq!(codes.first(), Some(&"SQS000"));
    assert_eq!(codes.last(), Some(&"SQS206"));
    let page = stdout(&sqsguard(&["explain", "sqs001"]));
    assert!(page.starts_with("# SQS001 visibility-timeout-below-6x"), "{page}");
    let page = stdout(&sqsguard(&["explain", "SQS018"]));
    assert!(page.starts_with("# SQS018 queue-url-where-arn-expected\n\nSeverity: error\n"), "{page}");
}

#[test]
fn every_page_in_rules_folder_belongs_to_a_rule() {
    for entry in std::fs::read_dir(common::root().join("rules")).unwrap() {
        let entry = entry.unwrap();
        // rules/code holds the code rules' patterns, not pages.
        if entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let code = name.trim_end_matches(".md");
        assert!(sqsguard::rules::by_code(code).is_some(), "rules/{name} documents no registered rule");
    }
}

/// One line on standard error, exit 2.
fn refused(args: &[&str]) -> String {
    let out = sqsguard(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}");
    stderr
}

#[cfg(feature = "audit")]
#[test]
fn bad_audit_scopes_are_one_line_and_exit_2_before_any_call() {
    // No endpoint would answer: these fail before AWS is asked anything.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("accounts.txt");
    std::fs::write(&list, "111111111111\n22222222222x # a typo\n").unwrap();
    let file = format!("@{}", list.display());
    let missing = format!("@{}", dir.path().join("none.txt").display());
    for (args, says) in [
        (&["audit", "--accounts", "12345"][..], "\"12345\" is not an AWS account ID"),
        (&["audit", "--accounts", &file], "line 2: \"22222222222x\" is not an AWS account ID"),
        (&["audit", "--accounts", &missing], "none.txt: no such file"),
        (&["audit", "--shard", "4/3"], "--shard 4/3: use I/N with 1 <= I <= N"),
        (&["audit", "--shard", "0/3"], "--shard 0/3"),
        (&["audit", "--pair-deadline", "soon"], "--pair-deadline soon"),
    ] {
        assert!(refused(args).contains(says), "{args:?}");
    }
    // clap's own words, with its usage hint.
    assert_eq!(sqsguard(&["audit", "--regions", "most"]).status.code(), Some(2));
    assert_eq!(sqsguard(&["audit", "--regions", "all", "--region", "eu-west-1"]).status.code(), Some(2));
}

#[test]
fn report_merge_names_the_file_it_cannot_merge() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let shard = |version: u32| {
        serde_json::json!({"version": version, "findings": [{
            "rule": "SQS004", "name": "missing-dlq", "severity": "warning", "file": null, "line": null,
            "column": null, "end_line": null, "end_column": null,
            "resource": "https://sqs.eu-west-1.amazonaws.com/111111111111/orders", "account": "111111111111",
            "region": "eu-west-1", "message": "queue orders has no RedrivePolicy", "fix": "add one"}],
          "summary": {"files": 1, "skipped": 0, "errors": 0, "warnings": 1, "infos": 0, "suppressed": 0,
                      "api_calls": 5}})
        .to_string()
    };
    let good = write("a.json", &shard(1));
    let newer = write("b.json", &shard(2));
    let other = write("c.json", "{\"name\": \"a package.json\"}");
    let broken = write("d.json", "{\"version\": 1, \"findings\": [");
    let lint = write(
        "e.json",
        &String::from_utf8(sqsguard(&["lint", "tests/fixtures/cli/warnings-only.yaml", "--format", "json"]).stdout)
            .unwrap(),
    );
    assert!(refused(&["report", "merge", &good, &newer]).contains("b.json: version 2 differs from"));
    assert!(refused(&["report", "merge", &good, &other]).contains("c.json: not an sqsguard JSON document"));
    assert!(refused(&["report", "merge", &broken]).contains("d.json: not an sqsguard JSON document"));
    assert!(refused(&["report", "merge", &lint]).contains("e.json: not an `sqsguard audit` output"));
    assert!(refused(&["report", "merge", &format!("{good}.gone")]).contains("a.json.gone: no such file"));

    // A good shard: its finding, in any format, and the exit status it calls for.
    let out = sqsguard(&["report", "merge", &good, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["findings"][0]["account"], "111111111111");
    assert_eq!(doc["summary"]["api_calls"], 5);
    assert_eq!(sqsguard(&["report", "merge", &good, "--fail-on", "error"]).status.code(), Some(0));
    let junit = stdout(&sqsguard(&["report", "merge", &good, "--format", "junit"]));
    assert!(junit.contains("111111111111") && junit.contains("eu-west-1"), "{junit}");
}
