//! The files sqsguard writes (generated templates, baselines, fixed files)
//! are as readable as any file the user makes: a new one gets the mode a
//! plain create gives under the umask, not a temporary file's private
//! 0600, and a replaced one keeps its permissions.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// The mode a plain create gives a new file in `dir` under this umask.
fn plain_mode(dir: &Path) -> u32 {
    let probe = dir.join("plain-probe");
    std::fs::write(&probe, "").unwrap();
    let m = mode(&probe);
    std::fs::remove_file(&probe).unwrap();
    m
}

fn run(args: &[&str], cwd: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(cwd).output().unwrap()
}

#[test]
fn generated_files_get_the_mode_of_a_plain_create() {
    let dir = tempfile::tempdir().unwrap();
    let spec = common::root().join("examples/generate/mcp-probe.yaml");
    let o = run(&["generate", spec.to_str().unwrap(), "--target", "terraform", "--output", "out"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let expected = plain_mode(dir.path());
    let written: Vec<_> = std::fs::read_dir(dir.path().join("out")).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(!written.is_empty());
    for path in &written {
        assert_eq!(mode(path), expected, "{}", path.display());
    }

    // Replaced with --force, a file keeps the mode its owner gave it.
    std::fs::set_permissions(&written[0], std::fs::Permissions::from_mode(0o640)).unwrap();
    let o =
        run(&["generate", spec.to_str().unwrap(), "--target", "terraform", "--output", "out", "--force"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(mode(&written[0]), 0o640);
}

#[test]
fn a_baseline_gets_the_mode_of_a_plain_create_and_keeps_its_own_when_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(common::root().join("examples/cloudformation/legacy-worker.yaml"), dir.path().join("w.yaml"))
        .unwrap();
    let o = run(&["lint", "w.yaml", "--write-baseline", "baseline.json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let baseline = dir.path().join("baseline.json");
    assert_eq!(mode(&baseline), plain_mode(dir.path()));

    std::fs::set_permissions(&baseline, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = run(&["lint", "w.yaml", "--write-baseline", "baseline.json"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(mode(&baseline), 0o640);
}

#[test]
fn a_fixed_file_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("w.yaml");
    std::fs::copy(common::root().join("examples/cloudformation/legacy-worker.yaml"), &template).unwrap();
    std::fs::set_permissions(&template, std::fs::Permissions::from_mode(0o664)).unwrap();
    let before = std::fs::read_to_string(&template).unwrap();
    run(&["lint", "w.yaml", "--fix"], dir.path());
    assert_ne!(std::fs::read_to_string(&template).unwrap(), before, "something was fixed");
    assert_eq!(mode(&template), 0o664);
}
