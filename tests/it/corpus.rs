//! End to end over tests/corpus (real templates and modules from public
//! repositories): the binary never crashes or exits 2, prints valid JSON,
//! and its findings per rule are a reviewed snapshot, so a change in what
//! fires on real-world input shows up in review.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeMap;

use serde_json::Value;

#[test]
fn corpus_lints_without_a_crash_and_findings_are_stable() {
    let corpus = common::corpus();
    assert!(corpus.is_dir(), "the corpus is missing at {}", corpus.display());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["lint", "--format", "json", "corpus"])
        .current_dir(corpus.parent().unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "exit {:?}: {stderr}", out.status.code());
    assert!(stderr.is_empty(), "{stderr}");
    let doc: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");

    let mut per_rule: BTreeMap<String, usize> = BTreeMap::new();
    for f in doc["findings"].as_array().unwrap() {
        *per_rule.entry(f["rule"].as_str().unwrap().to_string()).or_default() += 1;
        let (line, column) = (f["line"].as_u64().unwrap(), f["column"].as_u64().unwrap());
        assert!(line >= 1 && column >= 1, "{f}");
        assert!(f["end_line"].as_u64().unwrap() >= line, "{f}");
    }
    let summary = &doc["summary"];
    let report = format!(
        "files: {}\nskipped: {}\n{}",
        summary["files"],
        summary["skipped"],
        per_rule.iter().map(|(k, v)| format!("{k}: {v}\n")).collect::<String>()
    );
    insta::assert_snapshot!(report);
}

#[test]
fn every_corpus_template_gives_the_same_findings_alone_as_in_the_tree() {
    // Linting in parallel must not mix files up: each file alone gives the
    // findings it gets when the whole tree is linted.
    let corpus = common::corpus();
    let whole = sqsguard::lint::lint_paths(std::slice::from_ref(&corpus), &Default::default());
    let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &whole.findings {
        let l = sqsguard::report::location(f).unwrap();
        by_file.entry(l.file).or_default().push(format!("{} {}:{} {}", f.code(), l.line, l.column, f.full_message()));
    }
    // Terraform files are linted as modules (and a module another one calls
    // is linted through its caller), so only templates stand alone.
    for (file, expected) in by_file.iter().filter(|(f, _)| !f.ends_with(".tf")) {
        let alone = sqsguard::lint::lint_paths(&[file.into()], &Default::default());
        let got: Vec<String> = alone
            .findings
            .iter()
            .map(|f| {
                let l = sqsguard::report::location(f).unwrap();
                format!("{} {}:{} {}", f.code(), l.line, l.column, f.full_message())
            })
            .collect();
        assert_eq!(&got, expected, "{file}");
    }
}
