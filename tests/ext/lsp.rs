//! `sqsguard server`, the built binary, driven end to end by a real LSP
//! client: the pytest-lsp tests in tests/lsp, run with the venv's pytest
//! ($SQSGUARD_LSP_VENV, else `<repo>/.venv-lsp`, which tests/run.sh makes
//! from tests/lsp/requirements.txt).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::PathBuf;
use std::process::Command;

fn lsp_venv() -> PathBuf {
    std::env::var_os("SQSGUARD_LSP_VENV").map(PathBuf::from).unwrap_or_else(|| common::root().join(".venv-lsp"))
}

#[test]
fn pytest_lsp_drives_the_server() {
    let pytest = lsp_venv().join("bin").join("pytest");
    if !pytest.exists() {
        return common::missing("pytest-lsp");
    }
    let out = Command::new(&pytest)
        .args(["-q", "tests/lsp"])
        .current_dir(common::root())
        .env("SQSGUARD_BIN", env!("CARGO_BIN_EXE_sqsguard"))
        .env_remove("PYTEST_ADDOPTS")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("run pytest");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "pytest -q tests/lsp failed ({}):\n{text}", out.status);
    // pytest exits 0 only when it ran tests and all of them passed; that
    // it found them at all is checked here too, in its summary line.
    assert!(text.lines().any(|l| l.contains(" passed")), "pytest ran no test:\n{text}");
}
