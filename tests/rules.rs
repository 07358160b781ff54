//! Per-rule fixtures: tests/fixtures/rules/CODE/bad*.{yaml,json} must make
//! CODE fire; good*.{yaml,json} must give no finding, with every rule on
//! and with only CODE selected. Each bad fixture's diagnostics are
//! snapshotted (exact locations + pretty report).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use std::path::Path;

fn code_of(path: &Path) -> String {
    path.parent().and_then(|p| p.file_name()).unwrap().to_string_lossy().into_owned()
}

#[test]
fn bad_fixtures_fire_their_rule() {
    insta::glob!("fixtures/rules/*/bad*.{yaml,json}", |path| {
        let code = code_of(path);
        let outcome = common::lint(path);
        assert!(
            outcome.findings.iter().any(|f| f.code == code),
            "{} should raise {code}, got {:?}",
            path.display(),
            outcome.findings.iter().map(|f| (f.code, &f.message)).collect::<Vec<_>>()
        );
        let alone = common::lint_only(path, &code);
        assert!(
            !alone.findings.is_empty() && alone.findings.iter().all(|f| f.code == code),
            "{}",
            common::render(&alone)
        );
        insta::assert_snapshot!(common::render(&outcome));
    });
}

#[test]
fn good_fixtures_are_clean() {
    insta::glob!("fixtures/rules/*/good*.{yaml,json}", |path| {
        let outcome = common::lint(path);
        assert_eq!(outcome.files, 1, "{} was not linted as a template", path.display());
        assert!(outcome.findings.is_empty(), "{} should be clean, got:\n{}", path.display(), common::render(&outcome));
        let alone = common::lint_only(path, &code_of(path));
        assert_eq!(alone.files, 1, "{} was not linted with only its rule", path.display());
        assert!(alone.findings.is_empty(), "{} with only its rule:\n{}", path.display(), common::render(&alone));
    });
}

#[test]
fn every_rule_has_fixtures() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.code != "SQS000" && !r.live_only) {
        let dir = common::root().join("tests/fixtures/rules").join(rule.code);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no fixture folder", rule.code))
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n.starts_with("bad")), "{}: no bad fixture", rule.code);
        assert!(names.iter().any(|n| n.starts_with("good")), "{}: no good fixture", rule.code);
    }
}
