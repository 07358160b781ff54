//! The live audit under faults: a proxy (tests/common/faults.rs) between
//! the audit and moto throttles, fails, resets or delays the requests a
//! schedule names. An audit never looks clean when it was not: a call left
//! unanswered fails the run and names the account-Region; faults add no
//! finding; faults the retries outlast change nothing. Also the scope of
//! `--queue-prefix`. Needs `--features audit` and moto.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing
#![cfg(feature = "audit")]

use crate::common;
use crate::common::faults;

use std::collections::BTreeSet;
use std::process::Command;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use faults::{Fault, Rule, Times};
use serde_json::Value;

fn python(moto: &common::Moto, script: &str, args: &[&str]) -> String {
    let out =
        Command::new(common::venv_tool("python").unwrap()).arg(script).arg(&moto.endpoint).args(args).output().unwrap();
    assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn scenario(moto: &common::Moto, args: &[&str]) {
    let script = common::root().join("tests/fixtures/audit/scenario.py");
    python(moto, script.to_str().unwrap(), args);
}

/// One audit run, as the JSON report and the exit status.
struct Run {
    code: Option<i32>,
    doc: Value,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Run {
    /// (rule, resource) of every finding.
    fn findings(&self) -> BTreeSet<(String, String)> {
        self.doc["findings"]
            .as_array()
            .map(|fs| {
                fs.iter()
                    .map(|f| (f["rule"].as_str().unwrap().to_string(), f["resource"].as_str().unwrap().to_string()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn unaudited(&self) -> Vec<Value> {
        self.doc["summary"]["unaudited"].as_array().cloned().unwrap_or_default()
    }

    /// The report but for the calls counted (a retry is a call).
    fn result(&self) -> Value {
        let mut doc = self.doc.clone();
        if let Some(summary) = doc["summary"].as_object_mut() {
            summary.remove("api_calls");
        }
        doc
    }

    /// The exit status, the findings and summary, and standard error.
    fn said(&self) -> String {
        let summary = serde_json::to_string(&self.doc["summary"]).unwrap_or_default();
        format!("exit {:?}, findings {:?}\nsummary {summary}\n{}", self.code, self.findings(), self.stderr)
    }
}

/// At most this many audits at once in this file, whichever tests run
/// them: they share one moto, a single Python process, and with six ext
/// tests at a time and eight audits a test its plain answers once took
/// longer than an attempt may under [`PERMANENT_BUDGET`], failing calls no
/// fault touched.
const AUDITS_AT_ONCE: usize = 8;

/// A turn to audit, given back when dropped.
struct Turn;

static TURNS: (Mutex<usize>, std::sync::Condvar) = (Mutex::new(0), std::sync::Condvar::new());

impl Turn {
    fn wait() -> Turn {
        let (running, freed) = &TURNS;
        let mut running = freed
            .wait_while(running.lock().unwrap_or_else(|e| e.into_inner()), |n| *n >= AUDITS_AT_ONCE)
            .unwrap_or_else(|e| e.into_inner());
        *running += 1;
        Turn
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        let (running, freed) = &TURNS;
        *running.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        freed.notify_one();
    }
}

fn audit(endpoint: &str, extra: &[&str]) -> Run {
    let _turn = Turn::wait();
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["audit", "--region", "us-east-1", "--endpoint-url", endpoint, "--format", "json"])
        .args(extra)
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_ENDPOINT_URL")
        .output()
        .unwrap();
    // Queue URLs name the host they were asked through: one name for all.
    let stdout = String::from_utf8_lossy(&out.stdout).replace(endpoint, "http://moto");
    Run {
        code: out.status.code(),
        doc: serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        took: started.elapsed(),
    }
}

/// moto with the "problems", "fifo" and "producers" scenes: every operation
/// the audit sends has something to read (ListQueueTags, the producers'
/// listings and the customer managed keys included). The tests that
/// only read it share one while they run (the scenes take seconds to
/// build); it stops when the last of them drops it.
fn problems() -> Option<Arc<common::Moto>> {
    static SHARED: Mutex<Weak<common::Moto>> = Mutex::new(Weak::new());
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(moto) = shared.upgrade() {
        return Some(moto);
    }
    let moto = Arc::new(common::moto()?);
    scenario(&moto, &["problems"]);
    scenario(&moto, &["fifo"]);
    scenario(&moto, &["producers"]);
    *shared = Arc::downgrade(&moto);
    Some(moto)
}

/// What the audit reads, every one of them faulted in turn below.
const OPERATIONS: &[&str] = &[
    "ListQueues",
    "GetQueueAttributes",
    "ListQueueTags",
    "ListEventSourceMappings",
    "GetFunctionConfiguration",
    "GetFunctionConcurrency",
    "GetMetricData",
    "DescribeAlarms",
    "ListSubscriptions",
    "ListEventBuses",
    "ListRules",
    "ListRuleNamesByTarget",
    "ListTargetsByRule",
    "DescribeKey",
    "GetKeyPolicy",
];

/// The audit through a clean proxy: its result, and the operations sent.
fn clean_run(moto: &common::Moto, flags: &[&str]) -> (Run, BTreeSet<String>) {
    let proxy = faults::start(&moto.endpoint, Vec::new());
    let clean = audit(&proxy.endpoint, flags);
    assert_eq!(clean.code, Some(1), "the scene has findings: {}", clean.said());
    assert!(clean.unaudited().is_empty(), "{}", clean.said());
    let sent: BTreeSet<String> = proxy.seen().into_iter().map(|s| s.operation).collect();
    let expected: BTreeSet<String> = OPERATIONS.iter().map(|o| o.to_string()).collect();
    assert_eq!(sent, expected, "the operations the audit sends (a new one needs its faults here too)");
    (clean, sent)
}

/// Runs `f` on each of `cases`, eight at a time (and no more audits at
/// once than [`AUDITS_AT_ONCE`] across this file's tests), each worker taking the
/// next case when it is done with one; the results in the order of the
/// cases. An audit under faults mostly waits (on backoffs, on timeouts),
/// not on the CPU: three at a time in fixed thirds made these tests the
/// slowest of the suite (96 s for five transient cases, two audits of
/// about 48 s one after the other).
fn each<C: Sync, R: Send>(cases: &[C], f: impl Fn(&C) -> R + Sync) -> Vec<R> {
    const WORKERS: usize = 8;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new(cases.iter().map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..WORKERS.min(cases.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(case) = cases.get(i) else { break };
                    let result = f(case);
                    results.lock().unwrap()[i] = Some(result);
                }
            });
        }
    });
    results.into_inner().unwrap().into_iter().map(|r| r.unwrap()).collect()
}

/// A small retry budget, so that a permanent fault gives up fast: two
/// attempts, two seconds for an attempt, four for a call (an attempt of
/// one second was sometimes too short for moto's plain answers while the
/// other tests kept both cores busy).
const PERMANENT_BUDGET: &[&str] = &["--max-attempts", "2", "--retry-budget", "4s"];

fn kinds() -> Vec<Fault> {
    vec![Fault::Throttle, Fault::Status(500), Fault::Status(503), Fault::Reset, Fault::Delay(Duration::from_secs(3))]
}

/// A run under a fault that never passes: exit 1 (or 2, when no call
/// reached the server at all), the pair named with what failed, and no
/// finding the clean run did not have. `Err` says what is wrong.
fn fails_closed(run: &Run, clean: &Run, what: &str, operation: &str) -> Result<(), String> {
    let (findings, clean_findings) = (run.findings(), clean.findings());
    let extra: Vec<_> = findings.difference(&clean_findings).collect();
    if !extra.is_empty() {
        return Err(format!("{what}: findings the clean audit did not have: {extra:?}\n{}", run.said()));
    }
    match run.code {
        Some(1) => {
            let gaps = run.unaudited();
            let named = gaps.iter().any(|g| {
                let apis = g["apis"].as_array().cloned().unwrap_or_default();
                g["region"] == "us-east-1"
                    && (apis.iter().any(|a| a == operation) || g["reason"].as_str().unwrap_or("").contains(operation))
            });
            if named {
                Ok(())
            } else {
                Err(format!("{what}: {operation} in us-east-1 not named as unaudited: {gaps:?}"))
            }
        }
        // Nothing answered: one line naming the Region and the call.
        Some(2) => {
            let line = run.stderr.trim();
            if line.lines().count() == 1 && line.contains("us-east-1") && line.contains(operation) {
                Ok(())
            } else {
                Err(format!("{what}: not one line naming us-east-1 and {operation}: {}", run.said()))
            }
        }
        _ => Err(format!("{what}: a permanent fault must fail the run\n{}", run.said())),
    }
}

#[test]
fn every_permanent_fault_on_any_call_fails_the_run_and_names_the_pair() {
    let Some(moto) = problems() else { return };
    let (clean, sent) = clean_run(&moto, PERMANENT_BUDGET);
    let mut cases = Vec::new();
    for operation in &sent {
        for fault in kinds() {
            cases.push((operation.clone(), fault));
        }
    }
    let failures = each(&cases, |(operation, fault)| {
        let proxy = faults::start(&moto.endpoint, vec![Rule::new(Some(operation), *fault, Times::Always)]);
        let run = audit(&proxy.endpoint, PERMANENT_BUDGET);
        let what = format!("{fault:?} on every {operation}");
        if proxy.faults() == 0 {
            return Some(format!("{what}: no request got the fault"));
        }
        fails_closed(&run, &clean, &what, operation).err()
    });
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// One queue's attributes refused for good, queue by queue: its dead-letter
/// queue or source looks like another queue, and still no finding appears
/// that the whole reading did not give.
#[test]
fn one_queue_unread_adds_no_finding() {
    let Some(moto) = problems() else { return };
    let (clean, _) = clean_run(&moto, PERMANENT_BUDGET);
    let queues = ["jobs", "jobs-dlq", "backlog", "orders", "orders-dlq", "orders.fifo", "orders-dlq.fifo"];
    let failures = each(&queues, |queue| {
        let rule = Rule {
            only: Some(format!("/{queue}\"")),
            ..Rule::new(Some("GetQueueAttributes"), Fault::Throttle, Times::Always)
        };
        let proxy = faults::start(&moto.endpoint, vec![rule]);
        let run = audit(&proxy.endpoint, PERMANENT_BUDGET);
        let what = format!("{queue}'s GetQueueAttributes throttled");
        if proxy.faults() == 0 {
            return Some(format!("{what}: no request got the fault"));
        }
        let gaps = run.unaudited();
        if !gaps.iter().any(|g| g["reason"].as_str().unwrap_or("").contains(&format!("/{queue}"))) {
            return Some(format!("{what}: the queue is not named: {gaps:?}"));
        }
        fails_closed(&run, &clean, &what, "GetQueueAttributes").err()
    });
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A `200 {}` to one queue's GetQueueAttributes (All was asked, and every
/// queue has an ARN and a visibility timeout) is a failed read of that
/// queue, not an empty queue: unaudited with the reason, and no SQS004 or
/// SQS006 where its dead-letter queue or its consumer went unseen.
#[test]
fn an_answer_without_the_attributes_asked_for_is_a_failed_read() {
    let Some(moto) = problems() else { return };
    let (clean, _) = clean_run(&moto, PERMANENT_BUDGET);
    let queues = ["jobs", "jobs-dlq", "orders-dlq.fifo"];
    let failures = each(&queues, |queue| {
        let rule = Rule {
            only: Some(format!("/{queue}\"")),
            ..Rule::new(Some("GetQueueAttributes"), Fault::Answer(200, "{}"), Times::Always)
        };
        let proxy = faults::start(&moto.endpoint, vec![rule]);
        let run = audit(&proxy.endpoint, PERMANENT_BUDGET);
        let what = format!("{queue}'s GetQueueAttributes answered 200 {{}}");
        if proxy.faults() == 0 {
            return Some(format!("{what}: no request got the fault"));
        }
        let named = run.unaudited().iter().any(|g| {
            let reason = g["reason"].as_str().unwrap_or("");
            reason.contains(&format!("/{queue}:")) && reason.contains("answered without the queue's attributes")
        });
        if !named {
            return Some(format!("{what}: not unaudited with the reason: {}", run.said()));
        }
        let misled: Vec<_> = run.findings().into_iter().filter(|(r, _)| r == "SQS004" || r == "SQS006").collect();
        let clean_misled: Vec<_> =
            clean.findings().into_iter().filter(|(r, _)| r == "SQS004" || r == "SQS006").collect();
        if misled.iter().any(|f| !clean_misled.contains(f)) {
            return Some(format!("{what}: SQS004 or SQS006 the clean run did not give: {misled:?}"));
        }
        fails_closed(&run, &clean, &what, "GetQueueAttributes").err()
    });
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The other reads whose answer cannot be empty: a function has a
/// timeout, a key its metadata and its policy, a Region its default event
/// bus, and CloudWatch answers every query asked. Each answered without it
/// fails the run and names the call; the empty listings (no queues, no
/// mappings, no alarms) are answers, and stay so.
#[test]
fn every_answer_without_what_every_answer_has_is_a_failed_read() {
    let Some(moto) = problems() else { return };
    let (clean, _) = clean_run(&moto, PERMANENT_BUDGET);
    let no_results = "<GetMetricDataResponse xmlns=\"http://monitoring.amazonaws.com/doc/2010-08-01/\">\
        <GetMetricDataResult><MetricDataResults></MetricDataResults></GetMetricDataResult></GetMetricDataResponse>";
    let cases = [
        ("GetFunctionConfiguration", "{}"),
        ("DescribeKey", "{}"),
        ("GetKeyPolicy", "{}"),
        ("ListEventBuses", "{\"EventBuses\": []}"),
        ("GetMetricData", no_results),
    ];
    let failures = each(&cases, |(operation, body)| {
        let proxy =
            faults::start(&moto.endpoint, vec![Rule::new(Some(operation), Fault::Answer(200, body), Times::Always)]);
        let run = audit(&proxy.endpoint, PERMANENT_BUDGET);
        let what = format!("{operation} answered 200 {body}");
        if proxy.faults() == 0 {
            return Some(format!("{what}: no request got the fault"));
        }
        if !run.unaudited().iter().any(|g| g["reason"].as_str().unwrap_or("").contains("answered without")) {
            return Some(format!("{what}: no reason says what the answer lacked: {}", run.said()));
        }
        fails_closed(&run, &clean, &what, operation).err()
    });
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A partial audit under `--fail-on never` exits 0, as `--fail-on never`
/// asks whatever the run found, and still says what it did not read in
/// every format: the run's exit status is the caller's choice, the report
/// never looks complete.
#[test]
fn a_partial_audit_under_fail_on_never_exits_0_and_every_format_names_the_pair() {
    let Some(moto) = problems() else { return };
    let refused = Rule::new(Some("ListEventSourceMappings"), Fault::Answer(403, "{}"), Times::Always);
    let proxy = faults::start(&moto.endpoint, vec![refused]);
    let gap = "in us-east-1: read in part (ListEventSourceMappings: HTTP 403 (AccessDenied)); blind: SQS001";
    type Says<'a> = &'a dyn Fn(&str) -> bool;
    let formats: [(&str, Says<'_>); 7] = [
        ("pretty", &|out| out.lines().any(|l| l.starts_with("unaudited: ") && l.contains(gap))),
        ("concise", &|out| out.lines().any(|l| l.starts_with("unaudited: ") && l.contains(gap))),
        ("json", &|out| {
            let doc: Value = serde_json::from_str(out).unwrap();
            let gaps = doc["summary"]["unaudited"].as_array().cloned().unwrap_or_default();
            gaps.iter().any(|g| g["apis"] == serde_json::json!(["ListEventSourceMappings"]) && g["partial"] == true)
        }),
        ("sarif", &|out| {
            let doc: Value = serde_json::from_str(out).unwrap();
            let run = &doc["runs"][0]["invocations"][0];
            let said = run["toolExecutionNotifications"].as_array().cloned().unwrap_or_default();
            run["executionSuccessful"] == false
                && said.iter().any(|n| n["level"] == "error" && n["message"]["text"].as_str().unwrap().contains(gap))
        }),
        ("junit", &|out| out.contains("<error") && out.contains("ListEventSourceMappings")),
        ("github", &|out| {
            out.lines().any(|l| l.starts_with("::error title=sqsguard%3A read in part::unaudited: ") && l.contains(gap))
        }),
        ("html", &|out| out.contains("ListEventSourceMappings: HTTP 403 (AccessDenied)")),
    ];
    for (format, names_the_pair) in formats {
        let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .args(["audit", "--region", "us-east-1", "--endpoint-url", &proxy.endpoint, "--fail-on", "never"])
            .args(["--format", format])
            .env("AWS_ACCESS_KEY_ID", "test")
            .env("AWS_SECRET_ACCESS_KEY", "test")
            .env("AWS_EC2_METADATA_DISABLED", "true")
            .env_remove("AWS_PROFILE")
            .env_remove("AWS_ENDPOINT_URL")
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {stdout}\n{stderr}");
        assert!(names_the_pair(&stdout), "{format}: the pair read in part is not named:\n{stdout}\n{stderr}");
    }
}

#[test]
fn transient_faults_within_the_retry_budget_give_exactly_the_clean_result() {
    let Some(moto) = problems() else { return };
    // Three attempts, two seconds for one, four for a call.
    let budget = ["--max-attempts", "3", "--retry-budget", "4s"];
    let (clean, _) = clean_run(&moto, &budget);
    // Every request of every operation: its first two attempts fail (a
    // delay longer than an attempt may take: its first), the next passes.
    let cases = [
        (Fault::Throttle, 2),
        (Fault::Status(500), 2),
        (Fault::Status(503), 2),
        (Fault::Reset, 2),
        (Fault::Delay(Duration::from_secs(3)), 1),
    ];
    let failures = each(&cases, |(fault, k)| {
        let proxy = faults::start(&moto.endpoint, vec![Rule::new(None, *fault, Times::First(*k))]);
        let run = audit(&proxy.endpoint, &budget);
        let what = format!("{fault:?} on the first {k} attempts of every request");
        let faulted = proxy.faults();
        let ok = run.code == clean.code && run.result() == clean.result();
        (!ok || faulted == 0).then(|| format!("{what} ({faulted} faults): {}", run.said()))
    });
    let failures: Vec<String> = failures.into_iter().flatten().collect();
    assert!(failures.is_empty(), "clean:\n{}\n{failures:#?}", clean.stdout);
}

/// `--max-attempts` is the number of attempts: one throttle on every
/// request leaves a run with one attempt partial, and one with two clean.
#[test]
fn max_attempts_counts_the_attempts() {
    let Some(moto) = problems() else { return };
    let (clean, _) = clean_run(&moto, &[]);
    let throttled_once = || faults::start(&moto.endpoint, vec![Rule::new(None, Fault::Throttle, Times::First(1))]);
    let proxy = throttled_once();
    let one = audit(&proxy.endpoint, &["--max-attempts", "1"]);
    assert_eq!(one.code, Some(1));
    let gap = &one.unaudited()[0];
    assert!(gap["reason"].as_str().unwrap().contains("RequestThrottled"), "{}", one.said());
    assert_eq!(proxy.seen().len(), 1, "one attempt of ListQueues, no retry");
    let proxy = throttled_once();
    let two = audit(&proxy.endpoint, &["--max-attempts", "2"]);
    assert!(two.result() == clean.result(), "{}", two.said());
}

/// The defaults ride out throttling quickly: every request throttled once
/// takes seconds, not the minutes the adaptive client-side rate limiter
/// took (each retry waiting for its tokens at half a request a second).
#[test]
fn default_retries_ride_out_throttling_within_seconds() {
    let Some(moto) = problems() else { return };
    let (clean, _) = clean_run(&moto, &[]);
    let proxy = faults::start(&moto.endpoint, vec![Rule::new(None, Fault::Throttle, Times::First(1))]);
    let run = audit(&proxy.endpoint, &[]);
    assert!(run.result() == clean.result(), "{}", run.said());
    assert!(proxy.faults() >= OPERATIONS.len());
    // Seven phases, each at most one first wait (under a second): a generous bound.
    assert!(run.took < Duration::from_secs(40), "took {:?}", run.took);
}

#[test]
fn retry_flags_are_checked_before_any_call() {
    for (args, says) in [
        (&["--max-attempts", "0"][..], "--max-attempts 0"),
        (&["--max-attempts", "many"][..], "--max-attempts"),
        (&["--retry-budget", "soon"][..], "--retry-budget soon"),
        (&["--retry-budget", "0"][..], "--retry-budget 0"),
    ] {
        let run = audit("http://127.0.0.1:1", args);
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.said());
        assert!(run.stderr.contains(says), "{args:?}: {}", run.said());
        assert!(!run.stderr.contains("Connection refused"), "checked before any call: {}", run.said());
    }
}

/// Two queues, each consumed through its own mapping and function, both
/// mappings with findings; `--queue-prefix` takes one: only its queue's and
/// its mapping's findings, and only its function read.
#[test]
fn a_queue_prefix_keeps_only_the_mappings_of_its_queues() {
    let Some(moto) = common::moto() else { return };
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("two.py");
    std::fs::write(&script, TWO_CONSUMED_QUEUES).unwrap();
    let made: Value = serde_json::from_str(&python(&moto, script.to_str().unwrap(), &[])).unwrap();
    let (inside, outside) = (made["inside"].as_str().unwrap(), made["outside"].as_str().unwrap());

    let whole = audit(&moto.endpoint, &[]);
    let mapping_rules = |run: &Run, uuid: &str| -> Vec<String> {
        run.findings().into_iter().filter(|(_, r)| r == uuid).map(|(rule, _)| rule).collect()
    };
    assert!(!mapping_rules(&whole, inside).is_empty(), "{}", whole.said());
    assert!(!mapping_rules(&whole, outside).is_empty(), "{}", whole.said());

    let proxy = faults::start(&moto.endpoint, Vec::new());
    let scoped = audit(&proxy.endpoint, &["--queue-prefix", "in-"]);
    let expected: BTreeSet<(String, String)> =
        whole.findings().into_iter().filter(|(_, r)| r == inside || r.ends_with("/in-jobs")).collect();
    assert!(expected.iter().any(|(_, r)| r.ends_with("/in-jobs")), "{}", whole.said());
    assert_eq!(scoped.findings(), expected, "{}", scoped.said());
    assert!(scoped.unaudited().is_empty(), "{}", scoped.said());
    let functions: Vec<_> = proxy.seen().into_iter().filter(|s| s.operation == "GetFunctionConfiguration").collect();
    assert_eq!(functions.len(), 1, "only the inside queue's function is read: {functions:?}");
}

/// `in-jobs` and `out-jobs`, each read by its own function through a
/// mapping of 50 messages a batch, no window and no batch item failures;
/// prints the two mappings' UUIDs.
const TWO_CONSUMED_QUEUES: &str = r#"
import io, json, sys, zipfile
import boto3
kw = dict(endpoint_url=sys.argv[1], region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
sqs, lam, iam = boto3.client("sqs", **kw), boto3.client("lambda", **kw), boto3.client("iam", **kw)
role = iam.create_role(RoleName="consumer", AssumeRolePolicyDocument=json.dumps({"Version": "2012-10-17", "Statement": [
    {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}]}))["Role"]["Arn"]
code = io.BytesIO()
zipfile.ZipFile(code, "w").writestr("app.py", "def handler(event, context):\n    return {}\n")
out = {}
for side in ["in", "out"]:
    url = sqs.create_queue(QueueName=f"{side}-jobs", Attributes={"VisibilityTimeout": "30"})["QueueUrl"]
    arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]["QueueArn"]
    fn = lam.create_function(FunctionName=f"{side}-worker", Runtime="python3.12", Role=role, Handler="app.handler",
                             Code={"ZipFile": code.getvalue()}, Timeout=60)["FunctionArn"]
    out[f"{side}side"] = lam.create_event_source_mapping(EventSourceArn=arn, FunctionName=fn, BatchSize=50)["UUID"]
print(json.dumps(out))
"#;
