//! Real handlers from AWS's samples (tests/code_corpus, MANIFEST.tsv): each
//! is read as sqsguard reads a handler, and what it reports is what the
//! manifest says; the Powertools Java example's template, linted whole,
//! gives the SQS201 its mapping really has.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use sqsguard::code::{handler, unit::Unit};
use sqsguard::model::code::{Language, Reports};
use sqsguard::source::SourceFile;

fn language(name: &str) -> Language {
    match name {
        "python" => Language::Python,
        "javascript" => Language::JavaScript,
        "typescript" => Language::TypeScript,
        "go" => Language::Go,
        "java" => Language::Java,
        other => panic!("no language {other}"),
    }
}

#[test]
fn every_sample_handler_reads_as_the_manifest_says() {
    let dir = common::root().join("tests/code_corpus");
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [file, _, _, lang_name, name, reports, misspelt, identifiers] = cols[..] else { panic!("{line}") };
        let path = dir.join(file);
        let language = language(lang_name);
        assert_eq!(Language::of_path(&path).map(Language::name), Some(language.name()), "{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let source = SourceFile::new(path.clone(), text);
        let got = match Unit::parse(&source, language) {
            Err(_) => ("unparsed".to_string(), 0, 0),
            Ok(unit) => match handler::read(&unit, name, 0) {
                Err(why) => (format!("not found: {why}"), 0, 0),
                Ok(h) => {
                    let says = match h.reports {
                        Reports::Yes { .. } => "yes",
                        Reports::No => "no",
                        Reports::Unknown(_) => "unknown",
                    };
                    (says.to_string(), h.misspelt.len(), h.wrong_identifiers.len())
                }
            },
        };
        let expected = (reports.to_string(), misspelt.parse().unwrap(), identifiers.parse().unwrap());
        if got != expected {
            wrong.push(format!("{file}: expected {expected:?}, got {got:?}"));
        }
        checked += 1;
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(checked >= 25, "only {checked} samples");
}

/// The Powertools for AWS Lambda (Java) batch example: its parallel
/// consumer's handler builds an SQSBatchResponse, and its mapping has no
/// FunctionResponseTypes.
#[test]
fn the_powertools_java_example_has_a_real_sqs201() {
    let template = common::root()
        .join("tests/code_corpus/powertools-lambda-java/examples/powertools-examples-batch/deploy/sqs/template.yml");
    let outcome = common::lint_only(&template, "SQS201");
    let found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(found, [("SQS201", "DemoSQSParallelConsumerFunction")], "{}", common::render(&outcome));
    let at = sqsguard::report::location(&outcome.findings[0]).unwrap();
    assert!(at.file.ends_with("SqsParallelBatchHandler.java"), "{}", at.file);
}

/// The samples' SDK calls: Powertools' batch sender only logs its
/// SendMessageBatch response (an SQS206: logging the whole result reads no
/// `Failed`), while aws-doc-sdk-examples' wrapper reads `Failed`, waits as
/// its caller says (a parameter: unknown, no SQS204) and sends to a
/// placeholder URL (an unknown queue: no SQS205).
#[test]
fn the_sample_sdk_calls_give_what_they_really_do() {
    let dir = common::root().join("tests/code_corpus");
    let sender = dir.join("powertools-lambda-java/examples/powertools-examples-batch/src/main/java/org/demo/batch/sqs/SqsBatchSender.java");
    let paths = [common::relative(&dir.join("aws-doc-sdk-examples")), common::relative(&sender)];
    let mut config = sqsguard::config::Config::default();
    config.filter.select = vec!["SQS2".to_string()];
    let outcome = sqsguard::lint::lint_paths(&paths, &config);
    let found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(found, [("SQS206", "SqsBatchSender.handleRequest")], "{}", common::render(&outcome));
    assert_eq!(outcome.files, 4, "the three SDK examples and the sender are read");
}

/// Every worker file of AWS's SDK examples (tests/code_corpus/
/// aws-doc-sdk-examples-workers) gives exactly the code findings its
/// EXPECTED.tsv lists and justifies, and no note.
#[test]
fn the_sdk_examples_workers_give_exactly_their_expected_findings() {
    let dir = common::root().join("tests/code_corpus/aws-doc-sdk-examples-workers");
    let expected_text = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    let mut expected: Vec<String> = expected_text
        .lines()
        .skip(1)
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(cols.len() == 4 && !cols[3].is_empty(), "a finding without its why: {l}");
            format!("{} {} {}", cols[0], cols[1], cols[2])
        })
        .collect();
    let mut config = sqsguard::config::Config::default();
    config.filter.select = vec!["SQS2".to_string()];
    let outcome = sqsguard::lint::lint_paths(&[common::relative(&dir)], &config);
    let prefix = format!("{}/", common::relative(&dir).display());
    let mut found: Vec<String> = outcome
        .findings
        .iter()
        .map(|f| {
            let at = sqsguard::report::location(f).unwrap();
            format!("{} {}:{} {}", f.code(), at.file.trim_start_matches(&prefix), at.line, f.resource)
        })
        .collect();
    expected.sort();
    found.sort();
    assert_eq!(found, expected, "{}", common::render(&outcome));
    assert!(outcome.notes.is_empty(), "{:#?}", outcome.notes);
    assert_eq!(outcome.files, 47, "every file is read");
}

/// The SQS calls of two popular consumer libraries (tests/code_corpus/
/// consumer-libraries: bbc/sqs-consumer's consumer and Spring Cloud AWS's
/// listener classes that call the SDK) are read, and none is a finding:
/// every wait, batch size, visibility and heartbeat there comes from the
/// library's options, which sqsguard cannot follow, so the worker rules
/// stay silent; every delete and visibility change passes the receipt
/// handle; every batch result's `Failed` is read.
#[test]
fn consumer_libraries_are_read_and_give_no_finding() {
    use sqsguard::code::{KnownQueues, read_loose};
    let dir = common::root().join("tests/code_corpus/consumer-libraries");
    let spring = "spring-cloud-aws/spring-cloud-aws-sqs/src/main/java/io/awspring/cloud/sqs/";
    let expected: &[(&str, &[&str])] = &[
        (
            "sqs-consumer/src/consumer.ts",
            &[
                "ReceiveMessage",
                "ReceiveMessage",
                "ChangeMessageVisibility",
                "ChangeMessageVisibilityBatch",
                "DeleteMessage",
                "DeleteMessageBatch",
            ],
        ),
        ("listener/QueueMessageBatchVisibility.java", &["ChangeMessageVisibilityBatch"]),
        ("listener/QueueMessageVisibility.java", &["ChangeMessageVisibility"]),
        ("listener/acknowledgement/SqsAcknowledgementExecutor.java", &["DeleteMessageBatch"]),
        ("listener/sink/adapter/MessageVisibilityExtendingSinkAdapter.java", &["ChangeMessageVisibilityBatch"]),
        ("listener/source/AbstractSqsMessageSource.java", &["ReceiveMessage"]),
        ("operations/SqsTemplate.java", &["DeleteMessageBatch"]),
    ];
    for (file, operations) in expected {
        let path = if file.ends_with(".ts") { dir.join(file) } else { dir.join(spring).join(file) };
        let loaded = read_loose(&path, &Default::default(), &Default::default(), &KnownQueues::default())
            .unwrap_or_else(|| panic!("{file} is not read"));
        let read: Vec<&str> = loaded.model.calls.iter().map(|c| c.operation.name()).collect();
        assert_eq!(&read, operations, "{file}");
    }
    let mut config = sqsguard::config::Config::default();
    config.filter.select = vec!["SQS2".to_string()];
    let outcome = sqsguard::lint::lint_paths(&[common::relative(&dir)], &config);
    assert!(outcome.findings.is_empty() && outcome.notes.is_empty(), "{}", common::render(&outcome));
    assert_eq!(outcome.files, 10, "{}", common::render(&outcome));
}
