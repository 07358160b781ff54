//! The VS Code extension (editors/vscode): `npm run package` typechecks
//! it, bundles it with esbuild and packs the `.vsix` with vsce, and the
//! `.vsix` holds what VS Code runs (the manifest, the bundle its `main`
//! names, the settings the server reads) and no `node_modules`; its unit
//! tests (`npm test`, node's test runner, no VS Code) pass, the one that
//! drives this build's `sqsguard server` with the extension's messages
//! included. tests/run.sh installs the extension's tools with
//! `npm ci --prefix editors/vscode`. VS Code itself is not run: it cannot
//! be downloaded here.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

use serde_json::Value;

/// Both tests write the extension's `dist/` and `out/`: one at a time.
static BUILD: Mutex<()> = Mutex::new(());

fn extension() -> PathBuf {
    common::root().join("editors/vscode")
}

/// The extension's tools, or why they are not there (loudly; a failure
/// under CI).
fn tools() -> bool {
    let ok = Command::new("npm").arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        common::missing("node and npm");
        return false;
    }
    let bin = extension().join("node_modules/.bin");
    if !["tsc", "esbuild", "vsce"].iter().all(|tool| bin.join(tool).exists()) {
        common::missing("editors/vscode/node_modules (npm ci --prefix editors/vscode)");
        return false;
    }
    true
}

fn npm(args: &[&str]) -> Output {
    Command::new("npm")
        .args(args)
        .current_dir(extension())
        .env("NO_UPDATE_NOTIFIER", "1")
        .env("npm_config_update_notifier", "false")
        .env("SQSGUARD_BIN", env!("CARGO_BIN_EXE_sqsguard"))
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The names of a `.vsix`'s entries and the text of its
/// `extension/package.json` and `extension/dist/extension.js` (a `.vsix`
/// is a zip: Python's zipfile reads it).
fn open_vsix(vsix: &Path) -> Option<(Vec<String>, Value, String)> {
    const READ: &str = "import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None, 'a corrupt entry'
names = z.namelist()
read = lambda n: z.read(n).decode('utf-8') if n in names else ''
print(json.dumps({'names': names, 'manifest': read('extension/package.json'), 'bundle': read('extension/dist/extension.js')}))";
    let Ok(out) = Command::new("python3").arg("-c").arg(READ).arg(vsix).output() else {
        common::missing("python3");
        return None;
    };
    assert!(out.status.success(), "{}", text(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names = doc["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap().to_string()).collect();
    let manifest = serde_json::from_str(doc["manifest"].as_str().unwrap()).unwrap_or(Value::Null);
    Some((names, manifest, doc["bundle"].as_str().unwrap().to_string()))
}

/// The settings `sqsguard server` reads (crates/server/src/settings.rs).
const SERVER_SETTINGS: [&str; 5] = ["select", "ignore", "unsafeFixes", "varFiles", "stage"];

/// What is wrong with a `.vsix` of these entries, manifest and bundle.
fn problems(names: &[String], manifest: &Value, bundle: &str) -> Vec<String> {
    let mut out = Vec::new();
    for needed in ["extension.vsixmanifest", "extension/package.json", "extension/dist/extension.js"] {
        if !names.iter().any(|n| n == needed) {
            out.push(format!("no {needed}"));
        }
    }
    if !names.iter().any(|n| n.eq_ignore_ascii_case("extension/readme.md")) {
        out.push("no README".into());
    }
    if !names.iter().any(|n| n.to_ascii_lowercase().starts_with("extension/license")) {
        out.push("no LICENSE".into());
    }
    for n in names {
        let sources = n.starts_with("extension/src/") || n.starts_with("extension/test/");
        if n.contains("node_modules") || n.ends_with(".vsix") || sources {
            out.push(format!("{n} should not be in it"));
        }
    }
    match manifest["main"].as_str() {
        Some(main) => {
            let entry = format!("extension/{}", main.trim_start_matches("./"));
            if !names.contains(&entry) {
                out.push(format!("main is {main}, which is not in it"));
            }
        }
        None => out.push("package.json has no main".into()),
    }
    let settings = &manifest["contributes"]["configuration"]["properties"];
    for key in SERVER_SETTINGS.iter().chain(&["path", "trace.server"]) {
        if settings.get(format!("sqsguard.{key}")).is_none() {
            out.push(format!("sqsguard.{key} is not contributed"));
        }
    }
    let commands: Vec<&str> = manifest["contributes"]["commands"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["command"].as_str()).collect())
        .unwrap_or_default();
    for command in ["sqsguard.restart", "sqsguard.fixAll"] {
        if !commands.contains(&command) {
            out.push(format!("no command {command}"));
        }
    }
    if manifest["engines"]["vscode"].as_str().is_none() {
        out.push("no engines.vscode".into());
    }
    // The client is in the bundle: only `vscode` is required from outside.
    if bundle.contains("require(\"vscode-languageclient") || !bundle.contains("require(\"vscode\")") {
        out.push("dist/extension.js does not bundle vscode-languageclient with vscode left outside".into());
    }
    if !bundle.contains("source.fixAll.sqsguard") || !bundle.contains("--help") {
        out.push("dist/extension.js is not this extension's bundle".into());
    }
    out
}

#[test]
fn the_vsix_holds_the_bundle_and_the_manifest_and_no_node_modules() {
    if !tools() {
        return;
    }
    let _one = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let vsix = dir.path().join("sqsguard.vsix");
    let out = npm(&["run", "package", "--", "--out", vsix.to_str().unwrap()]);
    assert!(out.status.success(), "npm run package failed:\n{}", text(&out));
    let Some((names, manifest, bundle)) = open_vsix(&vsix) else { return };
    let found = problems(&names, &manifest, &bundle);
    assert!(found.is_empty(), "{found:#?}\nin {names:#?}");
    assert_eq!(manifest["name"], "sqsguard");
    assert_eq!(manifest["version"], env!("CARGO_PKG_VERSION"), "the extension's version is the crate's");

    // The checks fail what they should.
    let mut broken = manifest.clone();
    broken["contributes"]["configuration"]["properties"].as_object_mut().unwrap().remove("sqsguard.varFiles");
    broken["main"] = Value::from("./out/extension.js");
    let mut with_modules = names.clone();
    with_modules.push("extension/node_modules/vscode-languageclient/package.json".into());
    with_modules.retain(|n| n != "extension/dist/extension.js");
    let found = problems(&with_modules, &broken, "require(\"vscode-languageclient/node\")");
    for expected in [
        "no extension/dist/extension.js",
        "extension/node_modules/vscode-languageclient/package.json should not be in it",
        "main is ./out/extension.js, which is not in it",
        "sqsguard.varFiles is not contributed",
        "dist/extension.js does not bundle vscode-languageclient with vscode left outside",
    ] {
        assert!(found.iter().any(|p| p == expected), "{expected:?} not found in {found:#?}");
    }
}

#[test]
fn the_extension_unit_tests_pass_against_this_server() {
    if !tools() {
        return;
    }
    let _one = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    // The bundle the unit tests load.
    let bundled = npm(&["run", "bundle"]);
    assert!(bundled.status.success(), "npm run bundle failed:\n{}", text(&bundled));
    let out = npm(&["test"]);
    let report = text(&out);
    assert!(out.status.success(), "npm test failed:\n{report}");
    let count = |what: &str| -> u32 {
        let line = report.lines().find_map(|l| l.strip_prefix(&format!("# {what} ")));
        line.and_then(|n| n.trim().parse().ok()).unwrap_or_else(|| panic!("no `# {what}` line in:\n{report}"))
    };
    assert_eq!(count("fail"), 0, "{report}");
    // Every test ran, the one against the real server (SQSGUARD_BIN) too.
    assert_eq!(count("skipped"), 0, "{report}");
    assert!(count("pass") >= 12, "{report}");
    let against_server = "- a real sqsguard server takes the settings the extension sends";
    assert!(report.lines().any(|l| l.starts_with("ok ") && l.ends_with(against_server)), "{report}");
}
