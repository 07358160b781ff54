//! The SDK-call half of the code front-end beyond its fixture projects
//! (tests/it/code.rs): loose code files that no template names, `--no-code`,
//! code that does not parse, and a handler file read once.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use sqsguard::config::Config;
use sqsguard::session::Session;

use common::scratch;

const WORKER: &str = "import boto3\n\nsqs = boto3.client(\"sqs\")\n\n\nclass Worker:\n    def run(self):\n        while True:\n            sqs.receive_message(QueueUrl=\"https://sqs.us-east-1.amazonaws.com/123456789012/jobs\")\n\n\ndef poll():\n    sqs.receive_message(QueueUrl=\"https://sqs.us-east-1.amazonaws.com/123456789012/jobs\", WaitTimeSeconds=0)\n";

#[test]
fn a_loose_worker_is_linted_as_its_own_job() {
    let dir = scratch();
    std::fs::create_dir_all(dir.path().join("workers")).unwrap();
    std::fs::write(dir.path().join("workers/poll.py"), WORKER).unwrap();
    std::fs::write(dir.path().join("workers/other.py"), "print('no queues here')\n").unwrap();
    let outcome = common::lint(dir.path());
    let found: Vec<(&str, &str, usize)> =
        outcome.findings.iter().map(|f| (f.code(), f.resource.as_str(), f.origin.location().unwrap().line)).collect();
    // The loop's receive asks for one message at a time, too (SQS209), and
    // neither receive's messages are ever deleted (SQS207).
    let expected = [
        ("SQS204", "Worker.run", 9),
        ("SQS207", "Worker.run", 9),
        ("SQS209", "Worker.run", 9),
        ("SQS207", "poll", 13),
        ("SQS204", "poll", 13),
    ];
    assert_eq!(found, expected, "{}", common::render(&outcome));
    assert!(outcome.findings[0].full_message().contains("https://sqs.us-east-1.amazonaws.com/123456789012/jobs"));
    // The literal 0 is where the finding points.
    assert!(common::render(&outcome).contains("WaitTimeSeconds=0"));
    assert_eq!(outcome.files, 1, "the file that does not mention SQS is not read");
}

#[test]
fn no_code_reads_no_code() {
    let dir = scratch();
    std::fs::write(dir.path().join("poll.py"), WORKER).unwrap();
    let fixture = common::root().join("tests/rules/SQS204/python/bad");
    let paths = [common::relative(dir.path()), common::relative(&fixture)];
    let mut session = Session::of(&paths, &Config::default());
    session.inputs.no_code = true;
    let outcome = sqsguard::lint::lint(&session).unwrap();
    assert!(outcome.findings.is_empty(), "{}", common::render(&outcome));
    session.inputs.no_code = false;
    let outcome = sqsguard::lint::lint(&session).unwrap();
    assert_eq!(outcome.findings.iter().filter(|f| f.code() == "SQS204").count(), 3, "{}", common::render(&outcome));
}

#[test]
fn code_that_does_not_parse_is_a_note_and_the_template_beside_it_is_linted() {
    let dir = scratch();
    let fixture = common::root().join("tests/rules/SQS206/python/bad");
    std::fs::copy(fixture.join("template.yaml"), dir.path().join("template.yaml")).unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::copy(fixture.join("src/app.py"), dir.path().join("src/app.py")).unwrap();
    std::fs::write(dir.path().join("broken.js"), "sqs.sendMessage({ QueueUrl: 'q' ;;; ))\n}}}{{{\n").unwrap();
    std::fs::write(dir.path().join("broken.py"), "def (:\n  sqs.send_message(\n").unwrap();
    let outcome = common::lint(dir.path());
    let codes: Vec<&str> = outcome.findings.iter().map(|f| f.code()).collect();
    assert_eq!(codes, ["SQS206"], "{}", common::render(&outcome));
    let notes: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).collect();
    assert_eq!(notes.len(), 2, "{notes:#?}");
    assert!(notes.iter().all(|n| n.contains("were not read") && n.contains("is not valid")), "{notes:#?}");

    assert!(outcome.unlinted.is_empty());
}

#[test]
fn a_handler_file_is_read_once_as_its_function_s_code() {
    // The template's job reads src/app.py with the function's environment;
    // the walk finds the same file, and skips it.
    let fixture = common::root().join("tests/rules/SQS204/python/good_queue_waits");
    let outcome = common::lint(&fixture);
    assert!(outcome.findings.is_empty(), "{}", common::render(&outcome));
}

/// A loose file that does not parse is said where the code that does not
/// parse starts.
#[test]
fn a_syntax_error_is_said_where_it_is() {
    let dir = scratch();
    std::fs::write(
        dir.path().join("worker.py"),
        "import boto3\n\nsqs = boto3.client('sqs')\n\n\ndef poll(url):\n    return sqs.receive_message(QueueUrl=url\n\n\ndef other(:\n    pass\n",
    )
    .unwrap();
    let outcome = common::lint(dir.path());
    let note = outcome.notes.iter().find(|n| n.message.contains("is not valid Python")).expect("a note");
    assert!(note.origin.location().unwrap().line >= 6, "{:?}", note.origin.location());
}

/// A module two functions share holds one call: one finding, not one per
/// function, when both send it to the same queue.
#[test]
fn a_shared_module_s_call_is_said_once() {
    let dir = scratch();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/common.py"),
        "import boto3\n\nsqs = boto3.client('sqs')\n\n\ndef drain(url):\n    return sqs.receive_message(QueueUrl=url)\n",
    )
    .unwrap();
    for name in ["a", "b"] {
        std::fs::write(
            dir.path().join(format!("src/{name}.py")),
            "from common import drain\n\n\ndef handler(event, context):\n    drain(event['url'])\n",
        )
        .unwrap();
    }
    let function = |name: &str| {
        format!(
            "  {name}:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: src/\n      Handler: {}.handler\n      Runtime: python3.12\n",
            name.to_lowercase()
        )
    };
    let template = format!("Transform: AWS::Serverless-2016-10-31\nResources:\n{}{}", function("A"), function("B"));
    std::fs::write(dir.path().join("template.yaml"), template).unwrap();
    let outcome = common::lint_only(dir.path(), "SQS204");
    let found: Vec<(&str, &str)> = outcome.findings.iter().map(|f| (f.code(), f.resource.as_str())).collect();
    assert_eq!(found, [("SQS204", "A")], "{}", common::render(&outcome));
}

/// A suppression comment works in each language's own comment syntax, on
/// the line above the call.
#[test]
fn suppressions_in_every_language() {
    let dir = scratch();
    let files = [
        (
            "worker.py",
            "import boto3\n\nsqs = boto3.client('sqs')\n\n\ndef poll(url):\n    # sqsguard:ignore SQS204 drained by a cron job\n    return sqs.receive_message(QueueUrl=url)\n",
        ),
        (
            "worker.mjs",
            "import { SQSClient, ReceiveMessageCommand } from '@aws-sdk/client-sqs';\n\nconst c = new SQSClient({});\n\nexport async function poll(url) {\n  // sqsguard:ignore SQS204 drained by a cron job\n  return c.send(new ReceiveMessageCommand({ QueueUrl: url }));\n}\n",
        ),
        (
            "worker.go",
            "package worker\n\nimport (\n\t\"context\"\n\n\t\"github.com/aws/aws-sdk-go-v2/service/sqs\"\n)\n\nfunc Poll(ctx context.Context, c *sqs.Client, url *string) error {\n\t// sqsguard:ignore SQS204 drained by a cron job\n\t_, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: url})\n\treturn err\n}\n",
        ),
        (
            "Worker.java",
            "import software.amazon.awssdk.services.sqs.SqsClient;\nimport software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;\n\npublic class Worker {\n  public int poll(SqsClient sqs, String url) {\n    // sqsguard:ignore SQS204 drained by a cron job\n    return sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(url).build()).messages().size();\n  }\n}\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
        let unmarked = text.lines().filter(|l| !l.contains("sqsguard:ignore")).collect::<Vec<_>>().join("\n") + "\n";
        std::fs::write(dir.path().join(format!("unmarked_{name}")), unmarked).unwrap();
    }
    let outcome = common::lint_only(dir.path(), "SQS204");
    let files: Vec<String> = outcome
        .findings
        .iter()
        .map(|f| sqsguard::report::location(f).unwrap().file.rsplit('/').next().unwrap().to_string())
        .collect();
    // Each unmarked copy fires; no marked file does.
    assert_eq!(files.len(), 4, "{}", common::render(&outcome));
    assert!(files.iter().all(|f| f.starts_with("unmarked_")), "{files:?}");
    assert_eq!(outcome.suppressed, 4);
}

/// A worker's literal queue URL names the queue of that name linted in the
/// same run (a Terraform module beside it): SQS204 reads its
/// `receive_wait_time_seconds` (20: no finding; 0: the finding names the
/// queue), and the queue's own findings are reported once, by its module.
/// Two queues of one name in the run leave the URL an outside queue.
#[test]
fn a_worker_s_literal_url_names_the_run_s_queue_of_that_name() {
    let queue = |wait: u32| {
        format!(
            "resource \"aws_sqs_queue\" \"jobs\" {{\n  name                      = \"jobs\"\n  receive_wait_time_seconds = {wait}\n}}\n"
        )
    };
    let dir = scratch();
    std::fs::create_dir_all(dir.path().join("infra")).unwrap();
    std::fs::create_dir_all(dir.path().join("workers")).unwrap();
    std::fs::write(dir.path().join("infra/main.tf"), queue(20)).unwrap();
    let worker = "import boto3\n\nsqs = boto3.client(\"sqs\")\n\n\ndef poll():\n    while True:\n        sqs.receive_message(QueueUrl=\"https://sqs.us-east-1.amazonaws.com/123456789012/jobs\", MaxNumberOfMessages=10)\n";
    std::fs::write(dir.path().join("workers/poll.py"), worker).unwrap();
    let codes = |outcome: &sqsguard::outcome::Outcome| -> Vec<(String, String)> {
        outcome.findings.iter().map(|f| (f.code().to_string(), f.full_message().into_owned())).collect()
    };

    let long = common::lint(dir.path());
    assert!(!codes(&long).iter().any(|(c, _)| c == "SQS204"), "the queue long-polls: {:?}", codes(&long));

    std::fs::write(dir.path().join("infra/main.tf"), queue(0)).unwrap();
    let short = common::lint(dir.path());
    let sqs204: Vec<String> = codes(&short).into_iter().filter(|(c, _)| c == "SQS204").map(|(_, m)| m).collect();
    assert_eq!(sqs204.len(), 1, "{:?}", codes(&short));
    assert!(sqs204[0].contains("queue aws_sqs_queue.jobs has no"), "{}", sqs204[0]);
    let sqs006 = short.findings.iter().filter(|f| f.code() == "SQS006").count();
    assert_eq!(sqs006, 1, "the queue's own finding is reported once: {:?}", codes(&short));

    // A second queue named jobs: which one the URL means is not known.
    std::fs::create_dir_all(dir.path().join("other")).unwrap();
    std::fs::write(dir.path().join("other/main.tf"), queue(20)).unwrap();
    let both = common::lint(dir.path());
    let sqs204: Vec<String> = codes(&both).into_iter().filter(|(c, _)| c == "SQS204").map(|(_, m)| m).collect();
    assert_eq!(sqs204.len(), 1, "{sqs204:?}");
    assert!(sqs204[0].contains("a queue not known to wait by itself"), "{}", sqs204[0]);
}
