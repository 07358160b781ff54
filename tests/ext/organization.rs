//! The audit of an AWS Organization against moto: an organization with a
//! management account, three members (one whose role the auditor may not
//! assume) and a closed account, queues with known problems in three
//! accounts and two Regions, and moto's IAM enforcement on (so the
//! assumed roles' credentials are what reads each member account).
//! Needs `--features audit`. One test: it sets the process's AWS
//! credentials for the in-process audit, holding `common::aws_env`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing
#![cfg(feature = "audit")]

use crate::common;

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

const ROLE: &str = "SqsguardAudit";
const REGIONS: [&str; 2] = ["us-east-1", "eu-west-1"];

/// `sqsguard audit` as the auditor, with `extra`, over both Regions
/// unless `extra` says `--regions all`.
fn audit(moto: &common::Moto, org: &Value, extra: &[&str]) -> (Option<i32>, Value) {
    let mut args = vec!["audit", "--endpoint-url", &moto.endpoint, "--role-name", ROLE, "--format", "json"];
    if !extra.contains(&"--regions") {
        for r in REGIONS {
            args.extend(["--region", r]);
        }
    }
    let out = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(&args)
        .args(extra)
        .env("AWS_ACCESS_KEY_ID", org["key"].as_str().unwrap())
        .env("AWS_SECRET_ACCESS_KEY", org["secret"].as_str().unwrap())
        .env("AWS_EC2_METADATA_DISABLED", "true")
        .env_remove("AWS_PROFILE")
        .env_remove("AWS_REGION")
        .output()
        .unwrap();
    let doc = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code(), doc)
}

/// (rule, account, Region, queue name) of each finding.
fn findings(doc: &Value) -> BTreeSet<(String, String, String, String)> {
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap_or_else(|| panic!("no {k}: {f}")).to_string();
            (s("rule"), s("account"), s("region"), s("resource").rsplit('/').next().unwrap().to_string())
        })
        .collect()
}

fn unaudited(doc: &Value) -> Vec<Value> {
    doc["summary"]["unaudited"].as_array().cloned().unwrap_or_default()
}

#[test]
#[expect(
    clippy::too_many_lines,
    reason = "one scenario on one moto organization, whose setup is most of the test's time: the whole audit, its gaps, then its shards merged"
)]
fn an_organization_is_audited_account_by_account_and_no_gap_looks_clean() {
    let Some(moto) = common::moto() else { return };
    let setup = Command::new(common::venv_tool("python").unwrap())
        .arg(common::root().join("tests/fixtures/audit/organization.py"))
        .args([&moto.endpoint, ROLE])
        .output()
        .unwrap();
    assert!(setup.status.success(), "{}", String::from_utf8_lossy(&setup.stderr));
    let org: Value = serde_json::from_slice(&setup.stdout).unwrap();
    let id = |k: &str| org[k].as_str().unwrap().to_string();
    let members: Vec<String> = org["members"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().into()).collect();
    let (management, denied, closed) = (id("management"), id("denied"), id("closed"));

    let (code, whole) = audit(&moto, &org, &["--organization"]);
    assert_eq!(code, Some(1), "{whole:#}");

    // The pairs read in part: moto refuses Lambda's REST calls once its IAM
    // checks are on (its signature check), so ListEventSourceMappings may
    // fail; then SQS006 is blind there and must not be reported.
    let gaps = unaudited(&whole);
    let blind_consumers: BTreeSet<(String, String)> = gaps
        .iter()
        .filter(|g| {
            g["partial"] == true && g["apis"].as_array().unwrap().iter().any(|a| a == "ListEventSourceMappings")
        })
        .map(|g| (g["account"].as_str().unwrap().into(), g["region"].as_str().unwrap().into()))
        .collect();
    let mut expected = BTreeSet::new();
    for p in org["planted"].as_array().unwrap() {
        let (account, region) = (p["account"].as_str().unwrap().to_string(), p["region"].as_str().unwrap().to_string());
        for rule in p["rules"].as_array().unwrap() {
            if rule == "SQS006" && blind_consumers.contains(&(account.clone(), region.clone())) {
                continue;
            }
            expected.insert((
                rule.as_str().unwrap().into(),
                account.clone(),
                region.clone(),
                p["queue"].as_str().unwrap().into(),
            ));
        }
    }
    assert_eq!(findings(&whole), expected);
    assert!(expected.iter().any(|f| f.1 == members[0]) && expected.iter().any(|f| f.1 == management));

    // The account whose role cannot be assumed: both Regions, not audited,
    // with STS's refusal; the closed account is not audited at all.
    let refused: Vec<&Value> = gaps.iter().filter(|g| g["account"] == denied.as_str()).collect();
    assert_eq!(refused.len(), 2, "{gaps:#?}");
    for g in &refused {
        assert_eq!(g["partial"], false);
        let reason = g["reason"].as_str().unwrap();
        assert!(reason.contains(&format!("cannot assume arn:aws:iam::{denied}:role/{ROLE}")), "{reason}");
        assert!(reason.contains("AccessDenied"), "{reason}");
    }
    for g in gaps.iter().filter(|g| g["account"] != denied.as_str()) {
        assert_eq!(g["partial"], true, "only the denied account is missing whole: {g}");
    }
    let audited: BTreeSet<&String> = whole["summary"]["api_calls_by_account"].as_object().unwrap().keys().collect();
    let mut all = members.clone();
    all.push(management.clone());
    assert_eq!(audited, all.iter().collect(), "every ACTIVE account, and only those");
    assert!(!whole.to_string().contains(&closed), "the closed account is not audited");
    // The call budget: per account, two Regions of at most 5 calls and 1.1
    // a queue, 3 for the producers (ListSubscriptions, ListEventBuses,
    // ListRules of the one bus), and one AssumeRole.
    let queues = |account: &str| org["planted"].as_array().unwrap().iter().filter(|p| p["account"] == account).count();
    for (account, calls) in whole["summary"]["api_calls_by_account"].as_object().unwrap() {
        let budget = 2 * (5 + 3) + (queues(account) as f64 * 1.1).ceil() as u64 + 1;
        assert!(calls.as_u64().unwrap() <= budget, "{account}: {calls} calls, budget {budget}");
    }

    // One request at a time over the whole audit: slower, and the same.
    let (code, one_at_a_time) = audit(&moto, &org, &["--organization", "--concurrency", "1"]);
    assert_eq!(code, Some(1));
    assert_eq!(findings(&one_at_a_time), findings(&whole));
    assert_eq!(unaudited(&one_at_a_time), unaudited(&whole));

    // Named accounts, from a file with comments: the same findings there.
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("accounts.txt");
    std::fs::write(&list, format!("# the payments team\n{}\n{management}  # the caller's own\n", members[0])).unwrap();
    let (code, named) = audit(&moto, &org, &["--accounts", &format!("@{}", list.display())]);
    assert_eq!(code, Some(1));
    let in_named: BTreeSet<_> =
        findings(&whole).into_iter().filter(|f| f.1 == management || f.1 == members[0]).collect();
    assert_eq!(findings(&named), in_named);
    assert!(unaudited(&named).iter().all(|g| g["account"] != denied.as_str()));

    // Three shards, merged: the same findings, notes and gaps as one run.
    let mut shards = Vec::new();
    for i in 1..=3 {
        let (_, doc) = audit(&moto, &org, &["--organization", "--shard", &format!("{i}/3")]);
        let path = dir.path().join(format!("shard{i}.json"));
        std::fs::write(&path, doc.to_string()).unwrap();
        assert!(findings(&doc).len() < findings(&whole).len() || findings(&whole).is_empty(), "shard {i} is a slice");
        shards.push(path);
    }
    // Every shard, each once: a missing or repeated one is refused, since
    // the merge would look cleaner than the audit was.
    let merge = |files: &[&std::path::PathBuf]| {
        Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .args(["report", "merge", "--format", "json"])
            .args(files)
            .output()
            .unwrap()
    };
    let partial = merge(&[&shards[0], &shards[2]]);
    assert_eq!(partial.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&partial.stderr).contains("shard 2/3 missing"));
    let twice = merge(&[&shards[0], &shards[1], &shards[1], &shards[2]]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("shard2.json: shard 2/3 again"));
    let merged = merge(&shards.iter().collect::<Vec<_>>());
    assert_eq!(merged.status.code(), Some(1), "the whole audit's exit status");
    let merged: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(merged["findings"], whole["findings"]);
    assert_eq!(merged["notes"], whole["notes"]);
    assert_eq!(merged["summary"]["unaudited"], whole["summary"]["unaudited"]);
    assert_eq!(merged["summary"]["files"], whole["summary"]["files"]);

    // Every Region: moto serves no account ListRegions, so each account
    // says so in a note and the partition's Regions are read; the findings
    // are the same (nothing was planted elsewhere), and the denied
    // account is unaudited in every Region.
    let (code, everywhere) = audit(&moto, &org, &["--organization", "--regions", "all"]);
    assert_eq!(code, Some(1));
    assert_eq!(findings(&everywhere), findings(&whole));
    let notes: Vec<&str> =
        everywhere["notes"].as_array().unwrap().iter().map(|n| n["message"].as_str().unwrap()).collect();
    let readable: Vec<&String> = all.iter().filter(|a| **a != denied).collect();
    for account in &readable {
        let said = format!("account {account}: account ListRegions: HTTP 404");
        assert!(
            notes.iter().any(|n| n.starts_with(&said) && n.contains("every Region of the aws partition")),
            "{notes:?}"
        );
    }
    let gaps = unaudited(&everywhere);
    assert!(gaps.iter().any(|g| g["account"] == denied.as_str() && g["region"] == "every Region"), "{gaps:#?}");
    let eu_central: Vec<&Value> = gaps.iter().filter(|g| g["region"] == "eu-central-1").collect();
    assert_eq!(eu_central.len(), readable.len(), "each readable account read eu-central-1 too: {eu_central:#?}");

    // Shards of every Region slice the accounts (each account's Regions
    // are its own answer): merged, they are the same audit.
    let halves: Vec<std::path::PathBuf> = (1..=2)
        .map(|i| {
            let (_, doc) = audit(&moto, &org, &["--organization", "--regions", "all", "--shard", &format!("{i}/2")]);
            assert_eq!(doc["summary"]["shard"]["of"], "accounts", "{}", doc["summary"]);
            let path = dir.path().join(format!("half{i}.json"));
            std::fs::write(&path, doc.to_string()).unwrap();
            path
        })
        .collect();
    let merged = merge(&halves.iter().collect::<Vec<_>>());
    let merged: Value = serde_json::from_slice(&merged.stdout).unwrap();
    assert_eq!(merged["findings"], everywhere["findings"]);
    assert_eq!(merged["summary"]["unaudited"], everywhere["summary"]["unaudited"]);

    // In-process, the operations it sent: reads, and AssumeRole.
    // SAFETY: held to the end of the test, the lock of the tests that set
    // the AWS environment.
    let _aws_env = common::aws_env();
    unsafe {
        std::env::set_var("AWS_ACCESS_KEY_ID", org["key"].as_str().unwrap());
        std::env::set_var("AWS_SECRET_ACCESS_KEY", org["secret"].as_str().unwrap());
        std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
    }
    let opts = sqsguard::audit::Options {
        regions: REGIONS.iter().map(|r| r.to_string()).collect(),
        accounts: sqsguard::audit::Accounts::Organization,
        role_name: Some(ROLE.into()),
        endpoint_url: Some(moto.endpoint.clone()),
        ..Default::default()
    };
    let run = sqsguard::audit::run(&opts).unwrap();
    let operations = run.calls.operations();
    assert!(operations.iter().any(|o| o.ends_with(".AssumeRole")), "{operations:?}");
    assert!(operations.iter().any(|o| o.ends_with(".ListAccounts")), "{operations:?}");
    for op in &operations {
        let name = op.rsplit('.').next().unwrap();
        assert!(
            ["List", "Get", "Describe"].iter().any(|p| name.starts_with(p)) || name == "AssumeRole",
            "the audit sent {op}, which is not a read"
        );
    }
    assert_eq!(run.outcome.findings.len(), whole["findings"].as_array().unwrap().len());

    // Assumed credentials are renewed when they might expire within a
    // pair (its deadline + 5 min). moto's last an hour: with the default
    // deadline one AssumeRole serves both Regions of an account; with a
    // one-hour deadline every pair assumes the role anew. The denied
    // account is tried once per pair either way.
    let assumed =
        |run: &sqsguard::audit::Audit| run.calls.operations().iter().filter(|o| o.ends_with(".AssumeRole")).count();
    let long = sqsguard::audit::Options { pair_deadline: std::time::Duration::from_secs(3600), ..opts };
    let renewing = sqsguard::audit::run(&long).unwrap();
    let assumable = members.len() - 1;
    assert_eq!(assumed(&run), assumable + REGIONS.len(), "once per assumable account, once per denied pair");
    assert_eq!(assumed(&renewing), (assumable + 1) * REGIONS.len(), "once per pair");
    assert_eq!(renewing.outcome.findings.len(), run.outcome.findings.len());
}
