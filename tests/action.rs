//! The release chain as a user meets it: the release workflow
//! (.github/workflows/release.yml) packs the binaries, the installer
//! (.github/install-sqsguard.sh) fetches and verifies them, the Action
//! (action.yml) runs them, and examples/github-workflow.yml calls the
//! Action. Each piece is run here as GitHub would run it, against a local
//! folder of release archives packed by the release workflow's own step
//! from the build under test.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

/// The tag of the release these files describe: `v` + Cargo.toml's version.
fn version() -> String {
    format!("v{}", env!("CARGO_PKG_VERSION"))
}

/// A YAML file of the repository as JSON, read by PyYAML from the test venv
/// (a reader independent of sqsguard's own). None without the venv.
fn yaml(path: &str) -> Option<Value> {
    let python = common::venv_tool("python")?;
    let script = "import json, sys, yaml\nprint(json.dumps(yaml.safe_load(open(sys.argv[1]))))";
    let out = Command::new(python).args(["-c", script]).arg(common::root().join(path)).output().unwrap();
    assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// release.yml as JSON, when the venv and the tools the release chain
/// runs here are present (else says which is missing, loudly).
fn release_workflow() -> Option<Value> {
    for tool in ["curl", "tar", "zip", "unzip", "sha256sum"] {
        let found = Command::new("sh").args(["-c", &format!("command -v {tool}")]).output().unwrap();
        if !found.status.success() {
            common::missing(tool);
            return None;
        }
    }
    let release = yaml(".github/workflows/release.yml");
    if release.is_none() {
        common::missing("the test venv (PyYAML)");
    }
    release
}

/// The step named `name` of job `job` in a workflow.
fn workflow_step<'a>(workflow: &'a Value, job: &str, name: &str) -> &'a Value {
    let steps = workflow["jobs"][job]["steps"].as_array().unwrap();
    steps.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("job {job} has no step {name}"))
}

/// Runs a `run:` script the way a runner's `shell: bash` does.
fn bash(script: &str, dir: &Path, env: &[(&str, String)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script]).current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The targets the release workflow builds binaries for.
fn release_targets(release: &Value) -> Vec<String> {
    let include = release["jobs"]["binaries"]["strategy"]["matrix"]["include"].as_array().unwrap();
    include.iter().map(|row| text(&row["target"])).collect()
}

/// A release folder (`BASE/VERSION/...`) as the release workflow lays it
/// out: its "Archive with its checksum" step run for every target it
/// builds, each packing this build's binary. `7z` (which Windows runners
/// have) is stood in for by `zip` and `unzip` (see [`shims`]).
/// Packed once per test run (in cargo's scratch folder for tests); the
/// tests only read it.
fn releases(release: &Value) -> &'static Path {
    static BASE: OnceLock<PathBuf> = OnceLock::new();
    BASE.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("action-releases");
        let _ = std::fs::remove_dir_all(&root);
        pack_releases(&root, release)
    })
}

/// A PATH whose `7z` does what the release workflow (`7z a ARCHIVE FILE`)
/// and the installer (`7z x -y -oDIR ARCHIVE`) ask of it, with zip and
/// unzip: Windows runners have 7-Zip, this machine does not.
fn shims(root: &Path) -> String {
    let shims = root.join("shims");
    std::fs::create_dir_all(&shims).unwrap();
    let seven_z = shims.join("7z");
    let script = "#!/bin/sh\n\
                  case \"$1\" in\n\
                  a) shift; exec zip -q \"$@\" ;;\n\
                  x) [ \"$2\" = -y ] || exit 2; exec unzip -q \"$4\" -d \"${3#-o}\" ;;\n\
                  esac\n\
                  exit 2\n";
    std::fs::write(&seven_z, script).unwrap();
    Command::new("chmod").arg("+x").arg(&seven_z).status().unwrap();
    format!("{}:{}", shims.display(), std::env::var("PATH").unwrap_or_default())
}

fn pack_releases(root: &Path, release: &Value) -> PathBuf {
    let pack = text(&workflow_step(release, "binaries", "Archive with its checksum")["run"]);
    let path = shims(root);
    let dir = root.join("releases").join(version());
    std::fs::create_dir_all(&dir).unwrap();
    for target in release_targets(release) {
        let checkout = root.join("checkout").join(&target);
        let built = checkout.join("target").join(&target).join("release");
        std::fs::create_dir_all(&built).unwrap();
        let exe = if target.contains("windows") { "sqsguard.exe" } else { "sqsguard" };
        std::fs::copy(env!("CARGO_BIN_EXE_sqsguard"), built.join(exe)).unwrap();
        let env = [("TARGET", target.clone()), ("VERSION", version()), ("PATH", path.clone())];
        let out = bash(&pack, &checkout, &env);
        assert!(out.status.success(), "packing {target}: {}", stderr(&out));
        for entry in std::fs::read_dir(checkout.join("dist")).unwrap() {
            let entry = entry.unwrap();
            std::fs::rename(entry.path(), dir.join(entry.file_name())).unwrap();
        }
    }
    root.join("releases")
}

fn install(base: &Path, os: &str, arch: &str, dest: &Path) -> Output {
    let mut cmd = Command::new(common::root().join(".github/install-sqsguard.sh"));
    if os == "Windows" {
        cmd.env("PATH", shims(dest.parent().unwrap()));
    }
    cmd.env("SQSGUARD_VERSION", version())
        .env("SQSGUARD_BASE_URL", format!("file://{}", base.display()))
        .env("SQSGUARD_INSTALL_DIR", dest)
        .env("RUNNER_OS", os)
        .env("RUNNER_ARCH", arch)
        .output()
        .unwrap()
}

/// The runners the installer has a binary for, `OS/ARCH` to target, read
/// from its `case` (`  Linux/X64) target=... ext=... ;;`).
fn installer_targets() -> BTreeMap<String, String> {
    let script = std::fs::read_to_string(common::root().join(".github/install-sqsguard.sh")).unwrap();
    script
        .lines()
        .filter_map(|line| {
            let (runner, rest) = line.trim().split_once(") target=")?;
            Some((runner.to_string(), rest.split_whitespace().next()?.to_string()))
        })
        .collect()
}

#[test]
fn the_installer_installs_every_binary_the_release_workflow_packs() {
    let Some(release) = release_workflow() else { return };
    // One set of targets: a runner the installer knows has an archive, and
    // every archive built has a runner that installs it.
    let runners = installer_targets();
    let built: BTreeSet<String> = release_targets(&release).into_iter().collect();
    let installed: BTreeSet<String> = runners.values().cloned().collect();
    assert_eq!(built, installed, "release.yml builds {built:?}, install-sqsguard.sh installs {installed:?}");
    assert!(runners.len() >= 5, "{runners:?}");

    let dir = tempfile::tempdir().unwrap();
    let base = releases(&release);
    for (runner, target) in &runners {
        let (os, arch) = runner.split_once('/').unwrap();
        let dest = dir.path().join("tool").join(target);
        let out = install(base, os, arch, &dest);
        assert!(out.status.success(), "{runner}: {}", stderr(&out));
        let exe = dest.join(if os == "Windows" { "sqsguard.exe" } else { "sqsguard" });
        assert_eq!(std::fs::read(&exe).unwrap(), std::fs::read(env!("CARGO_BIN_EXE_sqsguard")).unwrap(), "{runner}");
    }
    // The Linux x86-64 one runs here: it is this build.
    let linux = dir.path().join("tool/x86_64-unknown-linux-musl/sqsguard");
    let version = Command::new(linux).arg("--version").output().unwrap();
    assert_eq!(common::stdout(&version).trim(), format!("sqsguard {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_bad_checksum_a_failed_download_or_an_unknown_runner_installs_nothing() {
    let Some(release) = release_workflow() else { return };
    // This test's own copy of the Linux x86-64 archive, to spoil.
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("releases");
    let archive = format!("sqsguard-{}-x86_64-unknown-linux-musl.tar.gz", version());
    std::fs::create_dir_all(base.join(version())).unwrap();
    for file in [archive.clone(), format!("{archive}.sha256")] {
        std::fs::copy(releases(&release).join(version()).join(&file), base.join(version()).join(&file)).unwrap();
    }
    let dest = dir.path().join("tool");
    let refused = |out: &Output, says: &str| {
        let stderr = stderr(out);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("::error title=sqsguard::") && stderr.contains(says), "{stderr}");
        assert!(!dest.join("sqsguard").exists(), "nothing is installed");
    };
    let linux = base.join(version()).join(&archive);
    let sum = linux.with_extension("gz.sha256");
    let good = std::fs::read_to_string(&sum).unwrap();
    std::fs::write(&sum, good.replacen(&good[..64], &"0".repeat(64), 1)).unwrap();
    refused(&install(&base, "Linux", "X64", &dest), "checksum mismatch for sqsguard-v");
    // An empty checksum file is no checksum.
    std::fs::write(&sum, "").unwrap();
    refused(&install(&base, "Linux", "X64", &dest), "says nothing");
    // An archive that matches its checksum but is no archive.
    let real = std::fs::read(&linux).unwrap();
    std::fs::write(&linux, b"not a tarball").unwrap();
    let garbage = Command::new("sha256sum").arg(&archive).current_dir(linux.parent().unwrap()).output().unwrap();
    std::fs::write(&sum, garbage.stdout).unwrap();
    refused(&install(&base, "Linux", "X64", &dest), "could not unpack");
    std::fs::write(&linux, real).unwrap();
    // The archive is missing: the download fails.
    std::fs::write(&sum, good).unwrap();
    std::fs::remove_file(&linux).unwrap();
    refused(&install(&base, "Linux", "X64", &dest), "could not download");
    // A platform with no release binary at all: which, and what to do.
    let out = install(&base, "Linux", "ARM", &dest);
    refused(&out, "no sqsguard release binary for runner Linux/ARM");
    assert!(
        stderr(&out).contains(&format!(
            "cargo install --locked --git https://github.com/sqsguard/sqsguard --tag {}",
            version()
        ))
    );
}

#[test]
fn the_release_workflow_refuses_a_tag_that_is_not_the_crate_version() {
    let Some(release) = release_workflow() else { return };
    for job in ["wheels", "sdist", "binaries"] {
        assert_eq!(text(&release["jobs"][job]["needs"]), "version", "job {job} waits for the version check");
    }
    let compare = text(&workflow_step(&release, "version", "Compare")["run"]);
    let out = bash(&compare, common::root(), &[("TAG", version())]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = bash(&compare, common::root(), &[("TAG", "v9.9.9".into())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(common::stdout(&out).contains(&format!("::error title=release::tag v9.9.9 is not {}", version())));
}

/// Every version a user copies from the docs (`sqsguard/sqsguard@vX`,
/// `version: vX`, `sqsguard==X`, `--tag vX`, `rev: vX`) is the one this
/// crate is, so a release bumps them with Cargo.toml.
#[test]
fn the_docs_pin_the_version_being_released() {
    let mut seen = 0;
    for file in [
        "README.md",
        "docs/ci.md",
        "docs/audit.md",
        "docs/generate.md",
        "docs/development.md",
        "action.yml",
        "examples/github-workflow.yml",
        "examples/audit-organization-workflow.yml",
        ".github/install-sqsguard.sh",
    ] {
        let body = std::fs::read_to_string(common::root().join(file)).unwrap();
        for (marker, prefix) in [
            ("sqsguard/sqsguard@", "v"),
            ("version: ", "v"),
            ("sqsguard==", ""),
            ("release tag, ", "v"),
            ("--tag ", "v"),
            ("rev: ", "v"),
            ("download/", "v"),
            ("sqsguard-", "v"),
            ("SQSGUARD_VERSION=", "v"),
            ("as its tag (", "v"),
            (" runs ", "v"),
            ("such as ", "v"),
        ] {
            for (at, _) in body.match_indices(marker) {
                let rest = &body[at + marker.len()..];
                let Some(rest) = rest.strip_prefix(prefix) else { continue };
                let pin: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
                let pin = pin.trim_end_matches('.');
                if pin.is_empty() {
                    continue; // `version: ${{ ... }}`, `sqsguard-$version`, prose
                }
                assert_eq!(pin, env!("CARGO_PKG_VERSION"), "{file}: {marker}{prefix}{pin}");
                seen += 1;
            }
        }
    }
    assert!(seen >= 15, "only {seen} pins found");
}

/// What running the Action did: the step that failed (if one did), the
/// SARIF file the upload step was given (if it ran), each step's outputs.
struct ActionRun {
    failed: Option<(String, String)>,
    /// The cache step's `path` and `key`.
    cached: Option<(String, String)>,
    uploaded: Option<PathBuf>,
    outputs: BTreeMap<String, BTreeMap<String, String>>,
}

/// A GitHub runner for action.yml, as far as the Action needs one: inputs
/// with their defaults, `${{ inputs.X }}`, `${{ runner.tool_cache }}`,
/// `${{ steps.ID.outputs.X }}`, `if:` of `==`/`!=` joined by `&&`, the
/// `run:` steps in bash, a cache that misses, and an upload that records
/// its file. Anything else in action.yml fails the test, so the Action
/// cannot grow what this does not check.
fn run_action(with: &serde_json::Map<String, Value>, workspace: &Path, tool_cache: &Path) -> ActionRun {
    let action = yaml("action.yml").unwrap();
    let declared = action["inputs"].as_object().unwrap();
    let mut inputs = BTreeMap::new();
    for (name, spec) in declared {
        let value = with.get(name).map(text).or_else(|| spec.get("default").map(text));
        match value {
            Some(v) => inputs.insert(name.clone(), v),
            None => panic!("input {name} is required and not given"),
        };
    }
    for name in with.keys() {
        assert!(declared.contains_key(name), "action.yml has no input {name}");
    }
    let mut run = ActionRun { failed: None, cached: None, uploaded: None, outputs: BTreeMap::new() };
    let resolve = |expr: &str, outputs: &BTreeMap<String, BTreeMap<String, String>>| -> String {
        let expr = expr.trim();
        if let Some(name) = expr.strip_prefix("inputs.") {
            return inputs.get(name).cloned().unwrap_or_else(|| panic!("no input {name}"));
        }
        match expr {
            "runner.tool_cache" => return tool_cache.display().to_string(),
            "runner.os" => return "Linux".into(),
            "runner.arch" => return "X64".into(),
            _ => {}
        }
        if let Some(rest) = expr.strip_prefix("steps.") {
            let (id, key) = rest.split_once(".outputs.").unwrap_or_else(|| panic!("unknown expression {expr}"));
            return outputs.get(id).and_then(|o| o.get(key)).cloned().unwrap_or_default();
        }
        panic!("this runner does not know the expression {expr}")
    };
    let expand = |s: &str, outputs: &BTreeMap<String, BTreeMap<String, String>>| -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").unwrap() + start;
            out.push_str(&resolve(&rest[start + 3..end], outputs));
            rest = &rest[end + 2..];
        }
        out + rest
    };
    let condition = |s: &str, outputs: &BTreeMap<String, BTreeMap<String, String>>| -> bool {
        s.split("&&").all(|term| {
            let (lhs, negate, rhs) = match term.split_once("!=") {
                Some((l, r)) => (l, true, r),
                None => term.split_once("==").map(|(l, r)| (l, false, r)).expect("an == or != condition"),
            };
            let literal = rhs.trim().strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).expect("a quoted literal");
            (resolve(lhs, outputs) == literal) != negate
        })
    };
    let steps = action["runs"]["steps"].as_array().unwrap();
    for step in steps {
        let name = text(&step["name"]);
        if let Some(cond) = step.get("if")
            && !condition(&text(cond), &run.outputs)
        {
            continue;
        }
        let id = step.get("id").map(text).unwrap_or_default();
        if let Some(uses) = step.get("uses").map(text) {
            if uses.starts_with("actions/cache@") {
                let with = |k: &str| expand(&text(&step["with"][k]), &run.outputs);
                run.cached = Some((with("path"), with("key")));
                run.outputs.insert(id, BTreeMap::from([("cache-hit".to_string(), "false".to_string())]));
            } else if uses.starts_with("github/codeql-action/upload-sarif@") {
                let file = expand(&text(&step["with"]["sarif_file"]), &run.outputs);
                run.uploaded = Some(workspace.join(file));
            } else {
                panic!("this runner does not know the action {uses}");
            }
            continue;
        }
        assert_eq!(text(&step["shell"]), "bash", "step {name}");
        let github_output = workspace.join(format!(".github-output-{}", run.outputs.len()));
        std::fs::write(&github_output, "").unwrap();
        let mut env = vec![
            ("GITHUB_ACTION_PATH", common::root().display().to_string()),
            ("GITHUB_OUTPUT", github_output.display().to_string()),
            ("RUNNER_OS", "Linux".into()),
            ("RUNNER_ARCH", "X64".into()),
        ];
        let vars: Vec<(String, String)> = step
            .get("env")
            .and_then(Value::as_object)
            .map(|m| m.iter().map(|(k, v)| (k.clone(), expand(&text(v), &run.outputs))).collect())
            .unwrap_or_default();
        env.extend(vars.iter().map(|(k, v)| (k.as_str(), v.clone())));
        let out = bash(&expand(&text(&step["run"]), &run.outputs), workspace, &env);
        let written = std::fs::read_to_string(&github_output).unwrap();
        std::fs::remove_file(&github_output).unwrap();
        let values = written.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.into(), v.into())).collect();
        run.outputs.insert(if id.is_empty() { name.clone() } else { id }, values);
        if !out.status.success() {
            run.failed = Some((name, format!("{}{}", common::stdout(&out), stderr(&out))));
            break;
        }
    }
    run
}

/// The Action as examples/github-workflow.yml calls it, on a checkout with
/// a broken pipeline and on one without findings.
#[test]
fn the_example_workflow_runs_the_action_which_installs_uploads_and_gates() {
    let Some(release) = release_workflow() else { return };
    let example = yaml("examples/github-workflow.yml").unwrap();
    let steps = example["jobs"]["lint"]["steps"].as_array().unwrap();
    let call = steps
        .iter()
        .find(|s| text(&s["uses"]).starts_with("sqsguard/sqsguard@"))
        .expect("the example calls sqsguard's Action");
    let with = call["with"].as_object().unwrap();
    // The Action runs the release of its ref (its checkout's Cargo.toml,
    // here this one's), or the `version` given, which must then agree.
    assert_eq!(text(&call["uses"]), format!("sqsguard/sqsguard@{}", version()));
    assert!(with.get("version").is_none_or(|v| text(v) == version()), "{with:?}");
    assert!(!steps.iter().any(|s| text(&s["run"]).contains("cargo")), "the example builds nothing");

    let dir = tempfile::tempdir().unwrap();
    let base = releases(&release);
    let mut with = with.clone();
    with.insert("base-url".into(), Value::String(format!("file://{}", base.display())));
    let tool_cache = dir.path().join("tool-cache");

    // A pipeline with findings: installed, reported, uploaded, then failed.
    let broken = dir.path().join("broken");
    std::fs::create_dir_all(broken.join("infra")).unwrap();
    std::fs::copy(
        common::root().join("examples/cloudformation/legacy-worker.yaml"),
        broken.join("infra/legacy-worker.yaml"),
    )
    .unwrap();
    let run = run_action(&with, &broken, &tool_cache);
    let installed = tool_cache.join("sqsguard").join(version());
    assert!(installed.join("sqsguard").exists(), "installed into the tool cache");
    // What is cached is that folder, under a key of this release and runner.
    let (path, key) = run.cached.clone().expect("the cache step ran");
    assert_eq!(
        (path.as_str(), key.as_str()),
        (installed.to_str().unwrap(), &*format!("sqsguard-{}-Linux-X64", version()))
    );
    let (step, why) = run.failed.expect("findings fail the job");
    assert_eq!(step, "Fail on findings", "{why}");
    assert!(why.contains("::error title=sqsguard::findings at or above --fail-on warning"), "{why}");
    let sarif = std::fs::read_to_string(run.uploaded.expect("the report is uploaded first")).unwrap();
    assert!(sarif.contains("\"version\": \"2.1.0\"") && sarif.contains("infra/legacy-worker.yaml"), "{sarif}");
    assert!(sarif.contains("\"ruleId\": \"SQS002\""), "{sarif}");
    assert_eq!(run.outputs["lint"]["status"], "1");

    // A clean checkout: uploaded, and the job passes.
    let clean = dir.path().join("clean");
    std::fs::create_dir_all(&clean).unwrap();
    std::fs::copy(common::root().join("tests/fixtures/cli/clean.yaml"), clean.join("queue.yaml")).unwrap();
    let run = run_action(&with, &clean, &tool_cache);
    assert!(run.failed.is_none(), "{:?}", run.failed);
    assert!(run.uploaded.is_some_and(|f| f.exists()));
    assert_eq!(run.outputs["lint"]["status"], "0");

    // A usage error (a path that is not there) fails at the lint step.
    let mut wrong = with.clone();
    wrong.insert("paths".into(), Value::String("no/such/folder".into()));
    let run = run_action(&wrong, &clean, &tool_cache);
    assert_eq!(run.failed.map(|(step, _)| step).as_deref(), Some("Lint"));
    assert!(run.uploaded.is_none(), "nothing to upload");

    // A version that is no release tag: refused before anything is fetched.
    let mut latest = with.clone();
    latest.insert("version".into(), Value::String("latest".into()));
    let run = run_action(&latest, &clean, &dir.path().join("other-cache"));
    let (step, why) = run.failed.expect("refused");
    assert_eq!(step, "Which release");
    assert!(why.contains("version 'latest' is not a release tag such as v0.1.0"), "{why}");
    assert!(!dir.path().join("other-cache").exists(), "nothing installed");
}
