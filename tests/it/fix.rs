//! `lint --fix` and `--diff` on real files: the whole corpus and the
//! CloudFormation and Serverless rule fixtures, copied to a temporary
//! folder and fixed there.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn sqsguard_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(dir).output().unwrap()
}

fn findings(dir: &Path, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let doc: Value = serde_json::from_slice(&sqsguard_in(dir, &all).stdout).unwrap();
    let mut out: Vec<_> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (s("rule"), s("file"), s("resource"))
        })
        .collect();
    out.sort();
    out
}

/// Copies `from` into `to`, without the snapshots that sit beside the
/// rules' fixtures (no part of what is linted or fixed).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else if !e.file_name().to_string_lossy().ends_with(".snap") {
            fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The fixtures of every rule in `front_ends`, copied into
/// `to/CODE/FRONT_END/` without their snapshots.
fn copy_rule_fixtures(front_ends: &[&str], to: &Path) {
    for rule in fs::read_dir(common::rules_dir()).unwrap().flatten() {
        for front_end in front_ends {
            let from = rule.path().join(front_end);
            if from.is_dir() {
                copy_tree(&from, &to.join(rule.file_name()).join(front_end));
            }
        }
    }
}

fn texts(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else if let Ok(text) = fs::read_to_string(e.path()) {
                out.insert(e.path().strip_prefix(dir).unwrap().to_path_buf(), text);
            }
        }
    }
    out
}

/// The keys a safe fix writes (docs/fixing.md).
const FIXED_KEYS: &[&str] = &[
    "VisibilityTimeout",
    "ReceiveMessageWaitTimeSeconds",
    "MessageRetentionPeriod",
    "maxReceiveCount",
    "BatchSize",
    "MaximumBatchingWindowInSeconds",
    "DeduplicationScope",
    "SqsManagedSseEnabled",
    "Properties",
    // SQS022's, with the ScalingConfig it creates.
    "ScalingConfig",
    "MaximumConcurrency",
    // The Serverless Framework's names.
    "batchSize",
    "maximumBatchingWindow",
    // Terraform's.
    "visibility_timeout_seconds",
    "receive_wait_time_seconds",
    "message_retention_seconds",
    "batch_size",
    "maximum_batching_window_in_seconds",
    "deduplication_scope",
    "sqs_managed_sse_enabled",
    "scaling_config",
    "maximum_concurrency",
];

/// What unsafe fixes write besides (docs/fixing.md): a parameter's
/// or a Terraform variable's default, FunctionResponseTypes, SQS012's
/// clamped attributes.
const UNSAFE_KEYS: &[&str] = &[
    "Default",
    "default",
    "FunctionResponseTypes",
    "functionResponseType",
    "DelaySeconds",
    "MaximumMessageSize",
    "KmsDataKeyReusePeriodSeconds",
    "MaximumRetryAttempts",
    "MaximumRecordAgeInSeconds",
    "timeout",
    "Timeout",
    "function_response_types",
    "delay_seconds",
    "max_message_size",
    // SQS004's new dead-letter queue and the RedrivePolicy to it.
    "RedrivePolicy",
    "deadLetterTargetArn",
    "DLQ",
    "Type: AWS::SQS::Queue",
    "\"Type\": \"AWS::SQS::Queue\"",
    "FifoQueue",
    "QueueName",
    "Condition",
    "redrive_policy",
    "resource \"aws_sqs_queue\"",
    "fifo_queue",
    "name ",
    "\"name\": ",
    "})",
    "{",
    "}",
    // SQS019's queue policy statement (or policy), SQS021's message group.
    "Policy",
    "Queues:",
    "- !Ref ",
    "Version",
    "Statement",
    "Sid",
    "Effect",
    "Principal",
    "Service",
    "Action",
    "Resource",
    "ArnEquals",
    "aws:SourceArn",
    "queue_url",
    "SqsParameters",
    "MessageGroupId",
    "sqs_target",
    "message_group_id",
];

#[test]
fn fixing_the_corpus_changes_only_what_the_fixes_mean_and_adds_no_finding() {
    fix_the_corpus(false);
}

/// The same with the unsafe fixes: parameter defaults, FunctionResponseTypes
/// and clamped values, in every style the corpus writes them.
#[test]
fn unsafe_fixes_of_the_corpus_change_only_their_lines_and_add_no_finding() {
    fix_the_corpus(true);
}

#[expect(
    clippy::too_many_lines,
    reason = "one scenario over one copied tree: fix everything, then check each changed line and each finding against the first pass"
)]
fn fix_the_corpus(unsafe_too: bool) {
    let work = tempfile::tempdir().unwrap();
    let root = work.path();
    copy_tree(&common::corpus(), &root.join("corpus"));
    copy_tree(&common::root().join("tests/fixtures/serverless"), &root.join("serverless"));
    // The template rules' fixtures, in every template front-end.
    copy_rule_fixtures(&["cloudformation", "sam", "serverless", "terraform"], &root.join("rules"));
    // and the Terraform JSON twin of each HCL module.
    for (code, module) in
        [common::rule_fixtures("terraform", "bad"), common::rule_fixtures("terraform", "good")].concat()
    {
        let twin = root.join("rules").join(code).join("terraform-json").join(module.file_name().unwrap());
        common::terraform_json::write_twin(&module, &twin);
    }
    let before_texts = texts(root);
    let before = findings(root, &["."]);
    // The lines the first pass's edits replace, by file: a value written
    // away from its resource (a variable's default, a local, a `.tfvars`
    // value, a module argument) has a key no list of settings can name.
    let listed: Value = serde_json::from_slice(&sqsguard_in(root, &["lint", ".", "--format", "json"]).stdout).unwrap();
    let mut edited_lines = std::collections::HashSet::new();
    for edit in listed["findings"].as_array().unwrap().iter().flat_map(|f| f["edits"].as_array().into_iter().flatten())
    {
        let (first, last) = (edit["line"].as_u64().unwrap(), edit["end_line"].as_u64().unwrap());
        for line in first..=last {
            edited_lines.insert((PathBuf::from(edit["file"].as_str().unwrap()), line));
        }
    }

    let mode: &[&str] = if unsafe_too { &["--unsafe-fixes"] } else { &[] };
    let with_mode = |args: &[&str]| -> Output { sqsguard_in(root, &[args, mode].concat()) };
    // --diff first: applied to a copy, it must give what --fix writes,
    // the fixes of every pass included.
    let diff = with_mode(&["lint", ".", "--diff"]);
    let shown = String::from_utf8_lossy(&diff.stderr).trim().to_string();
    let copy = tempfile::tempdir().unwrap();
    copy_tree(root, copy.path());
    let fixed = with_mode(&["lint", ".", "--fix", "--format", "json"]);
    let stderr = String::from_utf8_lossy(&fixed.stderr);
    assert!(stderr.contains("sqsguard: fixed "), "{stderr}");
    // No fix of a real file is refused by the check of its result.
    assert!(!stderr.contains(": not fixed: "), "{stderr}");
    let after = findings(root, &["."]);
    let after_texts = texts(root);
    let mut apply = Command::new("git")
        .args(["apply", "--whitespace=nowarn", "-"])
        .current_dir(copy.path())
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut apply.stdin.take().unwrap(), &diff.stdout).unwrap();
    assert!(apply.wait().unwrap().success(), "the --diff output does not apply");
    assert!(texts(copy.path()) == after_texts, "--diff and --fix differ");
    let count = |s: &str, word: &str| s.split_whitespace().skip_while(|w| *w != word).nth(1).map(str::to_string);
    assert_eq!(count(&shown, "fixes"), count(&stderr, "fixed"), "{shown} / {stderr}");

    // Fewer findings, and none that was not there before (SQS000 included).
    let mut remaining = before.clone();
    for f in &after {
        // SQS004's fix adds a dead-letter queue, which needs an alarm
        // (SQS015): the one finding docs/fixing.md lets that fix bring.
        if unsafe_too && f.0 == "SQS015" && (f.2.ends_with("DLQ") || f.2.ends_with("_dlq")) {
            continue;
        }
        // SQS005's fix turns on ReportBatchItemFailures, which is unsafe
        // because the handler must return them: where its code is read and
        // does not, SQS202 says so (the other finding docs/fixing.md names).
        if unsafe_too && f.0 == "SQS202" {
            continue;
        }
        let at = remaining.iter().position(|b| b == f).unwrap_or_else(|| panic!("new finding after --fix: {f:?}"));
        remaining.remove(at);
    }
    assert!(before.len() - after.len() >= 150, "only {} findings fixed", before.len() - after.len());

    // Every changed line is one a fix writes; every other line, comments
    // included, is byte for byte what it was.
    let mut changed_files = Vec::new();
    for (path, old) in &before_texts {
        let new = &after_texts[path];
        if old == new {
            continue;
        }
        changed_files.push(path.clone());
        // A line added after a last line without a newline ends that line;
        // a JSON member added after another puts a comma after it.
        let tidy =
            |t: &str| -> String { t.lines().map(|l| format!("{}\n", l.trim_end_matches([',', '\r']))).collect() };
        let (old, new) = (tidy(old), tidy(new));
        let diff = similar::TextDiff::from_lines(&old, &new);
        // Whether the line a fix replaced (the last one removed) was an
        // edit's: then its replacement is too.
        let mut replaced_edited = false;
        // Whether the lines inserted since the last unchanged one are a fix's.
        let mut inserted_owned = false;
        for change in diff.iter_all_changes() {
            let line = change.value();
            let edited = match (change.tag(), change.old_index()) {
                (similar::ChangeTag::Equal, _) => {
                    replaced_edited = false;
                    inserted_owned = false;
                    continue;
                }
                (similar::ChangeTag::Delete, Some(i)) => {
                    replaced_edited = edited_lines.contains(&(path.clone(), i as u64 + 1));
                    replaced_edited
                }
                _ => replaced_edited,
            };
            // A Terraform attribute is added after a blank line of its own;
            // a new dead-letter queue is spaced as its neighbours are.
            if change.tag() == similar::ChangeTag::Insert
                && line.trim().is_empty()
                && (unsafe_too || path.extension().is_some_and(|e| e == "tf"))
            {
                continue;
            }
            let keys = if unsafe_too { [FIXED_KEYS, UNSAFE_KEYS].concat() } else { FIXED_KEYS.to_vec() };
            // The brace that closes a block the fix added (SQS022's
            // `scaling_config { ... }`).
            let owned = keys.iter().any(|k| line.contains(k));
            let closes_added = change.tag() == similar::ChangeTag::Insert && line.trim() == "}" && inserted_owned;
            inserted_owned = change.tag() == similar::ChangeTag::Insert && (owned || inserted_owned);
            assert!(
                edited || owned || closes_added,
                "{}: a fix changed a line it does not own: {line:?}",
                path.display()
            );
            assert!(!line.trim_start().starts_with('#'), "{}: a comment changed: {line:?}", path.display());
        }
    }
    assert!(changed_files.len() >= 50, "{} files changed", changed_files.len());

    // Nothing more to fix: the diff is empty, a second --fix changes nothing.
    let diff = with_mode(&["lint", ".", "--diff"]);
    assert!(diff.stdout.is_empty(), "{}", String::from_utf8_lossy(&diff.stdout));
    assert_eq!(diff.status.code(), Some(0));
    with_mode(&["lint", ".", "--fix"]);
    assert_eq!(texts(root), after_texts, "a second --fix changed files");

    // cfn-lint finds no new error in a fixed template.
    let Some(cfn_lint) = common::venv_tool("cfn-lint") else { return common::missing("cfn-lint") };
    let templates: Vec<&PathBuf> = changed_files
        .iter()
        .filter(|p| !p.starts_with("serverless") && !p.to_string_lossy().contains("serverless.y"))
        .collect();
    let errors = |dir: &Path, templates: &[&PathBuf]| -> Vec<String> {
        let out =
            Command::new(&cfn_lint).arg("--format").arg("parseable").args(templates).current_dir(dir).output().unwrap();
        let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| {
                l.split(':')
                    .nth(5)
                    .filter(|code| code.starts_with('E'))
                    .map(|code| format!("{} {code}", l.split(':').next().unwrap_or_default()))
            })
            .collect();
        lines.sort();
        lines.dedup();
        lines
    };
    let original = tempfile::tempdir().unwrap();
    for path in &templates {
        let to = original.path().join(path);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::write(to, &before_texts[*path]).unwrap();
    }
    let was = cfn_lint_before_fixes(&templates, |unknown| errors(original.path(), unknown));
    let is = errors(root, &templates);
    let new: Vec<&String> = is.iter().filter(|e| !was.contains(e)).collect();
    assert!(new.is_empty(), "cfn-lint errors the fixes introduced: {new:#?}");

    terraform_answers_as_before(root, &before_texts, &changed_files);
}

/// `terraform fmt -check` lists the same files as before the fixes, and
/// `terraform validate` gives the same answer in fixed modules (a sample:
/// each needs its own `init`).
fn terraform_answers_as_before(root: &Path, before_texts: &BTreeMap<PathBuf, String>, changed: &[PathBuf]) {
    if Command::new("terraform").arg("version").output().is_err() {
        return common::missing("terraform");
    }
    let unformatted = |dir: &Path| -> Vec<String> {
        let out = Command::new("terraform")
            .args(["fmt", "-check", "-recursive", "-list=true"])
            .current_dir(dir)
            .output()
            .unwrap();
        let mut files: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
        files.sort();
        files
    };
    let tf_changed: Vec<&PathBuf> = changed.iter().filter(|p| p.extension().is_some_and(|e| e == "tf")).collect();
    assert!(tf_changed.len() >= 40, "only {} .tf files fixed", tf_changed.len());
    let original = tempfile::tempdir().unwrap();
    for (path, text) in before_texts.iter().filter(|(p, _)| p.extension().is_some_and(|e| e == "tf")) {
        let to = original.path().join(path);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::write(to, text).unwrap();
    }
    assert_eq!(unformatted(root), unformatted(original.path()), "terraform fmt -check changed its answer");

    let Some(plugins) = common::terraform_plugin_dir() else { return common::missing("the offline AWS provider") };
    // Modules where a line was added (the riskier edit) come first.
    let mut dirs: Vec<PathBuf> = tf_changed.iter().filter_map(|p| p.parent().map(Path::to_path_buf)).collect();
    dirs.sort_by_key(|d| {
        let added = tf_changed.iter().any(|p| {
            p.parent() == Some(d.as_path()) && {
                let (old, new) = (&before_texts[*p], fs::read_to_string(root.join(p)).unwrap());
                old.lines().count() != new.lines().count()
            }
        });
        (!added, d.clone())
    });
    dirs.dedup();
    let mut valid = 0;
    for dir in dirs.iter().take(6) {
        let run = |args: &[&str], at: &Path| Command::new("terraform").args(args).current_dir(at).output().unwrap();
        let validate = |at: &Path| {
            let init =
                run(&["init", "-backend=false", "-input=false", &format!("-plugin-dir={}", plugins.display())], at);
            assert!(init.status.success(), "{}: {}", at.display(), String::from_utf8_lossy(&init.stderr));
            run(&["validate", "-no-color"], at)
        };
        let now = validate(&root.join(dir));
        let before = valid_before_fixes(dir, || validate(&original.path().join(dir)).status.success());
        assert_eq!(
            now.status.success(),
            before,
            "{}: terraform validate changed its answer:\n{}",
            dir.display(),
            String::from_utf8_lossy(&now.stderr)
        );
        valid += usize::from(now.status.success());
    }
    assert!(valid >= 3, "only {valid} of the sampled fixed modules are valid Terraform: the sample proves little");
}

/// cfn-lint's errors (`path code` lines) in `templates` as the corpus has
/// them, before any fix: both corpus tests lint unfixed templates, mostly
/// the same ones, so `lint` is asked only about templates not yet linted
/// this run.
fn cfn_lint_before_fixes(templates: &[&PathBuf], lint: impl FnOnce(&[&PathBuf]) -> Vec<String>) -> Vec<String> {
    static ANSWERS: std::sync::Mutex<BTreeMap<PathBuf, Vec<String>>> = std::sync::Mutex::new(BTreeMap::new());
    let unknown: Vec<&PathBuf> =
        templates.iter().copied().filter(|t| !ANSWERS.lock().unwrap().contains_key(*t)).collect();
    if !unknown.is_empty() {
        let lines = lint(&unknown);
        let mut answers = ANSWERS.lock().unwrap();
        for template in unknown {
            let name = template.display().to_string();
            let own = lines.iter().filter(|l| l.rsplit_once(' ').is_some_and(|(path, _)| path == name)).cloned();
            answers.insert(template.clone(), own.collect());
        }
    }
    let answers = ANSWERS.lock().unwrap();
    let mut lines: Vec<String> = templates.iter().flat_map(|t| answers[*t].iter().cloned()).collect();
    lines.sort();
    lines.dedup();
    lines
}

/// Whether `terraform validate` accepts the module in `dir` as the corpus
/// has it, before any fix: both corpus tests sample unfixed modules, often
/// the same ones, and each `validate` starts the 700 MB AWS provider
/// twice (4-7 s), so a module's answer is asked once a run.
fn valid_before_fixes(dir: &Path, validate: impl FnOnce() -> bool) -> bool {
    static ANSWERS: std::sync::Mutex<BTreeMap<PathBuf, bool>> = std::sync::Mutex::new(BTreeMap::new());
    if let Some(valid) = ANSWERS.lock().unwrap().get(dir) {
        return *valid;
    }
    let valid = validate();
    ANSWERS.lock().unwrap().insert(dir.to_path_buf(), valid);
    valid
}

const QUEUE_AND_CONSUMER: &str = "AWSTemplateFormatVersion: '2010-09-09'
Parameters:
  Visibility: {Type: Number, Default: 60}
Resources:
  # The queue, with a comment that stays.
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: !Ref Visibility   # from the parameter
      SqsManagedSseEnabled: 'false'
      RedrivePolicy: '{\"deadLetterTargetArn\": \"arn:aws:sqs:us-east-1:123456789012:dlq\", \"maxReceiveCount\": 1}'
  Worker:
    Type: AWS::Lambda::Function
    Properties: {Runtime: python3.12, Handler: app.handler, Role: arn:aws:iam::123456789012:role/w, Code: {ZipFile: x}, Timeout: 30}
  Mapping:
    Type: AWS::Lambda::EventSourceMapping
    Properties:
      EventSourceArn: !GetAtt Jobs.Arn
      FunctionName: !Ref Worker
      BatchSize: \"20\"
      MaximumBatchingWindowInSeconds: !If [Never, 5, 0]
      FunctionResponseTypes: [ReportBatchItemFailures]
Conditions:
  Never: !Equals [a, b]
";

#[test]
fn diff_writes_nothing_and_unsafe_fixes_wait_for_their_flag() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    fs::write(&path, QUEUE_AND_CONSUMER).unwrap();

    let diff = sqsguard_in(dir.path(), &["lint", "t.yaml", "--diff"]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert_eq!(diff.status.code(), Some(1), "{text}");
    assert_eq!(fs::read_to_string(&path).unwrap(), QUEUE_AND_CONSUMER, "--diff wrote the file");
    assert!(text.starts_with("--- a/t.yaml\n+++ b/t.yaml\n"), "{text}");
    // Safe: the setting written in the queue keeps its quotes. Not
    // offered: a branch of an !If (SQS011), a value inside a JSON string
    // (SQS008); unsafe: the parameter's default (SQS001).
    assert!(text.contains("-      SqsManagedSseEnabled: 'false'\n+      SqsManagedSseEnabled: 'true'\n"), "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with('+') && !l.starts_with("+++")).count(), 1, "{text}");

    // With --unsafe-fixes, the parameter default moves too: to 6 x 30 + 5,
    // what the mapping needs in the branch of its !If with a 5 s window.
    let unsafe_diff = sqsguard_in(dir.path(), &["lint", "t.yaml", "--diff", "--unsafe-fixes"]);
    let text = String::from_utf8_lossy(&unsafe_diff.stdout);
    assert!(text.contains("+  Visibility: {Type: Number, Default: 185}"), "{text}");

    // --fix writes the safe fix, keeps the comments, and reports the rest.
    let fixed = sqsguard_in(dir.path(), &["lint", "t.yaml", "--fix", "--format", "json"]);
    let now = fs::read_to_string(&path).unwrap();
    assert_eq!(now, QUEUE_AND_CONSUMER.replace("SqsManagedSseEnabled: 'false'", "SqsManagedSseEnabled: 'true'"));
    let doc: Value = serde_json::from_slice(&fixed.stdout).unwrap();
    let mut rules: Vec<&str> =
        doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    rules.dedup();
    assert_eq!(rules, ["SQS001", "SQS008", "SQS011"]);
    assert_eq!(fixed.status.code(), Some(1), "what remains still fails the run");
}

/// An absolute path's diff names it as git does (`a/tmp/...`, not
/// `a//tmp/...`, which git refuses), and applies from `/`.
#[test]
fn the_diff_of_an_absolute_path_applies_from_the_root() {
    let dir = tempfile::tempdir().unwrap();
    // git refuses a path through a symbolic link (macOS's /var).
    let path = dir.path().canonicalize().unwrap().join("t.yaml");
    fs::write(&path, QUEUE_AND_CONSUMER).unwrap();
    let diff = sqsguard_in(dir.path(), &["lint", path.to_str().unwrap(), "--diff"]);
    let text = String::from_utf8_lossy(&diff.stdout).into_owned();
    let relative = path.to_str().unwrap().trim_start_matches('/');
    assert!(text.starts_with(&format!("--- a/{relative}\n+++ b/{relative}\n")), "{text}");
    let mut apply = std::process::Command::new("git")
        .args(["apply", "-"])
        .current_dir("/")
        // Outside any repository, even when run from a git hook.
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut apply.stdin.take().unwrap(), text.as_bytes()).unwrap();
    assert!(apply.wait().unwrap().success());
    let fixed = fs::read_to_string(&path).unwrap();
    assert_eq!(fixed, QUEUE_AND_CONSUMER.replace("SqsManagedSseEnabled: 'false'", "SqsManagedSseEnabled: 'true'"));
}

#[test]
fn a_symlink_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let good = common::root().join("tests/rules/SQS006/cloudformation/bad.yaml");
    fs::copy(&good, dir.path().join("real.yaml")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("real.yaml"), dir.path().join("link.yaml")).unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "link.yaml", "--fix"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("link.yaml: is a symbolic link"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.path().join("real.yaml")).unwrap(), fs::read_to_string(&good).unwrap());
    assert!(fs::symlink_metadata(dir.path().join("link.yaml")).unwrap().file_type().is_symlink());
    // The real file is fixed when named.
    sqsguard_in(dir.path(), &["lint", "real.yaml", "--fix"]);
    assert!(fs::read_to_string(dir.path().join("real.yaml")).unwrap().contains("ReceiveMessageWaitTimeSeconds: 20"));
}

/// Byte offset of a 1-based line and code-point column in `text`.
fn offset_of(text: &str, line: u64, column: u64) -> usize {
    let start: usize = text.split_inclusive('\n').take(line as usize - 1).map(str::len).sum();
    let rest = &text[start..];
    rest.char_indices().map(|(i, _)| i).chain([rest.len()]).nth(column as usize - 1).unwrap() + start
}

/// `text` with the (line, column, end_line, end_column, replacement)
/// edits applied.
fn apply_positions(text: &str, mut edits: Vec<(u64, u64, u64, u64, String)>) -> String {
    edits.sort();
    let mut out = text.to_string();
    for (line, column, end_line, end_column, replacement) in edits.into_iter().rev() {
        let (start, end) = (offset_of(text, line, column), offset_of(text, end_line, end_column));
        out.replace_range(start..end, &replacement);
    }
    out
}

/// What editors and review bots get: every finding's `edits` in JSON and
/// its `fixes` in SARIF are the same edits, and applying one finding's
/// edits by their line and column, as an editor would, makes exactly that
/// finding go away. This checks the positions (1-based, code points, end
/// exclusive) on YAML, JSON and Serverless files, not only that --fix
/// works.
#[test]
fn the_edits_in_json_and_sarif_fix_their_finding() {
    let mut files = vec![common::root().join("examples/cloudformation/legacy-worker.yaml")];
    for front_end in ["cloudformation", "sam", "serverless"] {
        for (_, path) in common::rule_fixtures(front_end, "bad") {
            files.push(path);
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for path in files {
        let original = fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_str().unwrap();
        fs::write(tmp.path().join(name), &original).unwrap();
        let json: Value =
            serde_json::from_slice(&sqsguard_in(tmp.path(), &["lint", name, "--format", "json"]).stdout).unwrap();
        let sarif: Value =
            serde_json::from_slice(&sqsguard_in(tmp.path(), &["lint", name, "--format", "sarif"]).stdout).unwrap();
        let results = sarif["runs"][0]["results"].as_array().unwrap();
        let reported = json["findings"].as_array().unwrap();
        assert_eq!(reported.len(), results.len(), "{name}");
        for (finding, result) in reported.iter().zip(results) {
            let Some(edits) = finding["edits"].as_array() else {
                assert!(result.get("fixes").is_none(), "{name}: SARIF has a fix JSON has not: {result}");
                continue;
            };
            let from_json: Vec<_> = edits
                .iter()
                .map(|e| {
                    let n = |k: &str| e[k].as_u64().unwrap();
                    assert_eq!(e["file"], name);
                    (
                        n("line"),
                        n("column"),
                        n("end_line"),
                        n("end_column"),
                        e["replacement"].as_str().unwrap().to_string(),
                    )
                })
                .collect();
            let fix = &result["fixes"][0];
            assert_eq!(fix["properties"]["applicability"], finding["applicability"], "{name}: {finding}");
            let from_sarif: Vec<_> = fix["artifactChanges"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|c| c["replacements"].as_array().unwrap())
                .map(|r| {
                    let g = &r["deletedRegion"];
                    let n = |k: &str| g[k].as_u64().unwrap();
                    let text = r["insertedContent"]["text"].as_str().unwrap().to_string();
                    (n("startLine"), n("startColumn"), n("endLine"), n("endColumn"), text)
                })
                .collect();
            assert_eq!(from_json, from_sarif, "{name}: {finding}");

            let fixed = apply_positions(&original, from_json);
            fs::write(tmp.path().join(name), &fixed).unwrap();
            let rule = finding["rule"].as_str().unwrap();
            let resource = finding["resource"].as_str().unwrap().to_string();
            // Fewer findings of this rule on this resource (a queue can
            // have two SQS012s, one per attribute; one VisibilityTimeout
            // fixes the SQS001 of every consumer).
            let count = |dir: &Path| {
                findings(dir, &[name, "--select", rule])
                    .iter()
                    .filter(|(r, _, res)| r == rule && *res == resource)
                    .count()
            };
            let after = count(tmp.path());
            fs::write(tmp.path().join(name), &original).unwrap();
            let before = count(tmp.path());
            assert!(after < before, "{name}: applying the edits of {rule} on {resource} left it:\n{fixed}");
            fs::write(tmp.path().join(name), &original).unwrap();
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} fixes were checked");
}

/// The issue's bad input: a read-only file and a module followed out of the
/// linted folder are not written, each with one line, and the other files
/// are still fixed.
#[test]
fn read_only_files_and_files_outside_the_linted_paths_are_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = fs::read_to_string(common::root().join("tests/rules/SQS006/cloudformation/bad.yaml")).unwrap();
    fs::write(dir.path().join("ro.yaml"), &bad).unwrap();
    fs::write(dir.path().join("ok.yaml"), &bad).unwrap();
    fs::set_permissions(dir.path().join("ro.yaml"), fs::Permissions::from_mode(0o444)).unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "ro.yaml", "ok.yaml", "--fix"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ro.yaml: is read-only: not fixed"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.path().join("ro.yaml")).unwrap(), bad);
    assert_eq!(fs::metadata(dir.path().join("ro.yaml")).unwrap().permissions().mode() & 0o777, 0o444);
    assert!(fs::read_to_string(dir.path().join("ok.yaml")).unwrap().contains("ReceiveMessageWaitTimeSeconds: 20"));

    // A root module in `infra` calls a module beside it: sqsguard lints the
    // module's queue through the call, and --fix leaves its file alone.
    let shared = module_beside(dir.path());
    let before = findings(dir.path(), &["infra"]);
    assert!(before.iter().any(|(rule, _, _)| rule == "SQS006"), "{before:?}");
    let out = sqsguard_in(dir.path(), &["lint", "infra", "--fix"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("shared/main.tf: outside the paths being linted"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.path().join("shared/main.tf")).unwrap(), shared);
    // Named, it is fixed.
    sqsguard_in(dir.path(), &["lint", "shared", "--fix"]);
    assert!(fs::read_to_string(dir.path().join("shared/main.tf")).unwrap().contains("receive_wait_time_seconds = 20"));
}

/// A root module in `infra` calling a module beside it, `shared`, whose
/// queue short-polls (SQS006): `shared/main.tf`'s text.
fn module_beside(dir: &Path) -> &'static str {
    let shared =
        "resource \"aws_sqs_queue\" \"q\" {\n  name                      = \"q\"\n  receive_wait_time_seconds = 0\n}\n";
    fs::create_dir_all(dir.join("shared")).unwrap();
    fs::create_dir_all(dir.join("infra")).unwrap();
    fs::write(dir.join("shared/main.tf"), shared).unwrap();
    fs::write(dir.join("infra/main.tf"), "module \"jobs\" {\n  source = \"../shared\"\n}\n").unwrap();
    shared
}

/// SQS004's new queue takes the queue's type, FIFO name and Condition,
/// and lints clean of SQS004 and SQS009 (a standard DLQ for a FIFO queue);
/// a name the module already declares, in another file, gets no fix.
#[test]
fn a_new_dead_letter_queue_matches_its_queue_and_never_takes_a_used_name() {
    let dir = tempfile::tempdir().unwrap();
    let template = "Conditions:
  IsProd: !Equals [a, b]
Resources:
  Orders:
    Type: AWS::SQS::Queue
    Properties: {FifoQueue: true, QueueName: orders.fifo, ReceiveMessageWaitTimeSeconds: 20}
  Other:
    Type: AWS::SQS::Queue
    Condition: IsProd
    Properties:
      ReceiveMessageWaitTimeSeconds: 20
";
    fs::write(dir.path().join("t.yaml"), template).unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "t.yaml", "--fix", "--unsafe-fixes", "--select", "SQS004,SQS009"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    let fixed = fs::read_to_string(dir.path().join("t.yaml")).unwrap();
    for expected in [
        "RedrivePolicy: {deadLetterTargetArn: !GetAtt OrdersDLQ.Arn, maxReceiveCount: 5}}",
        "  OrdersDLQ:\n    Type: AWS::SQS::Queue\n    Properties:\n      MessageRetentionPeriod: 1209600\n      FifoQueue: true\n      QueueName: \"orders-dlq.fifo\"\n",
        "  OtherDLQ:\n    Type: AWS::SQS::Queue\n    Condition: IsProd\n",
    ] {
        assert!(fixed.contains(expected), "{expected:?} not in:\n{fixed}");
    }

    // Terraform: `orders_dlq` is taken in another file of the module.
    let module = dir.path().join("module");
    fs::create_dir(&module).unwrap();
    let queue = "resource \"aws_sqs_queue\" \"orders\" {\n  name = \"orders\"\n}\n";
    fs::write(module.join("main.tf"), queue).unwrap();
    fs::write(module.join("other.tf"), "resource \"aws_sqs_queue\" \"orders_dlq\" {\n  name = \"x\"\n}\n").unwrap();
    let diff = sqsguard_in(dir.path(), &["lint", "module", "--diff", "--unsafe-fixes", "--select", "SQS004"]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(!text.contains("+++ b/module/main.tf"), "a second aws_sqs_queue.orders_dlq:\n{text}");
    // Without the other file the fix is offered.
    fs::remove_file(module.join("other.tf")).unwrap();
    let diff = sqsguard_in(dir.path(), &["lint", "module", "--diff", "--unsafe-fixes", "--select", "SQS004"]);
    let text = String::from_utf8_lossy(&diff.stdout);
    assert!(text.contains("+resource \"aws_sqs_queue\" \"orders_dlq\" {"), "{text}");
}

/// A Terraform value from a variable's default (in another file), a
/// `.tfvars` value, a local or a module argument.
const TF_VARIABLES: &str = r#"variable "visibility" {
  type    = number
  default = 30
}

variable "sse" {
  type    = bool
  default = true
}
"#;

const TF_MAIN: &str = r#"locals {
  retention = 86400
}

resource "aws_sqs_queue" "jobs" {
  visibility_timeout_seconds = var.visibility
  sqs_managed_sse_enabled    = var.sse
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.jobs_dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sqs_queue" "jobs_dlq" {
  message_retention_seconds = local.retention
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  role          = "arn:aws:iam::123456789012:role/worker"
  handler       = "index.handler"
  runtime       = "python3.12"
  filename      = "worker.zip"
  timeout       = 60
}

resource "aws_lambda_event_source_mapping" "jobs" {
  event_source_arn        = aws_sqs_queue.jobs.arn
  function_name           = aws_lambda_function.worker.arn
  function_response_types = ["ReportBatchItemFailures"]
}

module "orders" {
  source = "./modules/queue"
  sse    = false
}
"#;

const TF_MODULE: &str = r#"variable "sse" {
  type = bool
}

resource "aws_sqs_queue" "this" {
  sqs_managed_sse_enabled   = var.sse
  receive_wait_time_seconds = 20
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.dlq.arn
    maxReceiveCount     = 5
  })
}

resource "aws_sqs_queue" "dlq" {
  message_retention_seconds = 1209600
}
"#;

#[test]
fn a_terraform_value_is_fixed_where_it_is_written_as_an_unsafe_fix() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("modules/queue")).unwrap();
    let files = [
        ("variables.tf", TF_VARIABLES),
        ("main.tf", TF_MAIN),
        ("terraform.tfvars", "# Staging turns encryption off.\nsse = false\n"),
        ("modules/queue/main.tf", TF_MODULE),
    ];
    for (name, text) in files {
        fs::write(root.join(name), text).unwrap();
    }
    let fixable = ["--select", "SQS002,SQS007,SQS016"];
    let rules = |dir: &Path| findings(dir, &[&["."][..], &fixable[..]].concat());
    // The findings stay where the value is used.
    assert_eq!(
        rules(root),
        [
            ("SQS002".into(), "main.tf".into(), "aws_sqs_queue.jobs".into()),
            ("SQS007".into(), "main.tf".into(), "aws_sqs_queue.jobs".into()),
            ("SQS016".into(), "main.tf".into(), "aws_sqs_queue.jobs".into()),
            ("SQS016".into(), "modules/queue/main.tf".into(), "module.orders.aws_sqs_queue.this".into()),
        ]
    );

    // Unsafe: a safe --fix leaves them all.
    let safe = sqsguard_in(root, &[&["lint", ".", "--fix"][..], &fixable[..]].concat());
    assert_eq!(safe.status.code(), Some(1));
    for (name, text) in files {
        assert_eq!(fs::read_to_string(root.join(name)).unwrap(), text, "{name} changed by a safe --fix");
    }

    let fixed = sqsguard_in(root, &[&["lint", ".", "--fix", "--unsafe-fixes"][..], &fixable[..]].concat());
    assert_eq!(fixed.status.code(), Some(0), "{}", String::from_utf8_lossy(&fixed.stderr));
    let now = |name: &str| fs::read_to_string(root.join(name)).unwrap();
    // The default 6 x 60 s, in variables.tf; the .tfvars value that wins
    // over the default; the local; the module's argument.
    assert_eq!(now("variables.tf"), TF_VARIABLES.replace("default = 30", "default = 360"));
    assert_eq!(now("terraform.tfvars"), "# Staging turns encryption off.\nsse = true\n");
    assert_eq!(
        now("main.tf"),
        TF_MAIN.replace("retention = 86400", "retention = 1209600").replace("sse    = false", "sse    = true")
    );
    assert_eq!(now("modules/queue/main.tf"), TF_MODULE);
    assert!(rules(root).is_empty());
}

/// Every fix of every rule fixture, on the fixture written with each line
/// ending YAML and JSON know (LF, CRLF, a lone CR; HCL has no lone CR):
/// the fixed text is the LF file's fixed text with the same line endings,
/// byte for byte, and no fix is refused.
#[test]
fn every_fix_is_byte_exact_whatever_ends_the_lines() {
    let fixed_with = |from: &Path, breaks: &str| -> BTreeMap<PathBuf, String> {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(from, dir.path());
        for (path, text) in texts(dir.path()) {
            fs::write(dir.path().join(path), text.replace('\n', breaks)).unwrap();
        }
        let out = sqsguard_in(dir.path(), &["lint", "--fix", "--unsafe-fixes", "--format", "json", "."]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("not fixed"), "{breaks:?}: {stderr}");
        assert!(stderr.contains("fixed "), "{breaks:?}: {stderr}");
        texts(dir.path())
    };
    for (front_ends, styles) in
        [(&["cloudformation", "sam"][..], &["\r\n", "\r"][..]), (&["terraform"][..], &["\r\n"][..])]
    {
        let fixtures = front_ends.join("+");
        let copy = tempfile::tempdir().unwrap();
        copy_rule_fixtures(front_ends, copy.path());
        let from = copy.path().to_path_buf();
        let original = texts(&from);
        assert!(original.values().all(|t| !t.contains('\r')), "a fixture already holds a CR");
        let lf = fixed_with(&from, "\n");
        let changed = lf.iter().filter(|(path, text)| original.get(*path) != Some(text)).count();
        assert!(changed > 20, "only {changed} fixture files fixed in {fixtures}");
        for breaks in styles {
            let other = fixed_with(&from, breaks);
            for (path, text) in &lf {
                assert_eq!(
                    other.get(path),
                    Some(&text.replace('\n', breaks)),
                    "{fixtures}/{} with {breaks:?}",
                    path.display()
                );
            }
        }
    }
}

/// A bare CR pasted into a quoted Description (what an outside tester found
/// corrupting files): the fixes land on their values, as in the LF file.
#[test]
fn a_lone_cr_in_a_quoted_string_does_not_move_the_fixes() {
    for pasted in ["'pasted\rtext'", "'pasted\r  text'", "\"pasted\rtext\""] {
        a_lone_cr_in(&format!(
            "AWSTemplateFormatVersion: '2010-09-09'\nDescription: {pasted}\nResources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties:\n      ReceiveMessageWaitTimeSeconds: 0\n"
        ));
    }
}

fn a_lone_cr_in(text: &str) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("t.yaml"), text).unwrap();
    // The location counts the CR as the line break it is to YAML.
    let out = sqsguard_in(dir.path(), &["lint", "--format", "json", "--select", "SQS006", "t.yaml"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let at = |k: &str| doc["findings"][0][k].as_u64();
    assert_eq!((at("line"), at("column"), at("end_column")), (Some(8), Some(38), Some(38)), "{doc:#}");
    let out = sqsguard_in(dir.path(), &["lint", "--fix", "--select", "SQS006", "t.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let fixed = fs::read_to_string(dir.path().join("t.yaml")).unwrap();
    assert_eq!(fixed, text.replace("Seconds: 0", "Seconds: 20"));
}

/// A finding whose fix could not clear it carries none: SQS007 when the
/// source already keeps the 14-day maximum (no DLQ can keep messages
/// longer), or when both queues read one value (a Parameter, a variable,
/// the SQS module's DLQ falling back to its queue's input), which a fix of
/// the DLQ's would raise for the source too. The JSON has no edits, the
/// diff is empty even with unsafe fixes, and `--fix` leaves the file as it
/// was and claims no fix.
#[test]
fn a_fix_that_cannot_clear_its_finding_is_not_offered() {
    let root = common::root();
    for fixture in [
        "tests/rules/SQS007/cloudformation/bad_source_keeps_the_maximum.yaml",
        "tests/rules/SQS007/cloudformation/bad_shared_parameter.yaml",
        "tests/rules/SQS007/terraform/bad_shared_variable/main.tf",
        "tests/fixtures/terraform/modules/registry_dlq_retention_falls_back/main.tf",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let name = Path::new(fixture).file_name().unwrap().to_str().unwrap();
        let original = fs::read_to_string(root.join(fixture)).unwrap();
        fs::write(tmp.path().join(name), &original).unwrap();

        let json: Value =
            serde_json::from_slice(&sqsguard_in(tmp.path(), &["lint", name, "--format", "json"]).stdout).unwrap();
        let found = json["findings"].as_array().unwrap();
        assert_eq!(found.len(), 1, "{fixture}: {json:#}");
        assert_eq!(found[0]["rule"], "SQS007", "{fixture}");
        assert!(found[0].get("edits").is_none(), "{fixture}: a fix is offered: {:#}", found[0]);

        let diff = sqsguard_in(tmp.path(), &["lint", name, "--diff", "--unsafe-fixes"]);
        assert_eq!(common::stdout(&diff), "", "{fixture}: the diff is not empty");

        for flags in [&["--fix"][..], &["--fix", "--unsafe-fixes"]] {
            let mut args = vec!["lint", name];
            args.extend_from_slice(flags);
            let fixed = sqsguard_in(tmp.path(), &args);
            assert_eq!(fixed.status.code(), Some(1), "{fixture} {flags:?}: the finding remains");
            assert_eq!(fs::read_to_string(tmp.path().join(name)).unwrap(), original, "{fixture} {flags:?}");
            let said = format!("{}{}", common::stdout(&fixed), String::from_utf8_lossy(&fixed.stderr));
            assert!(!said.contains("not fixed"), "{fixture} {flags:?}: a fix was tried: {said}");
            assert!(!said.contains("with `sqsguard lint --fix"), "{fixture} {flags:?}: a fix is advertised: {said}");
            assert!(!said.contains("fixed 1"), "{fixture} {flags:?}: a fix is claimed: {said}");
        }
    }
}

/// SQS005 on a mapping whose handler was read whole and never returns
/// batch item failures: turning ReportBatchItemFailures on would only move
/// the problem (the fixed file got SQS202 56 times on real projects), so
/// no fix is offered, even unsafe, and the hint names the handler's file
/// and line and what it must return.
#[test]
fn sqs005_has_no_fix_where_the_handler_is_known_not_to_report() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&common::root().join("tests/rules/SQS202/python/bad_sam"), dir.path());
    let template = dir.path().join("template.yaml");
    let text = fs::read_to_string(&template)
        .unwrap()
        .replace("            FunctionResponseTypes:\n              - ReportBatchItemFailures\n", "");
    fs::write(&template, &text).unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "--format", "json", "--unsafe-fixes", "template.yaml"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sqs005: Vec<&Value> = doc["findings"].as_array().unwrap().iter().filter(|f| f["rule"] == "SQS005").collect();
    assert_eq!(sqs005.len(), 1, "{doc:#}");
    assert!(sqs005[0].get("edits").is_none(), "a fix that moves the problem is offered: {:#}", sqs005[0]);
    let hint = sqs005[0]["fix"].as_str().unwrap();
    assert!(hint.contains("src/app.py:4") && hint.contains("batchItemFailures"), "{hint}");
    sqsguard_in(dir.path(), &["lint", "--fix", "--unsafe-fixes", "template.yaml"]);
    assert_eq!(fs::read_to_string(&template).unwrap(), text, "--fix --unsafe-fixes changed the mapping");

    // Where the handler is not read, the unsafe fix stays.
    fs::remove_dir_all(dir.path().join("src")).unwrap();
    let out = sqsguard_in(dir.path(), &["lint", "--format", "json", "--unsafe-fixes", "template.yaml"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let sqs005 = doc["findings"].as_array().unwrap().iter().find(|f| f["rule"] == "SQS005").unwrap();
    assert_eq!(sqs005["applicability"], "unsafe", "{sqs005:#}");
}

/// "[*] N fixable" counts what `--fix` writes: a finding whose fix would
/// edit a symlink, a read-only file or a module outside the paths is not
/// marked, so the count and the marks are what `--fix` then applies.
#[test]
fn the_fixable_count_is_what_fix_applies() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bad = fs::read_to_string(common::root().join("tests/rules/SQS006/cloudformation/bad.yaml")).unwrap();
    fs::write(dir.path().join("real.yaml"), &bad).unwrap();
    std::os::unix::fs::symlink("real.yaml", dir.path().join("link.yaml")).unwrap();
    fs::write(dir.path().join("ro.yaml"), &bad).unwrap();
    fs::set_permissions(dir.path().join("ro.yaml"), fs::Permissions::from_mode(0o444)).unwrap();
    let shared = module_beside(dir.path());
    for target in ["link.yaml", "ro.yaml", "infra"] {
        let out = sqsguard_in(dir.path(), &["lint", "--format", "concise", target]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("SQS006"), "{target}: {stdout}");
        assert!(!stdout.contains("[*]") && !stdout.contains("fixable"), "{target}: marked fixable:\n{stdout}");
        let fix = sqsguard_in(dir.path(), &["lint", "--fix", target]);
        assert!(String::from_utf8_lossy(&fix.stderr).contains("not fixed"), "{target}");
    }
    assert_eq!(fs::read_to_string(dir.path().join("real.yaml")).unwrap(), bad);
    assert_eq!(fs::read_to_string(dir.path().join("shared/main.tf")).unwrap(), shared);
}

/// Each `tests/fixtures/fix/NAME` fixed with `--fix --unsafe-fixes` of the
/// rule its name starts with is `NAME.fixed`, and a fixed template still
/// passes cfn-lint.
#[test]
fn fixtures_fix_into_their_fixed_snapshots() {
    let folder = common::root().join("tests/fixtures/fix");
    let mut fixtures: Vec<PathBuf> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "fixed"))
        .collect();
    fixtures.sort();
    assert!(!fixtures.is_empty());
    // Without cfn-lint every fix is still compared with its `.fixed`.
    let cfn_lint = common::venv_tool("cfn-lint");
    for fixture in fixtures {
        let name = fixture.file_name().unwrap().to_string_lossy().to_string();
        let rule = name.split('-').next().unwrap().to_uppercase();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(&name);
        fs::copy(&fixture, &path).unwrap();
        let out = sqsguard_in(dir.path(), &["lint", &name, "--fix", "--unsafe-fixes", "--select", &rule]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("sqsguard: fixed "), "{name}: {stderr}");
        let want = fs::read_to_string(folder.join(format!("{name}.fixed"))).unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), want, "{name}");
        // cfn-lint reads CloudFormation only: not Terraform, not a
        // Serverless service.
        if name.ends_with(".tf") || name.ends_with(".tf.json") || name.contains("-serverless") {
            continue;
        }
        let Some(cfn_lint) = &cfn_lint else { continue };
        let lint = Command::new(cfn_lint).arg(&path).output().unwrap();
        assert!(lint.status.success(), "{name}: cfn-lint:\n{}", String::from_utf8_lossy(&lint.stdout));
    }
    if cfn_lint.is_none() {
        common::missing("cfn-lint");
    }
}

/// SQS019 appends its statement to a Terraform policy only where the
/// policy is written as `jsonencode({... Statement = [...]})` or as an
/// `aws_iam_policy_document` in the file: one built any other way (a
/// local, `concat`, `merge`, a heredoc, `count`, a data source in another
/// file; a comment after the last item the new one would land before) is
/// still reported, with the hint and no
/// edit, and `--fix --unsafe-fixes` leaves the file as it was.
#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one table of policy shapes, each with whether it is fixed, and the one check they all go through"
)]
fn sqs019_appends_to_a_terraform_policy_only_as_written_in_place() {
    let fixture = fs::read_to_string(common::root().join("tests/fixtures/fix/sqs019-jsonencode.tf")).unwrap();
    let at = fixture.find("resource \"aws_sqs_queue_policy\"").unwrap();
    let (head, policy) = fixture.split_at(at);
    let document = policy.find("jsonencode(").unwrap() + "jsonencode(".len();
    let object = &policy[document..policy.rfind(')').unwrap()];
    let statement = policy.find("Statement = [").unwrap();
    let last = "      }\n    ]";
    let one_line = "      { Sid = \"AllowNightly\", Effect = \"Allow\", Principal = { Service = \"events.amazonaws.com\" }, Action = \"sqs:SendMessage\", Resource = aws_sqs_queue.jobs.arn, Condition = { ArnEquals = { \"aws:SourceArn\" = aws_cloudwatch_event_rule.nightly.arn } } }\n";
    let items = policy.find("      {\n").unwrap()..policy.find(last).unwrap() + last.len() - "    ]".len();
    let variants = [
        ("jsonencode", fixture.clone(), true),
        ("a trailing comma", format!("{head}{}", policy.replacen(last, "      },\n    ]", 1)), true),
        ("one-line items", format!("{head}{}{one_line}{}", &policy[..items.start], &policy[items.end..]), true),
        (
            "count on the policy",
            format!("{head}{}", policy.replacen("  queue_url", "  count     = 1\n  queue_url", 1)),
            false,
        ),
        (
            "a comment after the last item",
            format!("{head}{}", policy.replacen(last, "      } # nightly\n    ]", 1)),
            false,
        ),
        (
            "a local",
            format!(
                "{head}resource \"aws_sqs_queue_policy\" \"jobs\" {{\n  queue_url = aws_sqs_queue.jobs.id\n  policy    = local.jobs_policy\n}}\n\nlocals {{\n  jobs_policy = jsonencode({object})\n}}\n"
            ),
            false,
        ),
        (
            "concat",
            format!(
                "{head}{}{}",
                &policy[..statement],
                policy[statement..].replacen("Statement = [", "Statement = concat([", 1).replacen(
                    "    ]\n",
                    "    ], [])\n",
                    1
                )
            ),
            false,
        ),
        (
            "merge",
            format!(
                "{head}{}",
                policy
                    .replacen("jsonencode({", "jsonencode(merge({ Id = \"jobs\" }, {", 1)
                    .replacen("  })\n}", "  }))\n}", 1)
            ),
            false,
        ),
        (
            "a heredoc",
            format!(
                "{head}resource \"aws_sqs_queue_policy\" \"jobs\" {{\n  queue_url = aws_sqs_queue.jobs.id\n  policy    = <<EOF\n{{\"Version\": \"2012-10-17\", \"Statement\": [{{\"Effect\": \"Allow\", \"Principal\": {{\"Service\": \"events.amazonaws.com\"}}, \"Action\": \"sqs:SendMessage\", \"Resource\": \"${{aws_sqs_queue.jobs.arn}}\"}}]}}\nEOF\n}}\n"
            ),
            false,
        ),
    ];
    for (what, text, fixed) in variants {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("main.tf");
        fs::write(&main, &text).unwrap();
        let out =
            sqsguard_in(dir.path(), &["lint", "--format", "json", "--unsafe-fixes", "--select", "SQS019", "main.tf"]);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let found = doc["findings"].as_array().unwrap();
        assert_eq!(found.len(), 1, "{what}: {doc:#}");
        assert_eq!(found[0]["rule"], "SQS019", "{what}: {doc:#}");
        assert_eq!(found[0].get("edits").is_some(), fixed, "{what}: {:#}", found[0]);
        if fixed {
            // The statement appended lets SNS in: nothing left to report.
            sqsguard_in(dir.path(), &["lint", "--fix", "--unsafe-fixes", "--select", "SQS019", "main.tf"]);
            assert_ne!(fs::read_to_string(&main).unwrap(), text, "{what}: not fixed");
            assert!(findings(dir.path(), &["--select", "SQS019", "main.tf"]).is_empty(), "{what}: still reported");
        } else {
            assert!(found[0]["fix"].as_str().unwrap().contains("sqs:SendMessage"), "{what}: no hint");
            sqsguard_in(dir.path(), &["lint", "--fix", "--unsafe-fixes", "--select", "SQS019", "main.tf"]);
            assert_eq!(fs::read_to_string(&main).unwrap(), text, "{what}: the file was edited");
        }
    }
    // An aws_iam_policy_document in another file of the module than the
    // policy is read, and keeps the hint.
    let document = fs::read_to_string(common::root().join("tests/fixtures/fix/sqs019-policy-document.tf")).unwrap();
    let data = document.find("data \"aws_iam_policy_document\"").unwrap();
    let resource = document.find("resource \"aws_sqs_queue_policy\"").unwrap();
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), format!("{}{}", &document[..data], &document[resource..])).unwrap();
    fs::write(dir.path().join("policy.tf"), &document[data..resource]).unwrap();
    let args = ["lint", "--format", "json", "--unsafe-fixes", "--select", "SQS019", "."];
    let doc: Value = serde_json::from_slice(&sqsguard_in(dir.path(), &args).stdout).unwrap();
    let found = doc["findings"].as_array().unwrap();
    assert_eq!(found.len(), 1, "another file: {doc:#}");
    assert!(found[0].get("edits").is_none(), "another file: {:#}", found[0]);
}

/// A producer in a child module is `module.alerts.aws_sns_topic.alerts` to
/// the linter, but no expression of the queue's module can name it (only
/// the module's outputs): a new policy whose `aws:SourceArn` said
/// `module.alerts.aws_sns_topic.alerts.arn` would not pass `terraform
/// validate`. SQS019 keeps its hint and `--fix --unsafe-fixes` writes nothing.
#[test]
fn sqs019_writes_no_policy_naming_a_producer_inside_a_child_module() {
    let dir = tempfile::tempdir().unwrap();
    let main = "resource \"aws_sqs_queue\" \"jobs\" {\n  name = \"jobs\"\n}\n\nmodule \"alerts\" {\n  source    = \"./child\"\n  queue_arn = aws_sqs_queue.jobs.arn\n}\n";
    let child = "variable \"queue_arn\" {\n  type = string\n}\n\nresource \"aws_sns_topic\" \"alerts\" {\n  name = \"alerts\"\n}\n\n\
                 resource \"aws_sns_topic_subscription\" \"to_jobs\" {\n  topic_arn = aws_sns_topic.alerts.arn\n  protocol  = \"sqs\"\n  endpoint  = var.queue_arn\n}\n";
    fs::write(dir.path().join("main.tf"), main).unwrap();
    fs::create_dir(dir.path().join("child")).unwrap();
    fs::write(dir.path().join("child/main.tf"), child).unwrap();
    let args = ["lint", "--format", "json", "--unsafe-fixes", "--select", "SQS019", "."];
    let doc: Value = serde_json::from_slice(&sqsguard_in(dir.path(), &args).stdout).unwrap();
    let found = doc["findings"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{doc:#}");
    assert!(
        found[0]["message"].as_str().unwrap().contains("module.alerts.aws_sns_topic_subscription.to_jobs"),
        "{doc:#}"
    );
    assert!(found[0].get("edits").is_none(), "{:#}", found[0]);
    assert!(found[0]["fix"].as_str().unwrap().contains("sqs:SendMessage"), "no hint: {:#}", found[0]);
    sqsguard_in(dir.path(), &["lint", "--fix", "--unsafe-fixes", "--select", "SQS019", "."]);
    assert_eq!(fs::read_to_string(dir.path().join("main.tf")).unwrap(), main, "the module was edited");
}

/// In `*.tf.json` the statement goes into an `aws_iam_policy_document`'s
/// `statement` list (the fixture `sqs019-policy-document.tf.json`); a
/// policy written as a `"${jsonencode(...)}"` string keeps the hint.
#[test]
fn sqs019_keeps_the_hint_on_a_jsonencode_string_in_tf_json() {
    let fixture = fs::read_to_string(common::root().join("tests/fixtures/fix/sqs019-policy-document.tf.json")).unwrap();
    let policy = "\"${jsonencode({Version = \\\"2012-10-17\\\", Statement = [{Effect = \\\"Allow\\\", Principal = {Service = \\\"events.amazonaws.com\\\"}, Action = \\\"sqs:SendMessage\\\", Resource = aws_sqs_queue.jobs.arn}]})}\"";
    let text = fixture.replacen("\"${data.aws_iam_policy_document.jobs.json}\"", policy, 1);
    assert_ne!(text, fixture);
    let dir = tempfile::tempdir().unwrap();
    let main = dir.path().join("main.tf.json");
    fs::write(&main, &text).unwrap();
    let args = ["lint", "--format", "json", "--unsafe-fixes", "--select", "SQS019", "main.tf.json"];
    let doc: Value = serde_json::from_slice(&sqsguard_in(dir.path(), &args).stdout).unwrap();
    let found = doc["findings"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{doc:#}");
    assert!(found[0].get("edits").is_none(), "{:#}", found[0]);
    sqsguard_in(dir.path(), &["lint", "--fix", "--unsafe-fixes", "--select", "SQS019", "main.tf.json"]);
    assert_eq!(fs::read_to_string(&main).unwrap(), text);
}
