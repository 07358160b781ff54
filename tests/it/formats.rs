//! `--format sarif|junit|github`: snapshots on fixed inputs, the same
//! findings as `--format json` in every format, SARIF against the official
//! OASIS schema and Microsoft's SARIF Multitool (installed by tests/run.sh
//! into tests/node), fingerprints that survive unrelated edits, JUnit that
//! an XML parser reads with the right counts, and live findings (no file)
//! in every format.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Value, json};
use sqsguard::finding::{Finding, FindingContext, FindingData, Note, Severity};
use sqsguard::model::Origin;
use sqsguard::outcome::Outcome;
use sqsguard::report::{self, Format, sarif::REPOSITORY_URL};
use sqsguard::rules;

use common::{sqsguard, stdout};

const LEGACY: &str = "examples/cloudformation/legacy-worker.yaml";
const CLEAN: &str = "examples/cloudformation/orders-sam.yaml";
/// A module of four files; one finding, in main.tf.
const MODULE: &str = "tests/rules/SQS001/terraform/bad_split_module";
/// A module with a remote module call sqsguard notes as not analysed.
const NOTED: &str = "tests/fixtures/terraform/modules/registry";

const INPUTS: [(&str, &str, i32); 3] =
    [("legacy_worker", LEGACY, 1), ("clean", CLEAN, 0), ("terraform_module", MODULE, 1)];
const FORMATS: [&str; 3] = ["sarif", "junit", "github"];

fn lint(paths: &[&str], format: &str) -> Output {
    let mut args = vec!["lint", "--format", format];
    args.extend_from_slice(paths);
    sqsguard(&args)
}

fn sarif_of(paths: &[&str]) -> Value {
    let out = lint(paths, "sarif");
    serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("SARIF is not JSON ({e}):\n{}", stdout(&out)))
}

fn json_findings(paths: &[&str]) -> Vec<Value> {
    let doc: Value = serde_json::from_str(&stdout(&lint(paths, "json"))).unwrap();
    doc["findings"].as_array().unwrap().clone()
}

/// Run the binary in `dir` (paths relative to it).
fn sqsguard_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(dir).output().expect("run sqsguard")
}

/// The SARIF as snapshotted: the driver's version and its rules (the same
/// in every run, with their pages from rules/; `sarif_rules_are_the_catalog`
/// checks them whole) stand in by placeholders, and so does each result's
/// index into those rules, once checked to name its rule: a new rule
/// changes no snapshot.
fn sarif_for_snapshot(mut doc: Value) -> String {
    let driver = &mut doc["runs"][0]["tool"]["driver"];
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    driver["version"] = json!("[version]");
    let ids: Vec<String> =
        driver["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids, rules::ALL.iter().map(|r| r.id.code).collect::<Vec<_>>());
    driver["rules"] = json!("[every rule, in code order]");
    for result in doc["runs"][0]["results"].as_array_mut().unwrap() {
        let index = result["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(result["ruleId"], ids[index], "{result:#}");
        result["ruleIndex"] = json!("[the index of ruleId]");
    }
    serde_json::to_string_pretty(&doc).unwrap()
}

#[test]
fn snapshots_of_every_format() {
    for (name, path, status) in INPUTS {
        for format in FORMATS {
            let out = lint(&[path], format);
            assert_eq!(out.status.code(), Some(status), "{format} {path}: {}", String::from_utf8_lossy(&out.stderr));
            let text = stdout(&out);
            assert!(!text.contains(common::root().to_str().unwrap()), "absolute path in {format} {path}");
            let text = if format == "sarif" { sarif_for_snapshot(serde_json::from_str(&text).unwrap()) } else { text };
            insta::assert_snapshot!(format!("{format}_{name}"), text);
        }
    }
}

/// Every format reports exactly the findings `--format json` reports, at
/// the same places.
#[test]
fn every_format_has_the_findings_of_json() {
    let paths = [LEGACY, CLEAN, MODULE];
    let findings = json_findings(&paths);
    assert_eq!(findings.len(), 11);

    // SARIF: results in the same order.
    let doc = sarif_of(&paths);
    let run = &doc["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    for (r, f) in results.iter().zip(&findings) {
        assert_eq!(r["ruleId"], f["rule"]);
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], f["rule"], "ruleIndex points at the rule");
        let level = match f["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(r["level"], level);
        assert_eq!(
            r["message"]["text"],
            format!("{}\nfix: {}", f["message"].as_str().unwrap(), f["fix"].as_str().unwrap())
        );
        let location = &r["locations"][0];
        let physical = &location["physicalLocation"];
        assert_eq!(physical["artifactLocation"]["uri"], f["file"]);
        assert_eq!(physical["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        let region = &physical["region"];
        assert_eq!(region["startLine"], f["line"]);
        assert_eq!(region["startColumn"], f["column"]);
        assert_eq!(region["endLine"], f["end_line"]);
        // SARIF's end column is exclusive, ours inclusive.
        assert_eq!(region["endColumn"].as_u64().unwrap(), f["end_column"].as_u64().unwrap() + 1);
        assert_eq!(location["logicalLocations"][0]["name"], f["resource"]);
        assert_eq!(r["partialFingerprints"]["sqsguard/v1"].as_str().unwrap().len(), 16);
    }

    // GitHub: per finding its concise line and its command, then the
    // summary line.
    let text = stdout(&lint(&paths, "github"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 * findings.len() + 1);
    assert_eq!(lines[2 * findings.len()], "sqsguard: 3 errors, 8 warnings, 0 infos in 7 files (0 skipped)");
    let concise = stdout(&lint(&paths, "concise"));
    for (pair, concise) in lines[..2 * findings.len()].chunks(2).zip(concise.lines()) {
        assert_eq!(pair[0], concise);
    }
    for (line, f) in lines.iter().skip(1).step_by(2).zip(&findings) {
        let (command, props, message) = parse_command(line);
        let expected = match f["severity"].as_str().unwrap() {
            "info" => "notice",
            other => other,
        };
        assert_eq!(command, expected, "{line}");
        assert_eq!(props["file"], f["file"].as_str().unwrap());
        assert_eq!(props["line"], f["line"].to_string());
        assert_eq!(props["col"], f["column"].to_string());
        assert_eq!(props["endLine"], f["end_line"].to_string());
        assert_eq!(props["endColumn"], f["end_column"].to_string());
        assert_eq!(props["title"], format!("{} {}", f["rule"].as_str().unwrap(), f["name"].as_str().unwrap()));
        assert!(message.starts_with(&escape_data(f["message"].as_str().unwrap())), "{line}");
    }

    // JUnit: a failing testcase per finding, named for rule and resource.
    let xml = stdout(&lint(&paths, "junit"));
    let dom = roxmltree::Document::parse(&xml).expect("JUnit XML parses");
    let failing: Vec<(String, String)> = dom
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .map(|n| {
            let case = n.parent_element().unwrap();
            (case.attribute("name").unwrap().to_string(), n.attribute("type").unwrap().to_string())
        })
        .collect();
    let mut expected: Vec<(String, String)> = findings
        .iter()
        .map(|f| {
            (
                format!("{} {}", f["rule"].as_str().unwrap(), f["resource"].as_str().unwrap()),
                f["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut failing_sorted = failing.clone();
    failing_sorted.sort();
    expected.sort();
    assert_eq!(failing_sorted, expected);
}

/// `::name k=v,k=v::message` -> (name, props unescaped, message as is).
fn parse_command(line: &str) -> (&str, BTreeMap<String, String>, &str) {
    let rest = line.strip_prefix("::").unwrap_or_else(|| panic!("not a command: {line}"));
    let (head, message) = rest.split_once("::").unwrap();
    let (name, props) = head.split_once(' ').unwrap_or((head, ""));
    let props = props
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap();
            let v =
                v.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%");
            (k.to_string(), v)
        })
        .collect();
    (name, props, message)
}

fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

fn oasis_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(common::root().join("tests/fixtures/sarif/sarif-schema-2.1.0.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::options().should_validate_formats(true).build(&schema).expect("the OASIS schema compiles")
}

fn schema_errors(validator: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    validator.iter_errors(doc).map(|e| format!("{}: {e}", e.instance_path())).collect()
}

/// Files that become SQS000 findings at odd places: invalid UTF-8 at the
/// first byte, and a parse error at the very end of a file.
fn broken_files() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("latin1.yaml"), b"\xe9 Resources: AWS::SQS::Queue\n").unwrap();
    std::fs::write(dir.path().join("unclosed.yaml"), "AWSTemplateFormatVersion: '2010-09-09'\nResources: [").unwrap();
    std::fs::write(dir.path().join("main.tf"), "resource \"aws_sqs_queue\" \"q\" {\n").unwrap();
    dir
}

/// SARIF of every kind this suite knows: the fixed inputs, a module with a
/// note, broken files, and live findings.
fn every_sarif() -> Vec<(String, Value)> {
    let mut docs: Vec<(String, Value)> =
        [LEGACY, CLEAN, MODULE, NOTED].iter().map(|p| (p.to_string(), sarif_of(&[p]))).collect();
    let broken = broken_files();
    let out = sqsguard_in(broken.path(), &["lint", "--format", "sarif", "."]);
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["runs"][0]["results"].as_array().unwrap().len(), 3, "{doc:#}");
    docs.push(("broken files".into(), doc));
    docs.push(("live".into(), serde_json::from_str(&report::render(Format::Sarif, &live_outcome())).unwrap()));
    docs
}

#[test]
fn sarif_validates_against_the_oasis_schema() {
    let validator = oasis_validator();
    for (name, doc) in every_sarif() {
        let errors = schema_errors(&validator, &doc);
        assert!(errors.is_empty(), "{name}: SARIF does not match the schema:\n{}", errors.join("\n"));
    }
    // The validator is strict where it matters.
    let mut bad = sarif_of(&[LEGACY]);
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = json!(0);
    bad["runs"][0]["results"][1]["level"] = json!("warn");
    bad["runs"][0]["tool"]["driver"]["rules"][0]["helpUri"] = json!("not a uri");
    assert_eq!(schema_errors(&validator, &bad).len(), 3, "{:?}", schema_errors(&validator, &bad));
}

/// Every region, in results and notifications: lines from 1, an end not
/// before the start, and an exclusive end column after a one-line start.
#[test]
fn sarif_start_lines_are_at_least_one() {
    let mut regions = 0;
    for (name, doc) in every_sarif() {
        let mut found = Vec::new();
        collect_regions(&doc, &mut found);
        for region in found {
            regions += 1;
            let get = |k: &str| region[k].as_u64().unwrap_or_else(|| panic!("{name}: {k} missing in {region}"));
            let (sl, sc, el, ec) = (get("startLine"), get("startColumn"), get("endLine"), get("endColumn"));
            assert!(sl >= 1 && sc >= 1, "{name}: {region}");
            assert!(el >= sl, "{name}: {region}");
            assert!(el > sl || ec > sc, "{name}: an empty region {region}");
        }
    }
    // 10 + 1 findings, the note, the broken files' 3 findings.
    assert_eq!(regions, 10 + 1 + 1 + 3 + count_results(&sarif_of(&[NOTED])));
}

fn count_results(doc: &Value) -> usize {
    doc["runs"][0]["results"].as_array().unwrap().len()
}

/// The `region` of every `physicalLocation` (a property bag may have a
/// "region" too: the AWS Region of a live finding).
fn collect_regions<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                if k == "physicalLocation" {
                    out.push(&child["region"]);
                } else {
                    collect_regions(child, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|i| collect_regions(i, out)),
        _ => {}
    }
}

#[test]
fn sarif_rules_are_the_catalog() {
    let doc = sarif_of(&[CLEAN]);
    assert_eq!(doc["version"], "2.1.0");
    let run = &doc["runs"][0];
    assert_eq!(doc["runs"].as_array().unwrap().len(), 1);
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "sqsguard");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["informationUri"], REPOSITORY_URL);
    let listed = driver["rules"].as_array().unwrap();
    assert_eq!(listed.len(), rules::ALL.len());
    for (r, rule) in listed.iter().zip(rules::ALL) {
        assert_eq!(r["id"], rule.id.code);
        assert_eq!(r["name"], rule.id.name);
        assert_eq!(r["shortDescription"]["text"], rule.summary);
        let full = r["fullDescription"]["text"].as_str().unwrap();
        assert!(full.len() > rule.summary.len() && rule.doc.contains(full), "{}: {full}", rule.id.code);
        assert_eq!(r["help"]["markdown"], rule.page());
        assert_eq!(r["help"]["text"], rule.page());
        let uri = format!("{REPOSITORY_URL}/blob/main/rules/{}.md", rule.id.code);
        assert_eq!(r["helpUri"], uri);
        assert!(common::root().join(format!("rules/{}.md", rule.id.code)).is_file());
        let level = match rule.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        assert_eq!(r["defaultConfiguration"]["level"], level);
    }
    assert_eq!(run["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run["results"], json!([]));
    // The template and the handler it names.
    assert_eq!(run["properties"]["summary"]["files"], 2);
}

/// partialFingerprints do not move when lines are added above the findings.
#[test]
fn fingerprints_survive_blank_lines_and_comments_above() {
    let original = std::fs::read_to_string(common::root().join(LEGACY)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("legacy-worker.yaml");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        let out = sqsguard_in(dir.path(), &["lint", "--format", "sarif", "legacy-worker.yaml"]);
        let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
        doc["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let line = r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64().unwrap();
                (r["partialFingerprints"]["sqsguard/v1"].as_str().unwrap().to_string(), line)
            })
            .collect::<Vec<_>>()
    };
    let before = run(&original);
    let mut edited = String::new();
    for i in 0..20 {
        edited.push_str(if i % 2 == 0 { "\n" } else { "# an unrelated comment\n" });
    }
    edited.push_str(&original);
    let after = run(&edited);

    assert_eq!(before.len(), 10);
    let distinct: std::collections::BTreeSet<&String> = before.iter().map(|(f, _)| f).collect();
    assert_eq!(distinct.len(), before.len(), "each finding has its own fingerprint");
    for ((fp_before, line_before), (fp_after, line_after)) in before.iter().zip(&after) {
        assert_eq!(line_after, &(line_before + 20), "the edit moved every finding");
        assert_eq!(fp_before, fp_after);
    }
}

#[test]
fn junit_is_well_formed_with_a_suite_per_file() {
    let out = lint(&[LEGACY, CLEAN, MODULE], "junit");
    let xml = stdout(&out);
    let dom = roxmltree::Document::parse(&xml).expect("JUnit XML parses");
    let root = dom.root_element();
    assert!(root.has_tag_name("testsuites"));
    // A passing testcase per clean file: the SAM example's handler is one.
    assert_eq!(root.attribute("tests"), Some("16"));
    assert_eq!(root.attribute("failures"), Some("11"));
    assert_eq!(root.attribute("errors"), Some("0"));

    let suites: Vec<roxmltree::Node> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    let names: Vec<&str> = suites.iter().map(|s| s.attribute("name").unwrap()).collect();
    let module_file = |f: &str| format!("{MODULE}/{f}");
    let expected = [LEGACY.to_string(), CLEAN.to_string(), "examples/cloudformation/src/app.py".to_string()]
        .into_iter()
        .chain(["alarms.tf", "lambda.tf", "main.tf", "variables.tf"].map(module_file));
    assert_eq!(names, expected.collect::<Vec<_>>());

    for suite in &suites {
        let cases: Vec<roxmltree::Node> = suite.children().filter(|n| n.has_tag_name("testcase")).collect();
        let failures = cases.iter().filter(|c| c.children().any(|n| n.has_tag_name("failure"))).count();
        assert_eq!(suite.attribute("tests"), Some(cases.len().to_string().as_str()));
        assert_eq!(suite.attribute("failures"), Some(failures.to_string().as_str()));
        if failures == 0 {
            assert_eq!(cases.len(), 1);
            assert_eq!(cases[0].attribute("name"), Some("no findings"));
        } else {
            assert_eq!(failures, cases.len(), "a file with findings has only failing testcases");
        }
    }
    let legacy = suites.iter().find(|s| s.attribute("name") == Some(LEGACY)).unwrap();
    let sqs002 = legacy.descendants().find(|n| n.attribute("name") == Some("SQS002 ResizeJobs")).unwrap();
    assert_eq!(sqs002.attribute("classname"), Some("visibility-timeout-below-function-timeout"));
    let failure = sqs002.children().find(|n| n.has_tag_name("failure")).unwrap();
    assert_eq!(failure.attribute("type"), Some("error"));
    assert!(failure.attribute("message").unwrap().starts_with("VisibilityTimeout 30 s < 60 s"));
    let text = failure.text().unwrap();
    assert!(text.starts_with(&format!("{LEGACY}:16:26: SQS002")), "{text}");
    assert!(text.contains("\nfix: set VisibilityTimeout to at least 360"), "{text}");
}

#[test]
fn notes_appear_in_every_format() {
    let doc = sarif_of(&[NOTED]);
    let notes = doc["runs"][0]["invocations"][0]["toolExecutionNotifications"].as_array().unwrap();
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0]["level"], "note");
    assert!(notes[0]["message"]["text"].as_str().unwrap().contains("module.other"));
    assert_eq!(notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], format!("{NOTED}/main.tf"));

    let github = stdout(&lint(&[NOTED], "github"));
    let note = github.lines().find(|l| l.starts_with("::notice ")).expect("a notice for the note");
    let (_, props, message) = parse_command(note);
    assert_eq!(props["file"], format!("{NOTED}/main.tf"));
    assert_eq!(props["title"], "sqsguard note");
    assert!(message.contains("module.other"));

    let junit = stdout(&lint(&[NOTED], "junit"));
    let dom = roxmltree::Document::parse(&junit).unwrap();
    let out = dom.descendants().find(|n| n.has_tag_name("system-out")).expect("the note as system-out");
    assert!(out.text().unwrap().contains("module.other"));
    assert_eq!(out.parent_element().unwrap().attribute("name"), Some(format!("{NOTED}/main.tf").as_str()));
}

const QUEUE_URL: &str = "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs-dlq";

/// What `sqsguard audit` gives: findings on live resources, without files.
fn live_outcome() -> Outcome {
    let live = |code: &str, resource: &str, account: Option<&str>| {
        let rule = rules::by_code(code).unwrap();
        Finding::from(FindingData {
            rule: &rule.id,
            severity: rule.severity,
            resource: resource.to_string(),
            related: Vec::new(),
            origin: Origin::live(resource, account.map(str::to_string), Some("eu-west-1".into())),
            message: format!("{resource} is wrong, 100%: really"),
            fix: "fix it".into(),
            remedy: None,
            autofix: None,
            context: FindingContext::default(),
        })
    };
    Outcome {
        findings: vec![
            live("SQS101", QUEUE_URL, Some("123456789012")),
            live("SQS005", "6b1c2f0e-2a4d-4a8e-9f1b-0c2d3e4f5a6b", None),
        ],
        notes: vec![Note {
            origin: Origin::live("eu-west-1", None, Some("eu-west-1".into())),
            message: "ListEventSourceMappings was denied".into(),
        }],
        api_calls: Some(7),
        ..Outcome::default()
    }
}

#[test]
fn live_findings_render_in_every_format() {
    let outcome = live_outcome();

    let doc: Value = serde_json::from_str(&report::render(Format::Sarif, &outcome)).unwrap();
    let results = doc["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    let location = &results[0]["locations"][0];
    assert!(location.get("physicalLocation").is_none(), "{location}");
    assert_eq!(location["logicalLocations"][0]["fullyQualifiedName"], QUEUE_URL);
    assert_eq!(location["logicalLocations"][0]["name"], "jobs-dlq");
    assert_eq!(location["logicalLocations"][0]["kind"], "resource");
    assert_eq!(results[0]["properties"], json!({"account": "123456789012", "region": "eu-west-1"}));
    assert_eq!(results[1]["properties"], json!({"region": "eu-west-1"}));
    assert_eq!(results[0]["level"], "error");
    let notes = &doc["runs"][0]["invocations"][0]["toolExecutionNotifications"];
    assert_eq!(notes[0]["message"]["text"], "ListEventSourceMappings was denied");
    assert!(notes[0].get("locations").is_none());
    assert_eq!(doc["runs"][0]["properties"]["summary"]["api_calls"], 7);

    let xml = report::render(Format::Junit, &outcome);
    let dom = roxmltree::Document::parse(&xml).unwrap();
    let suites: Vec<&str> =
        dom.descendants().filter(|n| n.has_tag_name("testsuite")).map(|n| n.attribute("name").unwrap()).collect();
    assert_eq!(suites, ["live 123456789012/eu-west-1", "live eu-west-1"]);
    // A live testcase is named by its queue (or consumer), as text says it.
    let case = dom.descendants().find(|n| n.attribute("name") == Some("SQS101 jobs-dlq")).unwrap();
    let failure = case.children().find(|n| n.has_tag_name("failure")).unwrap();
    assert!(failure.text().unwrap().starts_with("123456789012/eu-west-1 jobs-dlq: SQS101 (dlq-not-empty)\n"));

    let github = report::render(Format::Github(report::View::default()), &outcome);
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(lines.len(), 6, "{github}");
    // Each finding's line for the log, placed by account and Region and
    // named by its queue (unless the message names it), then its annotation.
    assert_eq!(lines[0], format!("123456789012/eu-west-1: SQS101 {QUEUE_URL} is wrong, 100%: really (jobs-dlq)"));
    assert_eq!(
        lines[1],
        format!(
            "::error title=SQS101 dlq-not-empty::123456789012/eu-west-1: {QUEUE_URL} is wrong, 100%25: really (jobs-dlq)%0Afix: fix it"
        )
    );
    assert!(lines[2].starts_with("eu-west-1: SQS005 6b1c2f0e-"), "{github}");
    assert!(lines[3].starts_with("::warning title=SQS005 missing-batch-item-failures::eu-west-1: 6b1c2f0e-"));
    assert_eq!(lines[4], "::notice title=sqsguard note::ListEventSourceMappings was denied");
    assert!(!github.contains("file="));
    assert_eq!(lines[5], "sqsguard: 1 error, 1 warning, 0 infos in 0 files (0 skipped, 7 API calls)");
}

/// Microsoft's SARIF Multitool, as tests/run.sh installs it (the
/// platform's self-contained binary, run directly: the npm wrapper hands
/// its arguments to a shell).
fn multitool() -> Option<PathBuf> {
    let platform = match std::env::consts::OS {
        "linux" => "linux",
        "macos" => "darwin",
        "windows" => "win32",
        _ => return None,
    };
    let exe = if cfg!(windows) { "Sarif.Multitool.exe" } else { "Sarif.Multitool" };
    let path = common::root().join(format!("tests/node/node_modules/@microsoft/sarif-multitool-{platform}/{exe}"));
    path.is_file().then_some(path)
}

fn missing(what: &str) {
    let message = format!("SKIPPED: {what} is not installed (tests/run.sh installs it)");
    eprintln!("\n*** {message} ***\n");
    assert!(std::env::var_os("CI").is_none(), "{message}");
}

/// The Multitool's findings on `doc` at level error or warning, under the
/// SARIF rules and GitHub's ingestion rules ("Ghas").
fn multitool_problems(tool: &Path, doc: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("sqsguard.sarif");
    let output = dir.path().join("validation.sarif");
    std::fs::write(&input, doc).unwrap();
    let out = Command::new(tool)
        .arg("validate")
        .arg(&input)
        .arg("--output")
        .arg(&output)
        .args(["--log", "ForceOverwrite", "--rule-kind", "Sarif;Ghas"])
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .output()
        .expect("run the SARIF Multitool");
    let log = || format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the Multitool failed:\n{}", log());
    let text = std::fs::read_to_string(&output).unwrap_or_else(|e| panic!("no validation log ({e}):\n{}", log()));
    let validation: Value = serde_json::from_str(&text).unwrap();
    let run = &validation["runs"][0];
    assert_eq!(run["invocations"][0]["executionSuccessful"], true, "{}", log());
    run["results"]
        .as_array()
        .into_iter()
        .flatten()
        // A result's level defaults to warning.
        .filter(|r| matches!(r["level"].as_str().unwrap_or("warning"), "error" | "warning"))
        .map(|r| format!("{} {}: {}", r["level"], r["ruleId"], r["message"]))
        .collect()
}

#[test]
fn sarif_multitool_reports_no_error() {
    let Some(tool) = multitool() else { return missing("the SARIF Multitool (npm @microsoft/sarif-multitool)") };
    let sarif = stdout(&lint(&[LEGACY], "sarif"));
    let problems = multitool_problems(&tool, &sarif);
    assert!(problems.is_empty(), "the SARIF Multitool on {LEGACY}:\n{}", problems.join("\n"));

    // And it does report what is wrong.
    let mut bad: Value = serde_json::from_str(&sarif).unwrap();
    bad["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] = json!(0);
    let problems = multitool_problems(&tool, &bad.to_string());
    assert!(problems.iter().any(|p| p.contains("startLine")), "{problems:?}");
}

#[test]
fn github_annotations_name_files_as_the_pull_request_does() {
    let out = common::sqsguard(&["lint", "--format", "github", "./examples/cloudformation/legacy-worker.yaml"]);
    let text = common::stdout(&out);
    assert!(text.contains("file=examples/cloudformation/legacy-worker.yaml,line=16,"), "{text}");
    assert!(!text.contains("file=./"), "{text}");
}

#[test]
fn findings_that_differ_only_by_a_name_with_digits_have_different_fingerprints() {
    // Two consumers of one queue: SQS001 once per consumer, the messages
    // differing only in the consumer's and function's names.
    let dir = tempfile::tempdir().unwrap();
    let template = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 60\n      ReceiveMessageWaitTimeSeconds: 20\n"
        .to_string()
        + &(1..=2)
            .map(|i| {
                format!(
                    "  Fn{i}:\n    Type: AWS::Lambda::Function\n    Properties:\n      Runtime: python3.12\n      Handler: a.h\n      Role: arn:aws:iam::123456789012:role/r\n      Timeout: 20\n      Code: {{ZipFile: x}}\n  M{i}:\n    Type: AWS::Lambda::EventSourceMapping\n    Properties:\n      EventSourceArn: !GetAtt Q.Arn\n      FunctionName: !Ref Fn{i}\n      BatchSize: 1\n"
                )
            })
            .collect::<String>();
    let path = dir.path().join("two.yaml");
    std::fs::write(&path, template).unwrap();
    let out = common::sqsguard(&["lint", "--format", "sarif", "--select", "SQS001", path.to_str().unwrap()]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let prints: Vec<&str> = doc["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["partialFingerprints"]["sqsguard/v1"].as_str().unwrap())
        .collect();
    assert_eq!(prints.len(), 2, "{doc}");
    assert_ne!(prints[0], prints[1]);
}

/// SARIF of runs that left something out: an audit with a pair not read
/// and one read in part (through `report merge`), and a lint with a file
/// named and not linted.
fn incomplete_sarif() -> Vec<(String, Value)> {
    let dir = tempfile::tempdir().unwrap();
    let shard = json!({
        "version": 1,
        "findings": [],
        "summary": {
            "files": 0, "skipped": 0, "errors": 0, "warnings": 0, "infos": 0, "api_calls": 3,
            "unaudited": [
                {"account": "111111111111", "region": "us-east-1", "partial": false, "reason": "AccessDenied"},
                {"account": "111111111111", "region": "eu-west-1", "partial": true, "reason": "1 operation refused",
                 "apis": ["DescribeAlarms"], "rules": ["SQS015"]}
            ]
        }
    });
    std::fs::write(dir.path().join("shard.json"), shard.to_string()).unwrap();
    std::fs::write(dir.path().join("serverless.ts"), "export default {};\n").unwrap();
    ["report merge --format sarif shard.json", "lint --format sarif serverless.ts"]
        .iter()
        .map(|args| {
            let out = sqsguard_in(dir.path(), &args.split(' ').collect::<Vec<_>>());
            assert_eq!(out.status.code(), Some(1), "{args}");
            let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
            assert_eq!(doc["runs"][0]["invocations"][0]["executionSuccessful"], false, "{args}: {doc:#}");
            (args.to_string(), doc)
        })
        .collect()
}

#[test]
fn sarif_of_an_incomplete_run_is_valid_sarif() {
    let validator = oasis_validator();
    let docs = incomplete_sarif();
    for (name, doc) in &docs {
        let errors = schema_errors(&validator, doc);
        assert!(errors.is_empty(), "{name}: SARIF does not match the schema:\n{}", errors.join("\n"));
    }
    let Some(tool) = multitool() else { return missing("the SARIF Multitool (npm @microsoft/sarif-multitool)") };
    for (name, doc) in &docs {
        let problems = multitool_problems(&tool, &doc.to_string());
        assert!(problems.is_empty(), "the SARIF Multitool on {name}:\n{}", problems.join("\n"));
    }
}
