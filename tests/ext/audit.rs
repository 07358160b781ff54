//! The live audit against a real AWS-compatible server: moto, started on a
//! free loopback port for each test and stopped after it (tests/run.sh
//! installs it). Needs `--features audit`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing
#![cfg(feature = "audit")]

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

fn audit(endpoint: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["audit", "--region", "us-east-1", "--endpoint-url", endpoint])
        .args(extra)
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "secret-that-must-not-leak")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn each_live_problem_is_found_and_the_clean_pipeline_is_left_alone() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["problems"]);
    let (code, stdout, stderr) = audit(&moto.endpoint, &["--format", "json"]);
    assert_eq!(code, Some(1), "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let mut found: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let resource = f["resource"].as_str().unwrap();
            let short = if resource.contains('/') {
                resource.rsplit('/').next().unwrap().to_string()
            } else {
                "mapping".to_string()
            };
            (f["rule"].as_str().unwrap().to_string(), short)
        })
        .collect();
    found.sort();
    let expected: Vec<(String, String)> = [
        ("SQS002", "jobs"),
        ("SQS004", "backlog"),
        ("SQS005", "mapping"),
        ("SQS006", "backlog"),
        ("SQS007", "jobs"),
        ("SQS008", "jobs"),
        ("SQS011", "mapping"),
        ("SQS015", "jobs-dlq"),
        ("SQS016", "backlog"),
        ("SQS101", "jobs-dlq"),
        ("SQS102", "jobs"),
        ("SQS103", "backlog"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(found, expected, "{stdout}");
    for f in doc["findings"].as_array().unwrap() {
        assert_eq!(f["region"], "us-east-1");
        if f["resource"].as_str().unwrap().contains('/') {
            assert_eq!(f["account"], "123456789012");
        }
    }
    let summary = &doc["summary"];
    assert_eq!(summary["files"], 5, "five queues audited");
    assert!(!stdout.contains("secret-that-must-not-leak") && !stderr.contains("secret-that-must-not-leak"));
}

#[test]
fn the_audit_only_reads() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["problems"]);
    let _aws_env = common::aws_env();
    // SAFETY: this test runs the audit in-process, holding the lock of the
    // tests that set the AWS environment.
    unsafe {
        std::env::set_var("AWS_ACCESS_KEY_ID", "test");
        std::env::set_var("AWS_SECRET_ACCESS_KEY", "test");
        std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
    }
    let opts = sqsguard::audit::Options {
        regions: vec!["us-east-1".into()],
        endpoint_url: Some(moto.endpoint.clone()),
        ..Default::default()
    };
    let audit = sqsguard::audit::run(&opts).unwrap();
    let operations = audit.calls.operations();
    assert!(operations.len() >= 8, "{operations:?}");
    for op in &operations {
        let name = op.rsplit('.').next().unwrap();
        assert!(
            name.starts_with("List") || name.starts_with("Get") || name.starts_with("Describe"),
            "the audit sent {op}, which is not a read"
        );
    }
}

#[test]
fn a_thousand_queues_stay_within_the_call_budget() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["load", "1000"]);
    let started = Instant::now();
    let (code, stdout, stderr) = audit(&moto.endpoint, &["--format", "json", "--fail-on", "never"]);
    let elapsed = started.elapsed();
    assert_eq!(code, Some(0), "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["summary"]["files"], 1000);
    let calls = doc["summary"]["api_calls"].as_u64().unwrap();
    // 1.1 calls a queue, plus pagination and per-Region calls.
    assert!(calls as f64 <= 1.1 * 1000.0 + 10.0, "{calls} calls for 1000 queues");
    eprintln!("1000 queues: {calls} API calls in {elapsed:?}");
}

/// `--concurrency N` is the most requests in flight at once, counted by
/// the server (each held 40 ms so that they overlap), and the audit does
/// use all N. Three Regions of different sizes are audited at once, so a
/// request of one Region (a ListEventSourceMappings after its queues) that
/// did not wait for its place in the one pool would overlap the others'.
#[test]
fn concurrency_bounds_the_requests_in_flight_and_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("in-flight");
    let Some(moto) = common::moto_counting_in_flight(&log) else { return };
    moto.scenario(&["load", "5", "eu-west-1"]);
    moto.scenario(&["load", "30", "us-east-1", "ap-southeast-2"]);
    for n in [1, 3] {
        std::fs::write(&log, "").unwrap();
        let concurrency = n.to_string();
        let args = ["--region", "eu-west-1", "--region", "ap-southeast-2", "--concurrency", &concurrency];
        let (code, stdout, stderr) =
            audit(&moto.endpoint, &[&["--format", "json", "--fail-on", "never"][..], &args].concat());
        assert_eq!(code, Some(0), "{stderr}");
        let doc: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(doc["summary"]["files"], 65);
        let peak = std::fs::read_to_string(&log).unwrap().lines().map(|l| l.parse::<u64>().unwrap()).max().unwrap();
        assert_eq!(peak, n, "--concurrency {n}: {peak} requests were in flight at once");
    }
}

#[test]
fn an_unreachable_endpoint_or_missing_credentials_is_one_line_and_exit_2() {
    let started = Instant::now();
    let (code, stdout, stderr) = audit("http://127.0.0.1:1", &[]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot reach the SQS endpoint http://127.0.0.1:1 (connection refused)"), "{stderr}");

    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["audit", "--region", "us-east-1", "--endpoint-url", "http://127.0.0.1:1"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("no AWS credentials found (tried: "), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

#[test]
fn access_denied_skips_that_queue_or_api_with_the_reason_and_audits_the_rest() {
    // moto enforces IAM after its first six requests, which build the scene.
    let Some(moto) = common::moto_with(&[("INITIAL_NO_AUTH_ACTION_COUNT", "6")]) else { return };
    let setup = Command::new(common::venv_tool("python").unwrap())
        .arg(common::root().join("tests/fixtures/audit/restricted.py"))
        .arg(&moto.endpoint)
        .output()
        .unwrap();
    assert!(setup.status.success(), "{}", String::from_utf8_lossy(&setup.stderr));
    let keys: Value = serde_json::from_slice(&setup.stdout).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["audit", "--region", "us-east-1", "--endpoint-url", &moto.endpoint, "--format", "json"])
        .env("AWS_ACCESS_KEY_ID", keys["key"].as_str().unwrap())
        .env("AWS_SECRET_ACCESS_KEY", keys["secret"].as_str().unwrap())
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let notes: Vec<&str> = doc["notes"].as_array().unwrap().iter().map(|n| n["message"].as_str().unwrap()).collect();
    assert!(notes.iter().any(|n| n.contains("/secret") && n.contains("AccessDenied")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("DescribeAlarms") && n.contains("AccessDenied")), "{notes:?}");
    // moto also refuses this auditor ListEventSourceMappings and
    // GetMetricData (its IAM emulation for Lambda and CloudWatch), so more
    // than the two denied here may be skipped; each is reported the same way.
    assert!(doc["summary"]["skipped"].as_u64().unwrap() >= 2, "{stdout}");
    assert_eq!(doc["summary"]["skipped"].as_u64().unwrap() as usize, notes.len());
    assert_eq!(doc["summary"]["files"], 1, "the readable queue was audited");
    let rules: Vec<&str> = doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap()).collect();
    assert!(rules.contains(&"SQS016"), "{rules:?}");
    // The Region was read in part, and says which rules went blind: no
    // SQS015 comes from alarms that could not be listed.
    let gaps = doc["summary"]["unaudited"].as_array().unwrap();
    assert_eq!(gaps.len(), 1, "{gaps:?}");
    assert_eq!(gaps[0]["partial"], true);
    assert_eq!(gaps[0]["region"], "us-east-1");
    assert_eq!(gaps[0]["account"], "123456789012");
    let apis: Vec<&str> = gaps[0]["apis"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert!(apis.contains(&"DescribeAlarms") && apis.contains(&"GetQueueAttributes"), "{apis:?}");
    assert!(gaps[0]["rules"].as_array().unwrap().iter().any(|r| r == "SQS015"));
    // Without the subscriptions the producer rules are blind, and say so.
    assert!(apis.contains(&"ListSubscriptions"), "{apis:?}");
    assert!(notes.iter().any(|n| n.contains("ListSubscriptions") && n.contains("AccessDenied")), "{notes:?}");
    for rule in ["SQS019", "SQS020", "SQS021"] {
        assert!(gaps[0]["rules"].as_array().unwrap().iter().any(|r| r == rule), "{rule}: {gaps:?}");
    }
    assert!(!rules.contains(&"SQS015"));
    // Even with nothing to report, a partial audit fails the run.
    let quiet = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["audit", "--region", "us-east-1", "--endpoint-url", &moto.endpoint, "--queue-prefix", "none-such"])
        .env("AWS_ACCESS_KEY_ID", keys["key"].as_str().unwrap())
        .env("AWS_SECRET_ACCESS_KEY", keys["secret"].as_str().unwrap())
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&quiet.stdout);
    assert_eq!(quiet.status.code(), Some(1), "{text}");
    // No queue, no URL to learn the account from: the Region alone.
    assert!(text.contains("unaudited: us-east-1: read in part"), "{text}");
}

/// The producers read live: SNS subscriptions and EventBridge targets
/// (of the default bus, and of a custom bus whose rules outnumber the
/// queues, so that they are found by target), each checked against the
/// queue's policy, type and customer managed key's policy, and a consumer
/// function's reserved concurrency.
#[test]
fn producers_and_reserved_concurrency_are_read_and_checked() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["producers"]);
    let (code, stdout, stderr) = audit(&moto.endpoint, &["--format", "json"]);
    assert_eq!(code, Some(1), "{stderr}");
    let doc: Value = serde_json::from_str(&stdout).unwrap();
    let mut found: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| ["SQS019", "SQS020", "SQS021", "SQS022"].contains(&f["rule"].as_str().unwrap()))
        .map(|f| {
            let resource = f["resource"].as_str().unwrap();
            let short = match resource.rsplit_once('/') {
                Some((_, queue)) => queue.to_string(),
                // A mapping's UUID: the message names its function.
                None => {
                    f["message"].as_str().unwrap().split("function ").nth(1).unwrap().split(' ').next().unwrap().into()
                }
            };
            (f["rule"].as_str().unwrap().to_string(), short)
        })
        .collect();
    found.sort();
    let expected: Vec<(String, String)> = [
        // EventBridge, custom bus, no policy.
        ("SQS019", "bus-target"),
        // SNS, a policy for another topic only.
        ("SQS019", "other-source"),
        // SNS, no policy; "allowed" and "ledger.fifo" are allowed.
        ("SQS019", "unallowed"),
        // SNS into a queue encrypted with alias/aws/sqs.
        ("SQS020", "sealed"),
        // SNS into a queue whose customer managed key lacks SNS ("allowed"'s
        // key lets SNS use it).
        ("SQS020", "unallowed"),
        // A FIFO target without content-based deduplication.
        ("SQS021", "commands.fifo"),
        // A FIFO queue as an EventBridge dead-letter queue.
        ("SQS021", "events-dlq.fifo"),
        // Reserved concurrency 5, no MaximumConcurrency ("bounded" has 5).
        ("SQS022", "work-worker"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(found, expected, "{stdout}");
    let sns = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "SQS019" && f["resource"].as_str().unwrap().ends_with("/unallowed"));
    let message = sns.unwrap()["message"].as_str().unwrap();
    assert!(message.starts_with("SNS subscription of topic orders delivers to queue unallowed"), "{message}");
    let keyed = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "SQS020" && f["resource"].as_str().unwrap().ends_with("/unallowed"));
    let message = keyed.unwrap()["message"].as_str().unwrap();
    // The key by its ID, as the KMS console lists it.
    let key = message.split("the key policy of key ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap();
    assert!(key.len() == 36 && key.matches('-').count() == 4, "{message}");
    assert!(message.contains("does not allow sns.amazonaws.com kms:GenerateDataKey* or kms:Decrypt"), "{message}");
    assert_eq!(doc["summary"]["skipped"], 0, "{stdout}");

    let _aws_env = common::aws_env();
    // SAFETY: as in the_audit_only_reads, the same values.
    unsafe {
        std::env::set_var("AWS_ACCESS_KEY_ID", "test");
        std::env::set_var("AWS_SECRET_ACCESS_KEY", "test");
        std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
    }
    let opts = sqsguard::audit::Options {
        regions: vec!["us-east-1".into()],
        endpoint_url: Some(moto.endpoint.clone()),
        ..Default::default()
    };
    let operations = sqsguard::audit::run(&opts).unwrap().calls.operations();
    let count = |op: &str| operations.iter().filter(|o| o.ends_with(&format!(".{op}"))).count();
    assert_eq!(count("ListSubscriptions"), 1, "{operations:?}");
    assert_eq!(count("ListEventBuses"), 1, "{operations:?}");
    assert_eq!(count("ListRules"), 2, "a call a bus: {operations:?}");
    // The default bus's one rule by name; the custom bus's 30 rules
    // outnumber the 10 queues: 10 calls by target, then the one rule found.
    assert_eq!(count("ListRuleNamesByTarget"), 10, "{operations:?}");
    assert_eq!(count("ListTargetsByRule"), 2, "{operations:?}");
    assert_eq!(count("GetFunctionConcurrency"), 2, "one a function: {operations:?}");
    // Two customer managed keys on fed queues; alias/aws/sqs needs no call.
    assert_eq!(count("DescribeKey"), 2, "one a key: {operations:?}");
    assert_eq!(count("GetKeyPolicy"), 2, "one a customer managed key: {operations:?}");
}

fn rules_of(json: &str) -> std::collections::BTreeSet<String> {
    let doc: Value = serde_json::from_str(json).unwrap();
    doc["findings"].as_array().unwrap().iter().map(|f| f["rule"].as_str().unwrap().to_string()).collect()
}

/// moto's CloudFormation does not create AWS::CloudWatch::Alarm and does
/// not apply AWS::SQS::QueuePolicy, so what those carry cannot be seen live
/// there: SQS015 (every DLQ looks unalarmed) and SQS017.
const MOTO_GAPS: &[&str] = &["SQS015", "SQS017"];

#[test]
fn lint_and_audit_give_the_same_rules_for_a_deployed_template() {
    let Some(moto) = common::moto() else { return };
    let template = common::root().join("examples/cloudformation/legacy-worker.yaml");
    moto.scenario(&["deploy", template.to_str().unwrap()]);
    let lint = common::sqsguard(&["lint", "--format", "json", template.to_str().unwrap()]);
    let (_, audit_out, stderr) = audit(&moto.endpoint, &["--format", "json"]);
    let strip = |set: std::collections::BTreeSet<String>| -> Vec<String> {
        set.into_iter().filter(|r| !MOTO_GAPS.contains(&r.as_str())).collect()
    };
    let from_file = strip(rules_of(&common::stdout(&lint)));
    let live = strip(rules_of(&audit_out));
    assert_eq!(live, from_file, "one rule engine, two sources, one answer\n{audit_out}{stderr}");
    assert!(from_file.len() >= 7, "{from_file:?}");
}

#[test]
fn generated_stacks_deploy_and_audit_clean() {
    let Some(moto) = common::moto() else { return };
    let templates: Vec<String> = [
        "mcp-probe/cloudformation/mcp-probe-results.yaml",
        "high-volume/cloudformation/clickstream.yaml",
        "ecs-worker/cloudformation/video-transcode.yaml",
        "fifo-commands/cloudformation/device-commands.yaml",
    ]
    .iter()
    .map(|t| common::root().join("examples/generate").join(t).to_string_lossy().into_owned())
    .collect();
    let mut args = vec!["deploy"];
    args.extend(templates.iter().map(String::as_str));
    moto.scenario(&args);
    let (_, stdout, stderr) = audit(&moto.endpoint, &["--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout}{stderr}"));
    assert_eq!(doc["summary"]["files"], 8, "four queues and four DLQs");
    let unexpected: Vec<String> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| !MOTO_GAPS.contains(&f["rule"].as_str().unwrap()))
        .map(|f| format!("{} {}", f["rule"], f["resource"]))
        .collect();
    assert!(unexpected.is_empty(), "the generated pipelines, deployed, should audit clean: {unexpected:#?}");
}

/// moto returns no RedriveAllowPolicy attribute, so the AWS provider waits
/// forever for an `aws_sqs_queue_redrive_allow_policy` to show. Under moto
/// (and only there) an override file gives each such resource `count = 0`;
/// no rule reads the allow policy.
fn moto_overrides(module: &str) -> String {
    let mut out = String::new();
    for line in module.lines() {
        if let Some(rest) = line.strip_prefix("resource \"aws_sqs_queue_redrive_allow_policy\" ") {
            out.push_str(&format!("resource \"aws_sqs_queue_redrive_allow_policy\" {}\n  count = 0\n}}\n", rest));
        }
    }
    out
}

/// The provider pointed at moto: every service the modules use, fake keys,
/// and no call to the real STS or to IMDS.
fn moto_provider(endpoint: &str) -> String {
    let services = ["sqs", "lambda", "cloudwatch", "iam", "sts", "logs", "s3"];
    let endpoints: String = services.iter().map(|s| format!("    {s} = \"{endpoint}\"\n")).collect();
    format!(
        "provider \"aws\" {{\n  region                      = \"us-east-1\"\n  access_key                  = \"test\"\n  \
         secret_key                  = \"test\"\n  skip_credentials_validation = true\n  skip_metadata_api_check     = true\n  \
         skip_requesting_account_id  = true\n  endpoints {{\n{endpoints}  }}\n}}\n"
    )
}

/// `terraform apply` into moto of a root module that calls each of
/// `modules` (a folder of .tf files) as a child module, after the scenario
/// created what they expect to exist (functions, role, code bucket). False,
/// loudly (a failure under CI), where terraform or its offline provider is
/// missing.
fn terraform_apply(moto: &common::Moto, modules: &[PathBuf]) -> bool {
    let skip = |what: &str| {
        common::missing(what);
        false
    };
    if Command::new("terraform").arg("version").output().is_err() {
        return skip("terraform");
    }
    let Some(plugins) = common::terraform_plugin_dir() else { return skip("the offline hashicorp/aws provider") };
    moto.scenario(&["deploy"]);
    let root = tempfile::tempdir().unwrap();
    let mut main = moto_provider(&moto.endpoint);
    for (i, dir) in modules.iter().enumerate() {
        let child = root.path().join(format!("m{i}"));
        std::fs::create_dir(&child).unwrap();
        let mut source = String::new();
        for f in std::fs::read_dir(dir).unwrap().flatten() {
            let text = std::fs::read_to_string(f.path()).unwrap();
            source.push_str(&text);
            std::fs::write(child.join(f.file_name()), text).unwrap();
        }
        std::fs::write(child.join("moto_override.tf"), moto_overrides(&source)).unwrap();
        // A generated module that emits its own function needs its code.
        let code = if source.contains("variable \"code_bucket\"") {
            "  code_bucket = \"artifacts\"\n  code_key    = \"consumer.zip\"\n"
        } else {
            ""
        };
        main.push_str(&format!("\nmodule \"m{i}\" {{\n  source = \"./m{i}\"\n{code}}}\n"));
    }
    std::fs::write(root.path().join("main.tf"), main).unwrap();
    let tf = |args: &[&str]| {
        // The provider polls each queue for about 25 s; a hang is a failure, not a stuck CI.
        let out = Command::new("timeout")
            .arg("600")
            .arg("terraform")
            .args(args)
            .current_dir(root.path())
            .env("TF_CLI_CONFIG_FILE", "/dev/null")
            .env("TF_IN_AUTOMATION", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "terraform {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    tf(&["init", "-backend=false", "-input=false", "-no-color", &format!("-plugin-dir={}", plugins.display())]);
    tf(&["apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"]);
    true
}

#[test]
fn lint_and_audit_give_the_same_rules_for_applied_terraform() {
    let Some(moto) = common::moto() else { return };
    let module = common::root().join("tests/fixtures/audit/legacy-worker-tf");
    if !terraform_apply(&moto, std::slice::from_ref(&module)) {
        return;
    }
    let lint = common::sqsguard(&["lint", "--format", "json", module.to_str().unwrap()]);
    let (_, audit_out, stderr) = audit(&moto.endpoint, &["--format", "json"]);
    let from_file = rules_of(&common::stdout(&lint));
    // Terraform sets queue policies and creates alarms in moto, so nothing is set aside here.
    assert_eq!(rules_of(&audit_out), from_file, "one rule engine, two sources, one answer\n{audit_out}{stderr}");
    assert_eq!(from_file.len(), 10, "{from_file:?}");
}

#[test]
fn generated_terraform_applies_and_audits_clean() {
    let Some(moto) = common::moto() else { return };
    let modules: Vec<PathBuf> = ["mcp-probe", "high-volume", "ecs-worker", "fifo-commands"]
        .iter()
        .map(|e| common::root().join("examples/generate").join(e).join("terraform"))
        .collect();
    if !terraform_apply(&moto, &modules) {
        return;
    }
    let (code, stdout, stderr) = audit(&moto.endpoint, &["--format", "json"]);
    let doc: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout}{stderr}"));
    assert_eq!(doc["summary"]["files"], 8, "four queues and four DLQs");
    assert_eq!(doc["findings"], serde_json::json!([]), "the generated pipelines, applied, should audit clean");
    assert_eq!(code, Some(0));
}

#[test]
fn the_config_declares_payloads_and_severities_for_live_queues() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["fifo"]);
    let rules = |extra: &[&str]| -> Vec<(String, String)> {
        let mut args = vec!["--format", "json"];
        args.extend(extra);
        let (_, stdout, stderr) = audit(&moto.endpoint, &args);
        let doc: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout}{stderr}"));
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| (f["rule"].as_str().unwrap().to_string(), f["severity"].as_str().unwrap().to_string()))
            .collect()
    };
    assert_eq!(rules(&[]), vec![("SQS003".to_string(), "warning".to_string())], "undeclared payload");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("sqsguard.yaml");
    std::fs::write(
        &config,
        "payloads:\n  - queue: \"orders*.fifo\"\n    fields: {orderId: string, sentAt: timestamp}\n",
    )
    .unwrap();
    assert_eq!(rules(&["--config", config.to_str().unwrap()]), vec![("SQS003".to_string(), "error".to_string())]);
    std::fs::write(&config, "severity: {SQS003: info}\npayloads:\n  - queue: \"other-*\"\n    deterministic: true\n")
        .unwrap();
    assert_eq!(rules(&["--config", config.to_str().unwrap()]), vec![("SQS003".to_string(), "info".to_string())]);
}

/// The progress line shows only once a run has taken two seconds: here
/// each request is held 40 ms and one is in flight at a time, so reading
/// 60 queues takes longer than that whatever the machine.
#[test]
fn a_terminal_sees_one_progress_line_and_a_pipe_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let Some(moto) = common::moto_counting_in_flight(&dir.path().join("in-flight")) else { return };
    moto.scenario(&["load", "60"]);
    let (_, _, stderr) = audit(&moto.endpoint, &["--concurrency", "1"]);
    assert!(!stderr.contains("audited "), "piped: {stderr}");
    // script(1) runs it under a terminal, standard error and output both.
    let command = format!(
        "{} audit --region us-east-1 --endpoint-url {} --concurrency 1 --format concise --fail-on never",
        env!("CARGO_BIN_EXE_sqsguard"),
        moto.endpoint
    );
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    // One line redrawn in place: each update starts with a carriage
    // return, none ends a line, and the last clears it before the report.
    let (progress, report) = text.rsplit_once("\r\x1b[2K").unwrap_or_else(|| panic!("never cleared: {text:?}"));
    assert!(progress.starts_with("\raudited 0/1 account-Regions, 0 findings, "), "{progress:?}");
    assert!(!progress.contains('\n'), "{progress:?}");
    assert!(
        progress.split('\r').skip(1).all(|l| l.starts_with("audited ") && l.ends_with(" API calls")),
        "{progress:?}"
    );
    assert!(progress.ends_with(" API calls") && progress.contains("\raudited 1/1 account-Regions, "), "{progress:?}");
    assert!(report.contains("sqsguard: "), "the report follows: {text}");
}
