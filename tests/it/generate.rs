//! `sqsguard generate`: the shipped examples regenerate byte for byte, the
//! output lints clean, specs that would break a rule are refused with the
//! rule's code at the spec's line, invalid specs point at the offending
//! line, and nothing is ever overwritten without --force.
//!
//! After an intended change to the templates, regenerate the examples with
//! `SQSGUARD_BLESS=1 cargo test --test generate` and review the diff.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

const EXAMPLES: &[&str] = &["mcp-probe", "high-volume", "ecs-worker", "fifo-commands", "fan-in"];

fn generate(args: &[&str], cwd: &Path) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .arg("generate")
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, prefix: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).unwrap() {
            let p = entry.unwrap().path();
            let rel = prefix.join(p.file_name().unwrap());
            if p.is_dir() { walk(&p, &rel, out) } else { out.push(rel) }
        }
    }
    let mut out = Vec::new();
    walk(dir, Path::new(""), &mut out);
    out.sort();
    out
}

#[test]
fn examples_regenerate_byte_for_byte() {
    let root = common::root();
    for name in EXAMPLES {
        let spec = root.join(format!("examples/generate/{name}.yaml"));
        let committed = root.join(format!("examples/generate/{name}"));
        let fresh = tempfile::tempdir().unwrap();
        for (target, format, sub) in [
            ("cloudformation", "yaml", "cloudformation"),
            ("cloudformation", "json", "cloudformation"),
            ("terraform", "yaml", "terraform"),
        ] {
            let out_dir = fresh.path().join(sub);
            let o = generate(
                &[
                    spec.to_str().unwrap(),
                    "--target",
                    target,
                    "--format",
                    format,
                    "--output",
                    out_dir.to_str().unwrap(),
                ],
                root,
            );
            assert_eq!(o.status.code(), Some(0), "{name} {target} {format}: {}", stderr(&o));
        }
        if std::env::var_os("SQSGUARD_BLESS").is_some() {
            let _ = fs::remove_dir_all(&committed);
            copy_dir(fresh.path(), &committed);
            continue;
        }
        assert_eq!(files(fresh.path()), files(&committed), "{name}: the set of generated files changed");
        for f in files(fresh.path()) {
            let got = fs::read_to_string(fresh.path().join(&f)).unwrap();
            let want = fs::read_to_string(committed.join(&f)).unwrap();
            assert!(
                got == want,
                "examples/generate/{name}/{} differs from a fresh generation (SQSGUARD_BLESS=1 to accept)",
                f.display()
            );
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() { copy_dir(&p, &dest) } else { fs::copy(&p, &dest).map(|_| ()).unwrap() }
    }
}

#[test]
fn generated_examples_lint_clean() {
    let out = common::sqsguard(&["lint", "--format", "json", "examples/generate"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["findings"], serde_json::json!([]), "{doc:#}");
    assert_eq!(doc["summary"]["files"], 25, "5 examples x (YAML + JSON + 3 .tf files)");
}

#[test]
fn outputs_carry_the_computed_values() {
    let root = common::root();
    let read = |p: &str| fs::read_to_string(root.join(p)).unwrap();
    let probe = read("examples/generate/mcp-probe/cloudformation/mcp-probe-results.yaml");
    assert!(probe.contains("VisibilityTimeout: 90"), "6 x 15 s + 0 s");
    assert!(
        probe.contains("QueueName: \"mcp-probe-results.fifo\"")
            && probe.contains("QueueName: \"mcp-probe-results-dlq.fifo\"")
    );
    assert!(probe.contains("ContentBasedDeduplication: false"), "the payload has a UUID and a timestamp");
    assert!(probe.contains("Value: \"{endpointId}-{probeRunId}\""), "the dedup id format is an output");
    assert!(probe.contains("- ReportBatchItemFailures"));
    assert!(probe.contains("ReceiveMessageWaitTimeSeconds: 20"));
    assert!(probe.contains("aws:SecureTransport: \"false\""));
    assert!(probe.contains("MetricName: ApproximateAgeOfOldestMessage") && probe.contains("Threshold: 300"));
    let volume = read("examples/generate/high-volume/terraform/variables.tf");
    assert!(volume.contains("default     = 185"), "6 x 30 s + 5 s:\n{volume}");
    let worker = read("examples/generate/ecs-worker/terraform/outputs.tf");
    assert!(worker.contains("value       = 30"), "heartbeat = 90 s / 3:\n{worker}");
    let commands = read("examples/generate/fifo-commands/cloudformation/device-commands.yaml");
    assert!(
        commands.contains("ContentBasedDeduplication: true"),
        "a fully deterministic payload may deduplicate by content"
    );
}

fn spec_file(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("spec.yaml");
    fs::write(&p, text).unwrap();
    p
}

#[test]
fn specs_that_would_break_a_rule_are_refused_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "pipeline: p\nqueue: {fifo: true, content_based_deduplication: true}\nconsumer: {type: lambda, function_timeout: 15s}\npayload:\n  fields: {id: string, at: timestamp}\n  group_id: \"{id}\"\n",
            "SQS003",
            "spec.yaml:2:50",
        ),
        (
            "pipeline: p\nconsumer: {type: lambda, function_timeout: 15s}\ndlq: {max_receive_count: 2}\n",
            "SQS008",
            "spec.yaml:3:26",
        ),
        (
            "pipeline: p\nqueue: {retention: 14d}\nconsumer: {type: ecs, processing_time_p99: 30s}\n",
            "SQS007",
            "spec.yaml:2:20",
        ),
        (
            "pipeline: p\nqueue: {fifo: true}\nconsumer: {type: lambda, function_timeout: 5s, batch_size: 20}\npayload: {fields: {id: string}, dedup_id: \"{id}\", group_id: \"{id}\"}\n",
            "SQS010",
            "spec.yaml:3:60",
        ),
        ("pipeline: p\nconsumer: {type: other, processing_time_p99: 7h}\n", "SQS012", "spec.yaml:2:46"),
    ];
    for (text, code, at) in cases {
        let spec = spec_file(dir.path(), text);
        let out_dir = dir.path().join("out");
        let o = generate(
            &[spec.to_str().unwrap(), "--target", "terraform", "--output", out_dir.to_str().unwrap()],
            dir.path(),
        );
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{code}: {err}");
        assert!(err.contains(code) && err.contains(at), "{code} at {at}:\n{err}");
        assert!(err.contains("nothing was written"), "{err}");
        assert!(!out_dir.exists(), "{code}: a refused spec wrote files");
    }
}

#[test]
fn invalid_specs_exit_2_pointing_at_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "pipeline: p\nqueue: {visiblity: 30}\nconsumer: {type: ecs, processing_time_p99: 30s}\n",
            "spec.yaml:2:9",
            "visiblity",
        ),
        (
            "pipeline: p\nconsumer:\n  type: lambda\n  function_timeout: 15 seconds\n",
            "spec.yaml:4:21",
            "function_timeout",
        ),
        ("pipeline: p\nconsumer: {type: lambda}\n", "spec.yaml:2", "function_timeout"),
        (
            "pipeline: p\nqueue: {fifo: true}\nconsumer: {type: ecs, processing_time_p99: 30s}\n",
            "spec.yaml",
            "group_id",
        ),
        ("pipeline: [unclosed\n", "spec.yaml:", "YAML syntax error"),
    ];
    for (text, at, words) in cases {
        let spec = spec_file(dir.path(), text);
        let o = generate(&[spec.to_str().unwrap(), "--target", "cloudformation"], dir.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{text}: {err}");
        assert!(err.contains(at) && err.contains(words), "expected {at} and {words:?} in:\n{err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn nothing_is_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let spec = common::root().join("examples/generate/ecs-worker.yaml");
    let out = dir.path().join("tf");
    let args = |force: bool| {
        let mut a = vec![
            spec.to_str().unwrap().to_string(),
            "--target".into(),
            "terraform".into(),
            "--output".into(),
            out.to_str().unwrap().into(),
        ];
        if force {
            a.push("--force".into());
        }
        a
    };
    let run = |a: Vec<String>| generate(&a.iter().map(String::as_str).collect::<Vec<_>>(), dir.path());
    assert_eq!(run(args(false)).status.code(), Some(0));
    fs::write(out.join("main.tf"), "# mine\n").unwrap();
    let second = run(args(false));
    assert_eq!(second.status.code(), Some(2));
    assert!(stderr(&second).contains("--force"));
    assert_eq!(fs::read_to_string(out.join("main.tf")).unwrap(), "# mine\n", "untouched");
    assert_eq!(run(args(true)).status.code(), Some(0));
    assert_ne!(fs::read_to_string(out.join("main.tf")).unwrap(), "# mine\n");
}

#[test]
fn values_cannot_break_out_of_their_strings() {
    // YAML 1.1 booleans and octal-looking numbers stay strings, and HCL
    // interpolation sequences stay text.
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_file(
        dir.path(),
        "pipeline: p\nconsumer: {type: ecs, processing_time_p99: 30s}\ntags: {enabled: \"yes\", code: \"012\", note: \"${var.x} %{if}\", quote: 'a \"b\" c: d'}\n",
    );
    let cfn = generate(&[spec.to_str().unwrap(), "--target", "cloudformation"], dir.path());
    assert_eq!(cfn.status.code(), Some(0), "{}", stderr(&cfn));
    let yaml = String::from_utf8(cfn.stdout).unwrap();
    let file = sqsguard::source::SourceFile::new("t.yaml", yaml.clone());
    let root = sqsguard::syntax::yaml::parse(&file).unwrap();
    let tags = root.get("Resources").unwrap().get("Queue").unwrap().get("Properties").unwrap().get("Tags").unwrap();
    let values: Vec<&str> = tags.as_seq().unwrap().iter().map(|t| t.get("Value").unwrap().as_str().unwrap()).collect();
    assert_eq!(values, ["yes", "012", "${var.x} %{if}", "a \"b\" c: d"], "{yaml}");

    let tf = generate(&[spec.to_str().unwrap(), "--target", "terraform"], dir.path());
    assert_eq!(tf.status.code(), Some(0), "{}", stderr(&tf));
    let hcl = String::from_utf8(tf.stdout).unwrap();
    assert!(hcl.contains(r#""note" = "$${var.x} %%{if}""#), "{hcl}");
}

#[test]
fn custom_templates_replace_the_builtin_ones_and_are_still_linted() {
    let dir = tempfile::tempdir().unwrap();
    let spec = common::root().join("examples/generate/ecs-worker.yaml");
    let templates = dir.path().join("templates");
    fs::create_dir(&templates).unwrap();
    // A "customised" template that forgets the dead-letter queue's alarm
    // and long polling: the self-check refuses to write it.
    let builtin = fs::read_to_string(common::root().join("templates/cloudformation.yaml.hbs")).unwrap();
    let broken =
        builtin.replace("ReceiveMessageWaitTimeSeconds: {{wait_time_seconds}}", "ReceiveMessageWaitTimeSeconds: 0");
    fs::write(templates.join("cloudformation.yaml.hbs"), broken).unwrap();
    let o = generate(
        &[spec.to_str().unwrap(), "--target", "cloudformation", "--templates", templates.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("SQS006"), "{}", stderr(&o));
    // A misspelt field is an error in strict mode, not an empty string.
    fs::write(templates.join("cloudformation.yaml.hbs"), "Description: {{yaml descripton}}\n").unwrap();
    let o = generate(
        &[spec.to_str().unwrap(), "--target", "cloudformation", "--templates", templates.to_str().unwrap()],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("descripton"), "{}", stderr(&o));
}

#[test]
fn output_passes_the_project_config_where_it_is_written() {
    // A project that asks for 8 x the function timeout and at least 6
    // receives: generated output must pass `lint` there, not only with the
    // defaults.
    let project = tempfile::tempdir().unwrap();
    fs::write(project.path().join(".sqsguard.yaml"), "rules:\n  SQS001: {multiplier: 8}\n").unwrap();
    let spec = common::root().join("examples/generate/mcp-probe.yaml");
    let out = project.path().join("infra");
    let o = generate(&[spec.to_str().unwrap(), "--target", "cloudformation", "--output", "infra"], project.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let template = fs::read_to_string(out.join("mcp-probe-results.yaml")).unwrap();
    // 8 x 15 s function timeout + 0 s window.
    assert!(template.contains("VisibilityTimeout: 120"), "{template}");
    let lint = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["lint", "infra"])
        .current_dir(project.path())
        .output()
        .unwrap();
    assert_eq!(lint.status.code(), Some(0), "{}", String::from_utf8_lossy(&lint.stdout));

    // The spec's 5 receives are below the project's minimum: refused, as
    // `lint` would reject the output, and nothing is written.
    fs::write(project.path().join(".sqsguard.yaml"), "rules:\n  SQS008: {minimum: 6}\n").unwrap();
    let o = generate(&[spec.to_str().unwrap(), "--target", "terraform", "--output", "tf"], project.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("SQS008") && stderr(&o).contains("< 6"), "{}", stderr(&o));
    assert!(!project.path().join("tf").exists());

    // An invalid config there is a usage error, as for `lint`.
    fs::write(project.path().join(".sqsguard.yaml"), "rules: [oops\n").unwrap();
    let o = generate(&[spec.to_str().unwrap(), "--target", "terraform", "--output", "tf"], project.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The refusals of a spec, through the library: (code, line, column, message).
fn refusals_of(text: &str, config: &sqsguard::config::Config) -> Vec<(String, usize, usize, String)> {
    use sqsguard::generate::{Format, Request, Target};
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_file(dir.path(), text);
    let req = Request { spec: &spec, target: Target::CloudFormation, format: Format::Yaml, templates: None, config };
    match sqsguard::generate::generate(&req) {
        Ok(_) => Vec::new(),
        Err(e @ sqsguard::error::Error::Refused { .. }) => e
            .findings()
            .iter()
            .map(|f| {
                let at = f.origin.location().unwrap();
                assert_eq!(at.file, spec.display().to_string(), "{}: located in the spec", f.code());
                (f.code().to_string(), at.line, at.column, f.full_message().into_owned())
            })
            .collect(),
        Err(e) => panic!("not a refusal: {e}"),
    }
}

#[test]
fn each_refusal_is_its_rules_finding_at_the_spec_value_that_causes_it() {
    // (spec, code, line, column of the value, the spec's key and the rule's words)
    let cases = [
        (
            "pipeline: p\nqueue: {fifo: true, content_based_deduplication: true}\nconsumer: {type: lambda, function_timeout: 15s}\npayload:\n  fields: {id: string, at: timestamp}\n  group_id: \"{id}\"\n",
            "SQS003",
            (2, 50),
            "queue.content_based_deduplication: ContentBasedDeduplication is true but the payload declared in the spec is not deterministic (at is timestamp)",
        ),
        (
            "pipeline: p\nqueue: {retention: 14d}\nconsumer: {type: ecs, processing_time_p99: 30s}\n",
            "SQS007",
            (2, 20),
            "queue.retention: dead-letter queue p-dlq keeps messages 1209600 s and source queue p keeps them 1209600 s",
        ),
        (
            "pipeline: p\nqueue: {retention: 1d}\nconsumer: {type: ecs, processing_time_p99: 30s}\ndlq:\n  retention: 12h\n",
            "SQS007",
            (5, 14),
            "dlq.retention: dead-letter queue p-dlq keeps messages 43200 s and source queue p keeps them 86400 s",
        ),
        (
            "pipeline: p\nconsumer: {type: lambda, function_timeout: 15s}\ndlq: {max_receive_count: 2}\n",
            "SQS008",
            (3, 26),
            "dlq.max_receive_count: maxReceiveCount 2 < 3",
        ),
        (
            "pipeline: p\nqueue: {fifo: true}\nconsumer: {type: lambda, function_timeout: 5s, batch_size: 20}\npayload: {fields: {id: string}, dedup_id: \"{id}\", group_id: \"{id}\"}\n",
            "SQS010",
            (3, 60),
            "consumer.batch_size: consumer p-consumer of FIFO queue p.fifo has BatchSize 20: FIFO event sources accept at most 10",
        ),
        (
            "pipeline: p\nconsumer: {type: other, processing_time_p99: 7h}\n",
            "SQS012",
            (2, 46),
            "consumer.processing_time_p99, from which VisibilityTimeout is 2 x 25200 s p99 processing time: VisibilityTimeout 50400 is outside 0..43200",
        ),
        (
            "pipeline: p\nqueue:\n  delay: 20m\nconsumer: {type: ecs, processing_time_p99: 30s}\n",
            "SQS012",
            (3, 10),
            "queue.delay: DelaySeconds 1200 is outside 0..900",
        ),
        (
            "pipeline: p\nconsumer: {type: ecs, processing_time_p99: 30s}\nalarms: {dlq_depth: false}\n",
            "SQS015",
            (3, 21),
            "alarms.dlq_depth: dead-letter queue p-dlq (of p) has no CloudWatch alarm on ApproximateNumberOfMessagesVisible > 0",
        ),
    ];
    for (text, code, (line, column), words) in cases {
        let got = refusals_of(text, &Default::default());
        assert_eq!(got.len(), 1, "{code}: one refusal, not {got:#?}");
        let (got_code, got_line, got_column, message) = &got[0];
        assert_eq!((got_code.as_str(), *got_line, *got_column), (code, line, column), "{message}");
        assert!(message.starts_with(words), "{code}: {message}");
    }
}

#[test]
fn the_rules_options_decide_what_is_refused() {
    // SQS001's multiplier sizes VisibilityTimeout: 48 x 900 s is exactly
    // SQS's 43200 s maximum, 49 x 900 s is over it (SQS012).
    let spec = "pipeline: p\nconsumer: {type: lambda, function_timeout: 15m}\ndlq: {max_receive_count: 5}\n";
    let project = tempfile::tempdir().unwrap();
    fs::write(project.path().join("spec.yaml"), spec).unwrap();
    let run = |config: &str| {
        fs::write(project.path().join(".sqsguard.yaml"), config).unwrap();
        generate(&["spec.yaml", "--target", "terraform"], project.path())
    };
    let inside = run("rules:\n  SQS001: {multiplier: 48}\n");
    assert_eq!(inside.status.code(), Some(0), "{}", stderr(&inside));
    assert!(String::from_utf8_lossy(&inside.stdout).contains("43200"));
    let outside = run("rules:\n  SQS001: {multiplier: 49}\n");
    assert_eq!(outside.status.code(), Some(1), "{}", stderr(&outside));
    let err = stderr(&outside);
    assert!(err.contains("SQS012") && err.contains("spec.yaml:2:44") && err.contains("49 x 900 s"), "{err}");

    // SQS008's minimum: the spec's 5 receives pass a minimum of 5 and are
    // refused under a minimum of 6, at the spec's value.
    assert_eq!(run("rules:\n  SQS008: {minimum: 5}\n").status.code(), Some(0));
    let outside = run("rules:\n  SQS008: {minimum: 6}\n");
    let err = stderr(&outside);
    assert_eq!(outside.status.code(), Some(1), "{err}");
    assert!(err.contains("SQS008") && err.contains("spec.yaml:3:26") && err.contains("5 < 6"), "{err}");

    // A rule the project switches off refuses nothing: `lint` would pass
    // the output there.
    fs::write(project.path().join("spec.yaml"), spec.replace("max_receive_count: 5", "max_receive_count: 2")).unwrap();
    assert_eq!(run("rules:\n  SQS008: {minimum: 3}\n").status.code(), Some(1));
    let ignored = run("ignore: [SQS008]\n");
    assert_eq!(ignored.status.code(), Some(0), "{}", stderr(&ignored));
}

/// A worker written with exactly the receive settings the ecs-worker
/// example's outputs name (its wait, batch size, socket timeout and
/// heartbeat), beside the generated template, lints clean; the same
/// worker with a socket timeout no longer than the wait gets SQS212, so
/// the code rules did read it.
#[test]
fn a_worker_written_with_the_generated_outputs_lints_clean() {
    let template = common::root().join("examples/generate/ecs-worker/cloudformation/video-transcode.yaml");
    let text = fs::read_to_string(&template).unwrap();
    // An output's value: the `Value: "N"` after its name.
    let output = |name: &str| -> u64 {
        let at = text.find(&format!("  {name}:\n")).unwrap_or_else(|| panic!("no output {name}"));
        let value = text[at..].lines().find_map(|l| l.trim().strip_prefix("Value: ")).unwrap();
        value.trim_matches('"').parse().unwrap()
    };
    let (wait, batch, socket, beat, visibility) = (
        output("ReceiveWaitTimeSeconds"),
        output("ReceiveMaxNumberOfMessages"),
        output("HttpSocketTimeoutSeconds"),
        output("HeartbeatIntervalSeconds"),
        output("VisibilityTimeout"),
    );
    let worker = |socket: u64| {
        format!(
            "import time\n\nimport boto3\nfrom botocore.config import Config\n\n\
             URL = \"https://sqs.us-east-1.amazonaws.com/123456789012/video-transcode\"\n\
             sqs = boto3.client(\"sqs\", config=Config(read_timeout={socket}))\n\n\n\
             def poll():\n    while True:\n        \
             out = sqs.receive_message(QueueUrl=URL, MaxNumberOfMessages={batch}, WaitTimeSeconds={wait})\n        \
             for message in out.get(\"Messages\", []):\n            \
             sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=message[\"ReceiptHandle\"], VisibilityTimeout={visibility})\n            \
             time.sleep({beat})\n            \
             sqs.delete_message(QueueUrl=URL, ReceiptHandle=message[\"ReceiptHandle\"])\n"
        )
    };
    let dir = common::scratch();
    fs::copy(&template, dir.path().join("template.yaml")).unwrap();
    fs::write(dir.path().join("worker.py"), worker(socket)).unwrap();
    let outcome = common::lint(dir.path());
    assert_eq!(outcome.files, 2, "{}", common::render(&outcome));
    assert!(outcome.findings.is_empty() && outcome.notes.is_empty(), "{}", common::render(&outcome));
    fs::write(dir.path().join("worker.py"), worker(wait)).unwrap();
    let codes: Vec<&str> =
        common::lint(dir.path()).findings.iter().map(|f| f.code()).collect::<Vec<_>>().leak().to_vec();
    assert_eq!(codes, ["SQS212"]);
}
