//! The pre-commit hook (.pre-commit-hooks.yaml) as users get it: the real
//! `pre-commit` of tests/requirements.txt builds sqsguard from this
//! repository with `cargo install` and runs it in a throwaway git repository.
//!
//! One test, so the hook's environment is built once (a release build of
//! sqsguard, the slow part) in one PRE_COMMIT_HOME for every case, and that
//! folder goes away with the test. `pre-commit try-repo` cannot do that: it
//! builds in a fresh temporary store on every call, whatever PRE_COMMIT_HOME
//! says. So the test does what try-repo does by hand: it commits this
//! checkout's working tree (tracked files, uncommitted changes included) in
//! a clone beside the store and names that clone and commit as `repo:` and
//! `rev:` of the throwaway repository's .pre-commit-config.yaml.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use common::{missing, venv_tool};

#[test]
fn hook_blocks_findings_passes_fixed_files_and_lints_whole_terraform_modules() {
    let Some(pre_commit_bin) = venv_tool("pre-commit") else { return missing("pre-commit") };
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("pre-commit-home");
    let (hook_repo, rev) = snapshot_of_this_checkout(&tmp.path().join("sqsguard"));
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    // PRE_COMMIT_HOME for git too: `git commit` runs the installed hook.
    let git = |args: &[&str]| run(git_cmd(&work).args(args).env("PRE_COMMIT_HOME", &home));
    let pre_commit = |args: &[&str]| {
        let mut cmd = Command::new(&pre_commit_bin);
        run(isolated(&mut cmd, &work).args(args).env("PRE_COMMIT_HOME", &home))
    };

    ok(&git(&["init", "-q"]));
    let config = format!(
        "repos:\n  - repo: {}\n    rev: {rev}\n    hooks:\n      - id: sqsguard\n      - id: sqsguard-fix\n        stages: [manual]\n",
        hook_repo.display()
    );
    write(&work, ".pre-commit-config.yaml", &config);

    // A CloudFormation template with findings: the hook fails and shows
    // them. This run also builds the hook's environment.
    let examples = common::root().join("examples/cloudformation");
    copy(&examples.join("legacy-worker.yaml"), &work.join("stacks/worker.yaml"));
    ok(&git(&["add", "-A"]));
    ok(&git(&["commit", "-q", "-m", "template with findings"]));
    let started = Instant::now();
    let out = pre_commit(&["run", "sqsguard", "--all-files", "--verbose", "--color", "never"]);
    eprintln!("pre-commit built the hook and ran it in {:.0?}", started.elapsed());
    let text = hook_ran(&out, "Failed");
    assert!(text.contains("- exit code: 1"), "sqsguard should exit 1 (findings), not crash:\n{text}");
    assert!(text.contains("SQS002 [*] visibility-timeout-below-function-timeout"), "{text}");
    assert!(text.contains("[stacks/worker.yaml:"), "the finding should name the file:\n{text}");

    // The fixing hook repairs what it safely can. pre-commit fails the
    // run because files changed (the user stages the fix), as with ruff's
    // hooks; the findings no fix can make are still shown.
    let out =
        pre_commit(&["run", "sqsguard-fix", "--hook-stage", "manual", "--all-files", "--verbose", "--color", "never"]);
    let text = hook_ran_as(&out, "sqsguard --fix", "Failed");
    assert!(text.contains("files were modified by this hook"), "{text}");
    assert!(text.contains("sqsguard: fixed ") && text.contains(" in 1 file"), "{text}");
    assert!(text.contains("SQS004 missing-dlq"), "what no safe fix repairs is still reported:\n{text}");
    let fixed = std::fs::read_to_string(work.join("stacks/worker.yaml")).unwrap();
    assert!(fixed.contains("ReceiveMessageWaitTimeSeconds: 20"), "{fixed}");
    let diff = String::from_utf8_lossy(&git(&["diff", "--stat"]).stdout).into_owned();
    assert!(diff.contains("stacks/worker.yaml"), "{diff}");
    // Run again: nothing left to fix, so no file changes; the hook still
    // fails on the findings that remain.
    let out =
        pre_commit(&["run", "sqsguard-fix", "--hook-stage", "manual", "--all-files", "--verbose", "--color", "never"]);
    let text = hook_ran_as(&out, "sqsguard --fix", "Failed");
    assert!(!text.contains("files were modified by this hook"), "{text}");
    assert!(text.contains("sqsguard: fixed 0 findings in 0 files"), "{text}");

    // The fixed template passes. sqsguard saw it (1 file) and skipped
    // .pre-commit-config.yaml, YAML that is not infrastructure.
    copy(&examples.join("orders-sam.yaml"), &work.join("stacks/worker.yaml"));
    ok(&git(&["commit", "-q", "-a", "-m", "fixed template"]));
    let out = pre_commit(&["run", "sqsguard", "--all-files", "--verbose", "--color", "never"]);
    let text = hook_ran(&out, "Passed");
    assert!(text.contains("0 errors, 0 warnings, 0 infos in 1 file (1 skipped)"), "{text}");

    // Terraform through a real `git commit` with the hook installed: a
    // module's queue is already committed; a commit that stages only the
    // consumer's file is refused for a finding in the queue's file, which
    // sqsguard read because every .tf of the folder is one module.
    let module = std::fs::read_to_string(common::root().join("tests/rules/SQS002/terraform/bad/main.tf")).unwrap();
    let (queue, consumer) = module.split_at(module.find("resource \"aws_lambda_function\"").unwrap());
    write(&work, "infra/queue.tf", queue);
    ok(&git(&["add", "infra/queue.tf"]));
    ok(&git(&["commit", "-q", "-m", "queue"]));
    let before = git(&["rev-parse", "HEAD"]).stdout;
    ok(&pre_commit(&["install"]));

    write(&work, "infra/consumer.tf", consumer);
    ok(&git(&["add", "infra/consumer.tf"]));
    let out = git(&["commit", "-m", "consumer"]);
    let text = hook_ran(&out, "Failed");
    // Not marked [*]: its fix edits infra/queue.tf, a file the hook was not
    // given, which --fix leaves alone.
    assert!(text.contains("SQS002 visibility-timeout-below-function-timeout"), "{text}");
    assert!(text.contains("[infra/queue.tf:"), "the finding is in the file that was not staged:\n{text}");
    assert!(text.contains("in 2 files"), "sqsguard should have read both files of the module:\n{text}");
    assert_eq!(git(&["rev-parse", "HEAD"]).stdout, before, "the commit should have been refused");
}

/// `pre-commit try-repo` of this repository in a throwaway git
/// repository, as a user tries the hook before adding it: it fails on a
/// template with findings and finds nothing in a clean one beside it.
/// One call with both templates: try-repo makes a new hook environment,
/// a build of sqsguard, on every call (with the shared target folder only
/// sqsguard itself is compiled again, still the slowest step of the
/// suite). That the hook passes once the findings are fixed is shown by
/// the test above, through the same build from a `repo:`.
#[test]
fn try_repo_fails_on_a_bad_template_and_lints_a_clean_one_clean() {
    let Some(pre_commit_bin) = venv_tool("pre-commit") else { return missing("pre-commit") };
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let git = |args: &[&str]| run(git_cmd(&work).args(args));
    ok(&git(&["init", "-q"]));
    let examples = common::root().join("examples/cloudformation");
    copy(&examples.join("legacy-worker.yaml"), &work.join("template.yaml"));
    copy(&examples.join("orders-sam.yaml"), &work.join("clean.yaml"));
    ok(&git(&["add", "-A"]));
    let mut cmd = Command::new(&pre_commit_bin);
    let out = run(isolated(&mut cmd, &work)
        .arg("try-repo")
        .arg(common::root())
        .args(["sqsguard", "--all-files", "--verbose", "--color", "never"])
        .env("PRE_COMMIT_HOME", tmp.path().join("home")));
    let text = hook_ran(&out, "Failed");
    assert!(text.contains("SQS002 [*] visibility-timeout-below-function-timeout"), "{text}");
    assert!(text.contains("[template.yaml:16:26]"), "the finding should be located:\n{text}");
    assert!(text.contains(" in 2 files"), "sqsguard should have linted both templates:\n{text}");
    // Only a note (the handler it names is not in this repository), as
    // the same template gives alone: no finding, however it is shown.
    assert!(!text.contains("[clean.yaml:"), "the clean template should have no finding:\n{text}");
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("clean.yaml")).collect();
    assert!(lines.iter().all(|l| l.starts_with("note: clean.yaml:")), "only notes on the clean template:\n{text}");
}

/// Commits this checkout's working tree in a clone at `dest`, as
/// `pre-commit try-repo` does (the clone's index and objects, this work
/// tree): HEAD, tracked files as they are now and files newly staged.
/// Returns the clone and the commit. Nothing is written into this checkout.
fn snapshot_of_this_checkout(dest: &Path) -> (PathBuf, String) {
    let root = common::root();
    ok(&run(git_cmd(root).args(["clone", "-q", "--no-checkout"]).arg(root).arg(dest)));
    let shadow = |args: &[&str]| {
        run(git_cmd(root).arg("--git-dir").arg(dest.join(".git")).arg("--work-tree").arg(root).args(args))
    };
    let head = String::from_utf8(run(git_cmd(root).args(["rev-parse", "HEAD"])).stdout).unwrap();
    ok(&shadow(&["reset", "-q", "--soft", head.trim()]));
    ok(&shadow(&["read-tree", "HEAD"]));
    ok(&shadow(&["add", "-u"]));
    let added = run(git_cmd(root).args(["diff", "--cached", "--name-only", "--diff-filter=A", "-z"])).stdout;
    for file in String::from_utf8(added).unwrap().split_terminator('\0') {
        ok(&shadow(&["add", "--", file]));
    }
    ok(&shadow(&["commit", "-q", "--allow-empty", "--no-verify", "-m", "this checkout's working tree"]));
    let rev = String::from_utf8(shadow(&["rev-parse", "HEAD"]).stdout).unwrap().trim().to_string();
    (dest.to_path_buf(), rev)
}

fn git_cmd(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    isolated(&mut cmd, dir);
    cmd
}

/// Runs in `dir` with the environment of a user on this machine: no git or
/// cargo settings of whatever runs the tests (a rustup toolchain override,
/// a clippy wrapper, libtest's nightly switch, a git hook's index), so the hook is built as
/// `pre-commit` builds it for users, with the toolchain file it clones.
/// Two things differ, both about build time only: every `cargo install` of
/// the run builds into one target folder, so the hook's dependencies are
/// built once, not once per hook environment (three here); and that build
/// is not optimised (no LTO, opt-level 0, many codegen units), which halves
/// the slowest step of the suite. What is tested is that pre-commit clones,
/// builds and runs the hook, not how fast the binary it gets is.
fn isolated<'a>(cmd: &'a mut Command, dir: &Path) -> &'a mut Command {
    for var in [
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "RUSTC_WORKSPACE_WRAPPER",
        "CLIPPY_ARGS",
        "RUSTUP_TOOLCHAIN",
        // tests/run.sh's runner gives it to the test binaries (libtest's
        // per-test times); a user's cargo does not have it.
        "RUSTC_BOOTSTRAP",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "SKIP",
    ] {
        cmd.env_remove(var);
    }
    cmd.current_dir(dir)
        .env("CARGO_TARGET_DIR", common::root().join("target/pre-commit-hook"))
        .env("CARGO_PROFILE_RELEASE_LTO", "off")
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256")
        .env("CARGO_PROFILE_RELEASE_INCREMENTAL", "false")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "sqsguard tests")
        .env("GIT_AUTHOR_EMAIL", "tests@sqsguard.invalid")
        .env("GIT_COMMITTER_NAME", "sqsguard tests")
        .env("GIT_COMMITTER_EMAIL", "tests@sqsguard.invalid")
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn ok(out: &Output) {
    assert!(out.status.success(), "{}", text(out));
}

/// The output, after checking that pre-commit ran the sqsguard hook (its
/// `sqsguard....Passed` or `....Failed` line, not `Skipped`) with that
/// result, and exited accordingly.
fn hook_ran(out: &Output, result: &str) -> String {
    hook_ran_as(out, "sqsguard", result)
}

/// [`hook_ran`] for the hook named `name`.
fn hook_ran_as(out: &Output, name: &str, result: &str) -> String {
    let text = text(out);
    let line = text.lines().find(|l| l.starts_with(&format!("{name}...")));
    assert!(line.is_some_and(|l| l.ends_with(result)), "expected the {name} hook to report {result}:\n{text}");
    assert_eq!(out.status.success(), result == "Passed", "{text}");
    text
}

fn write(dir: &Path, name: &str, content: &str) {
    let path = dir.join(name);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(from, to).unwrap();
}
