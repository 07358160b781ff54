//! The pre-commit mirror (sqsguard/sqsguard-pre-commit), as the release
//! workflow publishes it and users get it: release.yml's "Commit and tag
//! the mirror" step runs packaging/pre-commit-mirror/generate.sh, commits
//! and tags into a local stand-in for the mirror repository; then the real
//! `pre-commit` of tests/requirements.txt installs docs/ci.md's hook from
//! that tag with the wheel tests/run.sh built, pip pointed at a local
//! folder and no index, and no cargo on the PATH.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn version() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

/// A YAML file as JSON, read by PyYAML from the test venv.
fn yaml(python: &Path, path: &Path) -> Value {
    let script = "import json, sys, yaml\nprint(json.dumps(yaml.safe_load(open(sys.argv[1]))))";
    let out = Command::new(python).args(["-c", script]).arg(path).output().unwrap();
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The environment of a user on this machine: no git or cargo settings of
/// whatever runs the tests, a throwaway pre-commit home, no `cargo` on the
/// PATH, and pip that may read only the folders of wheels `find_links`.
fn user(cmd: &mut Command, dir: &Path, home: &Path, find_links: &str) -> Output {
    for var in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "SKIP", "RUSTUP_TOOLCHAIN"] {
        cmd.env_remove(var);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let no_cargo: Vec<PathBuf> = std::env::split_paths(&path).filter(|d| !d.join("cargo").exists()).collect();
    cmd.current_dir(dir)
        .env("PATH", std::env::join_paths(&no_cargo).unwrap())
        .env("PRE_COMMIT_HOME", home)
        .env("PIP_NO_INDEX", "1")
        .env("PIP_FIND_LINKS", find_links)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "sqsguard tests")
        .env("GIT_AUTHOR_EMAIL", "tests@sqsguard.invalid")
        .env("GIT_COMMITTER_NAME", "sqsguard tests")
        .env("GIT_COMMITTER_EMAIL", "tests@sqsguard.invalid")
        .output()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", text(out));
    text(out)
}

/// The output, after checking that pre-commit ran the hook `name` with
/// that result (`name....Passed`/`....Failed`) and exited accordingly.
fn hook_ran(out: &Output, name: &str, result: &str) -> String {
    let text = text(out);
    let line = text.lines().find(|l| l.starts_with(&format!("{name}...")));
    assert!(line.is_some_and(|l| l.ends_with(result)), "expected the {name} hook to report {result}:\n{text}");
    assert_eq!(out.status.success(), result == "Passed", "{text}");
    text
}

/// The one wheel tests/run.sh built into target/wheels.
fn wheels() -> Option<PathBuf> {
    let dir = common::root().join("target/wheels");
    let count = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "whl"))
        .count();
    assert!(count <= 1, "more than one wheel in {}", dir.display());
    (count == 1).then_some(dir)
}

/// The `run:` of a step of release.yml's pre-commit-mirror job.
fn release_step(python: &Path, name: &str) -> String {
    let release = yaml(python, &common::root().join(".github/workflows/release.yml"));
    let job = &release["jobs"]["pre-commit-mirror"];
    assert_eq!(job["needs"], "pypi", "the mirror is tagged once the wheel it names is on PyPI");
    let steps = job["steps"].as_array().unwrap();
    let step = steps.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no step {name}"));
    step["run"].as_str().unwrap().to_string()
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one scenario: the mirror built as the release builds it, then its hooks run; each step needs the previous one's tree"
)]
fn the_release_tags_a_mirror_whose_hooks_run_the_wheel_without_cargo() {
    let Some(pre_commit) = common::venv_tool("pre-commit") else { return common::missing("pre-commit") };
    let python = common::venv_tool("python").unwrap();
    let Some(wheels) = wheels() else { return common::missing("the wheel (tests/run.sh builds it with maturin)") };
    // pip builds the mirror's package with setuptools: tests/run.sh
    // downloads its wheel (tests/requirements-wheel.txt).
    let setuptools = common::wheel_venv().join("find-links");
    if !setuptools.is_dir() {
        return common::missing("setuptools' wheel in .venv-wheel/find-links (tests/run.sh downloads it)");
    }
    let find_links = format!("{} {}", wheels.display(), setuptools.display());
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("pre-commit-home");
    let git = |dir: &Path, args: &[&str]| user(Command::new("git").args(args), dir, &home, &find_links);

    // The mirror repository as it is before the release: one commit.
    let origin = tmp.path().join("sqsguard-pre-commit.git");
    let seed = tmp.path().join("seed");
    std::fs::create_dir_all(&seed).unwrap();
    ok(&git(&seed, &["init", "-q", "-b", "main"]));
    std::fs::write(seed.join("README.md"), "# sqsguard-pre-commit\n").unwrap();
    ok(&git(&seed, &["add", "-A"]));
    ok(&git(&seed, &["commit", "-q", "-m", "start"]));
    ok(&git(tmp.path(), &["clone", "-q", "--bare", seed.to_str().unwrap(), origin.to_str().unwrap()]));

    // The release job's workspace: this repository and a clone of the mirror.
    let workspace = tmp.path().join("workspace");
    std::fs::create_dir_all(&workspace).unwrap();
    std::os::unix::fs::symlink(common::root(), workspace.join("sqsguard")).unwrap();
    ok(&git(&workspace, &["clone", "-q", origin.to_str().unwrap(), "mirror"]));
    let publish = release_step(&python, "Commit and tag the mirror");
    let run_publish = || {
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-e", "-c", &publish]).env("TAG", version());
        user(&mut cmd, &workspace, &home, &find_links)
    };
    ok(&run_publish());
    let tagged = |file: &str| {
        let out = git(&origin, &["show", &format!("{}:{file}", version())]);
        ok(&out);
        String::from_utf8(out.stdout).unwrap()
    };
    let pyproject = tagged("pyproject.toml");
    assert!(
        pyproject.contains(&format!("dependencies = [\"sqsguard=={}\"]", env!("CARGO_PKG_VERSION"))),
        "{pyproject}"
    );
    assert!(tagged("README.md").contains(&format!("rev: {}", version())));
    // On the mirror's branch too, so `pre-commit autoupdate` finds it.
    let log = ok(&git(&origin, &["log", "--format=%s", "main"]));
    assert!(log.starts_with(&format!("sqsguard {}\n", version())), "{log}");
    // A re-run of the release finds the tag holding the same files: done.
    assert!(ok(&run_publish()).contains(&format!("the mirror already has {}", version())));

    // The mirror's hooks are the repository's own, but for the language
    // (python, from the wheel, rather than rust, built with cargo).
    let mirror_hooks = yaml(&python, &workspace.join("mirror/.pre-commit-hooks.yaml"));
    let mut root_hooks = yaml(&python, &common::root().join(".pre-commit-hooks.yaml"));
    for hook in root_hooks.as_array_mut().unwrap() {
        assert_eq!(hook["language"], "rust");
        hook["language"] = "python".into();
        hook["additional_dependencies"] = serde_json::json!([]);
    }
    assert_eq!(mirror_hooks, root_hooks);

    // A user's repository with docs/ci.md's configuration, the mirror's
    // address being the local one, and the fixing hook on demand.
    let work = tmp.path().join("work");
    std::fs::create_dir_all(work.join("stacks")).unwrap();
    ok(&git(&work, &["init", "-q"]));
    let docs = std::fs::read_to_string(common::root().join("docs/ci.md")).unwrap();
    let url = "https://github.com/sqsguard/sqsguard-pre-commit";
    let block = docs
        .split("```yaml\n")
        .filter_map(|rest| rest.split("```").next())
        .find(|b| b.contains(&format!("repo: {url}\n")))
        .expect("docs/ci.md shows the mirror's configuration");
    assert!(block.contains(&format!("rev: {}\n", version())), "{block}");
    let config = block.replace(url, origin.to_str().unwrap()) + "      - id: sqsguard-fix\n        stages: [manual]\n";
    std::fs::write(work.join(".pre-commit-config.yaml"), config).unwrap();
    let examples = common::root().join("examples/cloudformation");
    std::fs::copy(examples.join("legacy-worker.yaml"), work.join("stacks/worker.yaml")).unwrap();
    ok(&git(&work, &["add", "-A"]));
    let run = |args: &[&str]| {
        let mut cmd = Command::new(&pre_commit);
        cmd.args(["run", "--all-files", "--verbose", "--color", "never"]).args(args);
        user(&mut cmd, &work, &home, &find_links)
    };

    // Findings: the hook fails and shows them, each with its file.
    let text = hook_ran(&run(&["sqsguard"]), "sqsguard", "Failed");
    assert!(text.contains("- exit code: 1"), "sqsguard should exit 1 (findings), not crash:\n{text}");
    assert!(text.contains("SQS002 [*] visibility-timeout-below-function-timeout"), "{text}");
    assert!(text.contains("[stacks/worker.yaml:16:26]"), "{text}");
    // The binary the hook ran is the wheel's, in the hook's environment.
    let installed: Vec<PathBuf> = std::fs::read_dir(&home)
        .unwrap()
        .flatten()
        .filter_map(|repo| std::fs::read_dir(repo.path()).ok())
        .flatten()
        .flatten()
        .filter(|env| env.file_name().to_string_lossy().starts_with("py_env-"))
        .map(|env| env.path().join("bin/sqsguard"))
        .filter(|p| p.exists())
        .collect();
    assert_eq!(installed.len(), 1, "{installed:?}");
    let said = Command::new(&installed[0]).arg("--version").output().unwrap();
    assert_eq!(common::stdout(&said).trim(), format!("sqsguard {}", env!("CARGO_PKG_VERSION")));

    // The fixing hook rewrites what it safely can; pre-commit fails the
    // run because files changed, and what no fix repairs is still shown.
    let text = hook_ran(&run(&["sqsguard-fix", "--hook-stage", "manual"]), "sqsguard --fix", "Failed");
    assert!(text.contains("files were modified by this hook"), "{text}");
    assert!(text.contains("SQS004"), "{text}");
    let fixed = std::fs::read_to_string(work.join("stacks/worker.yaml")).unwrap();
    assert!(fixed.contains("ReceiveMessageWaitTimeSeconds: 20"), "{fixed}");

    // A template without findings passes; the config file is YAML that is
    // not infrastructure, passed and skipped.
    std::fs::copy(examples.join("orders-sam.yaml"), work.join("stacks/worker.yaml")).unwrap();
    let text = hook_ran(&run(&["sqsguard"]), "sqsguard", "Passed");
    assert!(text.contains("0 errors, 0 warnings, 0 infos in 1 file (1 skipped)"), "{text}");
}

/// generate.sh takes Cargo.toml's version, not the tag, and says so.
#[test]
fn the_generator_refuses_what_is_not_a_version() {
    let tmp = tempfile::tempdir().unwrap();
    let script = common::root().join("packaging/pre-commit-mirror/generate.sh");
    for bad in ["v0.1.0", "latest", "0.1", "0.1.0/../x", ""] {
        let out = Command::new("bash").arg(&script).arg(bad).arg(tmp.path().join("m")).output().unwrap();
        assert_eq!(out.status.code(), Some(if bad.is_empty() { 1 } else { 2 }), "{bad}: {}", text(&out));
        assert!(!tmp.path().join("m").exists(), "{bad}: nothing written");
    }
    let out = Command::new("bash").arg(&script).args(["0.2.0-rc.1"]).arg(tmp.path().join("m")).output().unwrap();
    ok(&out);
    let pyproject = std::fs::read_to_string(tmp.path().join("m/pyproject.toml")).unwrap();
    assert!(pyproject.contains("version = \"0.2.0-rc.1\"") && pyproject.contains("\"sqsguard==0.2.0-rc.1\""));
    assert!(!pyproject.contains("@VERSION@"));
}
