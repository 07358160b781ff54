//! `sqsguard generate`: a spec the schema rejects is told in a person's
//! words at the offending line (exit 2): an unknown key with the nearest
//! known one, a wrong type with what the key takes, an enum with its
//! values; never the validator's JSON Schema jargon.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use std::path::Path;

/// What a validator says that a spec's author should never read.
const JARGON: &[&str] = &[
    "Additional properties",
    "False schema",
    "is not valid under any",
    "oneOf",
    "anyOf",
    "is not of type",
    "is a required property",
    "does not match",
    "was expected",
    "was unexpected",
    "schemas/pipeline.schema.json",
];

/// The spec's problems through the library: (line, column, message).
fn problems(text: &str) -> Vec<(usize, usize, String)> {
    use sqsguard::generate::{Format, Request, Target};
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("spec.yaml");
    std::fs::write(&spec, text).unwrap();
    let config = Default::default();
    let req =
        Request { spec: &spec, target: Target::Terraform, format: Format::Yaml, templates: None, config: &config };
    match sqsguard::generate::generate(&req) {
        Err(e @ sqsguard::error::Error::Spec { .. }) => e
            .findings()
            .iter()
            .map(|f| {
                for word in JARGON {
                    assert!(!f.full_message().contains(word) && !f.full_fix().contains(word), "{word:?} in {f:?}");
                }
                let at = f.origin.location().unwrap();
                (at.line, at.column, f.full_message().into_owned())
            })
            .collect(),
        Err(e) => panic!("not a spec error: {e}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

const LAMBDA: &str = "pipeline: p\nconsumer:\n  type: lambda\n  function_timeout: 15s\n";

#[test]
fn an_unknown_key_says_where_and_what_is_near() {
    assert_eq!(
        problems(&format!("{LAMBDA}  batchsize: 5\n")),
        [(5, 3, "unknown key `batchsize` in `consumer`; did you mean `batch_size`?".to_string())]
    );
    assert_eq!(
        problems("pipeline: p\nconsumer: {type: ecs, processing_time_p99: 30s}\nqueue: {retenton: 4d}\n"),
        [(3, 9, "unknown key `retenton` in `queue`; did you mean `retention`?".to_string())]
    );
    // A key near none of the keys there: the keys it takes.
    assert_eq!(
        problems(&format!("{LAMBDA}dlq:\n  colour: red\n")),
        [(6, 3, "unknown key `colour` in `dlq` (it takes `max_receive_count` and `retention`)".to_string())]
    );
    // At the top: the misspelt required key is missing too.
    assert_eq!(
        problems("pipeline: p\nconsumers:\n  type: lambda\n"),
        [
            (1, 1, "the spec needs `consumer`".to_string()),
            (2, 1, "unknown key `consumers` in the spec; did you mean `consumer`?".to_string()),
        ]
    );
}

#[test]
fn a_wrong_type_says_what_the_key_takes() {
    assert_eq!(
        problems(&format!("{LAMBDA}  batch_size: abc\n")),
        [(5, 15, "`consumer.batch_size` must be a whole number from 1 to 10000, not `abc`".to_string())]
    );
    assert_eq!(
        problems("pipeline: p\nconsumer:\n  type: lambda\n  function_timeout: abc\n"),
        [(
            4,
            21,
            "`consumer.function_timeout` must be a duration: whole seconds (45) or a number with a unit, s, m, h or d (15s, 5m, 2h, 4d), not `abc`"
                .to_string()
        )]
    );
    assert_eq!(
        problems(&format!("{LAMBDA}dlq:\n  max_receive_count: 0\n")),
        [(6, 22, "`dlq.max_receive_count` must be a whole number from 1 to 1000, not `0`".to_string())]
    );
    assert_eq!(problems(&format!("{LAMBDA}queue: 5\n")), [(5, 8, "`queue` must be a mapping, not `5`".to_string())]);
    assert_eq!(
        problems("pipeline: P_Q\nconsumer: {type: ecs, processing_time_p99: 30s}\n"),
        [(
            1,
            11,
            "`pipeline` must be lowercase letters, digits and hyphens, starting with a letter or digit, at most 60 characters, not `P_Q`"
                .to_string()
        )]
    );
}

#[test]
fn an_enum_lists_its_values() {
    assert_eq!(
        problems("pipeline: p\nconsumer:\n  type: lamda\n  function_timeout: 15s\n"),
        [(3, 9, "`consumer.type` must be `lambda`, `ecs` or `other`, not `lamda`; did you mean `lambda`?".to_string())]
    );
    assert_eq!(
        problems(&format!("{LAMBDA}queue: {{encryption: kms}}\n")),
        [(
            5,
            21,
            "`queue.encryption` must be `sqs-managed`, `new-kms-key` or a mapping with `kms` (KMS key (SSE-KMS)), not `kms`"
                .to_string()
        )]
    );
    assert_eq!(
        problems(&format!("{LAMBDA}producers:\n  - type: sqs\n")),
        [(
            6,
            11,
            "`producers[0].type` must be `sns`, `eventbridge` or `s3`, not `sqs`; did you mean `sns`?".to_string()
        )]
    );
}

#[test]
fn conditions_and_alternatives_are_said_in_words() {
    assert_eq!(
        problems("pipeline: p\nconsumer:\n  type: ecs\n  processing_time_p99: 30s\n  function_timeout: 15s\n"),
        [(5, 3, "`function_timeout` is not allowed in `consumer` when `type` is `ecs` or `other`".to_string())]
    );
    assert_eq!(
        problems("pipeline: p\nconsumer:\n  type: lambda\n"),
        [(3, 3, "`consumer` needs `function_timeout` when `type` is `lambda`".to_string())]
    );
    assert_eq!(
        problems(&format!("{LAMBDA}queue:\n  content_based_deduplication: true\n")),
        [(6, 32, "`queue.content_based_deduplication` can only be `false` unless `fifo` is `true`".to_string())]
    );
    assert_eq!(
        problems(&format!("{LAMBDA}producers:\n  - type: eventbridge\n")),
        [(6, 5, "`producers[0]` needs one of `schedule` or `event_pattern`".to_string())]
    );
    assert_eq!(
        problems(&format!("{LAMBDA}tags:\n  aws:team: x\n")),
        [(6, 3, "key `aws:team` in `tags`: tag keys starting with aws: are reserved for AWS".to_string())]
    );
}

/// The command line shows the same words at the spec's line and exits 2,
/// and its hint names a file the user can have.
#[test]
fn the_command_line_exits_2_at_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("spec.yaml"), format!("{LAMBDA}  batchsize: 5\n")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(["generate", "spec.yaml", "--target", "terraform"])
        .current_dir(dir.path())
        .env("COLUMNS", "200")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("unknown key `batchsize` in `consumer`; did you mean `batch_size`?"), "{err}");
    assert!(err.contains("spec.yaml:5:3"), "{err}");
    assert!(err.contains("`sqsguard schema pipeline`"), "{err}");
    for word in JARGON {
        assert!(!err.contains(word), "{word:?} in {err}");
    }
    assert!(out.stdout.is_empty());
    assert!(!Path::new(&dir.path().join("main.tf")).exists());
}
