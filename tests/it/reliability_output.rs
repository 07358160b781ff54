//! Output that tells the truth: a write that fails (`>/dev/full`,
//! `2>/dev/full`) is exit 2, never a panic (exit 101) and never a run that
//! ends as if it had been read; a run that left something out (an
//! account-Region not audited in full, a file named and not linted) fails
//! in every format, SARIF, JUnit and GitHub included; and control
//! characters in file names and messages never reach a log raw.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::fs::{self, File};
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

const LEGACY: &str = "examples/cloudformation/legacy-worker.yaml";
/// A module with a remote module call: a note, no finding.
const NOTED: &str = "tests/fixtures/terraform/modules/registry";

/// A queue whose one safe fix `--fix` writes: SSE turned on.
const FIXABLE: &str = "AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      SqsManagedSseEnabled: 'false'
";

/// Which of the two streams is the full device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Full {
    Stdout,
    Stderr,
    Both,
}

const EVERY: [Full; 3] = [Full::Stdout, Full::Stderr, Full::Both];

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn dev_full() -> Stdio {
    Stdio::from(File::create("/dev/full").unwrap())
}

/// Run sqsguard in `dir` with `full` on /dev/full (the other stream
/// captured). Whatever happens, it never panics.
fn run_full(dir: &Path, args: &[&str], full: Full, env: &[(&str, &str)]) -> Ran {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqsguard"));
    cmd.args(args).current_dir(dir).envs(env.iter().copied());
    if full != Full::Stderr {
        cmd.stdout(dev_full());
    }
    if full != Full::Stdout {
        cmd.stderr(dev_full());
    }
    let out = cmd.output().unwrap();
    let ran = Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    let context = format!("sqsguard {args:?} with {full:?} full: exit {:?}\n{}{}", ran.code, ran.stdout, ran.stderr);
    assert_ne!(ran.code, Some(101), "{context}");
    assert!(!ran.stdout.contains("panicked") && !ran.stderr.contains("panicked"), "{context}");
    ran
}

/// Exit 2 with `full` on /dev/full; when only standard output is full, the
/// error says so on standard error.
fn assert_lost(ran: &Ran, full: Full, what: &str) {
    assert_eq!(ran.code, Some(2), "{what} with {full:?} full: {}{}", ran.stdout, ran.stderr);
    if full == Full::Stdout {
        assert!(ran.stderr.contains("standard output"), "{what}: {}", ran.stderr);
        assert_eq!(ran.stderr.trim().lines().count(), 1, "{what}: {}", ran.stderr);
    }
}

#[test]
fn lint_with_findings_or_a_note_never_panics_on_a_full_device() {
    let root = common::root();
    for (path, clean) in [(LEGACY, 1), (NOTED, 1)] {
        for full in EVERY {
            let ran = run_full(root, &["lint", path], full, &[]);
            match full {
                // Lint says nothing on standard error: the report is whole.
                Full::Stderr => {
                    assert_eq!(ran.code, Some(clean), "{path}: {}", ran.stdout);
                    assert!(ran.stdout.contains("sqsguard: "), "{path}: {}", ran.stdout);
                }
                _ => assert_lost(&ran, full, path),
            }
        }
    }
    // A note in every format, the report lost: exit 2.
    for format in ["json", "sarif", "junit", "github"] {
        let ran = run_full(root, &["lint", "--format", format, NOTED], Full::Both, &[]);
        assert_eq!(ran.code, Some(2), "{format}");
    }
}

#[test]
fn an_error_that_cannot_be_said_is_still_exit_2() {
    let root = common::root();
    for full in [Full::Stderr, Full::Both] {
        let ran = run_full(root, &["lint", "no-such-file.yaml"], full, &[]);
        assert_eq!(ran.code, Some(2), "{full:?}: {}", ran.stdout);
        let ran = run_full(root, &["lint", "--no-such-flag"], full, &[]);
        assert_eq!(ran.code, Some(2), "{full:?}: {}", ran.stdout);
    }
}

#[test]
fn help_and_version_that_cannot_be_written_are_exit_2() {
    let root = common::root();
    for args in [
        &["--help"][..],
        &["--version"],
        &["lint", "--help"],
        &["rules"],
        &["explain", "SQS001"],
        &["schema", "config"],
    ] {
        for full in [Full::Stdout, Full::Both] {
            let ran = run_full(root, args, full, &[]);
            assert_eq!(ran.code, Some(2), "{args:?} {full:?}: {}", ran.stderr);
        }
        // Standard error full does not matter when nothing is said there.
        let ran = run_full(root, args, Full::Stderr, &[]);
        assert_eq!(ran.code, Some(0), "{args:?}: {}", ran.stdout);
        assert!(!ran.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_baseline_is_recorded_and_a_lost_word_about_it_is_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(common::root().join(LEGACY), dir.path().join("t.yaml")).unwrap();
    let ran = run_full(dir.path(), &["lint", "t.yaml", "--write-baseline", "base.json"], Full::Stderr, &[]);
    assert_eq!(ran.code, Some(2));
    let baseline: Value = serde_json::from_str(&fs::read_to_string(dir.path().join("base.json")).unwrap()).unwrap();
    assert!(baseline.is_object(), "{baseline}");
}

#[test]
fn fix_writes_its_fixes_and_is_exit_2_when_its_report_is_lost() {
    for full in EVERY {
        for format in ["pretty", "json"] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.yaml");
            fs::write(&path, FIXABLE).unwrap();
            let ran = run_full(dir.path(), &["lint", "--fix", "--format", format, "t.yaml"], full, &[]);
            assert_eq!(ran.code, Some(2), "{full:?} {format}: {}{}", ran.stdout, ran.stderr);
            let now = fs::read_to_string(&path).unwrap();
            assert!(now.contains("SqsManagedSseEnabled: 'true'"), "{full:?} {format}: the fix was not written:\n{now}");
            if full == Full::Stderr {
                // The report of what remains is whole on standard output.
                assert!(ran.stdout.contains("SQS004") || ran.stdout.contains("sqsguard: "), "{}", ran.stdout);
            }
        }
    }
    // --diff: its count goes to standard error.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("t.yaml"), FIXABLE).unwrap();
    let ran = run_full(dir.path(), &["lint", "--diff", "t.yaml"], Full::Stderr, &[]);
    assert_eq!(ran.code, Some(2));
    assert!(ran.stdout.contains("+      SqsManagedSseEnabled: 'true'"), "{}", ran.stdout);
}

/// An `sqsguard audit --format json` document: `unaudited` pairs (one not
/// read, one read in part with a finding), or none.
fn shard(unaudited: bool) -> String {
    let gaps = if unaudited {
        r#"[
            {"account": "111111111111", "region": "us-east-1", "partial": false,
             "reason": "AccessDenied: not authorized to perform sqs:ListQueues"},
            {"account": "111111111111", "region": "eu-west-1", "partial": true,
             "reason": "1 operation refused", "apis": ["DescribeAlarms"], "rules": ["SQS015"]}
        ]"#
    } else {
        "[]"
    };
    format!(
        r#"{{"version": 1,
            "findings": [{{"rule": "SQS101", "name": "dlq-not-empty", "severity": "error", "file": null,
                "resource": "https://sqs.eu-west-1.amazonaws.com/111111111111/jobs-dlq",
                "account": "111111111111", "region": "eu-west-1", "message": "3 messages", "fix": "redrive them"}}],
            "summary": {{"files": 1, "skipped": 0, "errors": 1, "warnings": 0, "infos": 0, "suppressed": 0,
                "api_calls": 9, "unaudited": {gaps}}}}}"#
    )
}

fn merged(dir: &Path, unaudited: bool, format: &str) -> (Option<i32>, String) {
    let path = dir.join(format!("audit-{unaudited}.json"));
    fs::write(&path, shard(unaudited)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["report", "merge", "--format", format])
        .arg(&path)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn report_merge_never_panics_on_a_full_device() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.json"), shard(true)).unwrap();
    for full in EVERY {
        let ran = run_full(dir.path(), &["report", "merge", "a.json"], full, &[]);
        match full {
            Full::Stderr => assert_eq!(ran.code, Some(1), "{}", ran.stdout),
            _ => assert_lost(&ran, full, "report merge"),
        }
        // A document that cannot be merged: its error, lost or not, is exit 2.
        let ran = run_full(dir.path(), &["report", "merge", "no-such.json"], full, &[]);
        assert_eq!(ran.code, Some(2), "{full:?}");
    }
}

#[test]
fn an_audit_that_cannot_be_said_is_exit_2() {
    // No credentials: one line on standard error, which is full.
    let home = tempfile::tempdir().unwrap();
    let path = std::env::var("PATH").unwrap_or_default();
    let env = [("HOME", home.path().to_str().unwrap()), ("PATH", path.as_str()), ("AWS_EC2_METADATA_DISABLED", "true")];
    for full in [Full::Stderr, Full::Both] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqsguard"));
        cmd.args(["audit", "--region", "us-east-1", "--endpoint-url", "http://127.0.0.1:1"]).env_clear().envs(env);
        cmd.stderr(dev_full());
        if full == Full::Both {
            cmd.stdout(dev_full());
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{full:?}: {}", String::from_utf8_lossy(&out.stdout));
    }
    // A real audit against moto: its report lost is exit 2.
    let Some(moto) = common::moto() else { return };
    let args = ["audit", "--region", "us-east-1", "--endpoint-url", &moto.endpoint];
    let env = [("AWS_ACCESS_KEY_ID", "test"), ("AWS_SECRET_ACCESS_KEY", "test"), ("AWS_EC2_METADATA_DISABLED", "true")];
    for full in EVERY {
        for format in ["pretty", "json", "sarif"] {
            let mut all = args.to_vec();
            all.extend(["--format", format]);
            let ran = run_full(common::root(), &all, full, &env);
            match full {
                Full::Stderr => assert_eq!(ran.code, Some(0), "{format}: {}", ran.stdout),
                _ => assert_lost(&ran, full, "audit"),
            }
        }
    }
}

fn error_notifications(sarif: &Value) -> Vec<&Value> {
    sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|n| n["level"] == "error")
        .collect()
}

/// `::name k=v,...::message` -> (name, the title, the file, the message).
fn command(line: &str) -> Option<(&str, String, Option<String>, &str)> {
    let rest = line.strip_prefix("::")?;
    let (head, message) = rest.split_once("::")?;
    let (name, props) = head.split_once(' ').unwrap_or((head, ""));
    let prop = |key: &str| {
        props.split(',').find_map(|p| p.strip_prefix(&format!("{key}="))).map(|v| {
            v.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")
        })
    };
    Some((name, prop("title").unwrap_or_default(), prop("file"), message))
}

/// The `<testcase>`s with an `<error>`: (suite, case, message).
fn junit_errors(xml: &str) -> (roxmltree::Document<'_>, Vec<(String, String, String)>) {
    let dom = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("JUnit does not parse ({e}):\n{xml}"));
    let errors = dom
        .descendants()
        .filter(|n| n.has_tag_name("error"))
        .map(|e| {
            let case = e.parent_element().unwrap();
            let suite = case.parent_element().unwrap();
            let attr = |n: roxmltree::Node, k: &str| n.attribute(k).unwrap_or_default().to_string();
            (attr(suite, "name"), attr(case, "name"), attr(e, "message"))
        })
        .collect();
    (dom, errors)
}

#[test]
fn an_incomplete_audit_fails_in_sarif_junit_and_github() {
    let dir = tempfile::tempdir().unwrap();
    let not_read = "account 111111111111 in us-east-1: not audited (AccessDenied";
    let in_part = "account 111111111111 in eu-west-1: read in part (1 operation refused); blind: SQS015";

    let (code, text) = merged(dir.path(), true, "sarif");
    assert_eq!(code, Some(1));
    let sarif: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], false, "{sarif:#}");
    let errors = error_notifications(&sarif);
    assert_eq!(errors.len(), 2, "{sarif:#}");
    assert!(errors[0]["message"]["text"].as_str().unwrap().contains(in_part), "{errors:?}");
    assert!(errors[1]["message"]["text"].as_str().unwrap().contains(not_read), "{errors:?}");

    let (_, xml) = merged(dir.path(), true, "junit");
    let (dom, errors) = junit_errors(&xml);
    assert_eq!(dom.root_element().attribute("errors"), Some("2"), "{xml}");
    assert_eq!(errors.len(), 2, "{xml}");
    assert_eq!((errors[0].0.as_str(), errors[0].1.as_str()), ("live 111111111111/eu-west-1", "read in part"));
    assert!(errors[0].2.contains(in_part), "{errors:?}");
    assert_eq!((errors[1].0.as_str(), errors[1].1.as_str()), ("live 111111111111/us-east-1", "not audited"));
    assert!(errors[1].2.contains(not_read), "{errors:?}");
    // A pair not read has no passing testcase.
    assert!(!xml.contains("no findings"), "{xml}");

    let (_, github) = merged(dir.path(), true, "github");
    let gaps: Vec<_> = github.lines().filter_map(command).filter(|c| c.1.starts_with("sqsguard: ")).collect();
    assert_eq!(gaps.len(), 2, "{github}");
    assert!(gaps.iter().all(|(name, _, file, _)| *name == "error" && file.is_none()), "{github}");
    assert_eq!(gaps[0].1, "sqsguard: read in part");
    assert!(gaps[0].3.contains(in_part), "{github}");
    assert_eq!(gaps[1].1, "sqsguard: not audited");
    assert!(gaps[1].3.contains(not_read), "{github}");

    // The same audit, every pair read: a success, no error anywhere.
    let (code, text) = merged(dir.path(), false, "sarif");
    assert_eq!(code, Some(1), "the finding still fails it");
    let sarif: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], true);
    assert!(error_notifications(&sarif).is_empty());
    let (_, xml) = merged(dir.path(), false, "junit");
    assert!(junit_errors(&xml).1.is_empty(), "{xml}");
    let (_, github) = merged(dir.path(), false, "github");
    assert!(!github.contains("title=sqsguard%3A"), "{github}");
}

#[test]
fn a_file_named_and_not_linted_fails_in_sarif_junit_and_github() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("serverless.ts"), "export default { service: 'jobs' };\n").unwrap();
    fs::copy(common::root().join("examples/cloudformation/orders-sam.yaml"), dir.path().join("clean.yaml")).unwrap();
    let lint = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .args(["lint", "--format", format, "serverless.ts", "clean.yaml"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: named and not linted fails the run");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };

    let sarif: Value = serde_json::from_str(&lint("sarif")).unwrap();
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], false, "{sarif:#}");
    let errors = error_notifications(&sarif);
    assert_eq!(errors.len(), 1, "{sarif:#}");
    let message = errors[0]["message"]["text"].as_str().unwrap();
    assert!(message.starts_with("serverless.ts: named on the command line and not linted: "), "{message}");
    assert!(message.contains("Serverless Framework service written as code"), "{message}");
    assert_eq!(errors[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "serverless.ts");

    let xml = lint("junit");
    let (dom, errors) = junit_errors(&xml);
    assert_eq!(dom.root_element().attribute("errors"), Some("1"), "{xml}");
    assert_eq!(errors.len(), 1);
    assert_eq!((errors[0].0.as_str(), errors[0].1.as_str()), ("serverless.ts", "not linted"));
    // No passing testcase for it; the clean file keeps its own.
    let suite = dom.descendants().find(|n| n.attribute("name") == Some("serverless.ts")).unwrap();
    assert_eq!(suite.children().filter(|n| n.has_tag_name("testcase")).count(), 1, "{xml}");
    let clean = dom.descendants().find(|n| n.attribute("name") == Some("clean.yaml")).unwrap();
    assert!(clean.descendants().any(|n| n.attribute("name") == Some("no findings")), "{xml}");

    let github = lint("github");
    let gaps: Vec<_> = github.lines().filter_map(command).filter(|c| c.1 == "sqsguard: not linted").collect();
    assert_eq!(gaps.len(), 1, "{github}");
    assert_eq!(gaps[0].0, "error");
    assert_eq!(gaps[0].2.as_deref(), Some("serverless.ts"));
    assert!(gaps[0].3.starts_with("serverless.ts: named on the command line and not linted"), "{github}");
}

#[test]
fn a_real_audit_with_a_denied_api_fails_in_sarif_junit_and_github() {
    // moto enforces IAM after its first six requests, which build the
    // scene (tests/fixtures/audit/restricted.py): the Region is read in part.
    let Some(moto) = common::moto_with(&[("INITIAL_NO_AUTH_ACTION_COUNT", "6")]) else { return };
    let setup = Command::new(common::venv_tool("python").unwrap())
        .arg(common::root().join("tests/fixtures/audit/restricted.py"))
        .arg(&moto.endpoint)
        .output()
        .unwrap();
    assert!(setup.status.success(), "{}", String::from_utf8_lossy(&setup.stderr));
    let keys: Value = serde_json::from_slice(&setup.stdout).unwrap();
    let audit = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .args(["audit", "--region", "us-east-1", "--endpoint-url", &moto.endpoint, "--format", format])
            .env("AWS_ACCESS_KEY_ID", keys["key"].as_str().unwrap())
            .env("AWS_SECRET_ACCESS_KEY", keys["secret"].as_str().unwrap())
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let sarif: Value = serde_json::from_str(&audit("sarif")).unwrap();
    assert_eq!(sarif["runs"][0]["invocations"][0]["executionSuccessful"], false, "{sarif:#}");
    let errors = error_notifications(&sarif);
    assert_eq!(errors.len(), 1, "{sarif:#}");
    assert!(errors[0]["message"]["text"].as_str().unwrap().contains("us-east-1: read in part"), "{errors:?}");

    let xml = audit("junit");
    let (_, errors) = junit_errors(&xml);
    assert_eq!(errors.len(), 1, "{xml}");
    assert_eq!(errors[0].1, "read in part");
    assert!(errors[0].2.contains("DescribeAlarms") || errors[0].2.contains("read in part"), "{errors:?}");

    let github = audit("github");
    let gaps: Vec<_> = github.lines().filter_map(command).filter(|c| c.1 == "sqsguard: read in part").collect();
    assert_eq!(gaps.len(), 1, "{github}");
    assert_eq!(gaps[0].0, "error");
}

/// ESC, another C0 control, DEL and C1's CSI.
const CONTROLS: [char; 4] = ['\u{1b}', '\u{7}', '\u{7f}', '\u{9b}'];

#[test]
fn control_characters_in_names_and_messages_are_written_out() {
    let dir = tempfile::tempdir().unwrap();
    let name = "q\u{1b}[31mred\u{9b}2J.yaml";
    // A queue named with every kind of control character (YAML escapes),
    // which the findings' messages and resources name.
    let template = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  \"Jobs\\e[2J\\a\\x7f\\x9b\":\n    Type: AWS::SQS::Queue\n    Properties:\n      SqsManagedSseEnabled: 'false'\n";
    fs::write(dir.path().join(name), template).unwrap();
    let lint = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .args(["lint", "--format", format, "."])
            .current_dir(dir.path())
            .env_remove("NO_COLOR")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for format in ["pretty", "github", "junit", "json", "sarif"] {
        let text = lint(format);
        for c in CONTROLS {
            assert!(!text.contains(c), "{format}: {c:?} printed raw:\n{text:?}");
        }
        match format {
            "json" | "sarif" => {
                // The same strings, escaped by the JSON text (SARIF's
                // URIs are percent-encoded; its resource names are not).
                assert!(text.contains("Jobs\\u001b[2J\\u0007\\u007f\\u009b"), "{format}: {text}");
                if format == "json" {
                    assert!(text.contains("\\u001b[31mred\\u009b2J.yaml"), "{format}: {text}");
                }
                let doc: Value = serde_json::from_str(&text).unwrap();
                let file = if format == "json" {
                    doc["findings"][0]["file"].clone()
                } else {
                    doc["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].clone()
                };
                let file = file.as_str().unwrap().to_string();
                let want = if format == "json" { format!("./{name}") } else { "q%1B%5B31mred%C2%9B2J.yaml".into() };
                assert_eq!(file.trim_start_matches("./"), want.trim_start_matches("./"), "{format}");
                if format == "json" {
                    let resource = doc["findings"][0]["resource"].as_str().unwrap();
                    assert_eq!(resource, "Jobs\u{1b}[2J\u{7}\u{7f}\u{9b}");
                }
            }
            _ => {
                assert!(text.contains("q\\u{1b}[31mred\\u{9b}2J.yaml"), "{format}: the file name:\n{text}");
                assert!(text.contains("Jobs\\u{1b}[2J\\u{7}\\u{7f}\\u{9b}"), "{format}: the resource:\n{text}");
            }
        }
        if format == "junit" {
            roxmltree::Document::parse(&text).unwrap();
        }
    }
}

/// Whether this process runs as root: making a device node and giving a
/// file to another user need it (CI runs as root).
fn is_root() -> bool {
    Command::new("id").arg("-u").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

fn sqsguard_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(dir).output().unwrap()
}

fn kind(path: &Path) -> String {
    use std::os::unix::fs::FileTypeExt as _;
    let t = fs::symlink_metadata(path).unwrap().file_type();
    let kind = if t.is_symlink() {
        "symlink"
    } else if t.is_char_device() {
        "character device"
    } else if t.is_fifo() {
        "fifo"
    } else if t.is_file() {
        "regular file"
    } else {
        "other"
    };
    kind.to_string()
}

/// `--output` and `--sarif-file` write what the name points at: a device
/// stays a device (as root, `--output /dev/null` once made `/dev/null` a
/// regular file for the whole machine), a FIFO's reader gets the bytes, a
/// link to standard output (`/dev/stdout`, `/proc/self/fd/1`) writes to
/// it, a symlink to a file is followed and stays a link, and a folder is
/// refused with exit 2.
#[test]
fn outputs_write_through_devices_fifos_and_standard_output_and_follow_links() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::copy(common::root().join(LEGACY), d.join("t.yaml")).unwrap();

    if is_root() {
        let made = Command::new("mknod").args(["-m", "666", "null", "c", "1", "3"]).current_dir(d).status().unwrap();
        assert!(made.success());
        for args in [
            &["graph", "t.yaml", "--output", "null"][..],
            &["lint", "t.yaml", "--sarif-file", "null"][..],
            &["report", "merge", "shard.json", "--output", "null"][..],
        ] {
            fs::write(d.join("shard.json"), shard(false)).unwrap();
            let out = sqsguard_in(d, args);
            assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(kind(&d.join("null")), "character device", "{args:?} replaced the device");
        }
    } else {
        common::skipped("making a device node needs root");
    }

    // A FIFO: its reader gets the graph, and it stays a FIFO.
    assert!(Command::new("mkfifo").arg(d.join("fifo")).status().unwrap().success());
    let reader = {
        let fifo = d.join("fifo");
        std::thread::spawn(move || fs::read_to_string(fifo).unwrap())
    };
    let out = sqsguard_in(d, &["graph", "t.yaml", "--output", "fifo"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let read = reader.join().unwrap();
    assert!(read.starts_with("flowchart"), "the FIFO's reader got: {read:?}");
    assert_eq!(kind(&d.join("fifo")), "fifo");

    // Standard output by name, and through a symlink to /proc/self/fd/1:
    // the SARIF follows what --format printed there.
    std::os::unix::fs::symlink("/proc/self/fd/1", d.join("out")).unwrap();
    for name in ["/dev/stdout", "out"] {
        let out = sqsguard_in(d, &["lint", "t.yaml", "--format", "concise", "--sarif-file", name]);
        assert_eq!(out.status.code(), Some(1));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let sarif_at = stdout.find("{").unwrap_or_else(|| panic!("{name}: no SARIF on standard output:\n{stdout}"));
        assert!(stdout[..sarif_at].contains("SQS002"), "{name}: the concise report comes first:\n{stdout}");
        let sarif: Value = serde_json::from_str(&stdout[sarif_at..]).unwrap();
        assert_eq!(sarif["version"], "2.1.0");
    }
    assert_eq!(kind(&d.join("out")), "symlink", "the link to standard output is still a link");

    // A symlink to a file: followed, the link kept.
    fs::write(d.join("real.mmd"), "old").unwrap();
    std::os::unix::fs::symlink("real.mmd", d.join("link.mmd")).unwrap();
    let out = sqsguard_in(d, &["graph", "t.yaml", "--output", "link.mmd"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(kind(&d.join("link.mmd")), "symlink");
    assert!(fs::read_to_string(d.join("real.mmd")).unwrap().starts_with("flowchart"));

    // A folder: refused, exit 2, nothing else touched.
    fs::create_dir(d.join("folder")).unwrap();
    let out = sqsguard_in(d, &["graph", "t.yaml", "--output", "folder"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("folder"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// A file the user names keeps its owner, group, mode and hard links when
/// sqsguard rewrites it: `--fix` as root in a teammate's checkout once
/// gave the file to root and split its hard links; `--output` too.
#[test]
fn rewritten_files_keep_their_owner_mode_and_hard_links() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let template = d.join("t.yaml");
    fs::write(&template, FIXABLE).unwrap();
    fs::set_permissions(&template, fs::Permissions::from_mode(0o664)).unwrap();
    fs::hard_link(&template, d.join("twin.yaml")).unwrap();
    let graph = d.join("graph.mmd");
    fs::write(&graph, "old").unwrap();
    fs::set_permissions(&graph, fs::Permissions::from_mode(0o640)).unwrap();
    let owner = if is_root() {
        std::os::unix::fs::chown(&template, Some(4242), Some(4343)).unwrap();
        std::os::unix::fs::chown(&graph, Some(4242), Some(4343)).unwrap();
        Some((4242, 4343))
    } else {
        common::skipped("giving a file to another user needs root: only modes and links are checked");
        None
    };

    let out = sqsguard_in(d, &["lint", "--fix", "t.yaml"]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
    let twin = fs::read_to_string(d.join("twin.yaml")).unwrap();
    assert!(twin.contains("SqsManagedSseEnabled: 'true'"), "the hard link was split:\n{twin}");
    let meta = fs::metadata(&template).unwrap();
    assert_eq!(meta.nlink(), 2);
    assert_eq!(meta.permissions().mode() & 0o7777, 0o664);
    if let Some(owner) = owner {
        assert_eq!((meta.uid(), meta.gid()), owner, "--fix gave the file away");
    }

    let out = sqsguard_in(d, &["graph", "t.yaml", "--output", "graph.mmd"]);
    assert_eq!(out.status.code(), Some(0));
    let meta = fs::metadata(&graph).unwrap();
    assert!(fs::read_to_string(&graph).unwrap().starts_with("flowchart"));
    assert_eq!(meta.permissions().mode() & 0o7777, 0o640);
    if let Some(owner) = owner {
        assert_eq!((meta.uid(), meta.gid()), owner, "--output gave the file away");
    }
}
