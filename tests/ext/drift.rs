//! `sqsguard drift` against moto: a generated stack deployed through
//! moto's CloudFormation, changed behind its template with boto3 (as a
//! console or a script would), then compared. Every change is an SQS105 at
//! the template's line with both values, what is on one side only is a
//! note, and nothing else is said about the template. Needs `--features
//! audit` and moto (tests/run.sh installs it).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing
#![cfg(feature = "audit")]

use crate::common;
use crate::common::faults;

use std::process::Command;

use serde_json::Value;

const PIPELINE: &str = "examples/generate/mcp-probe/cloudformation/mcp-probe-results.yaml";
const NEVER_DEPLOYED: &str = "tests/fixtures/drift/never-deployed.yaml";
const GENERATED: &str = "tests/fixtures/drift/generated.yaml";
const STACKED: &str = "tests/fixtures/drift/stacked.yaml";

fn python(script: &str, args: &[&str]) {
    let out = Command::new(common::venv_tool("python").unwrap())
        .arg(common::root().join(script))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
}

fn deploy(moto: &common::Moto, templates: &[&str]) {
    let paths: Vec<String> = templates.iter().map(|t| common::root().join(t).to_string_lossy().into_owned()).collect();
    let mut args = vec![moto.endpoint.as_str(), "deploy"];
    args.extend(paths.iter().map(String::as_str));
    python("tests/fixtures/audit/scenario.py", &args);
}

/// `sqsguard drift` on moto's us-east-1, with test credentials.
fn drift_command(moto: &common::Moto) -> Command {
    drift_at(&moto.endpoint)
}

/// `sqsguard drift` through `endpoint` (moto, or a fault proxy before it).
fn drift_at(endpoint: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sqsguard"));
    command
        .current_dir(common::root())
        .args(["drift", "--region", "us-east-1", "--endpoint-url", endpoint])
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE");
    command
}

fn drift(moto: &common::Moto, extra: &[&str]) -> (Option<i32>, Value) {
    let out = drift_command(moto).args(["--format", "json"]).args(extra).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc =
        serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stdout}{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), doc)
}

/// The SQS105 findings: (file, line, message).
fn drifts(doc: &Value) -> Vec<(String, u64, String)> {
    let mut out: Vec<_> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "SQS105")
        .map(|f| {
            assert_eq!(f["severity"], "warning");
            (
                f["file"].as_str().unwrap().to_string(),
                f["line"].as_u64().unwrap(),
                f["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn notes(doc: &Value) -> Vec<String> {
    // No notes, no key.
    let mut out: Vec<String> =
        doc["notes"].as_array().into_iter().flatten().map(|n| n["message"].as_str().unwrap().to_string()).collect();
    out.sort();
    out
}

#[test]
fn every_change_behind_the_template_is_found_at_its_line_and_nothing_else() {
    let Some(moto) = common::moto() else { return };
    deploy(&moto, &[PIPELINE]);
    // Deployed as written: nothing differs.
    let (_, doc) = drift(&moto, &[PIPELINE]);
    assert_eq!(drifts(&doc), vec![], "{doc:#}");
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "pipeline"]);
    let (code, doc) = drift(&moto, &[PIPELINE, NEVER_DEPLOYED]);
    assert_eq!(code, Some(1));
    let queue = format!("{}/123456789012/mcp-probe-results.fifo", moto.endpoint);
    let found = drifts(&doc);
    // Named as the audit names them: the queue by its name, the mapping
    // by its function and queue (the URL and UUID are in JSON's resource).
    let (queue_name, mapping) = ("mcp-probe-results.fifo", "probe-processor on mcp-probe-results.fifo");
    let at = |line: u64, message: String| (PIPELINE.to_string(), line, message);
    assert_eq!(
        found,
        vec![
            at(25, format!("VisibilityTimeout of Queue is 90 in the template but 30 on the live queue {queue_name}")),
            at(32, format!("maxReceiveCount of Queue is 5 in the template but 2 on the live queue {queue_name}")),
            // Enabled is left to its default (true): the mapping's key.
            at(
                117,
                format!(
                    "Enabled of EventSourceMapping is not set in the template (so true) but false on the live mapping {mapping}"
                )
            ),
            at(
                122,
                format!("BatchSize of EventSourceMapping is 10 in the template but 5 on the live mapping {mapping}")
            ),
        ],
        "{doc:#}"
    );
    assert_eq!(
        notes(&doc),
        vec![
            "live queue stray is in no template given: no template queue has its name".to_string(),
            "queue Reports of the template is missing live: no queue of the account has its name".to_string(),
        ]
    );
    // The rules also ran on the live values: the template's 90 s is right
    // for a 15 s function, the live 30 s is not (SQS001), nor is 2 (SQS008).
    let live: Vec<(&str, &str)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] != "SQS105")
        .map(|f| (f["rule"].as_str().unwrap(), f["resource"].as_str().unwrap()))
        .collect();
    for rule in ["SQS001", "SQS008"] {
        assert!(live.contains(&(rule, queue.as_str())), "{rule} on the live queue: {live:?}");
    }
    assert!(live.iter().all(|(_, r)| r.starts_with(&moto.endpoint) || r.contains(":lambda:") || !r.contains('/')));
}

#[test]
fn a_generated_name_is_joined_through_the_stack_it_was_deployed_as() {
    let Some(moto) = common::moto() else { return };
    // The same template as stack0 and stack1: STACK-Inbox-RANDOM twice.
    deploy(&moto, &[GENERATED, GENERATED]);
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "generated"]);
    // Without --stack the name fits both: a note, no guess.
    let (_, doc) = drift(&moto, &[GENERATED]);
    assert_eq!(drifts(&doc), vec![]);
    let ambiguous: Vec<String> = notes(&doc).into_iter().filter(|n| n.starts_with("queue Inbox")).collect();
    assert_eq!(ambiguous.len(), 1, "{doc:#}");
    assert!(ambiguous[0].contains("fits 2 live queues") && ambiguous[0].contains("--stack"), "{}", ambiguous[0]);
    // With --stack stack1: its queue, changed to 50.
    let (_, doc) = drift(&moto, &[GENERATED, "--stack", "stack1"]);
    let found = drifts(&doc);
    assert_eq!(found.len(), 1, "{doc:#}");
    let (file, line, message) = &found[0];
    assert_eq!((file.as_str(), *line), (GENERATED, 7));
    assert!(
        message.starts_with("VisibilityTimeout of Inbox is 45 in the template but 50 on the live queue "),
        "{message}"
    );
    assert!(message.contains("live queue stack1-Inbox-"), "{message}");
    // stack0's queue is in no template given under that stack.
    assert!(
        notes(&doc).iter().any(|n| n.starts_with("live queue stack0-Inbox-") && n.contains("in no template given")),
        "{doc:#}"
    );
}

#[test]
fn a_function_timeout_raised_behind_the_template_is_found_and_the_live_rules_see_it() {
    let Some(moto) = common::moto() else { return };
    let template = "examples/cloudformation/legacy-worker.yaml";
    deploy(&moto, &[template]);
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "function"]);
    let (code, doc) = drift(&moto, &[template, "--stack", "stack0"]);
    assert_eq!(code, Some(1));
    let found = drifts(&doc);
    assert_eq!(found.len(), 1, "{doc:#}");
    let (file, line, message) = &found[0];
    assert_eq!((file.as_str(), *line), (template, 32));
    assert!(
        message.starts_with(
            "Timeout of ResizeWorker is 60 in the template but 120 on the live function stack0-ResizeWorker-"
        ),
        "{message}"
    );
    // The live queue's 30 s is now below the live function's 120 s: SQS002.
    let live: Vec<(&str, &str)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["resource"].as_str().unwrap()))
        .collect();
    assert!(live.iter().any(|(r, q)| *r == "SQS002" && q.contains("/stack0-ResizeJobs-")), "{live:?}");
}

#[test]
fn a_terraform_name_prefix_joins_the_one_live_queue_it_starts() {
    let Some(moto) = common::moto() else { return };
    let module = "tests/fixtures/drift/prefixed";
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "prefixed", "1"]);
    let (_, doc) = drift(&moto, &[module]);
    let queue = "jobs-20241204210000000000000001";
    assert_eq!(
        drifts(&doc),
        vec![(
            format!("{module}/main.tf"),
            5,
            format!(
                "visibility_timeout_seconds of aws_sqs_queue.jobs is 60 in the template but 30 on the live queue {queue}"
            )
        )],
        "{doc:#}"
    );
    assert!(!notes(&doc).iter().any(|n| n.contains("aws_sqs_queue.jobs")), "{doc:#}");
    // Two queues start with it: which one Terraform made is in its state,
    // not in a file, so a note names both and nothing is compared.
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "prefixed", "2"]);
    let (_, doc) = drift(&moto, &[module]);
    assert_eq!(drifts(&doc), vec![], "{doc:#}");
    assert!(
        notes(&doc).contains(
            &"queue aws_sqs_queue.jobs is not compared with the live account: 2 live queues start with its name_prefix jobs- (jobs-20241204210000000000000001, jobs-20241204210000000000000002), and no file says which one Terraform created".to_string()
        ),
        "{doc:#}"
    );
}

#[test]
fn a_stack_joins_by_its_physical_ids_where_names_do_not_say() {
    let Some(moto) = common::moto() else { return };
    // Deployed as app and app-Jobs: app's queue app-Jobs-RANDOM and
    // app-Jobs's app-Jobs-Jobs-RANDOM both fit app's generated name, and the
    // functions are named app-worker and app-auditor, not by logical ID.
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "stacked", STACKED]);
    let (code, doc) = drift(&moto, &[STACKED, "--stack", "app"]);
    assert_eq!(code, Some(1));
    let found = drifts(&doc);
    assert_eq!(found.len(), 2, "{doc:#}");
    // The function by its physical ID (its name).
    assert_eq!(
        found[0],
        (
            STACKED.to_string(),
            20,
            "Timeout of Worker is 20 in the template but 25 on the live function app-worker".into()
        )
    );
    // The mapping by its physical ID (its UUID), named by function and queue.
    let (file, line, message) = &found[1];
    assert_eq!((file.as_str(), *line), (STACKED, 40));
    assert!(
        message.starts_with(
            "BatchSize of WorkerMapping is 10 in the template but 7 on the live mapping app-worker on app-Jobs-"
        ) && !message.contains("app-Jobs-Jobs-"),
        "{message}"
    );
    // app's queue joined (VisibilityTimeout 180 on both: no finding); the
    // other stack's queue is live and in no template given under --stack app.
    let said = notes(&doc);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("live queue app-Jobs-Jobs-")
            && said[0].ends_with("is in no template given: no template queue has its name"),
        "{said:?}"
    );
}

#[test]
fn a_stack_resource_the_template_lacks_and_a_template_resource_the_stack_lacks_are_notes() {
    let Some(moto) = common::moto() else { return };
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "stacked", STACKED]);
    // The template as it is now: Auditor and its mapping removed, a Retry
    // queue added, neither deployed yet.
    let partial = "tests/fixtures/drift/stacked-partial.yaml";
    let (_, doc) = drift(&moto, &[partial, "--stack", "app"]);
    let said = notes(&doc);
    assert_eq!(said.len(), 4, "{said:?}");
    assert_eq!(
        said[0],
        "function Auditor of stack app (app-auditor) is in no template given: no template resource has its logical ID"
    );
    assert!(
        said[1].starts_with("live queue app-Jobs-Jobs-")
            && said[1].ends_with(" is in no template given: no template queue has its name"),
        "{said:?}"
    );
    // The mapping named as the audit names it: its function on its queue.
    let (head, tail) = said[2].split_once(" on app-Jobs-").expect("a named mapping");
    assert_eq!(head, "mapping AuditorMapping of stack app (app-auditor", "{said:?}");
    assert!(
        !tail.starts_with("Jobs-")
            && tail.ends_with(") is in no template given: no template resource has its logical ID"),
        "{said:?}"
    );
    assert_eq!(said[3], "queue Retry of the template is not in the stack named by --stack: not compared");
    // What is in both is compared as before.
    assert_eq!(drifts(&doc).len(), 2, "{doc:#}");
}

#[test]
fn a_stack_that_does_not_exist_stops_the_run_with_one_line_naming_it() {
    let Some(moto) = common::moto() else { return };
    let out = drift_command(&moto).args([GENERATED, "--stack", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "sqsguard: stack nope: CloudFormation ListStackResources in us-east-1 failed (ValidationError: Stack with id nope does not exist)\n"
    );
}

/// A live read that failed is "could not read" with why, never "missing
/// live", and SQS105 is named blind with the read: the changed queue whose
/// attributes came back as `200 {}`, then the changed mapping whose listing
/// was refused, give no SQS105 and no "missing live".
#[test]
fn a_failed_live_read_is_could_not_read_and_blinds_sqs105() {
    let Some(moto) = common::moto() else { return };
    deploy(&moto, &[PIPELINE]);
    python("tests/fixtures/drift/change.py", &[&moto.endpoint, "pipeline"]);
    let through = |rule: faults::Rule| {
        let proxy = faults::start(&moto.endpoint, vec![rule]);
        let out = drift_at(&proxy.endpoint).args(["--format", "json", PIPELINE]).output().unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(proxy.faults() > 0, "no request got the fault");
        (out.status.code(), doc)
    };
    let blind = |doc: &Value, api: &str| {
        let gaps = doc["summary"]["unaudited"].as_array().cloned().unwrap_or_default();
        gaps.iter().any(|g| {
            g["apis"].as_array().is_some_and(|a| a.iter().any(|x| x == api))
                && g["rules"].as_array().is_some_and(|r| r.iter().any(|x| x == "SQS105"))
        })
    };
    let (fifo, times) = (faults::Fault::Answer(200, "{}"), faults::Times::Always);
    let queue = faults::Rule {
        only: Some("mcp-probe-results.fifo\"".into()),
        ..faults::Rule::new(Some("GetQueueAttributes"), fifo, times)
    };
    let (code, doc) = through(queue);
    assert_eq!(code, Some(1), "{doc:#}");
    let said = notes(&doc);
    assert!(
        said.iter().any(|n| n.starts_with(
            "queue Queue of the template is not compared: could not read the live queue (GetQueueAttributes "
        ) && n.contains("answered without the queue's attributes")),
        "{said:#?}"
    );
    assert!(!said.iter().any(|n| n.contains("missing live")), "{said:#?}");
    assert!(blind(&doc, "GetQueueAttributes"), "{doc:#}");
    assert!(drifts(&doc).iter().all(|(_, _, m)| !m.contains("of Queue ")), "{doc:#}");

    let mappings = faults::Rule::new(Some("ListEventSourceMappings"), faults::Fault::Answer(403, "{}"), times);
    let (code, doc) = through(mappings);
    assert_eq!(code, Some(1), "{doc:#}");
    let said = notes(&doc);
    assert!(
        said.contains(&"mapping EventSourceMapping of the template is not compared: could not read the live mappings (ListEventSourceMappings: HTTP 403 (AccessDenied))".to_string()),
        "{said:#?}"
    );
    assert!(!said.iter().any(|n| n.contains("missing live")), "{said:#?}");
    assert!(blind(&doc, "ListEventSourceMappings"), "{doc:#}");
    // The queue was read: its changes are found; the mapping's are not guessed.
    let found = drifts(&doc);
    assert!(found.iter().any(|(_, _, m)| m.starts_with("VisibilityTimeout of Queue ")), "{found:#?}");
    assert!(found.iter().all(|(_, _, m)| !m.contains("of EventSourceMapping ")), "{found:#?}");
}
