//! Real AWS CDK apps, one in TypeScript and one in Python
//! (tests/fixtures/cdk), synthesized by the real CDK CLI, then linted: each
//! finding on a synthesized resource is moved to the construct in the app's
//! own source, and `synthesized_at` keeps where it was in the template;
//! `--no-cdk-source` leaves every finding in the template.
//!
//! Where each finding must land is written in the app: a comment at the end
//! of the line, `// expect: SQS002` or `# expect: SQS004 SQS005`, names
//! every rule whose findings point at that line. The line is the property
//! that sets the offending value in the props of the construct that owns
//! the resource (the queue's for a queue's finding, the `SqsEventSource`'s
//! for its mapping's, the function's for the function's), even when the
//! value comes from a variable; or, when the value is absent (a default)
//! or set some other way, the line where that construct's creation starts
//! (`new sqs.Queue(`, `new SqsEventSource(`). Every finding of these apps
//! is on a queue, a function or a mapping: none is left out of the check.
//!
//! A suppression comment on a construct's line, or the line above it
//! (`// sqsguard:ignore SQS004 reason`), silences its findings: each app
//! has one, with no marker for what it silences.
//!
//! The second test fixes what `--fix` can in the app's source (never in
//! `cdk.out`), synthesizes the app again and lints it: the findings that
//! had a fix are gone, the others are still there.
//!
//! Each app is copied to a temporary folder and synthesized there with
//! `cdk synth` of tests/cdk (tests/run.sh installs it with `npm ci`, and
//! aws-cdk-lib for Python in $SQSGUARD_CDK_VENV, else `<repo>/.venv-cdk`,
//! from tests/requirements-cdk.txt), the CLI running the app's own command
//! from its `cdk.json`: `npx tsx bin/app.ts` (the copy's `node_modules` is
//! a link to tests/cdk/node_modules) or `python3 app.py` (the venv first on
//! PATH). No AWS account, network or bootstrap is needed: the stacks have
//! no environment and no assets. Each synth takes about 4 s alone and 7 s
//! when both run at once, as they do here (in two threads); linting takes
//! a fraction of a second.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use serde_json::Value;

/// An app of tests/fixtures/cdk and how the CLI runs it.
#[derive(Clone, Copy)]
struct App {
    /// Its folder under tests/fixtures/cdk.
    name: &'static str,
    python: bool,
}

const APPS: [App; 2] = [App { name: "typescript", python: false }, App { name: "python", python: true }];

fn cdk_venv() -> PathBuf {
    std::env::var_os("SQSGUARD_CDK_VENV").map(PathBuf::from).unwrap_or_else(|| common::root().join(".venv-cdk"))
}

fn cdk_modules() -> PathBuf {
    common::root().join("tests/cdk/node_modules")
}

/// The major version of the node on PATH, or `None` (loudly; a failure
/// under CI) when a tool the apps need is not installed.
fn tools() -> Option<String> {
    let node = Command::new("node").arg("--version").output();
    let Some(version) = node.ok().filter(|o| o.status.success()).map(|o| common::stdout(&o)) else {
        common::missing("node");
        return None;
    };
    if !cdk_modules().join(".bin/cdk").exists() || !cdk_modules().join(".bin/tsx").exists() {
        common::missing("tests/cdk/node_modules (npm ci --prefix tests/cdk)");
        return None;
    }
    if !cdk_venv().join("bin/python3").exists() {
        common::missing("the venv of aws-cdk-lib for Python (.venv-cdk, tests/requirements-cdk.txt)");
        return None;
    }
    Some(version.trim().trim_start_matches('v').split('.').next().unwrap_or_default().to_string())
}

/// An app synthesized in a copy of its folder (`app/` of `dir`, beside the
/// CLI's home, which is no part of the app).
struct Synthesized {
    app: App,
    /// The app's folder (`dir` canonical, as sqsguard names its files).
    root: PathBuf,
    _dir: tempfile::TempDir,
}

/// Copies `app` and runs `cdk synth` in the copy.
fn synth(app: App, node_major: &str) -> Synthesized {
    let dir = tempfile::tempdir().unwrap();
    let dir_path = dir.path().canonicalize().unwrap();
    let root = dir_path.join("app");
    copy(&common::root().join("tests/fixtures/cdk").join(app.name), &root);
    if !app.python {
        std::os::unix::fs::symlink(cdk_modules(), root.join("node_modules")).unwrap();
    }
    synth_again(app, &dir_path, &root, node_major);
    Synthesized { app, root, _dir: dir }
}

/// `cdk synth` in the app's folder `root` (of `dir`).
fn synth_again(app: App, dir_path: &Path, root: &Path, node_major: &str) {
    let mut cmd = Command::new(cdk_modules().join(".bin/cdk"));
    cmd.args(["synth", "--quiet", "--no-notices"])
        .current_dir(root)
        // Nothing asked of the network: no version check, notices,
        // telemetry or update notice of npx's npm, no instance metadata
        // for the default account's credentials.
        .env("CDK_DISABLE_VERSION_CHECK", "1")
        .env("CDK_DISABLE_CLI_TELEMETRY", "true")
        .env("CDK_HOME", dir_path.join("cdk-home"))
        .env("NO_UPDATE_NOTIFIER", "1")
        .env("npm_config_update_notifier", "false")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        // jsii's banner when the node is past the end of its support.
        .env("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", node_major)
        .env("PYTHONDONTWRITEBYTECODE", "1");
    if app.python {
        let path = std::env::var_os("PATH").unwrap_or_default();
        let path = std::env::join_paths(std::iter::once(cdk_venv().join("bin")).chain(std::env::split_paths(&path)));
        cmd.env("PATH", path.unwrap());
    }
    let started = Instant::now();
    let out = cmd.output().unwrap();
    eprintln!("cdk synth of the {} app: {:.1?}", app.name, started.elapsed());
    assert!(out.status.success(), "cdk synth of the {} app failed ({}):\n{}", app.name, out.status, text(&out));
    assert!(root.join("cdk.out/manifest.json").exists(), "{}: no cdk.out/manifest.json:\n{}", app.name, text(&out));
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().map(Result::unwrap) {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The findings of `sqsguard lint APP --format json` (and `extra`).
fn lint(app: &Path, extra: &[&str]) -> Vec<Value> {
    let app = app.to_string_lossy();
    let mut args = vec!["lint", &app, "--format", "json", "--fail-on=never"];
    args.extend_from_slice(extra);
    let out = common::sqsguard(&args);
    assert!(out.status.success(), "sqsguard {args:?} failed ({}):\n{}", out.status, text(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
    doc["findings"].as_array().cloned().unwrap_or_default()
}

/// A location of a finding's JSON (`file`, `line`, `column`): the file
/// relative to the app's folder (sqsguard runs in the repository's root,
/// so a relative file is relative to that), or as written when outside it.
fn location(at: &Value, root: &Path) -> (String, u64, u64) {
    let file = Path::new(at["file"].as_str().unwrap_or_default());
    let file = common::root().join(file);
    let file = file.strip_prefix(root).map(Path::to_path_buf).unwrap_or(file);
    (file.to_string_lossy().into_owned(), at["line"].as_u64().unwrap_or(0), at["column"].as_u64().unwrap_or(0))
}

/// `(rule, file, line, column)` of a finding, at the place `at` names.
type Place = (String, String, u64, u64);

fn place(finding: &Value, at: &Value, root: &Path) -> Place {
    let (file, line, column) = location(at, root);
    (finding["rule"].as_str().unwrap_or_default().to_string(), file, line, column)
}

/// Every `expect:` marker of the app's source: `(file, line, rule)`.
fn markers(dir: &Path, under: &Path, out: &mut BTreeSet<(String, u64, String)>) {
    for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.file_type().unwrap().is_dir() {
            markers(&path, under, out);
        } else if name.ends_with(".ts") || name.ends_with(".py") {
            let file = path.strip_prefix(under).unwrap().to_string_lossy().into_owned();
            for (n, line) in std::fs::read_to_string(&path).unwrap().lines().enumerate() {
                let Some((_, codes)) = line.split_once("expect:") else { continue };
                for code in codes.split_whitespace() {
                    assert!(code.starts_with("SQS"), "{file}:{}: a marker names rules only: {line}", n + 1);
                    out.insert((file.clone(), n as u64 + 1, code.to_string()));
                }
            }
        }
    }
}

/// The findings as a failed assertion shows them: rule, where it is (and
/// where it was synthesized), resource and message.
fn listing(findings: &[Value]) -> String {
    let at = |v: &Value| format!("{}:{}:{}", v["file"].as_str().unwrap_or("?"), v["line"], v["column"]);
    let line = |f: &Value| {
        let was = f.get("synthesized_at").map(|s| format!(" (synthesized_at {})", at(s))).unwrap_or_default();
        format!("  {} {}{was} {}: {}\n", f["rule"].as_str().unwrap_or("?"), at(f), f["resource"], f["message"])
    };
    findings.iter().map(line).collect()
}

/// (d): with `--no-cdk-source`, what sqsguard has always reported: every
/// finding in the synthesized templates, none with `synthesized_at`.
/// Returns the places of the findings.
fn check_template_findings(app: &Synthesized) -> BTreeSet<Place> {
    let root = &app.root;
    let findings = lint(root, &["--no-cdk-source"]);
    assert!(!findings.is_empty(), "{}: no finding at all", app.app.name);
    for f in &findings {
        let (file, ..) = location(f, root);
        assert!(
            file.starts_with("cdk.out/") && f.get("synthesized_at").is_none(),
            "{}, --no-cdk-source: a finding outside the templates or with synthesized_at:\n{}",
            app.app.name,
            listing(&findings)
        );
    }
    findings.iter().map(|f| place(f, f, root)).collect()
}

/// (a) to (c), by default: each finding moved to the line its marker
/// names, `synthesized_at` where `--no-cdk-source` reports it, and each
/// marker's rule found there. What is wrong, or nothing.
fn check_source_findings(app: &Synthesized, in_templates: &BTreeSet<Place>) -> Vec<String> {
    let root = &app.root;
    let findings = lint(root, &[]);
    let mut expected = BTreeSet::new();
    markers(root, root, &mut expected);
    let mut wrong = Vec::new();
    let mut found = BTreeSet::new();
    let mut synthesized = BTreeSet::new();
    for f in &findings {
        let (rule, file, line, _) = place(f, f, root);
        let Some(at) = f.get("synthesized_at") else {
            wrong.push(format!("(a) {rule} at {file}:{line} has no synthesized_at"));
            continue;
        };
        if file.starts_with("cdk.out/") || file.starts_with('/') || !root.join(&file).is_file() {
            wrong.push(format!("(a) {rule} at {file}:{line} is not in the app's source"));
        } else if !expected.contains(&(file.clone(), line, rule.clone())) {
            wrong.push(format!("(a) {rule} at {file}:{line}: no `expect: {rule}` marker on that line"));
        }
        let was = place(f, at, root);
        if !was.1.starts_with("cdk.out/") {
            wrong.push(format!("(c) {rule}: synthesized_at {}:{} is not under cdk.out", was.1, was.2));
        }
        synthesized.insert(was);
        found.insert((file, line, rule));
    }
    for (file, line, rule) in expected.difference(&found) {
        wrong.push(format!("(b) no finding of {rule} at {file}:{line}, where its marker is"));
    }
    // The templates have no comments: `--no-cdk-source` reports the one
    // finding each app silences in its source (an SQS004) too.
    let silenced: Vec<&Place> = in_templates.difference(&synthesized).collect();
    if !synthesized.is_subset(in_templates) || silenced.len() != 1 || silenced[0].0 != "SQS004" {
        wrong.push(format!(
            "(c) the synthesized_at of the findings are not where --no-cdk-source reports them, but for the \
             suppressed SQS004:\n    synthesized_at: {synthesized:?}\n    --no-cdk-source: {in_templates:?}"
        ));
    }
    if !wrong.is_empty() {
        wrong.push(format!("the findings of the {} app:\n{}", app.app.name, listing(&findings)));
    }
    wrong
}

/// A baseline written before the findings moved (`--no-cdk-source`, as
/// every earlier release reported them) still records them: a finding's
/// identity names its template, wherever it is shown.
fn check_baseline(app: &Synthesized) -> Vec<String> {
    let root = &app.root;
    let baseline = root.join("baseline.json");
    let (root_text, baseline_text) = (root.to_string_lossy(), baseline.to_string_lossy());
    let out = common::sqsguard(&["lint", &root_text, "--no-cdk-source", "--write-baseline", &baseline_text]);
    assert!(baseline.is_file(), "{}: no baseline written:\n{}", app.app.name, text(&out));
    let left = lint(root, &["--baseline", &baseline_text]);
    std::fs::remove_file(&baseline).unwrap();
    if left.is_empty() {
        return Vec::new();
    }
    vec![format!("a baseline of the templates' findings does not record them at the source:\n{}", listing(&left))]
}

#[test]
fn findings_on_synthesized_resources_move_to_the_constructs_in_the_apps_source() {
    let Some(node_major) = tools() else { return };
    let node_major = node_major.as_str();
    let apps: Vec<Synthesized> = std::thread::scope(|scope| {
        let synths: Vec<_> = APPS.iter().map(|&app| scope.spawn(move || synth(app, node_major))).collect();
        synths.into_iter().map(|s| s.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut wrong = Vec::new();
    for app in &apps {
        let in_templates = check_template_findings(app);
        wrong.extend(check_source_findings(app, &in_templates));
        wrong.extend(check_baseline(app));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    let typescript = apps.iter().find(|a| !a.app.python).unwrap();
    the_editor_shows_them_on_the_source(&typescript.root);
}

/// The same findings in the editor: tests/lsp/test_cdk.py, a real client
/// (pytest-lsp) driving `sqsguard server` on the synthesized app.
fn the_editor_shows_them_on_the_source(app: &Path) {
    let venv =
        std::env::var_os("SQSGUARD_LSP_VENV").map(PathBuf::from).unwrap_or_else(|| common::root().join(".venv-lsp"));
    let pytest = venv.join("bin/pytest");
    if !pytest.exists() {
        return common::missing("pytest-lsp");
    }
    let out = Command::new(&pytest)
        .args(["-q", "tests/lsp/test_cdk.py"])
        .current_dir(common::root())
        .env("SQSGUARD_BIN", env!("CARGO_BIN_EXE_sqsguard"))
        .env("SQSGUARD_CDK_APP", app)
        .env_remove("PYTEST_ADDOPTS")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .unwrap();
    let text = text(&out);
    assert!(out.status.success(), "pytest tests/lsp/test_cdk.py failed ({}):\n{text}", out.status);
    assert!(text.contains("1 passed"), "tests/lsp/test_cdk.py did not run:\n{text}");
}

/// Each template of the assembly, with its text.
fn templates(root: &Path) -> BTreeSet<(PathBuf, String)> {
    let mut out = BTreeSet::new();
    let mut folders = vec![root.join("cdk.out")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                folders.push(path);
            } else if path.to_string_lossy().ends_with(".template.json") {
                out.insert((path.clone(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    out
}

/// (rule, resource) of findings.
type Keys = BTreeSet<(String, String)>;

/// (rule, resource) of the findings, split by whether they have a fix.
fn by_fix(findings: &[Value]) -> (Keys, Keys) {
    let key = |f: &Value| (f["rule"].as_str().unwrap_or_default().to_string(), f["resource"].to_string());
    let fixable = findings.iter().filter(|f| f.get("edits").is_some()).map(key).collect();
    let unfixable = findings.iter().filter(|f| f.get("edits").is_none()).map(key).collect();
    (fixable, unfixable)
}

#[test]
fn fixes_in_the_apps_source_clear_their_findings_at_the_next_synth() {
    let Some(node_major) = tools() else { return };
    let node_major = node_major.as_str();
    let apps: Vec<Synthesized> = std::thread::scope(|scope| {
        let synths: Vec<_> = APPS.iter().map(|&app| scope.spawn(move || synth(app, node_major))).collect();
        synths.into_iter().map(|s| s.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    for app in &apps {
        let root = &app.root;
        let (fixable, unfixable) = by_fix(&lint(root, &[]));
        assert!(!fixable.is_empty(), "{}: no finding has a fix in the source", app.app.name);
        // Naming the assembly alone (as the editor's check of a template
        // does) fixes the same findings in the app's source.
        let (named, _) = by_fix(&lint(&root.join("cdk.out"), &[]));
        assert_eq!(named, fixable, "{}: the assembly named alone offers other fixes", app.app.name);
        for f in lint(root, &[]).iter().filter(|f| f.get("edits").is_some()) {
            for edit in f["edits"].as_array().unwrap() {
                let (file, ..) = location(edit, root);
                assert!(!file.starts_with("cdk.out"), "{}: a fix edits the assembly: {edit}", app.app.name);
            }
        }
        let before = templates(root);
        let out = common::sqsguard(&["lint", &root.to_string_lossy(), "--fix", "--fail-on=never"]);
        assert!(out.status.success(), "{}: --fix failed:\n{}", app.app.name, text(&out));
        assert_eq!(templates(root), before, "{}: --fix changed the synthesized templates", app.app.name);
        let dir = root.parent().unwrap();
        synth_again(app.app, dir, root, node_major);
        let (left_fixable, left) = by_fix(&lint(root, &[]));
        assert!(left_fixable.is_empty(), "{}: still fixable after the fix and a synth: {left_fixable:?}", app.app.name);
        assert_eq!(left, unfixable, "{}: after the fix and a synth, not what had no fix", app.app.name);
    }
}
