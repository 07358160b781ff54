//! The Python wheel (`pip install sqsguard`, no Rust toolchain): tests/run.sh
//! builds it with maturin into target/wheels; this installs it into a fresh
//! venv and runs what it installed, and has twine check its metadata as the
//! package index would.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The one wheel tests/run.sh built.
fn wheel() -> Option<PathBuf> {
    let dir = common::root().join("target/wheels");
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "whl"))
        .collect();
    assert!(wheels.len() <= 1, "more than one wheel in target/wheels: {wheels:?}");
    wheels.into_iter().next()
}

fn wheel_tool(name: &str) -> Option<PathBuf> {
    let tool = common::wheel_venv().join("bin").join(name);
    tool.exists().then_some(tool)
}

/// (rule, file, line) of each finding of a `--format json` run.
fn findings(out: &std::process::Output) -> BTreeSet<(String, String, u64)> {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap().into(), f["file"].as_str().unwrap().into(), f["line"].as_u64().unwrap()))
        .collect()
}

fn metadata(python: &Path, wheel: &Path) -> String {
    let script = "import sys, zipfile\n\
                  w = zipfile.ZipFile(sys.argv[1])\n\
                  print(w.read(next(n for n in w.namelist() if n.endswith('.dist-info/METADATA'))).decode())";
    let out = Command::new(python).args(["-c", script]).arg(wheel).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_wheel_installs_sqsguard_and_passes_twine_check() {
    let Some(wheel) = wheel() else { return common::missing("the wheel (tests/run.sh builds it with maturin)") };
    let Some(twine) = wheel_tool("twine") else { return common::missing("twine (tests/requirements-wheel.txt)") };

    let check = Command::new(twine).args(["check", "--strict"]).arg(&wheel).output().unwrap();
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success() && said.contains("PASSED"), "twine check:\n{said}");
    let meta = metadata(&wheel_tool("python").unwrap(), &wheel);
    for line in [
        "Name: sqsguard".to_string(),
        format!("Version: {}", env!("CARGO_PKG_VERSION")),
        "Classifier: Programming Language :: Rust".into(),
        "Classifier: License :: OSI Approved :: Apache Software License".into(),
        "Requires-Python: >=3.9".into(),
        "Project-URL: Repository, https://github.com/sqsguard/sqsguard".into(),
        "Description-Content-Type: text/markdown; charset=UTF-8; variant=GFM".into(),
    ] {
        assert!(meta.lines().any(|l| l == line), "METADATA lacks {line:?}:\n{}", &meta[..meta.len().min(2000)]);
    }
    assert!(meta.contains("Summary: Keeps AWS SQS pipelines correct"), "{meta}");
    assert!(meta.contains("\n# sqsguard"), "the README is the long description");

    // A fresh venv with nothing but the wheel: `sqsguard` is on its PATH
    // and is this build.
    let dir = tempfile::tempdir().unwrap();
    let venv = dir.path().join("venv");
    let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).status().unwrap();
    assert!(made.success());
    let pip = Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--no-index", "--disable-pip-version-check"])
        .arg(&wheel)
        .output()
        .unwrap();
    assert!(pip.status.success(), "{}", String::from_utf8_lossy(&pip.stderr));
    let installed = venv.join("bin/sqsguard");
    let version = Command::new(&installed).arg("--version").output().unwrap();
    assert_eq!(common::stdout(&version).trim(), format!("sqsguard {}", env!("CARGO_PKG_VERSION")));
    let lint = |bin: &Path| {
        Command::new(bin).args(["lint", "examples", "--format", "json"]).current_dir(common::root()).output().unwrap()
    };
    let from_wheel = lint(&installed);
    assert_eq!(from_wheel.status.code(), Some(1), "examples/ holds findings");
    let expected = findings(&lint(Path::new(env!("CARGO_BIN_EXE_sqsguard"))));
    assert!(expected.len() >= 10, "{expected:?}");
    assert_eq!(findings(&from_wheel), expected);
}

/// The wheel is built from the test build's artifacts: maturin builds the
/// binary alone, without the dev-dependencies, and a dependency whose
/// features differ without them is compiled a second time, with all that
/// depends on it (indexmap's `serde` feature, asked for by the tests' hcl-rs,
/// once made tests/run.sh compile about forty crates twice, 150 s). Every
/// dependency of the build without dev-dependencies has the features the
/// test build gives it (the root Cargo.toml asks for those only the tests
/// ask for).
#[test]
fn the_wheel_build_resolves_every_dependency_with_the_test_build_features() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let resolve = |edges: &str| -> BTreeSet<String> {
        let out = Command::new(&cargo)
            .args(["tree", "--locked", "--offline", "--features", "audit", "--prefix", "none"])
            .args(["--edges", edges, "--format", "{p} [{f}]"])
            .current_dir(common::root())
            .output()
            .unwrap();
        assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
        // `(*)` marks a package already listed above.
        String::from_utf8_lossy(&out.stdout).lines().map(|l| l.trim_end_matches(" (*)").to_string()).collect()
    };
    let (alone, tests) = (resolve("normal,build"), resolve("normal,build,dev"));
    assert!(alone.iter().any(|p| p.starts_with("indexmap ")), "{alone:?}");
    let differ: Vec<&String> = alone.difference(&tests).collect();
    assert!(differ.is_empty(), "resolved with other features without the dev-dependencies: {differ:#?}");
}
