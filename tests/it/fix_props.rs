//! Property test of `--fix`: a queue, its dead-letter queue, a function and
//! the mapping between them, written in every style sqsguard fixes (YAML
//! block and flow, quoted and plain scalars, CloudFormation JSON, HCL and
//! `*.tf.json`) with values drawn across each rule's edge. Fixing until
//! nothing changes must end, within `--fix`'s passes, with:
//! - the file still read (no SQS000);
//! - nothing left that a fix of the mode would change;
//! - no finding that was not there before (but SQS015 on a dead-letter
//!   queue SQS004's fix adds, which docs/fixing.md allows);
//! - with only safe fixes, every finding of a rule with a safe fix gone
//!   unless the fix cannot exist (a visibility timeout over 12 hours).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde_json::{Value, json};
use sqsguard::config::Config;

use sqsguard::lint;

#[derive(Clone, Copy, Debug)]
enum Style {
    YamlBlock,
    /// Block resources with flow Properties.
    YamlFlow,
    /// Each resource a flow mapping of its own (`Jobs: {Type: ..., Properties: {...}}`).
    YamlFlowResource,
    /// The whole document one flow mapping (`{Resources: {Jobs: {...}}}`),
    /// which is YAML but starts as JSON does.
    YamlFlowDocument,
    Json,
    Hcl,
    TfJson,
}

#[derive(Clone, Copy, Debug)]
enum Quote {
    Plain,
    Single,
    Double,
}

/// How the file's lines end (YAML 1.2 and LSP: LF, CRLF or a lone CR).
#[derive(Clone, Copy, Debug)]
enum Breaks {
    Lf,
    CrLf,
    /// A classic Mac file: every line ends with a CR alone.
    Cr,
    /// LF lines, with one lone CR early on: pasted into a quoted
    /// Description in YAML, a line break of its own in JSON.
    LoneCr,
}

#[derive(Clone, Debug)]
struct Case {
    style: Style,
    breaks: Breaks,
    quote: Quote,
    timeout: u64,
    window: Option<u64>,
    visibility: Option<u64>,
    wait: Option<u64>,
    retention: Option<u64>,
    /// The dead-letter queue's retention and the maxReceiveCount, when the
    /// queue has one.
    dead_letter: Option<(Option<u64>, u64)>,
    batch_size: Option<u64>,
    response_types: bool,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(vec![
            Style::YamlBlock,
            Style::YamlFlow,
            Style::YamlFlowResource,
            Style::YamlFlowDocument,
            Style::Json,
            Style::Hcl,
            Style::TfJson,
        ]),
        prop::sample::select(vec![Quote::Plain, Quote::Single, Quote::Double]),
        prop::sample::select(vec![Breaks::Lf, Breaks::CrLf, Breaks::Cr, Breaks::LoneCr]),
        prop_oneof![8 => 1u64..=120, 2 => 121u64..=900],
        prop::option::of(prop_oneof![0u64..=5, 6u64..=300]),
        prop::option::of(prop_oneof![0u64..=60, 61u64..=43_200]),
        prop::option::of(0u64..=20),
        prop::option::of(60u64..=1_209_600),
        prop::option::weighted(0.8, (prop::option::of(60u64..=1_209_600), 1u64..=10)),
        prop::option::of(prop_oneof![1u64..=10, 11u64..=10_000]),
        any::<bool>(),
    )
        .prop_map(
            |(
                style,
                quote,
                breaks,
                timeout,
                window,
                visibility,
                wait,
                retention,
                dead_letter,
                batch_size,
                response_types,
            )| {
                Case {
                    style,
                    breaks,
                    quote,
                    timeout,
                    window,
                    visibility,
                    wait,
                    retention,
                    dead_letter,
                    batch_size,
                    response_types,
                }
            },
        )
}

impl Case {
    fn file_name(&self) -> &'static str {
        match self.style {
            Style::YamlBlock | Style::YamlFlow | Style::YamlFlowResource | Style::YamlFlowDocument => "template.yaml",
            Style::Json => "template.json",
            Style::Hcl => "main.tf",
            Style::TfJson => "main.tf.json",
        }
    }

    /// A number as this case writes it in YAML or HCL.
    fn number(&self, n: u64) -> String {
        match (self.quote, self.style) {
            (Quote::Plain, _) => n.to_string(),
            (Quote::Single, Style::YamlBlock | Style::YamlFlow | Style::YamlFlowResource | Style::YamlFlowDocument) => {
                format!("'{n}'")
            }
            _ => format!("\"{n}\""),
        }
    }

    fn text(&self) -> String {
        let text = self.lf_text();
        match (self.breaks, self.style) {
            (Breaks::Lf, _) => text,
            (Breaks::CrLf, _) => text.replace('\n', "\r\n"),
            // HCL ends lines with LF or CRLF only.
            (Breaks::Cr | Breaks::LoneCr, Style::Hcl) => text,
            (Breaks::Cr, _) => text.replace('\n', "\r"),
            (Breaks::LoneCr, Style::Json | Style::TfJson) => text.replacen('\n', "\r", 1),
            (Breaks::LoneCr, Style::YamlFlowDocument) => text.replacen(
                "{AWSTemplateFormatVersion: '2010-09-09', ",
                "{Description: 'pasted\r  text', AWSTemplateFormatVersion: '2010-09-09', ",
                1,
            ),
            (Breaks::LoneCr, _) => text.replacen("\nResources:", "\nDescription: 'pasted\r  text'\nResources:", 1),
        }
    }

    fn lf_text(&self) -> String {
        match self.style {
            Style::YamlBlock | Style::YamlFlow | Style::YamlFlowResource | Style::YamlFlowDocument => self.yaml(),
            Style::Json => serde_json::to_string_pretty(&self.template_json()).unwrap() + "\n",
            Style::Hcl => self.hcl(),
            Style::TfJson => serde_json::to_string_pretty(&self.terraform_json()).unwrap() + "\n",
        }
    }

    /// The properties of each resource in CloudFormation's words, each
    /// value as YAML text.
    fn properties(&self) -> Vec<(&'static str, Vec<(&'static str, String)>)> {
        let mut queue = Vec::new();
        let push = |props: &mut Vec<(&'static str, String)>, key, value: Option<u64>| {
            if let Some(v) = value {
                props.push((key, self.number(v)));
            }
        };
        push(&mut queue, "VisibilityTimeout", self.visibility);
        push(&mut queue, "ReceiveMessageWaitTimeSeconds", self.wait);
        push(&mut queue, "MessageRetentionPeriod", self.retention);
        let mut dlq = Vec::new();
        if let Some((retention, max_receive)) = self.dead_letter {
            let redrive = match self.style {
                Style::YamlFlow | Style::YamlFlowResource | Style::YamlFlowDocument => format!(
                    "{{deadLetterTargetArn: !GetAtt JobsDLQ.Arn, maxReceiveCount: {}}}",
                    self.number(max_receive)
                ),
                _ => format!(
                    "\n        deadLetterTargetArn: !GetAtt JobsDLQ.Arn\n        maxReceiveCount: {}",
                    self.number(max_receive)
                ),
            };
            queue.push(("RedrivePolicy", redrive));
            push(&mut dlq, "MessageRetentionPeriod", retention);
        }
        let worker = vec![
            ("Runtime", "python3.12".to_string()),
            ("Handler", "index.handler".to_string()),
            ("Role", "arn:aws:iam::123456789012:role/worker".to_string()),
            ("Code", "{ZipFile: 'def handler(event, context): pass'}".to_string()),
            ("Timeout", self.number(self.timeout)),
        ];
        let mut mapping =
            vec![("EventSourceArn", "!GetAtt Jobs.Arn".to_string()), ("FunctionName", "!Ref Worker".to_string())];
        push(&mut mapping, "BatchSize", self.batch_size);
        push(&mut mapping, "MaximumBatchingWindowInSeconds", self.window);
        if self.response_types {
            mapping.push(("FunctionResponseTypes", "[ReportBatchItemFailures]".to_string()));
        }
        let mut out = vec![("Jobs", queue)];
        if self.dead_letter.is_some() {
            out.push(("JobsDLQ", dlq));
        }
        out.push(("Worker", worker));
        out.push(("Mapping", mapping));
        out
    }

    fn yaml(&self) -> String {
        let kinds = |id: &str| match id {
            "Jobs" | "JobsDLQ" => "AWS::SQS::Queue",
            "Worker" => "AWS::Lambda::Function",
            _ => "AWS::Lambda::EventSourceMapping",
        };
        let flow = |id: &str, props: &[(&str, String)]| {
            let inner: Vec<String> = props.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let props =
                if inner.is_empty() { String::new() } else { format!(", Properties: {{{}}}", inner.join(", ")) };
            format!("{id}: {{Type: {}{props}}}", kinds(id))
        };
        if let Style::YamlFlowDocument = self.style {
            let resources: Vec<String> = self.properties().iter().map(|(id, props)| flow(id, props)).collect();
            return format!(
                "{{AWSTemplateFormatVersion: '2010-09-09', Resources: {{\n  {}\n}}}}\n# Generated by tests/fix_props.rs.\n",
                resources.join(",\n  ")
            );
        }
        let mut out =
            String::from("AWSTemplateFormatVersion: '2010-09-09'\n# Generated by tests/fix_props.rs.\nResources:\n");
        for (id, props) in self.properties() {
            if let Style::YamlFlowResource = self.style {
                out.push_str(&format!("  {}\n", flow(id, &props)));
                continue;
            }
            out.push_str(&format!("  {id}:\n    Type: {}\n", kinds(id)));
            if props.is_empty() {
                continue;
            }
            match self.style {
                Style::YamlFlow => {
                    let inner: Vec<String> = props.iter().map(|(k, v)| format!("{k}: {v}")).collect();
                    out.push_str(&format!("    Properties: {{{}}}\n", inner.join(", ")));
                }
                _ => {
                    out.push_str("    Properties:\n");
                    for (k, v) in props {
                        let sep = if v.starts_with('\n') { ":" } else { ": " };
                        out.push_str(&format!("      {k}{sep}{v}\n"));
                    }
                }
            }
        }
        out
    }

    /// A number as this case writes it in JSON: a number, or a string.
    fn json_number(&self, n: u64) -> Value {
        match self.quote {
            Quote::Plain => json!(n),
            _ => json!(n.to_string()),
        }
    }

    fn template_json(&self) -> Value {
        let n = |v: Option<u64>| v.map(|v| self.json_number(v));
        let mut queue = serde_json::Map::new();
        put(&mut queue, "VisibilityTimeout", n(self.visibility));
        put(&mut queue, "ReceiveMessageWaitTimeSeconds", n(self.wait));
        put(&mut queue, "MessageRetentionPeriod", n(self.retention));
        let mut resources = serde_json::Map::new();
        if let Some((retention, max_receive)) = self.dead_letter {
            queue.insert(
                "RedrivePolicy".into(),
                json!({"deadLetterTargetArn": {"Fn::GetAtt": ["JobsDLQ", "Arn"]}, "maxReceiveCount": self.json_number(max_receive)}),
            );
            let mut dlq = serde_json::Map::new();
            put(&mut dlq, "MessageRetentionPeriod", n(retention));
            resources.insert("JobsDLQ".into(), json!({"Type": "AWS::SQS::Queue", "Properties": dlq}));
        }
        resources.insert("Jobs".into(), json!({"Type": "AWS::SQS::Queue", "Properties": queue}));
        resources.insert(
            "Worker".into(),
            json!({"Type": "AWS::Lambda::Function", "Properties": {
                "Runtime": "python3.12", "Handler": "index.handler",
                "Role": "arn:aws:iam::123456789012:role/worker",
                "Code": {"ZipFile": "def handler(event, context): pass"},
                "Timeout": self.json_number(self.timeout)}}),
        );
        let mut mapping = serde_json::Map::new();
        mapping.insert("EventSourceArn".into(), json!({"Fn::GetAtt": ["Jobs", "Arn"]}));
        mapping.insert("FunctionName".into(), json!({"Ref": "Worker"}));
        put(&mut mapping, "BatchSize", n(self.batch_size));
        put(&mut mapping, "MaximumBatchingWindowInSeconds", n(self.window));
        if self.response_types {
            mapping.insert("FunctionResponseTypes".into(), json!(["ReportBatchItemFailures"]));
        }
        resources.insert("Mapping".into(), json!({"Type": "AWS::Lambda::EventSourceMapping", "Properties": mapping}));
        json!({"AWSTemplateFormatVersion": "2010-09-09", "Resources": resources})
    }

    fn hcl(&self) -> String {
        let attr = |key: &str, value: Option<u64>| {
            value.map(|v| format!("  {key} = {}\n", self.number(v))).unwrap_or_default()
        };
        let mut out = String::from(
            "# Generated by tests/fix_props.rs.\nresource \"aws_sqs_queue\" \"jobs\" {\n  name = \"jobs\"\n",
        );
        out.push_str(&attr("visibility_timeout_seconds", self.visibility));
        out.push_str(&attr("receive_wait_time_seconds", self.wait));
        out.push_str(&attr("message_retention_seconds", self.retention));
        if let Some((_, max_receive)) = self.dead_letter {
            out.push_str(&format!(
                "  redrive_policy = jsonencode({{\n    deadLetterTargetArn = aws_sqs_queue.jobs_dlq.arn\n    maxReceiveCount     = {}\n  }})\n",
                self.number(max_receive)
            ));
        }
        out.push_str("}\n\n");
        if let Some((retention, _)) = self.dead_letter {
            out.push_str("resource \"aws_sqs_queue\" \"jobs_dlq\" {\n  name = \"jobs-dlq\"\n");
            out.push_str(&attr("message_retention_seconds", retention));
            out.push_str("}\n\n");
        }
        out.push_str(&format!(
            "resource \"aws_lambda_function\" \"worker\" {{\n  function_name = \"worker\"\n  role          = \"arn:aws:iam::123456789012:role/worker\"\n  handler       = \"index.handler\"\n  runtime       = \"python3.12\"\n  filename      = \"worker.zip\"\n  timeout       = {}\n}}\n\n",
            self.number(self.timeout)
        ));
        out.push_str("resource \"aws_lambda_event_source_mapping\" \"jobs\" {\n  event_source_arn = aws_sqs_queue.jobs.arn\n  function_name    = aws_lambda_function.worker.arn\n");
        out.push_str(&attr("batch_size", self.batch_size));
        out.push_str(&attr("maximum_batching_window_in_seconds", self.window));
        if self.response_types {
            out.push_str("  function_response_types = [\"ReportBatchItemFailures\"]\n");
        }
        out.push_str("}\n");
        out
    }

    fn terraform_json(&self) -> Value {
        let n = |v: Option<u64>| v.map(|v| self.json_number(v));
        let mut queue = serde_json::Map::new();
        queue.insert("name".into(), json!("jobs"));
        put(&mut queue, "visibility_timeout_seconds", n(self.visibility));
        put(&mut queue, "receive_wait_time_seconds", n(self.wait));
        put(&mut queue, "message_retention_seconds", n(self.retention));
        let mut queues = serde_json::Map::new();
        if let Some((retention, max_receive)) = self.dead_letter {
            queue.insert(
                "redrive_policy".into(),
                json!(format!(
                    "${{jsonencode({{deadLetterTargetArn = aws_sqs_queue.jobs_dlq.arn, maxReceiveCount = {max_receive}}})}}"
                )),
            );
            let mut dlq = serde_json::Map::new();
            dlq.insert("name".into(), json!("jobs-dlq"));
            put(&mut dlq, "message_retention_seconds", n(retention));
            queues.insert("jobs_dlq".into(), Value::Object(dlq));
        }
        queues.insert("jobs".into(), Value::Object(queue));
        let mut mapping = serde_json::Map::new();
        mapping.insert("event_source_arn".into(), json!("${aws_sqs_queue.jobs.arn}"));
        mapping.insert("function_name".into(), json!("${aws_lambda_function.worker.arn}"));
        put(&mut mapping, "batch_size", n(self.batch_size));
        put(&mut mapping, "maximum_batching_window_in_seconds", n(self.window));
        if self.response_types {
            mapping.insert("function_response_types".into(), json!(["ReportBatchItemFailures"]));
        }
        json!({"resource": {
            "aws_sqs_queue": queues,
            "aws_lambda_function": {"worker": {
                "function_name": "worker", "role": "arn:aws:iam::123456789012:role/worker",
                "handler": "index.handler", "runtime": "python3.12", "filename": "worker.zip",
                "timeout": self.json_number(self.timeout)}},
            "aws_lambda_event_source_mapping": {"jobs": Value::Object(mapping)},
        }})
    }
}

/// `key: value` into `map` when there is a value.
fn put(map: &mut serde_json::Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(v) = value {
        map.insert(key.to_string(), v);
    }
}

/// (code, resource) of every finding in `dir`, and the fixes `--fix` (or
/// with `unsafe_too`, `--fix --unsafe-fixes`) would make now.
fn lint(dir: &Path, unsafe_too: bool) -> (Vec<(String, String)>, sqsguard::fix::Plan) {
    let outcome = lint::lint_paths(&[dir.to_path_buf()], &Config::default());
    let plan = sqsguard::fix::plan(&outcome.findings, unsafe_too);
    let found = outcome.findings.iter().map(|f| (f.code().to_string(), f.resource.clone())).collect();
    (found, plan)
}

/// Rules whose every finding has a safe fix in this test's files (SQS001
/// has none past 12 hours; SQS012 is unsafe).
const SAFE: &[&str] = &["SQS006", "SQS007", "SQS008", "SQS010", "SQS011"];

fn check(case: &Case, unsafe_too: bool) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join(case.file_name());
    let text = case.text();
    std::fs::write(&path, &text).unwrap();
    let (before, _) = lint(dir.path(), unsafe_too);
    prop_assert!(
        !before.iter().any(|(code, _)| code == "SQS000"),
        "the generated file is not read: {before:?}\n{text}"
    );
    // The values drawn do break rules: a too small maxReceiveCount is an SQS008.
    if case.dead_letter.is_some_and(|(_, max_receive)| max_receive < 3) {
        prop_assert!(before.iter().any(|(code, _)| code == "SQS008"), "no SQS008 in:\n{text}");
    }
    let mut after = before.clone();
    let mut settled = false;
    // As many passes as `--fix` makes.
    for _ in 0..8 {
        let (found, plan) = lint(dir.path(), unsafe_too);
        after = found;
        if plan.files.is_empty() {
            settled = true;
            break;
        }
        for (file, f) in &plan.files {
            std::fs::write(file, &f.text).unwrap();
        }
    }
    let fixed = std::fs::read_to_string(&path).unwrap();
    prop_assert!(settled, "fixes did not settle in 8 passes:\n{fixed}");
    prop_assert!(!after.iter().any(|(code, _)| code == "SQS000"), "a fix broke the file: {after:?}\n{fixed}");
    // What a fix adds ends its lines as the file does.
    let lone_lf = fixed.match_indices('\n').filter(|(i, _)| !fixed[..*i].ends_with('\r')).count();
    let lone_cr = fixed.match_indices('\r').filter(|(i, _)| !fixed[i + 1..].starts_with('\n')).count();
    let crlf = fixed.matches("\r\n").count();
    let expected = match (case.breaks, case.style) {
        (Breaks::Lf, _) | (Breaks::Cr | Breaks::LoneCr, Style::Hcl) => (crlf == 0 && lone_cr == 0, "LF"),
        (Breaks::CrLf, _) => (lone_lf == 0 && lone_cr == 0, "CRLF"),
        (Breaks::Cr, _) => (lone_lf == 0 && crlf == 0, "CR"),
        (Breaks::LoneCr, Style::Json | Style::TfJson) => (crlf == 0, "LF but for its first line"),
        // The CR in the Description, and LF lines.
        (Breaks::LoneCr, _) => (lone_cr == 1 && crlf == 0, "LF but for one lone CR"),
    };
    prop_assert!(expected.0, "the lines do not end as the file's ({}): {fixed:?}", expected.1);
    let before_set: BTreeSet<&(String, String)> = before.iter().collect();
    for f in &after {
        let new_dlq = unsafe_too && f.0 == "SQS015" && (f.1.ends_with("DLQ") || f.1.ends_with("_dlq"));
        // SQS005's unsafe fix, where the handler is read and does not report.
        let not_returned = unsafe_too && f.0 == "SQS202";
        prop_assert!(
            before_set.contains(f) || new_dlq || not_returned,
            "new finding after fixing: {f:?}\n{text}\n---\n{fixed}"
        );
    }
    for f in after.iter().filter(|(code, _)| SAFE.contains(&code.as_str())) {
        prop_assert!(false, "a safely fixable finding remains: {f:?}\n{text}\n---\n{fixed}");
    }
    // SQS004's fix exists in every style here: literal names, no count.
    if unsafe_too {
        prop_assert!(!after.iter().any(|(code, _)| code == "SQS004"), "SQS004 remains:\n{fixed}");
    }
    if case.visibility.is_some_and(|v| v < 6 * case.timeout + case.window.unwrap_or(0))
        && 6 * case.timeout + case.window.unwrap_or(0) <= 43_200
    {
        prop_assert!(!after.iter().any(|(code, _)| code == "SQS001"), "SQS001 remains:\n{fixed}");
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn safe_fixes_leave_nothing_safely_fixable_and_add_nothing(case in case()) {
        check(&case, false)?;
    }

    #[test]
    fn unsafe_fixes_too_leave_nothing_fixable(case in case()) {
        check(&case, true)?;
    }
}
