//! Files and folders: nothing dropped in silence, nothing that hangs.
//! Symlinked templates and folders are followed (a loop is a note), each
//! real file linted once; FIFOs, sockets and devices are notes, never
//! opened to wait or read without end; a folder named on the command line
//! that cannot be read fails the run; a file named with no template's name
//! that is no YAML or JSON is skipped with a note, not an SQS000; and the
//! inputs of terraform-aws-modules/sqs/aws that set a queue policy or keep
//! its DLQ encrypted are read.
//!
//! The hostile inputs are made at test time (FIFOs, sockets, symlinks,
//! loops): they cannot be committed.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const HEAD: &str = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n";

/// A template with no finding (a topic, no queue).
const CLEAN: &str = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  T:\n    Type: AWS::SNS::Topic\n";

/// A queue with no DLQ: one SQS004 at least.
fn lonely() -> String {
    format!("{HEAD}  Lonely:\n    Type: AWS::SQS::Queue\n")
}

/// Runs `command` to its end, or kills it after `limit` and fails: a run
/// that waits on a FIFO must fail the test, not hang the suite.
fn finishes(mut command: Command, limit: Duration) -> Output {
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?} (killed): {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sqsguard_in(dir: &Path, args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sqsguard"));
    command.args(args).current_dir(dir);
    finishes(command, Duration::from_secs(60))
}

/// `lint --format json ARGS` in `dir`: the exit status and the document.
fn lint_json(dir: &Path, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let out = sqsguard_in(dir, &all);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let doc = serde_json::from_slice(&out.stdout).unwrap_or_else(|_| panic!("not JSON: {stderr}"));
    (out.status.code(), doc)
}

/// `file: message` of every note.
fn notes(doc: &Value) -> Vec<String> {
    doc["notes"]
        .as_array()
        .map(|n| n.iter().map(|n| format!("{}: {}", n["file"].as_str().unwrap_or("?"), n["message"])).collect())
        .unwrap_or_default()
}

fn has_note(doc: &Value, file: &str, words: &str) -> bool {
    doc["notes"].as_array().is_some_and(|n| {
        n.iter().any(|n| n["file"] == file && n["message"].as_str().is_some_and(|m| m.contains(words)))
    })
}

/// The distinct files the findings are in, sorted.
fn finding_files(doc: &Value) -> Vec<String> {
    let mut files: Vec<String> =
        doc["findings"].as_array().unwrap().iter().filter_map(|f| f["file"].as_str().map(String::from)).collect();
    files.sort();
    files.dedup();
    files
}

fn rules(doc: &Value) -> Vec<String> {
    doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect()
}

fn mkfifo(path: &Path) {
    let out = Command::new("mkfifo").arg(path).output().expect("mkfifo runs");
    assert!(out.status.success(), "mkfifo: {}", String::from_utf8_lossy(&out.stderr));
}

// 1. Symlinks.

#[test]
fn a_symlinked_folder_of_templates_is_walked() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("shared");
    fs::create_dir(&real).unwrap();
    fs::write(real.join("queue.yaml"), lonely()).unwrap();
    let repo = dir.path().join("repo");
    fs::create_dir(&repo).unwrap();
    symlink(&real, repo.join("stacks")).unwrap();
    symlink(real.join("queue.yaml"), repo.join("linked.yaml")).unwrap();
    let (_, doc) = lint_json(&repo, &["."]);
    // Both links lead to one file: linted once, under the path met first
    // in the walk's sorted order (`linked.yaml` < `stacks`).
    assert_eq!(doc["summary"]["files"], 1, "{doc:#}");
    assert_eq!(finding_files(&doc), ["linked.yaml"], "{doc:#}");
    assert!(rules(&doc).contains(&"SQS004".to_string()), "{doc:#}");
}

#[test]
fn a_file_reached_twice_is_linted_once_under_its_first_path() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("b")).unwrap();
    fs::write(d.join("b/queue.yaml"), lonely()).unwrap();
    symlink("b", d.join("a")).unwrap();
    let (_, doc) = lint_json(d, &["."]);
    assert_eq!(doc["summary"]["files"], 1, "{doc:#}");
    assert_eq!(finding_files(&doc), ["a/queue.yaml"], "{doc:#}");
    // Named twice, by two paths: once too.
    let (_, doc) = lint_json(d, &["b/queue.yaml", "a/queue.yaml", "b"]);
    assert_eq!(doc["summary"]["files"], 1, "{doc:#}");
    assert_eq!(finding_files(&doc), ["b/queue.yaml"], "{doc:#}");
}

#[test]
fn symlink_loops_and_links_to_nothing_are_notes_not_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("stacks")).unwrap();
    fs::write(d.join("stacks/clean.yaml"), CLEAN).unwrap();
    // A folder that contains itself, a link to itself, a link to nothing.
    symlink(".", d.join("stacks/again")).unwrap();
    symlink("self.yaml", d.join("stacks/self.yaml")).unwrap();
    symlink("missing.yaml", d.join("stacks/gone.yaml")).unwrap();
    let (code, doc) = lint_json(d, &["--fail-on", "error", "stacks"]);
    assert_eq!(code, Some(0), "a loop is a note, not an error: {doc:#}");
    assert_eq!(doc["summary"]["files"], 1, "{doc:#}");
    assert!(has_note(&doc, "stacks/again", "not followed: a symlink loop"), "{:#?}", notes(&doc));
    assert!(has_note(&doc, "stacks/self.yaml", "symlink loop"), "{:#?}", notes(&doc));
    assert!(has_note(&doc, "stacks/gone.yaml", "a symlink to nothing"), "{:#?}", notes(&doc));
}

// 2. FIFOs, sockets and devices.

#[test]
fn special_files_in_a_walk_are_notes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("clean.yaml"), CLEAN).unwrap();
    mkfifo(&d.join("pipe.yaml"));
    let _socket = std::os::unix::net::UnixListener::bind(d.join("sock.yml")).unwrap();
    symlink("/dev/zero", d.join("zero.json")).unwrap();
    // Not a template's name: no note.
    mkfifo(&d.join("fifo.log"));
    let (code, doc) = lint_json(d, &["--fail-on", "error", "."]);
    assert_eq!(code, Some(0), "found in a walk, a FIFO is a note: {doc:#}");
    assert_eq!(doc["summary"]["files"], 1, "{doc:#}");
    assert_eq!(doc["summary"]["not_linted"].as_u64().unwrap_or(0), 0, "{doc:#}");
    assert!(has_note(&doc, "pipe.yaml", "not linted: a FIFO, not a file"), "{:#?}", notes(&doc));
    assert!(has_note(&doc, "sock.yml", "not linted: a socket, not a file"), "{:#?}", notes(&doc));
    assert!(has_note(&doc, "zero.json", "not linted: a device, not a file"), "{:#?}", notes(&doc));
    assert!(!notes(&doc).iter().any(|n| n.contains("fifo.log")), "{:#?}", notes(&doc));
    assert!(doc["findings"].as_array().unwrap().is_empty(), "{doc:#}");
}

#[test]
fn a_fifo_or_device_named_on_the_command_line_is_named_but_not_linted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("clean.yaml"), CLEAN).unwrap();
    mkfifo(&d.join("pipe.yaml"));
    mkfifo(&d.join("pipe.txt"));
    symlink("/dev/zero", d.join("zero.json")).unwrap();
    let start = Instant::now();
    let (code, doc) = lint_json(d, &["--fail-on", "error", "clean.yaml", "pipe.yaml", "pipe.txt", "zero.json"]);
    // /dev/zero is not read (2 GB before the plan limit stopped it).
    assert!(start.elapsed() < Duration::from_secs(20), "took {:?}", start.elapsed());
    assert_eq!(code, Some(1), "named and not linted fails the run: {doc:#}");
    assert_eq!(doc["summary"]["files"], 1, "{doc:#}");
    assert_eq!(doc["summary"]["not_linted"], 3, "{doc:#}");
    for file in ["pipe.yaml", "pipe.txt"] {
        assert!(has_note(&doc, file, "not linted: a FIFO, not a file"), "{:#?}", notes(&doc));
    }
    assert!(has_note(&doc, "zero.json", "not linted: a device, not a file"), "{:#?}", notes(&doc));
    // A note, not an SQS000: there is no template to point into.
    assert!(doc["findings"].as_array().unwrap().is_empty(), "{doc:#}");
}

#[test]
fn report_merge_refuses_a_fifo_and_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    mkfifo(&d.join("shard.json"));
    symlink("/dev/zero", d.join("zero.json")).unwrap();
    for (file, words) in
        [("shard.json", "shard.json: a FIFO, not a file"), ("zero.json", "zero.json: a device, not a file")]
    {
        let out = sqsguard_in(d, &["report", "merge", file]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
    }
}

/// Every other file a user names (a config, a baseline, a variables file,
/// an accounts list, a payload schema) is refused at once when it is a
/// FIFO or a device: exit 2 naming it, never a wait.
#[test]
fn every_file_named_to_an_option_refuses_a_fifo_and_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("t.yaml"), lonely()).unwrap();
    mkfifo(&d.join("pipe"));
    symlink("/dev/zero", d.join("zero")).unwrap();
    for special in ["pipe", "zero"] {
        for args in [
            &["lint", "t.yaml", "--config", special][..],
            &["lint", "t.yaml", "--baseline", special],
            &["lint", "t.yaml", "--var-file", special],
            &["audit", "--accounts", &format!("@{special}")],
        ] {
            let out = sqsguard_in(d, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(special) && stderr.contains("not a file"), "{args:?}: {stderr}");
        }
    }
    // A payload schema that is a FIFO (read for a content-deduplicated
    // FIFO queue): not waited on.
    let template = format!(
        "{HEAD}  Jobs:\n    Type: AWS::SQS::Queue\n    Metadata:\n      sqsguard:\n        payload-schema: pipe\n    Properties:\n      FifoQueue: true\n      ContentBasedDeduplication: true\n"
    );
    fs::write(d.join("schema.yaml"), template).unwrap();
    let out = sqsguard_in(d, &["lint", "schema.yaml"]);
    assert_ne!(out.status.code(), Some(101), "{}", String::from_utf8_lossy(&out.stderr));
}

// 3. A folder named on the command line that cannot be read.

/// `sqsguard ARGS` in `dir` as `nobody`, when this process can become it
/// (root, and setpriv present); `None` when it cannot, said loudly, and a
/// failure under CI.
fn as_nobody(dir: &Path, args: &[&str]) -> Option<Output> {
    let skip = |why: &str| {
        let message = format!("SKIPPED: cannot run sqsguard as nobody ({why})");
        eprintln!("\n*** {message} ***\n");
        assert!(std::env::var_os("CI").is_none(), "{message}");
        None
    };
    if Command::new("setpriv").arg("--version").output().is_err() {
        return skip("setpriv is not installed");
    }
    let mut command = Command::new("setpriv");
    command.args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_sqsguard")]);
    command.args(args).current_dir(dir);
    let out = finishes(command, Duration::from_secs(60));
    if out.stdout.is_empty() {
        // Not root, or the binary is not reachable by nobody.
        return skip(&String::from_utf8_lossy(&out.stderr));
    }
    Some(out)
}

#[test]
fn an_unreadable_folder_named_on_the_command_line_fails_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Others may enter the temporary folder and read what is in it, so as
    // `nobody` only `locked` cannot be read.
    fs::set_permissions(d, fs::Permissions::from_mode(0o755)).unwrap();
    fs::write(d.join("clean.yaml"), CLEAN).unwrap();
    fs::set_permissions(d.join("clean.yaml"), fs::Permissions::from_mode(0o644)).unwrap();
    let locked = d.join("locked");
    fs::create_dir(&locked).unwrap();
    fs::write(locked.join("q.yaml"), lonely()).unwrap();
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let named = as_nobody(d, &["lint", "--format", "json", "--fail-on", "error", "clean.yaml", "locked"]);
    // Found inside a walk, the same folder is a note only.
    let walked = as_nobody(d, &["lint", "--format", "json", "--fail-on", "error", "."]);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    let (Some(named), Some(walked)) = (named, walked) else { return };

    let doc: Value = serde_json::from_slice(&named.stdout).unwrap();
    assert!(has_note(&doc, "locked", "the folder cannot be read: permission denied"), "{doc:#}");
    assert_eq!(doc["summary"]["not_linted"], 1, "{doc:#}");
    assert_eq!(named.status.code(), Some(1), "{doc:#}");

    let doc: Value = serde_json::from_slice(&walked.stdout).unwrap();
    assert!(has_note(&doc, "locked", "the folder cannot be read: permission denied"), "{doc:#}");
    assert_eq!(doc["summary"]["not_linted"].as_u64().unwrap_or(0), 0, "{doc:#}");
    assert_eq!(walked.status.code(), Some(0), "{doc:#}");
}

// 4. Files named with no template's name.

#[test]
fn named_files_that_are_no_template_are_skipped_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(
        d.join("README.md"),
        "# Queues\n\nThe stack declares an `AWS::SQS::Queue` and its DLQ.\n\n## Usage\n\n```\nsqsguard lint .\n```\n\n- one: [x\n",
    )
    .unwrap();
    fs::write(d.join("notes.md"), "Deploys AWS::SQS::Queue resources, see\nthe template.\n").unwrap();
    fs::write(
        d.join("deploy.py"),
        "import boto3\n\ndef main():\n    kind = \"AWS::SQS::Queue\"\n    print({kind: [1}\n",
    )
    .unwrap();
    fs::write(d.join("pom.xml"), "<project>\n  <!-- AWS::SQS::Queue -->\n  <a>: b: c\n</project>\n").unwrap();
    fs::write(d.join("blob.bin"), [b'A', b'W', b'S', b':', b':', 0xff, 0xfe]).unwrap();
    let (code, doc) = lint_json(d, &["README.md", "notes.md", "deploy.py", "pom.xml", "blob.bin"]);
    assert_eq!(code, Some(0), "{doc:#}");
    assert!(doc["findings"].as_array().unwrap().is_empty(), "no SQS000: {doc:#}");
    assert_eq!(doc["summary"]["skipped"], 5, "{doc:#}");
    assert_eq!(doc["summary"]["not_linted"].as_u64().unwrap_or(0), 0, "{doc:#}");
    for file in ["README.md", "notes.md", "deploy.py", "pom.xml", "blob.bin"] {
        assert!(has_note(&doc, file, "its name is no template's"), "{file}: {:#?}", notes(&doc));
    }
}

#[test]
fn a_named_template_with_another_name_is_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("stack.cfn"), lonely()).unwrap();
    // A template's name keeps failing closed: a YAML error is an SQS000.
    fs::write(d.join("broken.yaml"), format!("{HEAD}  Q:\n    Type: AWS::SQS::Queue\n    Properties: [oops\n"))
        .unwrap();
    let (code, doc) = lint_json(d, &["stack.cfn", "broken.yaml"]);
    assert_eq!(code, Some(1), "{doc:#}");
    assert_eq!(doc["summary"]["files"], 2, "{doc:#}");
    let found: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["file"].as_str().unwrap().to_string(), f["rule"].as_str().unwrap().to_string()))
        .collect();
    assert!(found.contains(&("stack.cfn".into(), "SQS004".into())), "{found:?}");
    assert!(found.contains(&("broken.yaml".into(), "SQS000".into())), "{found:?}");
}

// 5. terraform-aws-modules/sqs/aws.

fn registry(name: &str) -> sqsguard::outcome::Outcome {
    common::lint(&common::root().join("tests/fixtures/terraform/modules").join(name))
}

fn has(outcome: &sqsguard::outcome::Outcome, code: &str, resource: &str) -> bool {
    outcome.findings.iter().any(|f| f.code() == code && f.resource == resource)
}

#[test]
fn registry_sqs_module_queue_policies_are_read() {
    let outcome = registry("registry_policy");
    let render = common::render(&outcome);
    // Reported on the queue, naming the policy.
    let public = |queue: &str, policy: &str| {
        outcome
            .findings
            .iter()
            .any(|f| f.code() == "SQS017" && f.resource == queue && f.full_message().contains(policy))
    };
    for (queue, policy) in [
        // queue_policy_statements with a `*` principal (v4, v5).
        ("module.statements.aws_sqs_queue.this", "policy module.statements.aws_sqs_queue_policy.this "),
        // dlq_queue_policy_statements with an AWS `*` principal.
        ("module.statements.aws_sqs_queue.dlq", "policy module.statements.aws_sqs_queue_policy.dlq "),
        // `policy`, passed to the queue itself by the oldest versions.
        ("module.legacy.aws_sqs_queue.this", "policy module.legacy.aws_sqs_queue.this "),
        // A public statement in source_queue_policy_documents.
        ("module.documents.aws_sqs_queue.this", "policy module.documents.aws_sqs_queue_policy.this "),
    ] {
        assert!(public(queue, policy), "no SQS017 on {queue} for {policy}:\n{render}");
    }
    // Restricted by a condition, or to a service: not public. No policy
    // without create_queue_policy.
    for module in ["restricted", "off"] {
        assert!(
            !outcome
                .findings
                .iter()
                .any(|f| f.code() == "SQS017" && f.resource.starts_with(&format!("module.{module}."))),
            "{render}"
        );
    }
    let notes: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).collect();
    for words in [
        "module.documents: source_queue_policy_documents[1] is only known at plan time",
        "module.documents: queue_policy_extra is no input of terraform-aws-modules/sqs/aws",
        "module.unknown: create_queue_policy is only known at plan time",
    ] {
        assert!(notes.iter().any(|n| n.contains(words)), "no note {words:?} in {notes:#?}");
    }
}

#[test]
fn registry_sqs_module_dlq_keeps_its_defaults() {
    let outcome = registry("registry_dlq");
    let render = common::render(&outcome);
    // The queue's SSE is off, the DLQ's (dlq_sqs_managed_sse_enabled,
    // true unless set) is not.
    assert!(has(&outcome, "SQS016", "module.plain.aws_sqs_queue.this"), "{render}");
    assert!(!has(&outcome, "SQS016", "module.plain.aws_sqs_queue.dlq"), "{render}");
    // Switched off for the DLQ too, or set to null (the queue's then).
    assert!(has(&outcome, "SQS016", "module.both_off.aws_sqs_queue.dlq"), "{render}");
    assert!(has(&outcome, "SQS016", "module.null_dlq.aws_sqs_queue.dlq"), "{render}");
    // The DLQ carries the queue's tags merged with dlq_tags: its payload
    // is declared, no SQS003.
    assert!(!has(&outcome, "SQS003", "module.tagged.aws_sqs_queue.dlq"), "{render}");
    assert!(!has(&outcome, "SQS003", "module.tagged.aws_sqs_queue.this"), "{render}");
    // `create = false`: the module creates nothing.
    assert!(!outcome.findings.iter().any(|f| f.resource.starts_with("module.off.")), "{render}");
}

/// A note about a link that could not be resolved quotes the expression
/// that was written, never the resource's own key: an alarm's QueueName
/// dimension and a queue policy's Queues were quoted as `OrdersAlarm` and
/// `OrdersPolicy`, which read as if the resource's name were the problem.
#[test]
fn an_unresolved_note_never_quotes_the_resource_s_own_key() {
    let fixture = common::root().join("tests/fixtures/reliability/unresolved-at-the-resource.yaml");
    let (_, doc) = lint_json(common::root(), &[fixture.to_str().unwrap()]);
    let notes = notes(&doc);
    let alarm: Vec<&String> = notes.iter().filter(|n| n.contains("QueueName dimension")).collect();
    let policy: Vec<&String> = notes.iter().filter(|n| n.contains("a queue it applies to")).collect();
    assert_eq!((alarm.len(), policy.len()), (1, 1), "{notes:#?}");
    assert!(!alarm[0].contains("`OrdersAlarm`") && alarm[0].contains("only known at deploy time"), "{}", alarm[0]);
    assert!(!policy[0].contains("`OrdersPolicy`"), "{}", policy[0]);
}
