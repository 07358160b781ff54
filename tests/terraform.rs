//! Terraform: HCL modules (variables, tfvars, locals, local and registry
//! modules), plan JSON, per-rule fixture modules, and hostile HCL.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use std::fs;
use std::path::Path;

use serde_json::Value;

fn lint_dir(path: &Path) -> sqsguard::outcome::Outcome {
    common::lint(path)
}

fn summary_of(outcome: &sqsguard::outcome::Outcome) -> Vec<(String, String, String, usize)> {
    outcome
        .findings
        .iter()
        .map(|f| {
            let l = sqsguard::report::location(f).unwrap();
            (f.code.to_string(), f.resource.clone(), l.file, l.line)
        })
        .collect()
}

#[test]
fn rule_fixture_modules_fire_their_rule() {
    insta::glob!("fixtures/terraform/rules/*/bad*/main.tf", |path| {
        let dir = path.parent().unwrap();
        let code = dir.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        let outcome = lint_dir(dir);
        assert!(
            outcome.findings.iter().any(|f| f.code == code),
            "{} should raise {code}, got {:?}",
            dir.display(),
            summary_of(&outcome)
        );
        let alone = common::lint_only(dir, &code);
        assert!(
            !alone.findings.is_empty() && alone.findings.iter().all(|f| f.code == code),
            "{}",
            common::render(&alone)
        );
        insta::assert_snapshot!(common::render(&outcome));
    });
}

#[test]
fn good_rule_fixture_modules_are_clean() {
    insta::glob!("fixtures/terraform/rules/*/good*/main.tf", |path| {
        let dir = path.parent().unwrap();
        let outcome = lint_dir(dir);
        assert!(outcome.files >= 1, "{} was not linted", dir.display());
        assert!(outcome.findings.is_empty(), "{} should be clean, got:\n{}", dir.display(), common::render(&outcome));
        let code = dir.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        let alone = common::lint_only(dir, &code);
        assert!(alone.files >= 1, "{} was not linted with only its rule", dir.display());
        assert!(alone.findings.is_empty(), "{} with only {code}:\n{}", dir.display(), common::render(&alone));
    });
}

#[test]
fn every_rule_has_terraform_fixture_modules() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.code != "SQS000" && !r.live_only) {
        let dir = common::root().join("tests/fixtures/terraform/rules").join(rule.code);
        let modules: Vec<String> = fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no Terraform fixture folder", rule.code))
            .map(|e| e.unwrap())
            .filter(|e| e.path().join("main.tf").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(modules.iter().any(|n| n.starts_with("bad")), "{}: no bad Terraform module", rule.code);
        assert!(modules.iter().any(|n| n.starts_with("good")), "{}: no good Terraform module", rule.code);
    }
}

#[test]
fn local_modules_bind_their_arguments_and_tfvars_override_defaults() {
    let outcome = lint_dir(&common::root().join("tests/fixtures/terraform/modules/local"));
    assert_eq!(outcome.files, 2, "main.tf and modules/worker/main.tf");
    // orders_visibility defaults to 600 (fine) but terraform.tfvars sets 30,
    // below the 60 s function timeout the module call passes.
    let got = summary_of(&outcome);
    assert_eq!(
        got,
        vec![(
            "SQS002".to_string(),
            "module.orders.aws_sqs_queue.jobs".to_string(),
            "tests/fixtures/terraform/modules/local/modules/worker/main.tf".to_string(),
            7
        )],
        "{}",
        common::render(&outcome)
    );
    insta::assert_snapshot!(common::render(&outcome));
}

#[test]
fn naming_one_file_lints_its_whole_module() {
    let one = common::root().join("tests/fixtures/terraform/modules/local/main.tf");
    let outcome = common::lint(&one);
    assert_eq!(outcome.files, 2);
    assert!(outcome.findings.iter().any(|f| f.resource == "module.orders.aws_sqs_queue.jobs"));
}

#[test]
fn registry_modules_are_modelled_and_other_remote_modules_noted() {
    let outcome = lint_dir(&common::root().join("tests/fixtures/terraform/modules/registry"));
    let codes: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code, f.resource.as_str())).collect();
    for expected in [
        ("SQS001", "module.events.aws_sqs_queue.this"),
        ("SQS008", "module.events.aws_sqs_queue.this"),
        ("SQS015", "module.events.aws_sqs_queue.dlq"),
        ("SQS010", "module.consumer.aws_lambda_event_source_mapping.this[\"events\"]"),
        ("SQS005", "module.consumer.aws_lambda_event_source_mapping.this[\"events\"]"),
    ] {
        assert!(codes.contains(&expected), "missing {expected:?} in {codes:?}");
    }
    assert_eq!(outcome.notes.len(), 1);
    assert!(outcome.notes[0].message.contains("module.other"), "{}", outcome.notes[0].message);
    insta::assert_snapshot!(common::render(&outcome));
}

#[test]
fn plan_json_links_through_configuration_and_child_modules() {
    let plans = common::root().join("tests/fixtures/terraform/plan");
    let good = common::lint(&plans.join("root_good/plan.json"));
    assert_eq!(good.files, 1);
    assert!(good.findings.is_empty(), "{}", common::render(&good));

    let bad = common::lint(&plans.join("root_bad/plan.json"));
    let codes: Vec<(&str, &str)> = bad.findings.iter().map(|f| (f.code, f.resource.as_str())).collect();
    for expected in [
        // The mapping reaches its queue and function only through
        // `configuration` references: their ARNs are unknown until apply.
        ("SQS002", "aws_sqs_queue.jobs"),
        ("SQS005", "aws_lambda_event_source_mapping.jobs"),
        ("SQS011", "aws_lambda_event_source_mapping.jobs"),
        // So does the redrive policy to its DLQ.
        ("SQS007", "aws_sqs_queue.jobs"),
        ("SQS015", "aws_sqs_queue.dlq"),
        ("SQS017", "aws_sqs_queue.jobs"),
        ("SQS016", "aws_sqs_queue.audit"),
        ("SQS004", "aws_sqs_queue.audit"),
    ] {
        assert!(codes.contains(&expected), "missing {expected:?} in {codes:?}");
    }
    // jobs has a redrive policy (unknown until apply): never "missing DLQ".
    assert!(!codes.contains(&("SQS004", "aws_sqs_queue.jobs")));
    insta::assert_snapshot!("plan_root_bad", common::render(&bad));

    let nested = common::lint(&plans.join("nested_modules/plan.json"));
    let codes: Vec<(&str, &str)> = nested.findings.iter().map(|f| (f.code, f.resource.as_str())).collect();
    assert_eq!(
        codes,
        vec![("SQS009", "module.payments.module.queue.aws_sqs_queue.main")],
        "{}",
        common::render(&nested)
    );

    let instances = common::lint(&plans.join("count_for_each/plan.json"));
    let codes: Vec<(&str, &str)> = instances.findings.iter().map(|f| (f.code, f.resource.as_str())).collect();
    assert_eq!(codes, vec![("SQS016", "aws_sqs_queue.by_name[\"b\"]"), ("SQS006", "aws_sqs_queue.q[1]")]);
}

#[test]
fn hostile_hcl_is_a_located_sqs000_and_the_rest_of_the_module_lints() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("good.tf"), "resource \"aws_sqs_queue\" \"lonely\" {\n  name = \"lonely\"\n}\n").unwrap();
    fs::write(d.join("unterminated.tf"), "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n").unwrap();
    let deep = format!("locals {{\n  x = {}1{}\n}}\n", "[".repeat(10_000), "]".repeat(10_000));
    fs::write(d.join("deep.tf"), deep).unwrap();
    let heredoc = format!("locals {{\n  big = <<EOT\n{}EOT\n}}\n", "lorem ipsum dolor sit amet\n".repeat(200_000));
    fs::write(d.join("heredoc.tf"), heredoc).unwrap();
    fs::write(d.join("binary.tf"), [0xffu8, 0xfe, 0, 1, 2]).unwrap();

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["lint", "--format", "json", "."])
        .current_dir(d)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(1));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["summary"]["files"], 5, "{doc:#}");
    let findings = doc["findings"].as_array().unwrap();
    let of = |file: &str| findings.iter().filter(|f| f["file"] == file).collect::<Vec<_>>();
    for broken in ["unterminated.tf", "deep.tf", "binary.tf"] {
        let f = of(broken);
        assert_eq!(f.len(), 1, "{broken}: {f:?}");
        assert_eq!(f[0]["rule"], "SQS000");
        assert!(f[0]["line"].as_u64().unwrap() >= 1);
    }
    assert!(of("unterminated.tf")[0]["message"].as_str().unwrap().starts_with("HCL syntax error"));
    assert!(of("heredoc.tf").is_empty(), "a large heredoc is fine: {:?}", of("heredoc.tf"));
    assert!(of("good.tf").iter().any(|f| f["rule"] == "SQS004"), "the rest of the module still lints");
}

#[test]
fn a_named_tfvars_file_lints_its_folders_module() {
    // What a pre-commit hook passes when only the variables changed.
    let out = common::sqsguard(&[
        "lint",
        "--format",
        "json",
        "tests/fixtures/terraform/rules/SQS006/bad_tfvars_override/terraform.tfvars",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"SQS006"), "{doc}");
    assert_eq!(out.status.code(), Some(1));
}
