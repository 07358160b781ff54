//! Property test: any valid spec either generates output that parses and
//! lints clean (the generator lints it before returning), or is refused
//! with the code of a rule it would break. Never an invalid-spec error for
//! a valid spec, never a panic.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use proptest::prelude::*;
use serde_json::{Value, json};
use sqsguard::error::Error;
use sqsguard::generate::{self, Format, Request, Target};

fn field_type() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "string",
        "number",
        "integer",
        "boolean",
        "uuid",
        "timestamp",
        "random",
        "object",
        "array",
    ])
}

fn spec() -> impl Strategy<Value = Value> {
    (
        any::<bool>(),                                          // fifo
        prop::sample::select(vec!["lambda", "ecs", "other"]),  // consumer
        prop_oneof![9 => 1u64..=300, 1 => 301u64..=900],        // function timeout
        prop_oneof![3 => 1u64..=10, 1 => 11u64..=200],           // batch size
        0u64..=300,                                             // batching window
        1u64..=25_000,                                          // p99
        prop::collection::vec(field_type(), 1..5),              // payload
        any::<bool>(),                                          // content-based dedup
        (prop_oneof![9 => 3u64..=20, 1 => 1u64..=2], 60u64..=1_209_000, prop::option::of(60u64..=1_209_600)), // max receive, retentions
        (prop::bool::weighted(0.9), prop::option::of(60u64..=86_400), any::<bool>()), // alarms
        prop::collection::btree_map("[a-z][a-z0-9-]{0,8}", "[ -~]{0,12}", 0..3), // tags
    )
        .prop_map(|(fifo, kind, timeout, batch, window, p99, fields, cbd, (max_rc, ret, dlq_ret), (depth, age, topic), tags)| {
            // Mostly a DLQ that outlives the queue; sometimes any retention.
            let dlq_ret = dlq_ret.unwrap_or(1_209_600.min(ret + 600));
            let mut consumer = json!({"type": kind});
            if kind == "lambda" {
                consumer["function_timeout"] = json!(timeout);
                consumer["batch_size"] = json!(batch);
                if !fifo {
                    consumer["batching_window"] = json!(window);
                }
            } else {
                consumer["processing_time_p99"] = json!(p99);
            }
            let names: Vec<String> = (0..fields.len()).map(|i| format!("f{i}")).collect();
            let field_map: serde_json::Map<String, Value> = names.iter().zip(&fields).map(|(n, t)| (n.clone(), json!(t))).collect();
            let mut queue = json!({"fifo": fifo, "retention": ret});
            if fifo && cbd {
                queue["content_based_deduplication"] = json!(true);
            }
            let mut alarms = json!({"dlq_depth": depth});
            if let Some(age) = age {
                alarms["oldest_message_age"] = json!(age);
            }
            if topic {
                alarms["topic"] = json!("ops-alerts");
            }
            json!({
                "pipeline": "prop-pipeline",
                "queue": queue,
                "consumer": consumer,
                "payload": {"fields": field_map, "dedup_id": format!("{{{}}}", names[0]), "group_id": format!("{{{}}}", names[0])},
                "dlq": {"max_receive_count": max_rc, "retention": dlq_ret},
                "alarms": alarms,
                "tags": tags,
            })
        })
}

const RULE_CODES: &[&str] = &["SQS003", "SQS007", "SQS008", "SQS010", "SQS012", "SQS015"];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn valid_specs_generate_clean_output_or_are_refused_by_a_rule(spec in spec()) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spec.yaml");
        // JSON is YAML: the spec reader takes it as written.
        std::fs::write(&path, serde_json::to_string_pretty(&spec).unwrap()).unwrap();
        for (target, format) in [(Target::CloudFormation, Format::Yaml), (Target::CloudFormation, Format::Json), (Target::Terraform, Format::Yaml)] {
            let config = Default::default();
            let req = Request { spec: &path, target, format, templates: None, config: &config };
            match generate::generate(&req) {
                Ok(outputs) => {
                    for o in &outputs {
                        let file = sqsguard::source::SourceFile::new(o.name.clone(), o.text.clone());
                        let parsed = match (target, format) {
                            (Target::Terraform, _) => sqsguard::frontend::terraform::parse::parse(&file).map(|_| ()),
                            (_, Format::Json) => sqsguard::syntax::json::parse(&file).map(|_| ()),
                            _ => sqsguard::syntax::yaml::parse(&file).map(|_| ()),
                        };
                        prop_assert!(parsed.is_ok(), "{} does not parse: {:?}\n{}", o.name, parsed.err(), o.text);
                    }
                }
                Err(problem @ Error::Refused { .. }) => {
                    let message = text(&problem);
                    prop_assert!(RULE_CODES.iter().any(|c| message.contains(c)), "refused without a rule code:\n{message}\n{spec:#}");
                    prop_assert!(!message.contains("does not pass sqsguard's own rules"), "self-check failed:\n{message}\n{spec:#}");
                    for f in problem.findings() {
                        let at = f.origin.location();
                        prop_assert!(at.as_ref().is_some_and(|l| l.file.ends_with("spec.yaml")), "{} not located in the spec: {at:?}", f.code());
                    }
                }
                Err(problem) => prop_assert!(false, "a valid spec was rejected:\n{}\n{spec:#}", text(&problem)),
            }
        }
    }
}

/// A failure's diagnostics and sentence, as words.
fn text(problem: &Error) -> String {
    let mut out: String = problem.findings().iter().map(|f| format!("{} {}\n", f.code(), f.full_message())).collect();
    out.push_str(&problem.to_string());
    out
}
