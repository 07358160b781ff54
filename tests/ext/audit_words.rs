//! What the audit says, read as a newcomer reads it: queues and consumers
//! by name (the identifiers only in JSON's `resource`), each message once,
//! the summary in queues and account-Regions, a Region where nothing was
//! found, and one line naming what was tried when AWS cannot be used at
//! all. Against moto, as tests/ext/audit.rs; needs `--features audit`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing
#![cfg(feature = "audit")]

use crate::common;

use std::process::Command;

use serde_json::Value;

/// `sqsguard audit ARGS` with test credentials and nothing else of the
/// environment's AWS settings: (exit status, stdout, stderr).
fn audit(args: &[&str], credentials: bool) -> (Option<i32>, String, String) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sqsguard"));
    cmd.arg("audit")
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("AWS_EC2_METADATA_DISABLED", "true");
    if credentials {
        cmd.env("AWS_ACCESS_KEY_ID", "test").env("AWS_SECRET_ACCESS_KEY", "test");
    }
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn live_findings_name_queues_and_consumers_once() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["problems"]);
    let at = ["--region", "us-east-1", "--endpoint-url", moto.endpoint.as_str()];
    let (code, concise, stderr) = audit(&[&at[..], &["--format", "concise"]].concat(), true);
    assert_eq!(code, Some(1), "{stderr}");
    // Account and Region where lint puts the file; no URL, UUID or ARN.
    assert_eq!(concise, include_str!("../fixtures/audit/words.concise.txt"));
    let (_, json, _) = audit(&[&at[..], &["--format", "json"]].concat(), true);
    let doc: Value = serde_json::from_str(&json).unwrap();
    // The identifiers stay in `resource`, where programs read them.
    for f in doc["findings"].as_array().unwrap() {
        let resource = f["resource"].as_str().unwrap();
        assert!(resource.starts_with("http://") || resource.len() == 36, "{resource}");
        assert!(!f["message"].as_str().unwrap().contains("http://"), "{f}");
    }
    assert_eq!(doc["summary"]["account_regions"], 1);
    // Fixes say what to do to a live queue, not what to write in a template.
    let fix_of = |code: &str| {
        let f = doc["findings"].as_array().unwrap().iter().find(|f| f["rule"] == code).unwrap();
        f["fix"].as_str().unwrap().to_string()
    };
    assert_eq!(
        fix_of("SQS004"),
        "set the queue's RedrivePolicy to {\"deadLetterTargetArn\": \"<the ARN of a queue of the same type>\", \"maxReceiveCount\": \"5\"} (aws sqs set-queue-attributes)"
    );
    assert!(fix_of("SQS015").starts_with("create a CloudWatch alarm on AWS/SQS ApproximateNumberOfMessagesVisible > 0 for queue jobs-dlq (aws cloudwatch put-metric-alarm "));
    assert!(fix_of("SQS016").starts_with(
        "set SqsManagedSseEnabled to true or set KmsMasterKeyId (aws sqs set-queue-attributes --queue-url "
    ));

    let (_, pretty, _) = audit(&[&at[..], &["--format", "pretty"]].concat(), true);
    // A message that names its queue says it once; one that does not
    // (the code frame names it in lint) is followed by the queue's name.
    let blocks = [
        "SQS002 visibility-timeout-below-function-timeout (error)\n\n  \u{d7} VisibilityTimeout 30 s < 60 s timeout of function jobs-worker (consumer jobs-worker on jobs):\n  \u{2502} Lambda rejects the mapping with \"Queue visibility timeout: 30 seconds is less than Function\n  \u{2502} timeout: 60 seconds\"\n",
        "SQS008 max-receive-count-low (warning)\n\n  \u{26a0} maxReceiveCount 1 < 3: a transient error, a throttled or cold-starting consumer sends the\n  \u{2502} message to the dead-letter queue (jobs)\n  help: set maxReceiveCount to at least 3 (5 is common) in the queue's RedrivePolicy, keeping its\n",
        // A live finding's fix says what to do to the live queue.
        "  help: create a CloudWatch alarm on AWS/SQS ApproximateNumberOfMessagesVisible > 0 for queue\n        jobs-dlq (aws cloudwatch put-metric-alarm --alarm-name jobs-dlq-not-empty",
    ];
    for block in blocks {
        assert_eq!(pretty.matches(block).count(), 1, "{block}\n{pretty}");
    }
    assert!(!pretty.contains("AWS::CloudWatch::Alarm"), "{pretty}");
    // Identifiers only where a command needs them: in the help (the
    // fix's `aws` commands), never in what is said.
    let mut in_help = false;
    for line in pretty.lines() {
        in_help = line.starts_with("  help: ") || (in_help && line.starts_with("        "));
        assert!(in_help || !line.contains(moto.endpoint.as_str()), "{line}\n{pretty}");
    }
    assert!(pretty.contains(&format!("--queue-url {}/123456789012/backlog ", moto.endpoint)), "{pretty}");
    // Wrapped at spaces only: a UUID or command in a fix is never split at
    // one of its hyphens.
    let split = |l: &str| l.strip_suffix('-').is_some_and(|l| l.ends_with(|c: char| c.is_ascii_alphanumeric()));
    assert!(!pretty.lines().any(split), "{pretty}");
    assert!(
        pretty.ends_with(
            "sqsguard: 3 errors, 9 warnings, 0 infos in 5 queues in 1 account-Region (0 skipped, 16 API calls)\n"
        ),
        "{pretty}"
    );
}

#[test]
fn a_region_with_no_queue_is_a_note_and_require_queues_fails_it() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["problems"]);
    let at = ["--region", "us-east-1", "--region", "eu-west-3", "--endpoint-url", moto.endpoint.as_str()];
    let (code, out, stderr) = audit(&[&at[..], &["--format", "concise", "--fail-on", "never"]].concat(), true);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        out.contains("note: eu-west-3: no queues found: a wrong or misspelt Region looks like this (--require-queues makes a run that finds none fail)\n"),
        "{out}"
    );
    assert!(out.contains(" in 5 queues in 2 account-Regions ("), "{out}");
    // Queues elsewhere: the run has some, so --require-queues passes.
    let (code, _, stderr) = audit(&[&at[..], &["--fail-on", "never", "--require-queues"]].concat(), true);
    assert_eq!(code, Some(0), "{stderr}");
    // None anywhere: exit 0 without the option, 1 with it, and said.
    let empty = ["--region", "eu-west-3", "--endpoint-url", moto.endpoint.as_str()];
    let (code, out, stderr) = audit(&empty, true);
    assert_eq!(code, Some(0), "{out}{stderr}");
    assert!(
        out.contains("sqsguard: 0 errors, 0 warnings, 0 infos in 0 queues in 1 account-Region (0 skipped, "),
        "{out}"
    );
    let (code, _, stderr) = audit(&[&empty[..], &["--require-queues"]].concat(), true);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stderr, "sqsguard: no queues found, and --require-queues asks for at least one\n");
    // Shards merged: the whole must have a queue, not each shard.
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for (i, region) in ["us-east-1", "eu-west-3"].iter().enumerate() {
        let at = ["--region", "us-east-1", "--region", "eu-west-3", "--endpoint-url", moto.endpoint.as_str()];
        let shard = format!("{}/2", i + 1);
        let (_, json, stderr) = audit(&[&at[..], &["--shard", &shard, "--format", "json"]].concat(), true);
        let doc: Value = serde_json::from_str(&json).unwrap_or_else(|_| panic!("{stderr}"));
        let file = dir.path().join(format!("{region}.json"));
        std::fs::write(&file, json).unwrap();
        files.push((file, doc["summary"]["files"].as_u64().unwrap()));
    }
    let merge = |paths: &[&std::path::Path]| {
        let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .args(["report", "merge", "--fail-on", "never", "--require-queues"])
            .args(paths)
            .output()
            .unwrap();
        out.status.code()
    };
    let empty_shard = files.iter().find(|(_, n)| *n == 0).map(|(f, _)| f.as_path()).unwrap();
    let full_shard = files.iter().find(|(_, n)| *n > 0).map(|(f, _)| f.as_path()).unwrap();
    assert_eq!(merge(&[empty_shard, full_shard]), Some(0));
    let (_, json, _) = audit(&[&empty[..], &["--format", "json"]].concat(), true);
    let none = dir.path().join("none.json");
    std::fs::write(&none, json).unwrap();
    assert_eq!(merge(&[&none]), Some(1));
}

#[test]
fn no_endpoint_and_no_credentials_are_one_line_naming_what_was_tried() {
    let (code, out, stderr) = audit(&["--region", "us-east-1", "--endpoint-url", "http://127.0.0.1:9"], true);
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(stderr, "sqsguard: cannot reach the SQS endpoint http://127.0.0.1:9 (connection refused)\n");
    let (code, out, stderr) = audit(&["--region", "us-east-1", "--endpoint-url", "http://127.0.0.1:9"], false);
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(
        stderr,
        "sqsguard: no AWS credentials found (tried: environment, profile default, web identity token, container credentials); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass --profile\n"
    );
    let (_, _, stderr) =
        audit(&["--region", "us-east-1", "--endpoint-url", "http://127.0.0.1:9", "--profile", "ops"], false);
    assert!(stderr.contains("(tried: environment, profile ops, "), "{stderr}");
}

#[test]
fn annotations_junit_and_sarif_name_queues_and_consumers() {
    let Some(moto) = common::moto() else { return };
    moto.scenario(&["problems"]);
    let at = ["--region", "us-east-1", "--endpoint-url", moto.endpoint.as_str()];
    let run = |format: &str| audit(&[&at[..], &["--format", format]].concat(), true).1;
    let doc: Value = serde_json::from_str(&run("json")).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    let uuids: Vec<&str> = findings.iter().map(|f| f["resource"].as_str().unwrap()).filter(|r| r.len() == 36).collect();
    assert!(!uuids.is_empty());
    // Outside a fix (whose command needs them), no URL and no UUID.
    let identifiers = |text: &str| text.contains(moto.endpoint.as_str()) || uuids.iter().any(|u| text.contains(u));

    let github = run("github");
    let annotations: Vec<&str> = github.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), findings.len(), "{github}");
    for a in &annotations {
        let (said, _fix) = a.split_once("%0Afix: ").unwrap();
        assert!(!identifiers(said), "{a}");
        assert!(said.contains("::123456789012/us-east-1: "), "{a}");
    }
    assert!(github.contains("::warning title=SQS005 missing-batch-item-failures::123456789012/us-east-1: consumer jobs-worker on jobs reads batches of 50 "), "{github}");
    // A message that does not name its queue is followed by its name.
    assert!(github.contains(" sends the message to the dead-letter queue (jobs)%0Afix: "), "{github}");

    let junit = run("junit");
    let said: Vec<&str> = junit.lines().filter(|l| !l.starts_with("fix: ")).collect();
    assert!(!identifiers(&said.join("\n")), "{junit}");
    assert!(
        junit.contains("<testcase name=\"SQS005 jobs-worker on jobs\" classname=\"missing-batch-item-failures\">"),
        "{junit}"
    );
    assert!(junit.contains("<testcase name=\"SQS004 backlog\" classname=\"missing-dlq\">"), "{junit}");
    assert!(junit.contains(">123456789012/us-east-1 backlog: SQS004 (missing-dlq)\n"), "{junit}");

    let sarif: Value = serde_json::from_str(&run("sarif")).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    let mut named = Vec::new();
    for (r, f) in results.iter().zip(findings) {
        let text = r["message"]["text"].as_str().unwrap();
        assert!(!identifiers(text.split("\nfix: ").next().unwrap()), "{text}");
        // The name where code scanning shows a place; the identifier beside it.
        let logical = &r["locations"][0]["logicalLocations"][0];
        assert_eq!(logical["fullyQualifiedName"], f["resource"]);
        named.push(format!("{} {}", r["ruleId"].as_str().unwrap(), logical["name"].as_str().unwrap()));
    }
    assert!(named.contains(&"SQS011 jobs-worker on jobs".to_string()), "{named:?}");
    assert!(named.contains(&"SQS101 jobs-dlq".to_string()), "{named:?}");

    // JSON keeps the name beside the identifier, so a merged report (of
    // shards) names things as the audit did.
    let sqs005 = findings.iter().find(|f| f["rule"] == "SQS005").unwrap();
    assert_eq!(sqs005["resource_name"], "jobs-worker on jobs");
    let dir = tempfile::tempdir().unwrap();
    let shard = dir.path().join("shard.json");
    std::fs::write(&shard, run("json")).unwrap();
    let merged = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["report", "merge", "--format", "github"])
        .arg(&shard)
        .output()
        .unwrap();
    let merged = String::from_utf8_lossy(&merged.stdout);
    let annotations: Vec<&str> = merged.lines().filter(|l| l.starts_with("::")).collect();
    assert_eq!(annotations.len(), findings.len(), "{merged}");
    for a in &annotations {
        assert!(!identifiers(a.split_once("%0Afix: ").unwrap().0), "{a}");
    }
}

/// Words of a template, which a live queue, mapping or function has none of.
const TEMPLATE_WORDS: &[&str] = &[
    "CloudFormation",
    "Terraform",
    "template",
    "AWS::",
    "aws_",
    "jsonencode",
    "Properties",
    "Metadata",
    "module",
    "Types: [",
];

#[test]
fn live_fixes_say_what_to_run_not_what_to_write() {
    let Some(moto) = common::moto() else { return };
    for what in ["problems", "fifo", "producers"] {
        moto.scenario(&[what]);
    }
    let at = ["--region", "us-east-1", "--endpoint-url", moto.endpoint.as_str(), "--format", "json"];
    let (_, json, stderr) = audit(&at, true);
    let doc: Value = serde_json::from_str(&json).unwrap_or_else(|_| panic!("{stderr}"));
    let findings = doc["findings"].as_array().unwrap();
    let mut rules: Vec<&str> = findings.iter().map(|f| f["rule"].as_str().unwrap()).collect();
    rules.dedup();
    rules.sort_unstable();
    rules.dedup();
    // What the scenarios set up for the live rules to read.
    assert_eq!(
        rules,
        [
            "SQS001", "SQS002", "SQS003", "SQS004", "SQS005", "SQS006", "SQS007", "SQS008", "SQS011", "SQS015",
            "SQS016", "SQS019", "SQS020", "SQS021", "SQS022", "SQS101", "SQS102", "SQS103"
        ]
    );
    for f in findings {
        // What is said names queues, topics, rules and keys; a URL or an
        // ARN is for a command to use.
        let message = f["message"].as_str().unwrap();
        assert!(!message.contains(moto.endpoint.as_str()) && !message.contains("arn:aws:"), "{f}");
        let fix = f["fix"].as_str().unwrap();
        for word in TEMPLATE_WORDS {
            assert!(!fix.contains(word), "{word}: {f}");
        }
    }
    // The call, with the identifier it needs, for each setting to change.
    let fix = |code: &str, name: &str| {
        let f = findings.iter().find(|f| f["rule"] == code && f["message"].as_str().unwrap().contains(name)).unwrap();
        (f["fix"].as_str().unwrap().to_string(), f["resource"].as_str().unwrap().to_string())
    };
    let (sqs005, uuid) = fix("SQS005", "jobs-worker on jobs");
    assert_eq!(
        sqs005,
        format!(
            "make the function return {{\"batchItemFailures\": [{{\"itemIdentifier\": messageId}}]}} for the failed messages only, then set FunctionResponseTypes to [ReportBatchItemFailures] on the mapping (aws lambda update-event-source-mapping --uuid {uuid} --function-response-types ReportBatchItemFailures)"
        )
    );
    let (sqs011, uuid) = fix("SQS011", "jobs-worker on jobs");
    assert_eq!(
        sqs011,
        format!(
            "add 1 s or more to the queue's VisibilityTimeout, then set MaximumBatchingWindowInSeconds to it (aws lambda update-event-source-mapping --uuid {uuid} --maximum-batching-window-in-seconds 1); or lower BatchSize to 10 (aws lambda update-event-source-mapping --uuid {uuid} --batch-size 10)"
        )
    );
    let (sqs002, url) = fix("SQS002", "jobs-worker");
    assert!(
        sqs002.ends_with(&format!(
            " (aws sqs set-queue-attributes --queue-url {url} --attributes VisibilityTimeout=360)"
        )),
        "{sqs002}"
    );
    let (sqs022, uuid) = fix("SQS022", "work-worker on work");
    assert!(
        sqs022.ends_with(&format!(
            "(aws lambda update-event-source-mapping --uuid {uuid} --scaling-config MaximumConcurrency=5)"
        )),
        "{sqs022}"
    );
    let (sqs021, url) = fix("SQS021", "no ContentBasedDeduplication");
    assert!(
        sqs021.ends_with(&format!(
            "(aws sqs set-queue-attributes --queue-url {url} --attributes ContentBasedDeduplication=true)"
        )),
        "{sqs021}"
    );
}
