//! `sqsguard server` as Neovim's built-in LSP client drives it: the real
//! binary over stdio, started by `nvim --headless` with no user config
//! (HOME and the XDG folders in a throwaway folder). tests/nvim/fix.lua does
//! what a user does (open a template, see the diagnostic, take the
//! preferred quick fix) and writes what it saw as JSON; this test checks
//! that: the diagnostic's code and place, the fixed text, and that the
//! diagnostic went away once the edit reached the server.
//!
//! Debian 12's `neovim` is 0.7.2, which has no `vim.lsp.start`; the script
//! uses `vim.lsp.start_client` there and `vim.lsp.start` on later versions.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::missing;
use serde_json::Value;

/// SQS002: the queue's 30 s VisibilityTimeout is below the function's 60 s
/// Timeout. The fix raises it (to 6 x 60, what SQS001 asks for too).
fn template() -> String {
    let worker = std::fs::read_to_string(common::root().join("tests/fixtures/server/worker.yaml")).unwrap();
    format!("AWSTemplateFormatVersion: '2010-09-09'\n{worker}")
}

#[test]
fn neovim_shows_the_diagnostic_applies_the_quick_fix_and_the_diagnostic_clears() {
    if Command::new("nvim").arg("--version").stdout(Stdio::null()).status().is_err() {
        return missing("neovim");
    }
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let work = root.join("work");
    std::fs::create_dir(&work).unwrap();
    let file = work.join("template.yaml");
    std::fs::write(&file, template()).unwrap();
    let out = root.join("report.json");

    let started = Instant::now();
    let status = run_nvim(&root, &work, &file, &out);
    eprintln!("nvim ran the script in {:.1?}", started.elapsed());
    let report: Value = std::fs::read_to_string(&out)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| panic!("nvim ({status}) wrote no report{}", lsp_log(&root)));
    assert!(
        status.success() && report.get("error").is_none(),
        "nvim ({status}) failed after steps {}: {}{}",
        report["steps"],
        report["error"],
        lsp_log(&root)
    );
    eprintln!("Neovim {}", report["nvim"]);

    // One diagnostic: SQS002 on the queue's VisibilityTimeout value (line
    // 6, 0-based 5; `30` starts at column 25). SQS004 (no DLQ) would fire
    // too but for the script's `select` initializationOption.
    let seen = report["diagnostics"].as_array().unwrap();
    assert_eq!(seen.len(), 1, "{seen:#?}");
    let d = &seen[0];
    assert_eq!((d["code"].as_str(), d["line"].as_u64(), d["col"].as_u64()), (Some("SQS002"), Some(5), Some(25)), "{d}");
    assert_eq!((d["end_line"].as_u64(), d["end_col"].as_u64()), (Some(5), Some(27)), "{d}");
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("VisibilityTimeout") || message.contains("visibility"), "{message}");
    assert!(message.contains("60"), "the message should name the function's timeout: {message}");
    assert_eq!(d["source"], "sqsguard", "{d}");

    // Hover on the diagnostic's place shows the rule's page.
    let hover = report["hover"].as_str().unwrap_or_default();
    assert!(hover.starts_with("# SQS002 "), "hover: {hover:.200}");

    // The preferred quick fix is the safe fix; a suppression is offered too.
    let titles: Vec<&str> = report["actions"].as_array().unwrap().iter().filter_map(|a| a["title"].as_str()).collect();
    let applied = report["applied"].as_str().unwrap();
    assert!(applied.starts_with("Fix SQS002:"), "applied {applied:?} of {titles:?}");
    assert!(titles.contains(&"Suppress SQS002 with a comment"), "{titles:?}");

    // The buffer after the fix: only the VisibilityTimeout changed.
    let lines = |key: &str| -> Vec<String> {
        report[key].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect()
    };
    let before: Vec<String> = template().lines().map(String::from).collect();
    assert_eq!(lines("before"), before);
    let mut want = before.clone();
    want[5] = "      VisibilityTimeout: 360".to_string();
    assert_eq!(lines("after"), want);

    // The edit reached the server (didChange), whose next publication for
    // the new text had nothing left; then a clean shutdown and exit.
    assert_eq!(report["cleared"], true);
    assert_eq!(report["server_exit"]["code"], 0, "{}", report["server_exit"]);
    // The fix is the buffer's; the file on disk is as it was.
    assert_eq!(std::fs::read_to_string(&file).unwrap(), template());
}

/// Runs tests/nvim/fix.lua in a headless Neovim that reads no user config;
/// killed after two minutes.
fn run_nvim(root: &Path, work: &Path, file: &Path, out: &Path) -> std::process::ExitStatus {
    let script = common::root().join("tests/nvim/fix.lua");
    let home = root.join("home");
    let mut cmd = Command::new("nvim");
    cmd.args(["--headless", "--clean", "-u", "NONE", "-i", "NONE", "-n"])
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .current_dir(work)
        .env("HOME", &home)
        .env("SQSGUARD_BIN", env!("CARGO_BIN_EXE_sqsguard"))
        .env("SQSGUARD_FILE", file)
        .env("SQSGUARD_ROOT", work)
        .env("SQSGUARD_OUT", out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (var, dir) in [
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_RUNTIME_DIR", "runtime"),
    ] {
        let path = home.join(dir);
        std::fs::create_dir_all(&path).unwrap();
        cmd.env(var, path);
    }
    cmd.env_remove("XDG_CONFIG_DIRS").env_remove("XDG_DATA_DIRS").env_remove("NVIM").env_remove("VIMINIT");
    let mut child = cmd.spawn().expect("start nvim");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let status = child.wait().unwrap();
            panic!("nvim did not finish in two minutes ({status}){}", lsp_log(root));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Neovim's LSP log (the server's standard error lands there), for a
/// failure's message.
fn lsp_log(root: &Path) -> String {
    let logs = ["home/state/nvim/lsp.log", "home/cache/nvim/lsp.log"];
    let text: String = logs.iter().filter_map(|l| std::fs::read_to_string(root.join(l)).ok()).collect();
    if text.is_empty() { String::new() } else { format!("\nNeovim's lsp.log:\n{text}") }
}
