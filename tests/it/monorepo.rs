//! Monorepos: each file is governed by the nearest `.sqsguard.yaml` in
//! its folder or above (up to the repository's root), whichever folder
//! sqsguard runs from; `--config` governs every file; a baseline's paths
//! are relative to its own folder, so it matches from anywhere, and its
//! stale entries are a note that `--write-baseline` clears.
//!
//! The repository: a root config (ignore SQS016) and three projects with
//! one queue template each (SQS004, SQS006 and SQS016 by default):
//! `services/a` selects SQS004 as an error, `services/b` ignores SQS004,
//! makes SQS006 info and excludes `legacy/`, `services/c` has no config.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const QUEUE: &str = "AWSTemplateFormatVersion: \"2010-09-09\"
Resources:
  Q:
    Type: AWS::SQS::Queue
    Properties:
      SqsManagedSseEnabled: false
";

/// The repository (in `repo/`) and a folder outside it (`outside/`, with a
/// config of its own that must govern nothing).
struct Monorepo {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

impl Monorepo {
    fn new() -> Monorepo {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let (root, outside) = (base.join("repo"), base.join("outside"));
        for folder in ["services/a", "services/b", "services/b/legacy", "services/c"] {
            std::fs::create_dir_all(root.join(folder)).unwrap();
            std::fs::write(root.join(folder).join("template.yaml"), QUEUE).unwrap();
        }
        std::fs::create_dir_all(&outside).unwrap();
        let git = Command::new("git").args(["init", "-q"]).current_dir(&root).output().unwrap();
        assert!(git.status.success(), "{}", String::from_utf8_lossy(&git.stderr));
        let files = [
            (".sqsguard.yaml", "ignore: [SQS016]\n"),
            ("services/a/.sqsguard.yaml", "select: [SQS004]\nseverity: {SQS004: error}\n"),
            ("services/b/.sqsguard.yaml", "ignore: [SQS004]\nseverity: {SQS006: info}\nexclude: [legacy]\n"),
            ("only-016.yaml", "select: [SQS016]\n"),
        ];
        for (path, text) in files {
            std::fs::write(root.join(path), text).unwrap();
        }
        std::fs::write(outside.join(".sqsguard.yaml"), "select: [SQS999X]\n").unwrap();
        Monorepo { _dir: dir, root, outside }
    }

    /// The three places lint runs from, each with the paths of the three
    /// projects as typed there.
    fn places(&self) -> Vec<(PathBuf, Vec<String>)> {
        let abs = |p: &str| self.root.join(p).to_str().unwrap().to_string();
        vec![
            (self.root.clone(), vec!["services/a".into(), "services/b".into(), "services/c".into()]),
            (self.root.join("services/a"), vec![".".into(), "../b".into(), "../c".into()]),
            (self.outside.clone(), vec![abs("services/a"), abs("services/b"), abs("services/c")]),
        ]
    }

    fn run(&self, cwd: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(cwd).output().unwrap()
    }

    /// `lint --format json` of `paths` from `cwd`, with `extra` flags.
    fn json(&self, cwd: &Path, paths: &[String], extra: &[&str]) -> Value {
        let mut args = vec!["lint", "--format", "json"];
        args.extend(paths.iter().map(String::as_str));
        args.extend(extra);
        let out = self.run(cwd, &args);
        assert!(out.status.code().is_some_and(|c| c < 2), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// (file relative to the repository, rule, severity) of each finding.
    fn findings(&self, cwd: &Path, doc: &Value) -> Vec<(String, String, String)> {
        let mut got: Vec<_> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let file = cwd.join(f["file"].as_str().unwrap()).canonicalize().unwrap();
                let file = file.strip_prefix(&self.root).unwrap().to_str().unwrap().to_string();
                (file, f["rule"].as_str().unwrap().to_string(), f["severity"].as_str().unwrap().to_string())
            })
            .collect();
        got.sort();
        got
    }
}

fn f(file: &str, rule: &str, severity: &str) -> (String, String, String) {
    (format!("services/{file}/template.yaml"), rule.into(), severity.into())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn each_file_follows_its_nearest_config_from_anywhere() {
    let repo = Monorepo::new();
    let want = vec![
        f("a", "SQS004", "error"),
        f("b", "SQS006", "info"),
        f("b", "SQS016", "warning"),
        f("c", "SQS004", "warning"),
        f("c", "SQS006", "warning"),
    ];
    for (cwd, paths) in repo.places() {
        let doc = repo.json(&cwd, &paths, &[]);
        assert_eq!(repo.findings(&cwd, &doc), want, "from {}", cwd.display());
        assert_eq!(doc["summary"]["files"], 3, "services/b's exclude keeps out its legacy/, from {}", cwd.display());
    }
    // The whole repository at once, from the root: the same.
    assert_eq!(repo.findings(&repo.root, &repo.json(&repo.root, &[".".into()], &[])), want);
}

#[test]
fn the_command_line_overrides_every_config_and_config_governs_all() {
    let repo = Monorepo::new();
    for (cwd, paths) in repo.places() {
        // --ignore adds to each config's ignore.
        let doc = repo.json(&cwd, &paths, &["--ignore", "SQS006"]);
        let want = vec![f("a", "SQS004", "error"), f("b", "SQS016", "warning"), f("c", "SQS004", "warning")];
        assert_eq!(repo.findings(&cwd, &doc), want, "from {}", cwd.display());
        // --select replaces each config's select; their ignores and severities stay.
        let doc = repo.json(&cwd, &paths, &["--select", "SQS006"]);
        let want = vec![f("a", "SQS006", "warning"), f("b", "SQS006", "info"), f("c", "SQS006", "warning")];
        assert_eq!(repo.findings(&cwd, &doc), want, "from {}", cwd.display());
        // --config: one file for everything, no project's exclude either.
        let config = repo.root.join("only-016.yaml");
        let doc = repo.json(&cwd, &paths, &["--config", config.to_str().unwrap()]);
        let want = vec![
            f("a", "SQS016", "warning"),
            f("b/legacy", "SQS016", "warning"),
            f("b", "SQS016", "warning"),
            f("c", "SQS016", "warning"),
        ];
        assert_eq!(repo.findings(&cwd, &doc), want, "from {}", cwd.display());
    }
}

#[test]
fn a_baseline_written_from_one_place_matches_from_the_others() {
    let repo = Monorepo::new();
    let baseline = repo.root.join(".sqsguard-baseline.json");
    let b = baseline.to_str().unwrap();
    let places = repo.places();
    for (writer, paths) in &places {
        std::fs::remove_file(&baseline).ok();
        let mut args = vec!["lint"];
        args.extend(paths.iter().map(String::as_str));
        args.extend(["--write-baseline", b]);
        let out = repo.run(writer, &args);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
        let files: Vec<&str> =
            doc["findings"].as_array().unwrap().iter().map(|e| e["file"].as_str().unwrap()).collect();
        assert_eq!(files[0], "services/a/template.yaml", "relative to the baseline's folder");
        for (reader, paths) in &places {
            let doc = repo.json(reader, paths, &["--baseline", b]);
            let from = format!("written from {}, read from {}", writer.display(), reader.display());
            assert_eq!(doc["findings"], Value::Array(vec![]), "{from}");
            assert_eq!((&doc["summary"]["baselined"], &doc["summary"]["stale_baseline"]), (&5.into(), &0.into()));
        }
    }
}

#[test]
fn stale_entries_are_a_note_and_write_baseline_drops_them() {
    let repo = Monorepo::new();
    let root = &repo.root;
    assert_eq!(repo.run(root, &["lint", ".", "--write-baseline", "baseline.json"]).status.code(), Some(0));
    // services/c's queue gets long polling: its SQS006 is gone.
    let fixed = QUEUE.to_string() + "      ReceiveMessageWaitTimeSeconds: 20\n";
    std::fs::write(root.join("services/c/template.yaml"), fixed).unwrap();
    let doc = repo.json(root, &[".".into()], &["--baseline", "baseline.json"]);
    assert_eq!((&doc["summary"]["baselined"], &doc["summary"]["stale_baseline"]), (&4.into(), &1.into()));
    let notes = doc["notes"].to_string();
    assert!(notes.contains("1 stale baseline entry") && notes.contains("baseline.json"), "{notes}");
    let out = repo.run(
        &repo.outside,
        &["lint", root.to_str().unwrap(), "--baseline", &root.join("baseline.json").to_string_lossy()],
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 stale baseline entry"), "pretty says it too");
    assert_eq!(out.status.code(), Some(0), "a stale entry is a note, not a failure");

    // A run over services/a alone did not look for services/c's finding.
    let doc = repo.json(root, &["services/a".into()], &["--baseline", "baseline.json"]);
    assert_eq!(doc["summary"]["stale_baseline"], 0);
    assert!(doc["notes"].is_null(), "{}", doc["notes"]);
    // Nor did one that leaves SQS006 out.
    let doc = repo.json(root, &[".".into()], &["--baseline", "baseline.json", "--ignore", "SQS006"]);
    assert_eq!(doc["summary"]["stale_baseline"], 0);

    // Rewritten over services/a alone: the rest is kept, the stale entry too
    // (the run did not look there).
    let out = repo.run(root, &["lint", "services/a", "--write-baseline", "baseline.json"]);
    assert!(stderr(&out).contains("kept 4 entries"), "{}", stderr(&out));
    let doc = repo.json(root, &[".".into()], &["--baseline", "baseline.json"]);
    assert_eq!(doc["summary"]["stale_baseline"], 1);
    // Rewritten over everything, from a project's folder: dropped.
    let out = repo.run(&root.join("services/a"), &["lint", "../..", "--write-baseline", "../../baseline.json"]);
    assert!(
        stderr(&out).contains("recorded 4 findings") && stderr(&out).contains("dropped 1 stale entry"),
        "{}",
        stderr(&out)
    );
    let doc = repo.json(root, &[".".into()], &["--baseline", "baseline.json"]);
    assert_eq!((&doc["summary"]["baselined"], &doc["summary"]["stale_baseline"]), (&4.into(), &0.into()));
    assert!(doc["notes"].is_null(), "{}", doc["notes"]);
}

#[test]
fn an_entry_recorded_twice_and_matched_once_is_one_stale_entry() {
    let repo = Monorepo::new();
    let root = &repo.root;
    assert_eq!(repo.run(root, &["lint", ".", "--write-baseline", "baseline.json"]).status.code(), Some(0));
    let path = root.join("baseline.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let first = doc["findings"][0].clone();
    doc["findings"].as_array_mut().unwrap().push(first);
    std::fs::write(&path, doc.to_string()).unwrap();
    let out = repo.json(root, &[".".into()], &["--baseline", "baseline.json"]);
    assert_eq!((&out["summary"]["baselined"], &out["summary"]["stale_baseline"]), (&5.into(), &1.into()));
}

#[test]
fn a_version_1_baseline_is_read_relative_to_its_folder() {
    // Written from the repository's root by an earlier sqsguard: its paths
    // were the working folder's, which is the baseline's folder.
    let repo = Monorepo::new();
    let root = &repo.root;
    assert_eq!(repo.run(root, &["lint", ".", "--write-baseline", "baseline.json"]).status.code(), Some(0));
    let path = root.join("baseline.json");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"version\": 2"), "{text}");
    std::fs::write(&path, text.replace("\"version\": 2", "\"version\": 1")).unwrap();
    let doc = repo.json(&root.join("services/b"), &["../..".into()], &["--baseline", "../../baseline.json"]);
    assert_eq!((&doc["findings"], &doc["summary"]["baselined"]), (&Value::Array(vec![]), &5.into()));
    std::fs::write(&path, text.replace("\"version\": 2", "\"version\": 7")).unwrap();
    let out = repo.run(root, &["lint", ".", "--baseline", "baseline.json"]);
    assert_eq!(out.status.code(), Some(2), "an invalid baseline");
    assert!(stderr(&out).contains("baseline version 7"), "{}", stderr(&out));
}

#[test]
fn a_broken_nearest_config_is_a_located_exit_2_before_anything_is_written() {
    let repo = Monorepo::new();
    let root = &repo.root;
    std::fs::write(root.join("services/b/.sqsguard.yaml"), "ignore: [SQS004\n").unwrap();
    for (cwd, paths) in repo.places() {
        for extra in [&[][..], &["--fix"], &["--write-baseline", "b.json"]] {
            let mut args = vec!["lint"];
            args.extend(paths.iter().map(String::as_str));
            args.extend(extra);
            let out = repo.run(&cwd, &args);
            assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
            assert!(stderr(&out).contains(".sqsguard.yaml:"), "located: {}", stderr(&out));
            assert!(out.stdout.is_empty());
            assert!(!cwd.join("b.json").exists());
        }
    }
    assert_eq!(std::fs::read_to_string(root.join("services/a/template.yaml")).unwrap(), QUEUE, "--fix wrote nothing");
    // A project the broken config does not govern is linted.
    let out = repo.run(root, &["lint", "services/a", "services/c"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn each_projects_config_names_its_stage() {
    let repo = Monorepo::new();
    for (project, config) in [("p", "select: [SQS002]\nstage: prod\n"), ("q", "select: [SQS002]\n")] {
        std::fs::create_dir_all(repo.root.join(project)).unwrap();
        std::fs::write(repo.root.join(project).join("serverless.yml"), common::STAGED_SERVICE).unwrap();
        std::fs::write(repo.root.join(project).join(".sqsguard.yaml"), config).unwrap();
    }
    let doc = repo.json(&repo.root, &["p".into(), "q".into()], &[]);
    let findings = doc["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["file"], "p/serverless.yml");
    assert!(findings[0]["message"].as_str().unwrap().ends_with("(timeout from stage: prod of .sqsguard.yaml)"));
    // --stage wins over every config's.
    let doc = repo.json(&repo.root, &["p".into(), "q".into()], &["--stage", "prod"]);
    assert_eq!(doc["findings"].as_array().unwrap().len(), 2);
}
