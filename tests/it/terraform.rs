//! Terraform: HCL modules (variables, tfvars, locals, local and registry
//! modules), plan JSON, per-rule fixture modules, and hostile HCL.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

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
            (f.code().to_string(), f.resource.clone(), l.file, l.line)
        })
        .collect()
}

#[test]
fn rule_fixture_modules_fire_their_rule() {
    insta::glob!("../rules", "*/terraform/bad*/main.tf", |path| {
        let dir = path.parent().unwrap();
        let outcome = common::assert_bad_fixture(dir, &common::rule_of(dir));
        common::assert_snapshot_beside(dir, None, &common::findings(&outcome));
    });
}

/// Each bad fixture module whose finding has a fix, after `--fix` with
/// only its rule: the `fixed` (or `unsafe_fixed`) snapshot of the files it
/// changed, reviewed as text.
#[test]
fn rule_fixture_modules_after_fix() {
    insta::glob!("../rules", "*/terraform/bad*/main.tf", |path| {
        let dir = path.parent().unwrap();
        if let Some(fixed) = common::fixed_fixture(dir, &common::rule_of(dir)) {
            common::assert_snapshot_beside(dir, Some(fixed.name()), &fixed.text);
        }
    });
}

#[test]
fn good_rule_fixture_modules_are_clean() {
    insta::glob!("../rules", "*/terraform/good*/main.tf", |path| {
        let dir = path.parent().unwrap();
        common::assert_good_fixture(dir, &common::rule_of(dir));
    });
}

#[test]
fn every_rule_has_terraform_fixture_modules() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.kind == sqsguard::rules::Kind::Template) {
        let dir = common::rules_dir().join(rule.id.code).join("terraform");
        let modules: Vec<String> = fs::read_dir(&dir)
            .unwrap_or_else(|_| panic!("{} has no Terraform fixture folder", rule.id.code))
            .map(|e| e.unwrap())
            .filter(|e| e.path().join("main.tf").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(modules.iter().any(|n| n.starts_with("bad")), "{}: no bad Terraform module", rule.id.code);
        assert!(modules.iter().any(|n| n.starts_with("good")), "{}: no good Terraform module", rule.id.code);
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
    insta::assert_snapshot!(common::findings(&outcome));
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
    let codes: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
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
    insta::assert_snapshot!(common::findings(&outcome));
}

/// v3 of terraform-aws-modules/sqs named its outputs `sqs_queue_*`: a
/// redrive policy to `module.dlq.sqs_queue_arn` is a link, not a queue
/// without a DLQ beside a queue nobody consumes.
#[test]
fn registry_sqs_module_v3_outputs_link_queues() {
    let outcome = lint_dir(&common::root().join("tests/fixtures/terraform/modules/registry_v3_outputs"));
    let mut found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    found.sort();
    assert_eq!(
        found,
        vec![("SQS007", "module.jobs.aws_sqs_queue.this"), ("SQS015", "module.dlq.aws_sqs_queue.this")],
        "{}",
        common::render(&outcome)
    );
    assert!(outcome.notes.is_empty(), "{:?}", outcome.notes);
}

/// A `destination_config` the module may write as a `dynamic` block is
/// unknown, never absent; one written as a block is known beside it.
#[test]
fn a_dynamic_destination_config_is_unknown() {
    use sqsguard::model::Value;
    let dir = tempfile::tempdir().unwrap();
    let bad = fs::read_to_string(common::root().join("tests/rules/SQS024/terraform/bad_destination/main.tf")).unwrap();
    let destination = |main: &str| {
        fs::write(dir.path().join("main.tf"), main).unwrap();
        let loaded = sqsguard::frontend::terraform::load_module(dir.path(), &[], &Default::default());
        loaded.model.consumers[0].stream.as_ref().unwrap().destination_config.alts[0].value.clone()
    };
    assert_eq!(destination(&bad), Value::Known(true));
    let dynamic = bad.replace(
        "  destination_config {",
        "  dynamic \"destination_config\" {\n    for_each = var.dest\n    content {",
    ) + "\nvariable \"dest\" {\n  type = list(string)\n}\n";
    let dynamic = dynamic.replacen("    }\n  }\n}", "    }\n  }\n  }\n}", 1);
    assert!(matches!(destination(&dynamic), Value::Unknown(_)), "{dynamic}");
    let written_beside = dynamic.replace("  dynamic \"destination_config\"", "  destination_config {\n    on_failure {\n      destination_arn = \"arn:aws:sqs:us-east-1:123456789012:x\"\n    }\n  }\n\n  dynamic \"scaling_config\"");
    assert_eq!(destination(&written_beside), Value::Known(true));
}

/// A plan carries the stream-only parameters of a queue's mapping
/// (SQS024): the two the API refuses as errors, the two it ignores as
/// warnings, each at its value in the plan; the computed ones the mapping
/// does not set (`parallelization_factor`, ...) and the null ones are no
/// finding.
#[test]
fn plan_json_stream_parameters_on_a_queues_mapping() {
    let plan = common::root().join("tests/fixtures/terraform/plan/stream_parameters/plan.json");
    let outcome = common::lint(&plan);
    let text = fs::read_to_string(&plan).unwrap();
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    let mut found: Vec<(&str, String, usize)> = outcome
        .findings
        .iter()
        .map(|f| (f.code(), f.severity.as_str().to_string(), sqsguard::report::location(f).unwrap().line))
        .collect();
    found.sort_by_key(|f| f.2);
    let at = |key: &str, severity: &str| ("SQS024", severity.to_string(), line_of(&format!("\"{key}\": ")));
    assert_eq!(
        found,
        [
            at("bisect_batch_on_function_error", "warning"),
            at("destination_config", "error"),
            at("maximum_retry_attempts", "warning"),
            at("starting_position", "error"),
        ]
    );
}

#[test]
fn plan_json_links_through_configuration_and_child_modules() {
    let plans = common::root().join("tests/fixtures/terraform/plan");
    let good = common::lint(&plans.join("root_good/plan.json"));
    assert_eq!(good.files, 1);
    assert!(good.findings.is_empty(), "{}", common::render(&good));

    let bad = common::lint(&plans.join("root_bad/plan.json"));
    let codes: Vec<(&str, &str)> = bad.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
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
    insta::assert_snapshot!("plan_root_bad", common::findings(&bad));

    let nested = common::lint(&plans.join("nested_modules/plan.json"));
    let codes: Vec<(&str, &str)> = nested.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(
        codes,
        vec![("SQS009", "module.payments.module.queue.aws_sqs_queue.main")],
        "{}",
        common::render(&nested)
    );

    let instances = common::lint(&plans.join("count_for_each/plan.json"));
    let codes: Vec<(&str, &str)> = instances.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(codes, vec![("SQS016", "aws_sqs_queue.by_name[\"b\"]"), ("SQS006", "aws_sqs_queue.q[1]")]);

    // The plan of a chained for_each finds per instance what the module
    // finds once: each mapping reaches its queue through for_each_expression.
    let module = common::lint(&common::root().join("tests/rules/SQS011/terraform/bad_for_each_chain"));
    let module: Vec<(&str, &str)> = module.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(module, vec![("SQS011", "aws_lambda_event_source_mapping.tenant")]);
    let chained = common::lint(&plans.join("chained_for_each/plan.json"));
    let codes: Vec<(&str, &str)> = chained.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(
        codes,
        vec![
            ("SQS011", "aws_lambda_event_source_mapping.tenant[\"acme\"]"),
            ("SQS011", "aws_lambda_event_source_mapping.tenant[\"globex\"]")
        ],
        "{}",
        common::render(&chained)
    );
}

/// A plan carries the FIFO-only settings the rules about queue types read:
/// a batching window on a FIFO queue's mapping (SQS023) and high
/// throughput FIFO's settings on a standard queue (SQS025), each at its
/// value in the plan.
#[test]
fn plan_json_fifo_only_settings() {
    let plan = common::root().join("tests/fixtures/terraform/plan/fifo_only_settings/plan.json");
    let outcome = common::lint(&plan);
    let found: Vec<(&str, &str, usize)> = outcome
        .findings
        .iter()
        .map(|f| (f.code(), f.resource.as_str(), sqsguard::report::location(f).unwrap().line))
        .collect();
    let text = fs::read_to_string(&plan).unwrap();
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert_eq!(
        found,
        [
            ("SQS023", "aws_lambda_event_source_mapping.orders", line_of("\"maximum_batching_window_in_seconds\": 5")),
            ("SQS025", "aws_sqs_queue.events", line_of("\"deduplication_scope\": \"messageGroup\"")),
            ("SQS025", "aws_sqs_queue.events", line_of("\"fifo_throughput_limit\": \"perMessageGroupId\"")),
        ],
        "{}",
        common::render(&outcome)
    );
}

/// SQS018 through module outputs: the registry module's `queue_url` is
/// fixed to its `queue_arn`; a local module's URL output is reported but
/// not rewritten (the module may have no ARN output). Both mappings still
/// consume their queues: the local module's queue gets its SQS001.
/// `references` as plan format 0.1 (Terraform 0.12 to 1.0.0) wrote them:
/// each reference's object alone (`aws_sqs_queue.dlq`, `module.x.out`,
/// `var.v`), never the attribute taken from it.
fn as_format_0_1(doc: &mut Value) {
    match doc {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("references", Value::Array(refs)) => {
                        let mut subjects: Vec<Value> = Vec::new();
                        for r in refs.iter() {
                            let parts: Vec<&str> = r.as_str().unwrap().split('.').collect();
                            let keep = if matches!(parts[0], "module" | "data") { 3 } else { 2 };
                            let subject = Value::from(parts[..keep.min(parts.len())].join("."));
                            if !subjects.contains(&subject) {
                                subjects.push(subject);
                            }
                        }
                        *refs = subjects;
                    }
                    (_, value) => as_format_0_1(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(as_format_0_1),
        _ => {}
    }
}

/// The older plan formats: 0.2 (Terraform 1.0.1 to 1.0.x) has the shape
/// of 1.x in every part read, and is read as it with no note; 0.1 too, but
/// its references name no attribute, so the links hold with the attribute
/// unknown: the same findings as 1.x, and a note that says the plan is
/// older, never newer.
#[test]
fn plans_of_format_0_1_and_0_2_are_read_as_1x_and_never_called_newer() {
    let dir = tempfile::tempdir().unwrap();
    let plans = common::root().join("tests/fixtures/terraform/plan");
    for case in ["root_bad", "queue_url_source", "nested_modules"] {
        let text = fs::read_to_string(plans.join(case).join("plan.json")).unwrap();
        let current = common::lint(&plans.join(case).join("plan.json"));
        assert!(!current.findings.is_empty(), "{case}");
        for version in ["0.2", "0.1"] {
            let mut doc: Value = serde_json::from_str(&text).unwrap();
            doc["format_version"] = version.into();
            if version == "0.1" {
                as_format_0_1(&mut doc);
            }
            let path = dir.path().join(format!("{case}-{version}.json"));
            fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
            let older = common::lint(&path);
            let said: Vec<&str> = older.notes.iter().map(|n| n.message.as_str()).collect();
            assert!(!said.iter().any(|n| n.contains("newer")), "{case} {version}: {said:?}");
            let pairs = |o: &sqsguard::outcome::Outcome| -> Vec<(String, String)> {
                summary_of(o).into_iter().map(|(code, resource, _, _)| (code, resource)).collect()
            };
            let (found, mut wanted) = (pairs(&older), pairs(&current));
            // 0.1 cannot say a reference names a URL: SQS018 is not judged
            // there (the note says why); every other finding is the same.
            if version == "0.1" {
                wanted.retain(|f| f.0 != "SQS018" || found.contains(f));
            }
            assert_eq!(found, wanted, "{case} {version}: {}", common::render(&older));
            match version {
                "0.2" => assert!(!said.iter().any(|n| n.contains("format_version")), "{case}: {said:?}"),
                _ => assert!(
                    said.iter().any(|n| n.starts_with("plan format_version 0.1 is older than 1.x and read as 1.x")),
                    "{case}: {said:?}"
                ),
            }
        }
    }
}

#[test]
fn queue_urls_from_module_outputs_are_sqs018_and_still_link() {
    let dir = common::root().join("tests/fixtures/terraform/modules/queue_url_outputs");
    let outcome = lint_dir(&dir);
    let mut found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            ("SQS001", "module.jobs.aws_sqs_queue.this"),
            ("SQS018", "aws_lambda_event_source_mapping.events"),
            ("SQS018", "aws_lambda_event_source_mapping.jobs"),
        ],
        "{}",
        common::render(&outcome)
    );
    let out = common::sqsguard(&["lint", dir.to_str().unwrap(), "--diff", "--select", "SQS018"]);
    let diff = common::stdout(&out);
    assert!(diff.contains("+  event_source_arn        = module.events.queue_arn\n"), "{diff}");
    assert!(!diff.contains("module.jobs."), "{diff}");
}

/// In a plan, a source or a deadLetterTargetArn only known after apply is
/// read from the configuration's reference (`aws_sqs_queue.jobs.url`), and
/// a known one is the planned string: both are SQS018, and the links hold
/// (no SQS004 on the DLQ, whose source names it by URL).
#[test]
fn a_queue_url_where_an_arn_belongs_is_sqs018_in_a_plan() {
    let plan = common::root().join("tests/fixtures/terraform/plan/queue_url_source/plan.json");
    let outcome = common::lint(&plan);
    let mut found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    found.sort();
    assert_eq!(
        found,
        vec![
            ("SQS018", "aws_lambda_event_source_mapping.jobs"),
            ("SQS018", "aws_lambda_event_source_mapping.partner"),
            ("SQS018", "aws_sqs_queue.jobs"),
        ],
        "{}",
        common::render(&outcome)
    );
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
        "tests/rules/SQS006/terraform/bad_tfvars_override/terraform.tfvars",
    ]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"SQS006"), "{doc}");
    assert_eq!(out.status.code(), Some(1));
}

fn lint_json(dir: &Path, args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["lint", "--format", "json"];
    all.extend_from_slice(args);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(&all).current_dir(dir).output().unwrap();
    let doc = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code(), doc)
}

fn rules(doc: &Value) -> Vec<String> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} {}", f["rule"].as_str().unwrap(), f["severity"].as_str().unwrap()))
        .collect()
}

#[test]
fn var_files_are_loaded_after_the_modules_own_tfvars() {
    let dir = tempfile::tempdir().unwrap();
    let module = fs::read_to_string(common::root().join("tests/rules/SQS001/terraform/good/main.tf")).unwrap();
    fs::create_dir(dir.path().join("infra")).unwrap();
    fs::write(dir.path().join("infra/main.tf"), format!("{module}\nvariable \"vt\" {{\n  default = 180\n}}\n"))
        .unwrap();
    fs::write(dir.path().join("infra/terraform.tfvars"), "vt = 180\n").unwrap();
    // The module's own value is fine; a var file named on the command line
    // overrides it (the last one wins), as `terraform plan -var-file` does.
    let (code, clean) = lint_json(dir.path(), &["infra"]);
    assert_eq!((code, rules(&clean)), (Some(0), vec![]), "{clean:#}");
    fs::write(dir.path().join("prod.tfvars"), "vt = 60\n").unwrap();
    fs::write(dir.path().join("last.tfvars.json"), "{\"vt\": 180}").unwrap();
    let text = fs::read_to_string(dir.path().join("infra/main.tf")).unwrap();
    let with_var = text.replacen("visibility_timeout_seconds = 180", "visibility_timeout_seconds = var.vt", 1);
    assert_ne!(with_var, text, "the fixture sets visibility_timeout_seconds");
    fs::write(dir.path().join("infra/main.tf"), with_var).unwrap();
    let (_, doc) = lint_json(dir.path(), &["infra"]);
    assert_eq!(rules(&doc), Vec::<String>::new(), "{doc:#}");
    let (_, doc) = lint_json(dir.path(), &["infra", "--var-file", "prod.tfvars"]);
    assert_eq!(rules(&doc), ["SQS001 warning"], "{doc:#}");
    let (_, doc) = lint_json(dir.path(), &["infra", "--var-file", "prod.tfvars", "--var-file", "last.tfvars.json"]);
    assert_eq!(rules(&doc), Vec::<String>::new(), "{doc:#}");
    let (code, _) = lint_json(dir.path(), &["infra", "--var-file", "missing.tfvars"]);
    assert_eq!(code, Some(2));
}

#[test]
fn provider_default_tags_declare_every_queues_payload() {
    let dir = tempfile::tempdir().unwrap();
    let module =
        fs::read_to_string(common::root().join("tests/rules/SQS003/terraform/bad_undeclared/main.tf")).unwrap();
    fs::write(dir.path().join("main.tf"), &module).unwrap();
    let (_, doc) = lint_json(dir.path(), &["."]);
    assert_eq!(rules(&doc), ["SQS003 warning"]);
    let provider = |value: &str| {
        format!(
            "provider \"aws\" {{\n  region = \"eu-west-1\"\n  default_tags {{\n    tags = {{\n      \"sqsguard:payload\" = \"{value}\"\n    }}\n  }}\n}}\n"
        )
    };
    fs::write(dir.path().join("providers.tf"), provider("non-deterministic")).unwrap();
    let (_, doc) = lint_json(dir.path(), &["."]);
    assert_eq!(rules(&doc), ["SQS003 error"], "{doc:#}");
    fs::write(dir.path().join("providers.tf"), provider("deterministic")).unwrap();
    let (_, doc) = lint_json(dir.path(), &["."]);
    assert_eq!(rules(&doc), Vec::<String>::new(), "{doc:#}");
    // The queue's own tag wins over the provider's.
    let own = module.replacen(
        "  receive_wait_time_seconds   = 20\n",
        "  receive_wait_time_seconds   = 20\n  tags = { \"sqsguard:payload\" = \"non-deterministic\" }\n",
        1,
    );
    fs::write(dir.path().join("main.tf"), own).unwrap();
    let (_, doc) = lint_json(dir.path(), &["."]);
    assert_eq!(rules(&doc), ["SQS003 error"], "{doc:#}");
}

#[test]
fn a_dead_letter_target_only_known_after_apply_still_counts_in_a_plan() {
    // The SNS subscription's redrive policy names the queue's ARN, unknown
    // at plan time: the plan lists it in after_unknown, the configuration
    // says what it is made of, and the queue is a dead-letter target (no
    // SQS004 or SQS006), as when the module's .tf files are linted.
    let case = common::root().join("tests/fixtures/terraform/plan/sns_dead_letter");
    let from_plan = common::lint(&case.join("plan.json"));
    let from_module = common::lint(&case);
    assert_eq!(from_plan.files, 1);
    assert!(from_plan.findings.is_empty(), "{}", common::render(&from_plan));
    assert!(from_module.findings.is_empty(), "{}", common::render(&from_module));
}

#[test]
fn a_local_module_that_cannot_be_followed_is_a_note_not_a_silent_skip() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(
        root.join("main.tf"),
        "module \"gone\" {\n  source = \"./modules/gone\"\n}\n\nmodule \"loop\" {\n  source = \"./modules/loop\"\n}\n",
    )
    .unwrap();
    fs::create_dir_all(root.join("modules/loop")).unwrap();
    // A module that calls itself: read once, the second call is a cycle.
    fs::write(root.join("modules/loop/main.tf"), "module \"again\" {\n  source = \"./\"\n}\n").unwrap();
    let (code, doc) = lint_json(root, &["."]);
    assert_eq!(code, Some(0), "{doc:#}");
    let notes: Vec<String> = doc["notes"]
        .as_array()
        .unwrap_or_else(|| panic!("no notes in {doc:#}"))
        .iter()
        .map(|n| format!("{}:{} {}", n["file"].as_str().unwrap_or_default(), n["line"], n["message"].as_str().unwrap()))
        .collect();
    assert_eq!(notes.len(), 2, "{notes:#?}");
    assert!(notes[0].starts_with("main.tf:1 module.gone"), "{notes:#?}");
    assert!(notes[0].contains("modules/gone does not exist"), "{notes:#?}");
    assert!(notes[1].contains("module.again") && notes[1].contains("cycle"), "{notes:#?}");
}

/// Findings reduced to what does not depend on the syntax: rule, resource,
/// severity, and how many notes came with them.
fn shape(outcome: &sqsguard::outcome::Outcome) -> (Vec<(String, String, String)>, usize) {
    let mut findings: Vec<(String, String, String)> = outcome
        .findings
        .iter()
        .map(|f| (f.code().to_string(), f.resource.clone(), format!("{:?}", f.severity)))
        .collect();
    findings.sort();
    (findings, outcome.notes.len())
}

/// The Terraform JSON twin of an HCL fixture module: the one kept by hand
/// when there is one, else made in a scratch folder
/// (tests/common/terraform_json.rs; tests/rules/terraform-json.md).
struct Twin {
    dir: std::path::PathBuf,
    module: std::path::PathBuf,
    _scratch: Option<tempfile::TempDir>,
}

impl Twin {
    fn of(module: &Path) -> Twin {
        if let Some(kept) = common::terraform_json::kept_twin(module) {
            return Twin { dir: kept, module: module.to_path_buf(), _scratch: None };
        }
        let scratch = common::scratch();
        let dir = scratch.path().join(module.file_name().unwrap());
        common::terraform_json::write_twin(module, &dir);
        Twin { dir, module: module.to_path_buf(), _scratch: Some(scratch) }
    }

    /// Compares `text` with the twin's snapshot: beside a kept twin
    /// (`NAME.snap`, `NAME.fixed.snap`), or beside the HCL module for a
    /// made one (`NAME.json.snap`, `NAME.json.fixed.snap`), its scratch
    /// folder named as if it were kept (tests/rules/CODE/terraform-json/NAME).
    fn assert_snapshot(&self, kind: Option<&str>, text: &str) {
        if self._scratch.is_none() {
            return common::assert_snapshot_beside(&self.dir, kind, text);
        }
        let kept = common::relative(&self.module).to_string_lossy().replace("/terraform/", "/terraform-json/");
        let text = text.replace(&*common::relative(&self.dir).to_string_lossy(), &kept);
        let kind = kind.map_or("json".to_string(), |k| format!("json.{k}"));
        common::assert_snapshot_beside(&self.module, Some(&kind), &text);
    }
}

#[test]
fn every_json_twin_finds_what_its_hcl_module_finds() {
    // Same semantics, other syntax: the same findings (rule, resource,
    // severity) and as many notes, from as many files.
    let modules = [common::rule_fixtures("terraform", "bad"), common::rule_fixtures("terraform", "good")].concat();
    assert!(modules.len() > 200, "{} modules", modules.len());
    for (_, hcl) in modules {
        let twin = Twin::of(&hcl);
        let (from_json, from_hcl) = (lint_dir(&twin.dir), lint_dir(&hcl));
        assert!(from_json.files >= 1 && from_json.files == from_hcl.files, "{}", hcl.display());
        assert_eq!(shape(&from_json), shape(&from_hcl), "{}:\n{}", hcl.display(), common::render(&from_json));
    }
}

/// Each bad module's twin fires its rule at a place in the JSON (or in a
/// `.tfvars` file it shares with the HCL); its findings are snapshotted
/// beside the HCL module (`NAME.json.snap`).
#[test]
fn json_bad_fixtures_fire_their_rule_at_a_location_in_the_json() {
    for (code, hcl) in common::rule_fixtures("terraform", "bad") {
        let twin = Twin::of(&hcl);
        let outcome = common::assert_bad_fixture(&twin.dir, &code);
        for finding in &outcome.findings {
            let at = sqsguard::report::location(finding).unwrap();
            assert!(at.file.ends_with(".json") || at.file.ends_with(".tfvars"), "{at:?}");
        }
        twin.assert_snapshot(None, &common::findings(&outcome));
    }
}

/// The JSON twins after `--fix` with only their rule, as
/// [`rule_fixture_modules_after_fix`]: `NAME.json.fixed.snap` (or
/// `unsafe_fixed`) beside the HCL module.
#[test]
fn json_bad_fixtures_after_fix() {
    for (code, hcl) in common::rule_fixtures("terraform", "bad") {
        let twin = Twin::of(&hcl);
        if let Some(fixed) = common::fixed_fixture(&twin.dir, &code) {
            twin.assert_snapshot(Some(fixed.name()), &fixed.text);
        }
    }
}

#[test]
fn json_good_fixtures_are_clean_also_with_only_their_rule() {
    for (code, hcl) in common::rule_fixtures("terraform", "good") {
        common::assert_good_fixture(&Twin::of(&hcl).dir, &code);
    }
}

/// The twin of a module is what Terraform's JSON syntax says it is: blocks
/// nest their labels, a nested block is an array, an expression is a
/// `${...}` string, a variable's type its expression, a heredoc its text.
#[test]
fn a_json_twin_is_terraform_json() {
    let hcl = r#"terraform {
  required_version = ">= 1.5"
}

variable "timeout" {
  type    = number
  default = 30
}

locals {
  name = "jobs-${var.env}"
}

resource "aws_sqs_queue" "jobs" {
  name                       = local.name
  visibility_timeout_seconds = var.timeout * 6
  redrive_policy             = jsonencode({ maxReceiveCount = 5 })
  policy                     = <<-EOT
    {"Version": "2012-10-17"}
  EOT
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.jobs.arn
  scaling_config {
    maximum_concurrency = 5
  }
}
"#;
    let expected = serde_json::json!({
        "terraform": [{"required_version": ">= 1.5"}],
        "variable": {"timeout": {"type": "number", "default": 30}},
        "locals": {"name": "jobs-${var.env}"},
        "resource": {
            "aws_sqs_queue": {"jobs": {
                "name": "${local.name}",
                "visibility_timeout_seconds": "${var.timeout * 6}",
                "redrive_policy": "${jsonencode({ maxReceiveCount = 5 })}",
                "policy": "{\"Version\": \"2012-10-17\"}\n"
            }},
            "aws_lambda_event_source_mapping": {"m": {
                "event_source_arn": "${aws_sqs_queue.jobs.arn}",
                "scaling_config": [{"maximum_concurrency": 5}]
            }}
        }
    });
    assert_eq!(common::terraform_json::file(hcl).unwrap(), expected);
    assert!(common::terraform_json::file("resource \"a\" {").is_err(), "broken HCL is an error, not an empty twin");
}

/// tests/rules/SQS001/terraform/bad/main.tf in Terraform JSON.
fn sqs001_bad_as_json() -> Value {
    let hcl = fs::read_to_string(common::rules_dir().join("SQS001/terraform/bad/main.tf")).unwrap();
    common::terraform_json::file(&hcl).unwrap()
}

#[test]
fn json_and_hcl_files_make_one_module() {
    // The queue in HCL, its consumer in JSON: SQS001 needs both to fire,
    // and its location is in the file that holds the queue.
    let dir = tempfile::tempdir().unwrap();
    let mut doc = sqs001_bad_as_json();
    let queues = doc["resource"].as_object_mut().unwrap().remove("aws_sqs_queue").unwrap();
    fs::write(dir.path().join("consumer.tf.json"), serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let mut hcl = String::new();
    for (name, body) in queues.as_object().unwrap() {
        hcl.push_str(&format!("resource \"aws_sqs_queue\" \"{name}\" {{\n"));
        for (key, value) in body.as_object().unwrap() {
            let value = match value {
                Value::String(s) if s.starts_with("${") && s.ends_with('}') && s.matches("${").count() == 1 => {
                    s[2..s.len() - 1].to_string()
                }
                other => other.to_string(),
            };
            hcl.push_str(&format!("  {key} = {value}\n"));
        }
        hcl.push_str("}\n\n");
    }
    fs::write(dir.path().join("queues.tf"), hcl).unwrap();
    let outcome = lint_dir(dir.path());
    assert_eq!(outcome.files, 2);
    let found = summary_of(&outcome);
    assert_eq!(found.len(), 1, "{}", common::render(&outcome));
    assert_eq!(found[0].0, "SQS001");
    assert!(found[0].2.ends_with("/queues.tf"), "{}", found[0].2);
    assert_eq!(found[0].3, 3, "visibility_timeout_seconds is on line 3 of queues.tf");
    // Naming the JSON file alone lints its whole folder's module.
    let named = lint_dir(&dir.path().join("consumer.tf.json"));
    assert_eq!(summary_of(&named), found);
}

#[test]
fn a_json_comment_property_suppresses_in_its_resource() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc = sqs001_bad_as_json();
    let path = dir.path().join("main.tf.json");
    fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    assert_eq!(rules(&lint_json(dir.path(), &["."]).1), ["SQS001 warning"]);
    // Terraform JSON's comment property ("//") is where a suppression goes.
    doc["resource"]["aws_sqs_queue"]["orders"]["//"] =
        Value::from("sqsguard:ignore SQS001 -- the consumer is idempotent");
    fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let (code, suppressed) = lint_json(dir.path(), &["."]);
    assert_eq!((code, rules(&suppressed)), (Some(0), vec![]), "{suppressed:#}");
    // In a minified file every resource is on one line: the comment still
    // silences only its own resource.
    let mut two = doc.clone();
    two["resource"]["aws_sqs_queue"]["orders"]["//"] = Value::from("sqsguard:ignore SQS001,SQS004");
    two["resource"]["aws_sqs_queue"]["other"] = serde_json::json!({"name": "other"});
    fs::write(&path, serde_json::to_string(&two).unwrap()).unwrap();
    let (_, minified) = lint_json(dir.path(), &["."]);
    assert_eq!(rules(&minified), ["SQS004 warning", "SQS006 warning"], "{minified:#}");
    assert!(minified["findings"].as_array().unwrap().iter().all(|f| f["resource"] == "aws_sqs_queue.other"));
    // A suppression of a rule that does not fire there is reported as stale.
    doc["resource"]["aws_sqs_queue"]["orders"]["//"] = Value::from("sqsguard:ignore SQS002");
    fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let (_, stale) = lint_json(dir.path(), &["."]);
    assert!(rules(&stale).contains(&"SQS001 warning".to_string()), "{stale:#}");
}

#[test]
fn broken_terraform_json_is_a_located_sqs000_and_the_rest_of_the_module_lints() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf.json"), serde_json::to_string_pretty(&sqs001_bad_as_json()).unwrap()).unwrap();
    fs::write(dir.path().join("broken.tf.json"), "{\n  \"resource\": {\n    \"aws_sqs_queue\": {,\n").unwrap();
    let outcome = lint_dir(dir.path());
    let found = summary_of(&outcome);
    assert!(found.iter().any(|f| f.0 == "SQS001" && f.2.ends_with("/main.tf.json")), "{}", common::render(&outcome));
    let broken: Vec<_> = found.iter().filter(|f| f.0 == "SQS000").collect();
    assert_eq!(broken.len(), 1, "{}", common::render(&outcome));
    assert!(broken[0].2.ends_with("/broken.tf.json") && broken[0].3 == 3, "{}", common::render(&outcome));
}

#[test]
fn a_root_module_called_by_its_example_is_linted_once_from_its_own_folder() {
    // The registry layout: the module at the top, an example calling it.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n}\n").unwrap();
    fs::create_dir_all(dir.path().join("examples/basic")).unwrap();
    fs::write(dir.path().join("examples/basic/main.tf"), "module \"q\" {\n  source = \"../../\"\n}\n").unwrap();
    for args in [&[][..], &["."][..], &["main.tf", "examples/basic/main.tf"][..]] {
        let (_, doc) = lint_json(dir.path(), args);
        assert_eq!(rules(&doc), ["SQS004 warning", "SQS006 warning"], "{args:?}: {doc:#}");
    }
}

/// A module written into a temporary folder, linted: (rule, resource,
/// message) of each finding, and the notes.
fn lint_module(main_tf: &str) -> (Vec<(String, String, String)>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), main_tf).unwrap();
    let outcome = lint_dir(dir.path());
    let mut found: Vec<_> = outcome
        .findings
        .iter()
        .map(|f| (f.code().to_string(), f.resource.clone(), f.full_message().into_owned()))
        .collect();
    found.sort();
    (found, outcome.notes.iter().map(|n| n.message.clone()).collect())
}

const TENANT_QUEUES: &str = r#"
variable "tenants" {
  default = {
    acme   = { visibility = 300, timeout = 40 }
    globex = { visibility = 60, timeout = 50 }
  }
}
resource "aws_sqs_queue" "tenant" {
  for_each                   = var.tenants
  name                       = "jobs-${each.key}"
  visibility_timeout_seconds = each.value.visibility
  receive_wait_time_seconds  = 20
}
resource "aws_lambda_function" "worker" {
  for_each      = var.tenants
  function_name = "worker-${each.key}"
  timeout       = each.value.timeout
}
resource "aws_lambda_event_source_mapping" "tenant" {
  for_each                = aws_sqs_queue.tenant
  event_source_arn        = each.value.arn
  function_name           = aws_lambda_function.worker[each.key].arn
  function_response_types = ["ReportBatchItemFailures"]
}
"#;

#[test]
fn chained_for_each_instances_pair_by_key() {
    let (found, _) = lint_module(TENANT_QUEUES);
    let sqs00x: Vec<_> = found.iter().filter(|(c, _, _)| c == "SQS001" || c == "SQS002").collect();
    // globex: 60 < 6 x 50 = 300 (SQS001, not SQS002: 60 >= 50); acme:
    // 300 >= 6 x 40 = 240, clean. acme's queue with globex's function (300
    // < 300? no) or globex's queue with acme's function (60 < 240) are not
    // pairs: the same key is the same tenant.
    assert_eq!(sqs00x.len(), 1, "{found:#?}");
    let (code, resource, message) = sqs00x[0];
    assert_eq!((code.as_str(), resource.as_str()), ("SQS001", "aws_sqs_queue.tenant"));
    assert!(message.contains("60 s < 6 x 50 s") && message.contains(r#"each.key is "globex""#), "{message}");
}

#[test]
fn a_literal_key_count_index_and_arithmetic_read_that_instance() {
    let module = r#"
variable "timeouts" {
  default = { fast = 10, slow = 200 }
}
resource "aws_lambda_function" "worker" {
  for_each      = var.timeouts
  function_name = "worker-${each.key}"
  timeout       = each.value
}
resource "aws_sqs_queue" "slow" {
  name                       = "slow"
  visibility_timeout_seconds = 2 * aws_lambda_function.worker["slow"].timeout
}
resource "aws_sqs_queue" "shard" {
  count                      = 2
  name                       = "shard-${count.index}"
  visibility_timeout_seconds = max(40, 100 * count.index)
}
resource "aws_lambda_function" "shard" {
  function_name = "shard"
}
resource "aws_lambda_event_source_mapping" "slow" {
  event_source_arn = aws_sqs_queue.slow.arn
  function_name    = aws_lambda_function.worker["slow"].arn
  batch_size       = 1
}
resource "aws_lambda_event_source_mapping" "shard" {
  count            = 2
  event_source_arn = aws_sqs_queue.shard[count.index].arn
  function_name    = aws_lambda_function.shard.function_name
  batch_size       = 1
}
"#;
    let (found, _) = lint_module(module);
    let timing: Vec<_> = found.iter().filter(|(c, _, _)| c == "SQS001" || c == "SQS002").collect();
    // slow: 2 x 200 = 400 < 6 x 200 (SQS001); fast's 10 s is not read.
    // shard: max(40, 0) = 40 and max(40, 100) = 100 against the default 3 s
    // timeout (6 x 3 = 18): clean.
    assert_eq!(timing.len(), 1, "{found:#?}");
    assert_eq!(timing[0].0, "SQS001");
    assert!(timing[0].2.contains("400 s < 6 x 200 s"), "{}", timing[0].2);
}

#[test]
fn self_referencing_and_unknown_instances_are_unknown_not_guesses() {
    let module = r#"
variable "tenants" {}
resource "aws_sqs_queue" "a" {
  name                       = "a"
  visibility_timeout_seconds = aws_sqs_queue.b.visibility_timeout_seconds
}
resource "aws_sqs_queue" "b" {
  name                       = "b"
  visibility_timeout_seconds = aws_sqs_queue.a.visibility_timeout_seconds
}
resource "aws_lambda_function" "worker" {
  for_each      = var.tenants
  function_name = "worker-${each.key}"
  timeout       = each.value.timeout
}
resource "aws_lambda_event_source_mapping" "a" {
  event_source_arn = aws_sqs_queue.a.arn
  function_name    = aws_lambda_function.worker["x"].arn
  batch_size       = 1
}
"#;
    let (found, _) = lint_module(module);
    assert!(!found.iter().any(|(c, _, _)| c == "SQS001" || c == "SQS002" || c == "SQS012"), "{found:#?}");
}

#[test]
fn the_sqs_module_from_its_git_repository_with_for_each_is_the_registry_module() {
    let module = r#"
variable "queues" {
  default = {
    orders = { visibility = 30 }
    emails = { visibility = 600 }
  }
}
module "queue" {
  source                     = "git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0"
  for_each                   = var.queues
  name                       = each.key
  visibility_timeout_seconds = each.value.visibility
  receive_wait_time_seconds  = 20
  create_dlq                 = true
}
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 60
}
resource "aws_lambda_event_source_mapping" "queue" {
  for_each                = module.queue
  event_source_arn        = each.value.queue_arn
  function_name           = aws_lambda_function.worker.arn
  function_response_types = ["ReportBatchItemFailures"]
}
"#;
    let (found, notes) = lint_module(module);
    assert!(!notes.iter().any(|n| n.contains("was not analysed")), "{notes:#?}");
    let sqs002: Vec<_> = found.iter().filter(|(c, _, _)| c == "SQS002").collect();
    assert_eq!(sqs002.len(), 1, "{found:#?}");
    assert_eq!(sqs002[0].1, "module.queue.aws_sqs_queue.this");
    assert!(sqs002[0].2.contains(r#"each.key is "orders""#), "{}", sqs002[0].2);
}

#[test]
fn an_arn_built_from_the_caller_identity_links_by_its_queue_name() {
    let module = r#"
data "aws_caller_identity" "current" {}
data "aws_region" "current" {}
resource "aws_sqs_queue" "jobs" {
  name                      = "jobs"
  receive_wait_time_seconds = 20
}
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 60
}
resource "aws_lambda_event_source_mapping" "jobs" {
  event_source_arn        = "arn:aws:sqs:${data.aws_region.current.name}:${data.aws_caller_identity.current.account_id}:jobs"
  function_name           = aws_lambda_function.worker.arn
  function_response_types = ["ReportBatchItemFailures"]
}
"#;
    let (found, notes) = lint_module(module);
    assert!(found.iter().any(|(c, r, _)| c == "SQS002" && r == "aws_sqs_queue.jobs"), "{found:#?}");
    assert!(!notes.iter().any(|n| n.contains("could not be resolved")), "{notes:#?}");
}

#[test]
fn per_instance_sources_link_every_instance_and_leave_no_note() {
    let module = r#"
resource "aws_sqs_queue" "a" {
  name                       = "a"
  visibility_timeout_seconds = 10
}
resource "aws_sqs_queue" "b" {
  name                       = "b"
  visibility_timeout_seconds = 10
}
resource "aws_lambda_function" "worker" {
  function_name = "worker"
  timeout       = 60
}
resource "aws_lambda_event_source_mapping" "m" {
  for_each                = { a = aws_sqs_queue.a.arn, b = aws_sqs_queue.b.arn }
  event_source_arn        = each.value
  function_name           = aws_lambda_function.worker.arn
  function_response_types = ["ReportBatchItemFailures"]
}
"#;
    let (found, notes) = lint_module(module);
    // Each instance reads its own queue, and the end of the per-instance
    // chain (no instance) is neither a link nor a note.
    let sqs002: Vec<&str> = found.iter().filter(|(c, _, _)| c == "SQS002").map(|(_, r, _)| r.as_str()).collect();
    assert_eq!(sqs002, vec!["aws_sqs_queue.a", "aws_sqs_queue.b"], "{found:#?}");
    assert!(notes.is_empty(), "{notes:#?}");
}

/// terraform-aws-modules/lambda's `reserved_concurrent_executions` and an
/// `event_source_mapping` entry's `scaling_config` are read (SQS022), a
/// `dynamic "scaling_config"` block is unknown, never a finding.
#[test]
fn reserved_concurrency_and_scaling_config_of_the_lambda_module_and_dynamic_blocks() {
    let module = |scaling: &str| {
        format!(
            "resource \"aws_sqs_queue\" \"q\" {{\n  name = \"q\"\n}}\n\nmodule \"consumer\" {{\n  source  = \"terraform-aws-modules/lambda/aws\"\n  function_name = \"c\"\n  reserved_concurrent_executions = 5\n  event_source_mapping = {{\n    q = {{\n      event_source_arn = aws_sqs_queue.q.arn\n      {scaling}\n    }}\n  }}\n}}\n"
        )
    };
    let sqs022 = |main: &str| lint_module(main).0.into_iter().filter(|(code, _, _)| code == "SQS022").count();
    assert_eq!(sqs022(&module("")), 1);
    assert_eq!(sqs022(&module("scaling_config = { maximum_concurrency = 9 }")), 1);
    assert_eq!(sqs022(&module("scaling_config = { maximum_concurrency = 5 }")), 0);
    let dynamic = "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n}\n\nresource \"aws_lambda_function\" \"f\" {\n  function_name = \"f\"\n  reserved_concurrent_executions = 5\n}\n\nresource \"aws_lambda_event_source_mapping\" \"m\" {\n  event_source_arn = aws_sqs_queue.q.arn\n  function_name    = aws_lambda_function.f.arn\n  dynamic \"scaling_config\" {\n    for_each = var.scaling\n    content {\n      maximum_concurrency = scaling_config.value\n    }\n  }\n}\n";
    assert_eq!(sqs022(dynamic), 0);
    assert_eq!(sqs022(&dynamic.replace("  dynamic \"scaling_config\" {\n    for_each = var.scaling\n    content {\n      maximum_concurrency = scaling_config.value\n    }\n  }\n", "")), 1);
}

/// SQS019 and SQS021 point at the queue (its block, its `fifo_queue`) and
/// name the producer; a plan finds what its module finds, reaching the
/// queue, topic and bucket through `configuration` references.
#[test]
fn producer_findings_point_at_the_queue_and_name_the_producer() {
    let rules = common::rules_dir();
    let file = |case: &str| format!("tests/rules/{case}/main.tf");
    let s3 = lint_dir(&rules.join("SQS019/terraform/bad_s3_notification"));
    assert_eq!(
        summary_of(&s3),
        vec![("SQS019".into(), "aws_sqs_queue.jobs".into(), file("SQS019/terraform/bad_s3_notification"), 3)]
    );
    let message = &s3.findings[0].full_message();
    assert!(message.contains("S3 bucket notification aws_s3_bucket_notification.uploads"), "{message}");
    assert!(
        message
            .contains("does not allow s3.amazonaws.com (or \"*\" on a condition naming this bucket) sqs:SendMessage"),
        "{message}"
    );

    let target = lint_dir(&rules.join("SQS021/terraform/bad_eventbridge_no_group"));
    assert_eq!(
        summary_of(&target),
        vec![("SQS021".into(), "aws_sqs_queue.jobs".into(), file("SQS021/terraform/bad_eventbridge_no_group"), 5)]
    );
    let message = &target.findings[0].full_message();
    assert!(message.contains("EventBridge target aws_cloudwatch_event_target.jobs (Id jobs)"), "{message}");
    assert!(message.contains("no sqs_target.message_group_id"), "{message}");

    let case = common::root().join("tests/fixtures/terraform/plan/producers");
    let shape = |o: &sqsguard::outcome::Outcome| {
        let mut found: Vec<(String, String, String)> = o
            .findings
            .iter()
            .map(|f| {
                (f.code().to_string(), f.resource.clone(), f.full_message().split(':').next().unwrap().to_string())
            })
            .collect();
        found.sort();
        found
    };
    // Naming main.tf lints its module (main.tf, providers.tf), not plan.json.
    let from_module = common::lint(&case.join("main.tf"));
    let from_plan = common::lint(&case.join("plan.json"));
    assert_eq!(from_module.files, 2);
    assert_eq!(shape(&from_module).len(), 3, "{}", common::render(&from_module));
    assert_eq!(shape(&from_plan), shape(&from_module), "{}", common::render(&from_plan));
}

const SUBSCRIBED: &str = r#"
resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}
resource "aws_sns_topic" "orders" {
  name = "orders"
}
resource "aws_sns_topic" "other" {
  name = "other"
}
resource "aws_sns_topic_subscription" "orders_to_jobs" {
  topic_arn = aws_sns_topic.orders.arn
  protocol  = "sqs"
  endpoint  = ENDPOINT
}
"#;

/// A subscription whose queue is a data source is a note naming it and
/// the expression, and no producer finding.
#[test]
fn a_subscription_to_a_queue_only_known_at_plan_time_is_a_note() {
    let main = SUBSCRIBED.replace("ENDPOINT", "data.aws_sqs_queue.shared.arn")
        + "data \"aws_sqs_queue\" \"shared\" {\n  name = \"shared\"\n}\n";
    let (found, notes) = lint_module(&main);
    assert!(found.iter().all(|(code, _, _)| code != "SQS019" && code != "SQS021"), "{found:?}");
    let note = notes.iter().find(|n| n.contains("aws_sns_topic_subscription.orders_to_jobs"));
    let note = note.unwrap_or_else(|| panic!("no note for the subscription: {notes:?}"));
    assert!(note.contains("`data.aws_sqs_queue.shared.arn`"), "{note}");
    assert!(note.contains("SQS019"), "{note}");
    // The same subscription to the queue of the module: SQS019 (no policy).
    let (found, _) = lint_module(&SUBSCRIBED.replace("ENDPOINT", "aws_sqs_queue.jobs.arn"));
    assert!(found.iter().any(|(code, r, _)| code == "SQS019" && r == "aws_sqs_queue.jobs"), "{found:?}");
}

/// `policy = data.aws_iam_policy_document.X.json` is that document: it
/// allows the subscription when its condition names the topic, not when it
/// names another; one that cannot be read is unknown, never a finding.
#[test]
fn an_aws_iam_policy_document_is_the_queue_policy() {
    let document = |statement: &str| {
        format!(
            "{}data \"aws_iam_policy_document\" \"jobs\" {{\n{statement}\n}}\nresource \"aws_sqs_queue_policy\" \"jobs\" {{\n  queue_url = aws_sqs_queue.jobs.id\n  policy    = data.aws_iam_policy_document.jobs.json\n}}\n",
            SUBSCRIBED.replace("ENDPOINT", "aws_sqs_queue.jobs.arn")
        )
    };
    let statement = |source: &str| {
        format!(
            "  statement {{\n    actions   = [\"sqs:SendMessage\"]\n    resources = [aws_sqs_queue.jobs.arn]\n    principals {{\n      type        = \"Service\"\n      identifiers = [\"sns.amazonaws.com\"]\n    }}\n    condition {{\n      test     = \"ArnEquals\"\n      variable = \"aws:SourceArn\"\n      values   = [{source}]\n    }}\n  }}"
        )
    };
    let sqs019 = |main: &str| lint_module(main).0.into_iter().filter(|(code, _, _)| code == "SQS019").count();
    assert_eq!(sqs019(&document(&statement("aws_sns_topic.orders.arn"))), 0);
    assert_eq!(sqs019(&document(&statement("aws_sns_topic.other.arn"))), 1);
    // effect defaults to Allow; an explicit Deny allows nothing.
    let deny = statement("aws_sns_topic.orders.arn").replace("    actions", "    effect    = \"Deny\"\n    actions");
    assert_eq!(sqs019(&document(&deny)), 1);
    // The wrong service, and not_actions that leave SendMessage out.
    assert_eq!(sqs019(&document(&statement("aws_sns_topic.orders.arn").replace("sns.amazon", "s3.amazon"))), 1);
    let not_send = statement("aws_sns_topic.orders.arn").replace("actions   =", "not_actions =");
    assert_eq!(sqs019(&document(&not_send)), 1);
    // What is not read stays unknown: a dynamic statement, a merged
    // document, a not_principals block.
    let dynamic = "  dynamic \"statement\" {\n    for_each = var.statements\n    content {\n      actions = statement.value.actions\n    }\n  }";
    assert_eq!(sqs019(&document(dynamic)), 0);
    let merged = format!("  source_policy_documents = [var.base]\n{}", statement("aws_sns_topic.other.arn"));
    assert_eq!(sqs019(&document(&merged)), 0);
    let not_principals = statement("aws_sns_topic.orders.arn").replace("principals {", "not_principals {");
    assert_eq!(sqs019(&document(&not_principals)), 0);
}

/// The registry SQS module's `queue_policy_statements` carry their actions,
/// principals and conditions into the policy it writes.
#[test]
fn registry_queue_policy_statements_allow_a_producer_by_source() {
    let module = |source: &str| {
        format!(
            "module \"jobs\" {{\n  source = \"terraform-aws-modules/sqs/aws\"\n  name   = \"jobs\"\n  create_queue_policy = true\n  queue_policy_statements = {{\n    sns = {{\n      actions    = [\"sqs:SendMessage\"]\n      principals = [{{ type = \"Service\", identifiers = [\"sns.amazonaws.com\"] }}]\n      condition  = [{{ test = \"ArnEquals\", variable = \"aws:SourceArn\", values = [{source}] }}]\n    }}\n  }}\n}}\nresource \"aws_sns_topic\" \"orders\" {{\n  name = \"orders\"\n}}\nresource \"aws_sns_topic\" \"other\" {{\n  name = \"other\"\n}}\nresource \"aws_sns_topic_subscription\" \"orders_to_jobs\" {{\n  topic_arn = aws_sns_topic.orders.arn\n  protocol  = \"sqs\"\n  endpoint  = module.jobs.queue_arn\n}}\n"
        )
    };
    let sqs019 = |main: &str| {
        let (found, _) = lint_module(main);
        found.into_iter().filter(|(code, _, _)| code == "SQS019").map(|(_, r, _)| r).collect::<Vec<_>>()
    };
    assert_eq!(sqs019(&module("aws_sns_topic.orders.arn")), Vec::<String>::new());
    assert_eq!(sqs019(&module("aws_sns_topic.other.arn")), vec!["module.jobs.aws_sqs_queue.this".to_string()]);
}

/// A queue of the registry SQS module gets its dead-letter queue from the
/// module's `create_dlq` input: SQS004 says so, not to write a
/// `redrive_policy` the module would have to be given an ARN for. A queue
/// declared beside it keeps the resource advice.
/// What every SQS004 fix ends with: the new dead-letter queue's SQS015 is
/// expected, and the alarm's action is the user's to choose.
const ALARM: &str = "; the new dead-letter queue then gets SQS015 until a CloudWatch alarm watches it (what the alarm notifies is yours to choose)";

#[test]
fn sqs004_on_a_registry_module_queue_says_create_dlq() {
    let main = r#"
module "jobs" {
  source                    = "terraform-aws-modules/sqs/aws"
  name                      = "jobs"
  receive_wait_time_seconds = 20
}
module "audit" {
  source                    = "git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0"
  name                      = "audit"
  receive_wait_time_seconds = 20
  create_dlq                = false
}
resource "aws_sqs_queue" "plain" {
  receive_wait_time_seconds = 20
}
"#;
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("main.tf"), main).unwrap();
    let outcome = lint_dir(dir.path());
    let mut sqs004: Vec<(&str, String)> = outcome
        .findings
        .iter()
        .filter(|f| f.code() == "SQS004")
        .map(|f| (f.resource.as_str(), f.full_fix().into_owned()))
        .collect();
    sqs004.sort();
    let create_dlq = |call: &str| {
        format!(
            "set create_dlq = true in {call} (terraform-aws-modules/sqs/aws 4.0 or later): the module then creates a dead-letter queue of the same type and the redrive_policy to it (maxReceiveCount 5 unless redrive_policy = {{ maxReceiveCount = N }} sets it){ALARM}"
        )
    };
    assert_eq!(
        sqs004.iter().map(|(resource, fix)| (*resource, fix.as_str())).collect::<Vec<_>>(),
        vec![
            (
                "aws_sqs_queue.plain",
                &*format!(
                    "add redrive_policy = jsonencode({{ deadLetterTargetArn = <a queue of the same type>.arn, maxReceiveCount = 5 }}){ALARM}"
                )
            ),
            ("module.audit.aws_sqs_queue.this", create_dlq("module.audit").as_str()),
            ("module.jobs.aws_sqs_queue.this", create_dlq("module.jobs").as_str()),
        ]
    );
}

/// SQS007 on the registry SQS module's dead-letter queue names the input
/// that sets its retention, `dlq_message_retention_seconds`: when it is
/// set, the fix raises it and clears the finding; when it is not, the DLQ
/// takes the queue's `message_retention_seconds`, no fix is offered (one
/// would raise both), and the advice says why.
#[test]
fn sqs007_on_the_registry_modules_dlq_names_dlq_message_retention_seconds() {
    let modules = common::root().join("tests/fixtures/terraform/modules");
    let input = modules.join("registry_dlq_retention_input");
    let outcome = lint_dir(&input);
    let fixes: Vec<String> = outcome.findings.iter().map(|f| f.full_fix().into_owned()).collect();
    assert_eq!(
        fixes,
        [
            "set dlq_message_retention_seconds = 1209600 in module.orders (14 days, the maximum), longer than the source's 604800 s"
        ]
    );
    let fixed = common::fixed_fixture(&input, "SQS007").expect("a fix");
    assert!(fixed.text.contains("dlq_message_retention_seconds = 1209600\n"), "{}", fixed.text);

    let falls_back = lint_dir(&modules.join("registry_dlq_retention_falls_back"));
    let fixes: Vec<String> = falls_back.findings.iter().map(|f| f.full_fix().into_owned()).collect();
    assert_eq!(
        fixes,
        [
            "set dlq_message_retention_seconds = 1209600 in module.orders (14 days, the maximum), longer than the source's 604800 s (without it the module gives the dead-letter queue the queue's message_retention_seconds)"
        ]
    );
    assert!(falls_back.findings[0].remedy.is_none(), "one value both queues read: no fix");
}

/// Not a check but a tool: writes the JSON twin of every HCL rule module
/// into $SQSGUARD_JSON_TWINS/CODE/NAME, for tests/same-findings.sh to lint
/// with both builds (the made twins are not in the repository; it lints the
/// kept ones where they are).
#[test]
#[ignore = "run by tests/same-findings.sh"]
fn write_json_twins() {
    let to = std::env::var_os("SQSGUARD_JSON_TWINS").expect("SQSGUARD_JSON_TWINS: the folder to write them in");
    for (code, module) in
        [common::rule_fixtures("terraform", "bad"), common::rule_fixtures("terraform", "good")].concat()
    {
        common::terraform_json::write_twin(&module, &Path::new(&to).join(code).join(module.file_name().unwrap()));
    }
}
