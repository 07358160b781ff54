//! The release chain as a user meets it: the release workflow
//! (.github/workflows/release.yml) packs the binaries, the installer
//! (.github/install-sqsguard.sh) fetches and verifies them, the Action
//! (action.yml) runs them, and examples/github-workflow.yml calls the
//! Action. Each piece is run here as GitHub would run it, against a local
//! folder of release archives packed by the release workflow's own step
//! from the build under test.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;
use crate::common::mermaid;
#[path = "action/runner.rs"]
mod runner;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;

use runner::{Job, bash, run_action, text};

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

/// release.yml as JSON, when the venv and the tools the release chain
/// runs here are present (else says which is missing, loudly).
fn release_workflow() -> Option<Value> {
    // (jq: the Action's job summary reads the SARIF report with it, as
    // every GitHub-hosted runner has it.)
    for tool in ["curl", "tar", "zip", "unzip", "sha256sum", "jq"] {
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
        "examples/github-workflow-stages.yml",
        "examples/github-workflow-monorepo.yml",
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
            ("commit-sha-of-", "v"),
            ("> # ", "v"),
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

/// Every `uses: sqsguard/sqsguard@...` a user copies pins a commit, never
/// a tag (a tag can be moved to another commit), with the release's tag
/// in a comment; and the release workflow prints that line for each tag,
/// from the commit the tag resolves to.
#[test]
fn the_action_is_shown_pinned_by_commit_and_the_release_prints_the_pin() {
    for file in [
        "README.md",
        "docs/ci.md",
        "action.yml",
        "examples/github-workflow.yml",
        "examples/github-workflow-stages.yml",
        "examples/github-workflow-monorepo.yml",
    ] {
        let body = std::fs::read_to_string(common::root().join(file)).unwrap();
        let pins: Vec<&str> = body.lines().filter(|l| l.contains("sqsguard/sqsguard@")).collect();
        assert!(!pins.is_empty(), "{file}");
        for line in pins {
            let reference = line.split("sqsguard/sqsguard@").nth(1).unwrap_or_default();
            assert!(!reference.starts_with('v'), "{file}: a movable tag: {line}");
            assert!(
                reference.starts_with(&format!("<commit-sha-of-{}> # {}", version(), version()))
                    || reference.starts_with(&format!("SHA # {}", version())),
                "{file}: {line}"
            );
        }
    }
    let Some(release) = release_workflow() else { return };
    let pin = text(&workflow_step(&release, "github-release", "The commit to pin")["run"]);
    let dir = tempfile::tempdir().unwrap();
    let sha = "0123456789abcdef0123456789abcdef01234567";
    // A `gh` that answers the commits API with the tag's commit.
    let gh = dir.path().join("gh");
    std::fs::write(
        &gh,
        format!("#!/bin/sh\n[ \"$2\" = repos/sqsguard/sqsguard/commits/{} ] && echo {sha}\n", version()),
    )
    .unwrap();
    std::fs::set_permissions(&gh, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = format!("{}:{}", dir.path().display(), std::env::var("PATH").unwrap_or_default());
    let (output, summary) = (dir.path().join("output"), dir.path().join("summary"));
    let env = |tag: String| {
        [
            ("TAG", tag),
            ("PATH", path.clone()),
            ("GITHUB_REPOSITORY", "sqsguard/sqsguard".to_string()),
            ("GITHUB_OUTPUT", output.display().to_string()),
            ("GITHUB_STEP_SUMMARY", summary.display().to_string()),
        ]
    };
    let out = bash(&pin, dir.path(), &env(version()));
    assert!(out.status.success(), "{}", stderr(&out));
    let line = format!("uses: sqsguard/sqsguard@{sha} # {}", version());
    assert_eq!(common::stdout(&out).trim(), line);
    assert_eq!(std::fs::read_to_string(&output).unwrap().trim(), format!("line={line}"));
    assert!(std::fs::read_to_string(&summary).unwrap().contains(&line));
    // A tag the API does not resolve stops the release.
    let out = bash(&pin, dir.path(), &env("v9.9.9".into()));
    assert_eq!(out.status.code(), Some(1));
    assert!(common::stdout(&out).contains("::error title=release::tag v9.9.9 did not resolve to a commit"));
}

/// `sqsguard lint --format json` of `paths` in `dir`: the findings.
fn findings(dir: &Path, args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["lint", "--format", "json", "--fail-on", "never"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"].as_array().unwrap().clone()
}

/// The job log shows each finding twice: as the annotation GitHub puts on
/// the pull request (`::warning file=...,line=...,col=...`) and as the
/// concise line (`path:line:col: CODE ... (resource)`) that stays readable
/// in the raw log and past GitHub's cap of annotations per step.
fn assert_logged(log: &str, findings: &[Value]) {
    assert!(!findings.is_empty());
    for f in findings {
        let s = |k: &str| text(&f[k]);
        let level = match s("severity").as_str() {
            "error" => "error",
            "warning" => "warning",
            _ => "notice",
        };
        let (file, line, col) = (s("file"), s("line"), s("column"));
        let annotation = format!("::{level} file={file},line={line},col={col},");
        let title = format!(",title={} {}::", s("rule"), s("name"));
        assert!(
            log.lines().any(|l| l.starts_with(&annotation) && l.contains(&title)),
            "no annotation {annotation}...{title} in the log:\n{log}"
        );
        let concise = format!("{file}:{line}:{col}: {} ", s("rule"));
        let resource = format!(" ({})", s("resource"));
        assert!(
            log.lines().any(|l| l.starts_with(&concise) && l.ends_with(&resource)),
            "no concise line {concise}...{resource} in the log:\n{log}"
        );
    }
}

/// The notices of a run that say the report was not uploaded.
fn not_uploaded(log: &str) -> Vec<&str> {
    log.lines().filter(|l| l.contains("SARIF not uploaded")).collect()
}

/// A call of the Action as `file` (an example workflow) writes it, for
/// each row of its job's matrix: the `with:` of the step that calls it,
/// `${{ matrix.X }}` filled in, pointed at the local release archives.
fn example_calls(file: &str, base: &Path) -> Vec<serde_json::Map<String, Value>> {
    let example = yaml(file).unwrap();
    let job = &example["jobs"]["lint"];
    let steps = job["steps"].as_array().unwrap();
    let call = steps
        .iter()
        .find(|s| text(&s["uses"]).starts_with("sqsguard/sqsguard@"))
        .unwrap_or_else(|| panic!("{file} calls sqsguard's Action"));
    assert_eq!(text(&call["uses"]), format!("sqsguard/sqsguard@<commit-sha-of-{}>", version()), "{file}");
    assert!(!steps.iter().any(|s| text(&s["run"]).contains("cargo")), "{file} builds nothing");
    let matrix = &job["strategy"]["matrix"];
    let rows: Vec<BTreeMap<String, String>> = if let Some(include) = matrix["include"].as_array() {
        include.iter().map(|row| row.as_object().unwrap().iter().map(|(k, v)| (k.clone(), text(v))).collect()).collect()
    } else if let Some(matrix) = matrix.as_object() {
        let (key, values) = matrix.iter().next().unwrap();
        values.as_array().unwrap().iter().map(|v| BTreeMap::from([(key.clone(), text(v))])).collect()
    } else {
        vec![BTreeMap::new()]
    };
    rows.iter()
        .map(|row| {
            let mut with = call["with"].as_object().unwrap().clone();
            for value in with.values_mut() {
                let mut s = text(value);
                for (k, v) in row {
                    s = s.replace(&format!("${{{{ matrix.{k} }}}}"), v);
                }
                assert!(!s.contains("${{"), "{file}: an expression this test does not know: {s}");
                *value = Value::String(s);
            }
            with.insert("base-url".into(), Value::String(format!("file://{}", base.display())));
            with
        })
        .collect()
}

fn checkout(dir: &Path, files: &[(&str, &str)]) -> PathBuf {
    for (to, from) in files {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(common::root().join(from), to).unwrap();
    }
    dir.to_path_buf()
}

/// The Action as examples/github-workflow.yml calls it, on a checkout with
/// a broken pipeline and on one without findings.
#[test]
fn the_example_workflow_runs_the_action_which_installs_logs_uploads_and_gates() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let base = releases(&release);
    let calls = example_calls("examples/github-workflow.yml", base);
    let with = &calls[0];

    // A pipeline with findings: installed, logged, reported, uploaded, then failed.
    let broken = checkout(
        &dir.path().join("broken"),
        &[("infra/legacy-worker.yaml", "examples/cloudformation/legacy-worker.yaml")],
    );
    let job = Job::push(dir.path());
    let run = run_action(with, &broken, &job);
    let installed = job.tool_cache.join("sqsguard").join(version());
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
    let expected = findings(&broken, &["."]);
    assert_logged(&run.log, &expected);
    // The summary line closes the findings, and the job summary holds them.
    assert!(run.log.lines().any(|l| l.starts_with("sqsguard: 3 errors, 7 warnings")), "{}", run.log);
    assert!(
        run.summary.starts_with("### sqsguard\n\n**3 errors, 7 warnings, 0 infos** in 1 file (0 skipped)\n")
            && run.summary.contains("\n| infra/legacy-worker.yaml:16 | SQS002 | error | "),
        "{}",
        run.summary
    );
    assert!(!run.summary.lines().any(|l| l.starts_with("::")), "annotations stay in the log:\n{}", run.summary);
    // The same run wrote the SARIF report, and it was uploaded, under the
    // category GitHub derives (none given).
    let (uploaded, category) = run.uploaded.expect("the report is uploaded before the job fails");
    assert_eq!(uploaded.display().to_string(), run.outputs["lint"]["sarif-file"]);
    assert!(uploaded.starts_with(&job.runner_temp), "written outside the checkout: {}", uploaded.display());
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&uploaded).unwrap()).unwrap();
    assert_eq!(sarif["version"], "2.1.0");
    assert_eq!(sarif["runs"][0]["results"].as_array().unwrap().len(), expected.len(), "{sarif:#}");
    assert_eq!(category, "");
    assert_eq!(run.outputs["lint"]["status"], "1");
    assert!(not_uploaded(&run.log).is_empty(), "{}", run.log);

    // The inputs of earlier versions keep working: `format: sarif` writes
    // the report to `output` and the log shows the findings; with another
    // format, `output` is a copy of what the log shows.
    let mut legacy = with.clone();
    for (k, v) in [("format", "sarif"), ("output", "report.sarif"), ("upload-sarif", "true")] {
        legacy.insert(k.into(), Value::String(v.into()));
    }
    let run = run_action(&legacy, &broken, &Job::push(&dir.path().join("legacy")));
    assert_eq!(run.uploaded.map(|(f, _)| f), Some(broken.join("report.sarif")));
    assert_logged(&run.log, &expected);
    let mut junit = with.clone();
    junit.insert("format".into(), Value::String("junit".into()));
    junit.insert("output".into(), Value::String("junit.xml".into()));
    let run = run_action(&junit, &broken, &Job::push(&dir.path().join("junit")));
    assert_eq!(run.outputs["lint"]["report"], "junit.xml");
    let xml = std::fs::read_to_string(broken.join("junit.xml")).unwrap();
    assert!(xml.contains("<testsuites name=\"sqsguard\"") && run.log.contains(&xml), "{xml}");
    assert!(run.uploaded.is_some_and(|(f, _)| f.starts_with(dir.path().join("junit"))), "the SARIF report too");

    // A clean checkout: uploaded, and the job passes.
    let clean = checkout(&dir.path().join("clean"), &[("queue.yaml", "tests/fixtures/cli/clean.yaml")]);
    let run = run_action(with, &clean, &Job::push(&dir.path().join("job2")));
    assert!(run.failed.is_none(), "{:?}", run.failed);
    assert!(run.uploaded.is_some_and(|(f, _)| f.exists()));
    assert_eq!(run.outputs["lint"]["status"], "0");
    assert!(run.log.contains("0 errors, 0 warnings"), "{}", run.log);

    // A usage error (a path that is not there) fails at the lint step.
    let mut wrong = with.clone();
    wrong.insert("paths".into(), Value::String("no/such/folder".into()));
    let run = run_action(&wrong, &clean, &Job::push(&dir.path().join("job3")));
    assert_eq!(run.failed.map(|(step, _)| step).as_deref(), Some("Lint"));
    assert!(run.uploaded.is_none(), "nothing to upload");

    // A version that is no release tag: refused before anything is fetched.
    let mut latest = with.clone();
    latest.insert("version".into(), Value::String("latest".into()));
    let job = Job::push(&dir.path().join("job4"));
    let run = run_action(&latest, &clean, &job);
    let (step, why) = run.failed.expect("refused");
    assert_eq!(step, "Which release");
    assert!(why.contains("version 'latest' is not a release tag such as v0.1.0"), "{why}");
    assert!(!job.tool_cache.exists(), "nothing installed");
}

/// `args` and `paths` reach sqsguard as words split as a shell would, and
/// nothing in them runs: not `$(...)`, not `;`.
#[test]
fn args_and_paths_are_words_and_nothing_in_them_runs() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow.yml", releases(&release));
    let work =
        checkout(&dir.path().join("work"), &[("my infra/worker.yaml", "examples/cloudformation/legacy-worker.yaml")]);
    let mut with = calls[0].clone();
    with.insert("paths".into(), Value::String("'my infra'".into()));
    with.insert("args".into(), Value::String("--select \"SQS002\"\n--ignore SQS004".into()));
    let run = run_action(&with, &work, &Job::push(dir.path()));
    assert_eq!(run.failed.as_ref().map(|(s, _)| s.as_str()), Some("Fail on findings"), "{}", run.log);
    assert_logged(&run.log, &findings(&work, &["my infra", "--select", "SQS002"]));
    let (sarif, _) = run.uploaded.unwrap();
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(sarif).unwrap()).unwrap();
    let rules: BTreeSet<String> =
        sarif["runs"][0]["results"].as_array().unwrap().iter().map(|r| text(&r["ruleId"])).collect();
    assert_eq!(rules, BTreeSet::from(["SQS002".to_string()]));

    // Shell syntax is words like any other: sqsguard refuses the first it
    // does not know, and nothing ran.
    for args in ["$(touch pwned)", "`touch pwned`", "; touch pwned", "--select SQS002 && touch pwned"] {
        with.insert("args".into(), Value::String(args.into()));
        let run = run_action(&with, &work, &Job::push(&dir.path().join("again")));
        let (step, why) = run.failed.expect("a usage error");
        assert_eq!(step, "Lint");
        assert_eq!(run.outputs["lint"]["status"], "2", "{why}");
        assert!(!work.join("pwned").exists() && !dir.path().join("pwned").exists(), "{args} ran");
    }
    // An unmatched quote: the step says which input.
    with.insert("args".into(), Value::String("--select 'SQS002".into()));
    let run = run_action(&with, &work, &Job::push(&dir.path().join("quote")));
    let (step, why) = run.failed.expect("refused");
    assert_eq!(step, "Lint");
    assert!(why.contains("::error title=sqsguard::input args could not be split into words"), "{why}");
}

/// A pull request from a fork has a read-only token, and an upload code
/// scanning refuses (no `security-events: write`; no Advanced Security on
/// a private repository) fails: either way one notice says why, the job
/// goes on, and the findings are in the log.
#[test]
fn without_an_upload_one_notice_says_why_and_the_job_goes_on() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow.yml", releases(&release));
    let with = &calls[0];
    let clean = checkout(&dir.path().join("clean"), &[("queue.yaml", "tests/fixtures/cli/clean.yaml")]);
    let broken =
        checkout(&dir.path().join("broken"), &[("infra/w.yaml", "examples/cloudformation/legacy-worker.yaml")]);

    let fork = |name: &str| Job {
        event: "pull_request".into(),
        head_repository: "someone/infra".into(),
        ..Job::push(&dir.path().join(name))
    };
    let run = run_action(with, &clean, &fork("fork-clean"));
    assert!(run.failed.is_none(), "{:?}", run.failed);
    assert!(run.uploaded.is_none());
    let sarif = &run.outputs["lint"]["sarif-file"];
    assert_eq!(
        not_uploaded(&run.log),
        [format!(
            "::notice title=sqsguard::SARIF not uploaded to code scanning: a pull request from the fork someone/infra gets a read-only token; the findings are in this log and in {sarif}"
        )]
    );
    assert!(Path::new(sarif).exists());
    // Findings still fail the job, after the notice, with the findings logged.
    let run = run_action(with, &broken, &fork("fork-broken"));
    assert_eq!(run.failed.as_ref().map(|(s, _)| s.as_str()), Some("Fail on findings"));
    assert_eq!(not_uploaded(&run.log).len(), 1, "{}", run.log);
    assert_logged(&run.log, &findings(&broken, &["."]));
    // A pull request from a branch of the repository itself uploads.
    let own = Job {
        event: "pull_request".into(),
        head_repository: "acme/infra".into(),
        ..Job::push(&dir.path().join("own"))
    };
    assert!(run_action(with, &clean, &own).uploaded.is_some());

    // Code scanning refuses the upload: the step's failure is not the job's.
    let refused = Job { upload_refused: true, ..Job::push(&dir.path().join("refused")) };
    let run = run_action(with, &clean, &refused);
    assert!(run.failed.is_none(), "{:?}", run.failed);
    let notices = not_uploaded(&run.log);
    assert_eq!(notices.len(), 1, "{}", run.log);
    assert!(notices[0].starts_with("::notice title=sqsguard::SARIF not uploaded to code scanning: the upload failed (above); it needs the job's permission security-events: write and, on a private repository, GitHub Advanced Security"), "{}", notices[0]);

    // upload-sarif: false uploads nothing and says nothing.
    let mut off = with.clone();
    off.insert("upload-sarif".into(), Value::String("false".into()));
    let run = run_action(&off, &clean, &Job::push(&dir.path().join("off")));
    assert!(run.failed.is_none() && run.uploaded.is_none() && not_uploaded(&run.log).is_empty(), "{}", run.log);
    off.insert("upload-sarif".into(), Value::String("yes".into()));
    let run = run_action(&off, &clean, &Job::push(&dir.path().join("yes")));
    assert!(run.failed.is_some_and(|(_, why)| why.contains("upload-sarif is 'yes', not auto, true or false")));

    // Two calls in one job: the second needs its own category, else it is
    // not uploaded (code scanning would refuse it) and a notice says so.
    let job = Job::push(&dir.path().join("twice"));
    assert!(run_action(with, &clean, &job).uploaded.is_some());
    let run = run_action(with, &clean, &job);
    assert!(run.failed.is_none() && run.uploaded.is_none());
    assert!(
        not_uploaded(&run.log)[0]
            .contains("this job already uploaded one under category ''; give each call of the Action its own category"),
        "{}",
        run.log
    );
    let mut other = with.clone();
    other.insert("category".into(), Value::String("billing".into()));
    assert_eq!(run_action(&other, &clean, &job).uploaded.map(|(_, c)| c).as_deref(), Some("billing"));
}

/// The stage matrix example: each stage's job lints that stage's values.
#[test]
fn the_stage_matrix_example_lints_each_stage() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow-stages.yml", releases(&release));
    assert_eq!(calls.len(), 2);
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("serverless.yml"), common::STAGED_SERVICE).unwrap();
    let mut sqs002 = Vec::new();
    for (i, with) in calls.iter().enumerate() {
        let run = run_action(with, &work, &Job::push(&dir.path().join(format!("job{i}"))));
        let stage = text(&with["args"]);
        sqs002.push((stage, run.log.lines().any(|l| l.contains(": SQS002 ") && l.ends_with("(Jobs)"))));
        assert!(run.uploaded.is_some());
    }
    assert_eq!(sqs002, [("--stage dev".to_string(), false), ("--stage prod".to_string(), true)]);
}

/// The monorepo example: one job per project folder, each with its own
/// flags; the project whose var file breaks a rule fails, the other passes.
#[test]
fn the_monorepo_example_runs_one_job_per_project() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow-monorepo.yml", releases(&release));
    let work = checkout(&dir.path().join("work"), &[("services/orders/queue.yaml", "tests/fixtures/cli/clean.yaml")]);
    let module = std::fs::read_to_string(common::root().join("tests/rules/SQS001/terraform/good/main.tf")).unwrap();
    let module = module.replacen("visibility_timeout_seconds = 180", "visibility_timeout_seconds = var.vt", 1);
    assert!(module.contains("var.vt"), "the fixture sets visibility_timeout_seconds");
    std::fs::create_dir_all(work.join("services/billing")).unwrap();
    std::fs::write(
        work.join("services/billing/main.tf"),
        format!("{module}\nvariable \"vt\" {{\n  default = 180\n}}\n"),
    )
    .unwrap();
    std::fs::write(work.join("services/billing/prod.tfvars"), "vt = 60\n").unwrap();
    let mut results = Vec::new();
    for (i, with) in calls.iter().enumerate() {
        let run = run_action(with, &work, &Job::push(&dir.path().join(format!("job{i}"))));
        let failed = run.failed.map(|(step, _)| step);
        results.push((text(&with["paths"]), failed, run.log.contains("services/billing/main.tf:")));
    }
    assert_eq!(
        results,
        [
            ("services/orders".to_string(), None, false),
            ("services/billing".to_string(), Some("Fail on findings".to_string()), true),
        ]
    );
}

/// Every example that calls the Action gives it only inputs it has
/// (actionlint cannot check a remote action's inputs).
#[test]
fn the_examples_give_the_action_only_its_inputs() {
    let Some(action) = yaml("action.yml") else { return common::missing("the test venv (PyYAML)") };
    let inputs = action["inputs"].as_object().unwrap();
    let mut calls = 0;
    for entry in std::fs::read_dir(common::root().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        let name = format!("examples/{}", path.file_name().unwrap().to_string_lossy());
        if !name.ends_with(".yml") {
            continue;
        }
        let workflow = yaml(&name).unwrap();
        for job in workflow["jobs"].as_object().into_iter().flat_map(|j| j.values()) {
            for step in job["steps"].as_array().into_iter().flatten() {
                if !text(&step["uses"]).starts_with("sqsguard/sqsguard@") {
                    continue;
                }
                calls += 1;
                for key in step["with"].as_object().into_iter().flat_map(|w| w.keys()) {
                    assert!(inputs.contains_key(key), "{name}: the Action has no input {key}");
                }
            }
        }
    }
    assert!(calls >= 3, "{calls}");
}

/// Text as a cell of the job summary's table: the Markdown marks
/// backslash-escaped (and `$`, which GitHub reads as maths), line breaks
/// as `<br>`.
fn cell(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '$' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("<br>"),
            c => out.push(c),
        }
    }
    out
}

/// The table rows a finding of `sqsguard lint --format json` is in the job summary.
fn row(f: &Value) -> String {
    let s = |k: &str| text(&f[k]);
    format!(
        "| {}:{} | {} | {} | {} | {} |",
        cell(&s("file")),
        s("line"),
        s("rule"),
        s("severity"),
        cell(&s("message")),
        cell(&s("resource"))
    )
}

/// The rows of the job summary's findings table (header and rule excluded).
fn table_rows(summary: &str) -> Vec<&str> {
    let rows: Vec<&str> = summary.lines().filter(|l| l.starts_with("| ")).collect();
    match rows.split_first() {
        Some((header, rest)) => {
            assert_eq!(*header, "| Where | Rule | Severity | Message | Resource |");
            rest.to_vec()
        }
        None => rows,
    }
}

/// The Mermaid block of the job summary, if it has one.
fn mermaid_block(summary: &str) -> Option<&str> {
    let start = summary.find("```mermaid\n")? + "```mermaid\n".len();
    let end = start + summary[start..].find("```\n")?;
    Some(&summary[start..end])
}

/// What `sqsguard graph ARGS` prints in `dir`.
fn graph(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard")).arg("graph").args(args).current_dir(dir).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    common::stdout(&out)
}

/// The job summary holds the counts, a row per finding and the pipeline
/// as Mermaid (which mermaid-cli renders), drawn from the paths with the
/// input options of `args` and `config`; with no findings it says so.
#[test]
fn the_job_summary_has_a_findings_table_and_the_pipeline_graph() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow.yml", releases(&release));
    let with = &calls[0];

    let broken =
        checkout(&dir.path().join("broken"), &[("infra/w.yaml", "examples/cloudformation/legacy-worker.yaml")]);
    let run = run_action(with, &broken, &Job::push(&dir.path().join("job")));
    assert_eq!(run.failed.map(|(step, _)| step).as_deref(), Some("Fail on findings"), "{}", run.log);
    let expected = findings(&broken, &["."]);
    assert_eq!(expected.len(), 10);
    assert_eq!(table_rows(&run.summary), expected.iter().map(row).collect::<Vec<_>>(), "{}", run.summary);
    assert!(run.summary.contains("\n| infra/w.yaml:16 | SQS002 | error | "), "{}", run.summary);
    let drawn = mermaid_block(&run.summary).unwrap_or_else(|| panic!("no Mermaid block:\n{}", run.summary));
    assert_eq!(drawn, graph(&broken, &["."]));
    assert!(drawn.contains(":::error"), "the findings are on the nodes: {drawn}");
    mermaid::render(drawn, "summary");
    assert!(!run.log.contains("job summary"), "no notice: {}", run.log);

    // `args` reach graph as far as they say how files are read: the var
    // file's value is drawn; --select, which says what is reported, is not
    // given to graph (it takes no such option).
    let module = std::fs::read_to_string(common::root().join("tests/rules/SQS001/terraform/good/main.tf"))
        .unwrap()
        .replacen("visibility_timeout_seconds = 180", "visibility_timeout_seconds = var.vt", 1);
    let tf = dir.path().join("tf");
    std::fs::create_dir_all(tf.join("billing")).unwrap();
    std::fs::write(tf.join("billing/main.tf"), format!("{module}\nvariable \"vt\" {{\n  default = 180\n}}\n")).unwrap();
    std::fs::write(tf.join("billing/prod.tfvars"), "vt = 60\n").unwrap();
    let mut staged = with.clone();
    staged.insert("paths".into(), Value::String("billing".into()));
    staged.insert("args".into(), Value::String("--select SQS001 --var-file billing/prod.tfvars".into()));
    let run = run_action(&staged, &tf, &Job::push(&dir.path().join("tf-job")));
    let drawn = mermaid_block(&run.summary).unwrap_or_else(|| panic!("no Mermaid block:\n{}", run.summary));
    assert_eq!(drawn, graph(&tf, &["--var-file", "billing/prod.tfvars", "billing"]));
    assert!(drawn.contains("visibility 60 s") && drawn.contains("SQS001 warning"), "{drawn}");
    let rows = table_rows(&run.summary);
    assert!(!rows.is_empty() && rows.iter().all(|r| r.contains(" | SQS001 | ")), "{}", run.summary);

    // A clean checkout: no table, a line that says so, and its pipeline.
    let clean = checkout(&dir.path().join("clean"), &[("queue.yaml", "tests/fixtures/cli/clean.yaml")]);
    let run = run_action(with, &clean, &Job::push(&dir.path().join("clean-job")));
    assert!(run.failed.is_none(), "{:?}", run.failed);
    assert!(
        run.summary
            .starts_with("### sqsguard\n\n**0 errors, 0 warnings, 0 infos** in 1 file (0 skipped)\n\nNo findings.\n"),
        "{}",
        run.summary
    );
    assert!(table_rows(&run.summary).is_empty(), "{}", run.summary);
    let drawn = mermaid_block(&run.summary).unwrap_or_else(|| panic!("no Mermaid block:\n{}", run.summary));
    assert_eq!(drawn, graph(&clean, &["."]));
    mermaid::render(drawn, "clean");
}

/// Past 200 findings the table stops and says how many more there are;
/// past what GitHub draws (50,000 characters, 500 edges) the graph is left
/// out with a line that says why.
#[test]
fn the_job_summary_caps_its_table_and_its_graph() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow.yml", releases(&release));
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let mut template = String::from("Resources:\n");
    for i in 0..300 {
        template.push_str(&format!(
            "  Queue{i}:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 30\n  \
             Mapping{i}:\n    Type: AWS::Lambda::EventSourceMapping\n    Properties:\n      \
             EventSourceArn: !GetAtt Queue{i}.Arn\n      FunctionName: worker\n      BatchSize: 10\n"
        ));
    }
    std::fs::write(work.join("template.yaml"), template).unwrap();
    let run = run_action(&calls[0], &work, &Job::push(&dir.path().join("job")));
    assert_eq!(run.failed.map(|(step, _)| step).as_deref(), Some("Fail on findings"));
    let all = findings(&work, &["."]);
    assert!(all.len() > 200, "{}", all.len());
    let rows = table_rows(&run.summary);
    assert_eq!(rows, all[..200].iter().map(row).collect::<Vec<_>>());
    let more = format!(
        "\n\n{} more findings are not shown here (the table stops at 200): the job log and the SARIF report have them all.\n",
        all.len() - 200
    );
    assert!(run.summary.contains(&more), "{}", run.summary);
    assert!(mermaid_block(&run.summary).is_none(), "{}", run.summary);
    let left_out = run.summary.lines().find(|l| l.starts_with("The graph is left out: ")).expect(&run.summary);
    assert!(
        left_out.contains(" edges and ") && left_out.contains("draw fewer paths, or use --format dot or json"),
        "{left_out}"
    );
    assert!(run.summary.len() < 100_000, "the summary stays small: {}", run.summary.len());
}

/// A graph that cannot be drawn (here: graph fails) leaves a notice and a
/// line on the summary page; the table is still there, and the job's status
/// is still lint's, as it is when the summary step fails whole.
#[test]
fn a_graph_that_fails_is_a_notice_and_the_status_is_lints() {
    let Some(release) = release_workflow() else { return };
    let dir = tempfile::tempdir().unwrap();
    let calls = example_calls("examples/github-workflow.yml", releases(&release));
    // Before the summary: an installed sqsguard whose `graph` fails.
    fn break_graph(job: &Job) {
        let installed = job.tool_cache.join("sqsguard").join(version());
        std::fs::rename(installed.join("sqsguard"), installed.join("sqsguard-real")).unwrap();
        let wrapper = format!(
            "#!/bin/sh\nif [ \"$1\" = graph ]; then echo 'error: out of crayons' >&2; exit 3; fi\nexec '{}' \"$@\"\n",
            installed.join("sqsguard-real").display()
        );
        std::fs::write(installed.join("sqsguard"), wrapper).unwrap();
        Command::new("chmod").arg("+x").arg(installed.join("sqsguard")).status().unwrap();
    }
    let notice = "::notice title=sqsguard::no pipeline graph in the job summary: sqsguard graph failed (exit 3): error: out of crayons; the findings and the job's status are lint's, in this log";
    let broken =
        checkout(&dir.path().join("broken"), &[("infra/w.yaml", "examples/cloudformation/legacy-worker.yaml")]);
    let clean = checkout(&dir.path().join("clean"), &[("queue.yaml", "tests/fixtures/cli/clean.yaml")]);
    for (work, fails) in [(&broken, true), (&clean, false)] {
        let job = Job {
            before_step: Some(("Job summary", break_graph)),
            ..Job::push(&dir.path().join(format!("job-{fails}")))
        };
        let run = run_action(&calls[0], work, &job);
        let failed = run.failed.as_ref().map(|(step, _)| step.as_str());
        assert_eq!(failed, fails.then_some("Fail on findings"), "{}", run.log);
        assert!(run.log.lines().any(|l| l == notice), "{}", run.log);
        assert!(
            run.summary.contains("\nNo graph: `sqsguard graph` failed (exit 3): error: out of crayons\n"),
            "{}",
            run.summary
        );
        assert!(mermaid_block(&run.summary).is_none());
        assert_eq!(table_rows(&run.summary).len(), if fails { 10 } else { 0 }, "{}", run.summary);
        assert!(run.uploaded.is_some(), "the upload still happens");
    }
    // The summary step itself fails (here: what lint left for it is gone):
    // a notice after it, and the job's status is still lint's.
    fn lose_graph_args(job: &Job) {
        for entry in std::fs::read_dir(&job.runner_temp).unwrap() {
            let _ = std::fs::remove_file(entry.unwrap().path().join("graph-args"));
        }
    }
    for (work, fails) in [(&broken, true), (&clean, false)] {
        let job = Job {
            before_step: Some(("Job summary", lose_graph_args)),
            ..Job::push(&dir.path().join(format!("lost-{fails}")))
        };
        let run = run_action(&calls[0], work, &job);
        let failed = run.failed.as_ref().map(|(step, _)| step.as_str());
        assert_eq!(failed, fails.then_some("Fail on findings"), "{}", run.log);
        assert!(
            run.log.lines().any(|l| l.starts_with("::notice title=sqsguard::the job summary could not be written")),
            "{}",
            run.log
        );
        assert!(run.uploaded.is_some(), "the upload still happens");
    }
}
