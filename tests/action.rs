//! The GitHub Action (action.yml) and its installer
//! (.github/install-sqsguard.sh), run here against a local folder of
//! release archives made from this build, as the release workflow lays
//! them out: `VERSION/sqsguard-VERSION-TARGET.tar.gz` and its `.sha256`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const VERSION: &str = "v9.9.9";
const LINUX_X64: &str = "x86_64-unknown-linux-musl";

/// A release folder holding this build as the Linux x86-64 archive; its
/// checksum file says `checksum` when given, else the archive's own.
fn releases(root: &Path, checksum: Option<&str>) -> PathBuf {
    let dir = root.join("releases").join(VERSION);
    std::fs::create_dir_all(&dir).unwrap();
    let staging = root.join("staging");
    std::fs::create_dir_all(&staging).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_sqsguard"), staging.join("sqsguard")).unwrap();
    let archive = format!("sqsguard-{VERSION}-{LINUX_X64}.tar.gz");
    let tar = Command::new("tar").arg("-czf").arg(dir.join(&archive)).arg("-C").arg(&staging).arg("sqsguard").status();
    assert!(tar.unwrap().success());
    let sum = Command::new("sha256sum").arg(&archive).current_dir(&dir).output().unwrap();
    let line = match checksum {
        Some(wrong) => format!("{wrong}  {archive}\n"),
        None => String::from_utf8(sum.stdout).unwrap(),
    };
    std::fs::write(dir.join(format!("{archive}.sha256")), line).unwrap();
    root.join("releases")
}

fn install(base: &Path, os: &str, arch: &str, dest: &Path) -> Output {
    Command::new(common::root().join(".github/install-sqsguard.sh"))
        .env("SQSGUARD_VERSION", VERSION)
        .env("SQSGUARD_BASE_URL", format!("file://{}", base.display()))
        .env("SQSGUARD_INSTALL_DIR", dest)
        .env("RUNNER_OS", os)
        .env("RUNNER_ARCH", arch)
        .output()
        .unwrap()
}

#[test]
fn the_installer_verifies_the_archive_and_installs_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let base = releases(dir.path(), None);
    let dest = dir.path().join("tool");
    let out = install(&base, "Linux", "X64", &dest);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let version = Command::new(dest.join("sqsguard")).arg("--version").output().unwrap();
    assert_eq!(common::stdout(&version).trim(), format!("sqsguard {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_bad_checksum_a_failed_download_or_an_unknown_runner_installs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let base = releases(dir.path(), Some(&"0".repeat(64)));
    let dest = dir.path().join("tool");
    let refused = |out: &Output, says: &str| {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("::error title=sqsguard::") && stderr.contains(says), "{stderr}");
        assert!(!dest.join("sqsguard").exists(), "nothing is installed");
    };
    refused(
        &install(&base, "Linux", "X64", &dest),
        "checksum mismatch for sqsguard-v9.9.9-x86_64-unknown-linux-musl.tar.gz",
    );
    // No archive for that platform in the folder: the download fails.
    refused(&install(&base, "macOS", "ARM64", &dest), "could not download");
    // A platform with no release binary at all: which, and what to do.
    let out = install(&base, "Linux", "ARM", &dest);
    refused(&out, "no sqsguard release binary for runner Linux/ARM");
    assert!(String::from_utf8_lossy(&out.stderr).contains("cargo install --locked --git"));
}

/// The `run:` script of the action's step named `name`.
fn step_script(name: &str) -> String {
    let python = common::venv_tool("python").expect("the test venv (tests/run.sh)");
    let script = "import sys, yaml\n\
                  steps = yaml.safe_load(open(sys.argv[1]))['runs']['steps']\n\
                  print(next(s['run'] for s in steps if s.get('name') == sys.argv[2]))";
    let out =
        Command::new(python).args(["-c", script]).arg(common::root().join("action.yml")).arg(name).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_action_takes_the_documented_inputs_and_its_lint_step_reports_and_gates() {
    if common::venv_tool("python").is_none() {
        return common::missing("the test venv's python (PyYAML)");
    }
    let action = std::fs::read_to_string(common::root().join("action.yml")).unwrap();
    for input in ["paths", "format", "fail-on", "config", "baseline", "version", "upload-sarif", "base-url"] {
        assert!(action.contains(&format!("\n  {input}:\n")), "action.yml has no input {input}");
    }
    // The lint step as the runner runs it, with this build as the binary.
    let lint = step_script("Lint");
    let bin = Path::new(env!("CARGO_BIN_EXE_sqsguard")).parent().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run = |format: &str, paths: &str| {
        let outputs = dir.path().join("outputs");
        std::fs::write(&outputs, "").unwrap();
        let out = Command::new("bash")
            .args(["-e", "-c", &lint])
            .current_dir(common::root())
            .env("SQSGUARD_BIN", bin)
            .env("PATHS", paths)
            .env("FORMAT", format)
            .env("FAIL_ON", "warning")
            .env("CONFIG", "")
            .env("BASELINE", "")
            .env("OUTPUT", dir.path().join(format!("report.{format}")))
            .env("GITHUB_OUTPUT", &outputs)
            .output()
            .unwrap();
        (out, std::fs::read_to_string(&outputs).unwrap())
    };
    // Findings: the step itself passes (the gate is a later step) and says so.
    let (out, outputs) = run("sarif", "examples/cloudformation tests/fixtures/cli/clean.yaml");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(outputs.contains("status=1\n") && outputs.contains("report="), "{outputs}");
    let sarif = std::fs::read_to_string(dir.path().join("report.sarif")).unwrap();
    assert!(sarif.contains("\"version\": \"2.1.0\"") && sarif.contains("SQS001"));
    let (out, outputs) = run("json", "tests/fixtures/cli/clean.yaml");
    assert!(out.status.success());
    assert!(outputs.contains("status=0\n"), "{outputs}");
    // A usage error fails the step at once.
    let (out, _) = run("json", "no/such/folder");
    assert_eq!(out.status.code(), Some(2));
}
