//! Code that sqsguard does not read is never judged: a handler that comes
//! from a package, a wrapper or a decorator it cannot follow is a note,
//! not SQS201/SQS202; a call is SQS's only behind an SQS client; a
//! Serverless Go service's handlers are found; what is outside the
//! repository is not searched; and analysis is bounded per file.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;

use sqsguard::outcome::Outcome;

/// Write `files` (path, text) under `root`.
fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = common::scratch();
    write(dir.path(), files);
    dir
}

/// The code rules' findings (the template's own, SQS004 and the like,
/// are not these tests' concern).
fn codes(outcome: &Outcome) -> Vec<&str> {
    outcome.findings.iter().map(|f| f.code()).filter(|c| c.starts_with("SQS2")).collect()
}

/// A SAM consumer of a queue, `Handler` and `Runtime` as given, whose
/// mapping reports batch item failures when `reports`.
fn sam(handler: &str, runtime: &str, reports: bool) -> String {
    let types = if reports { ", FunctionResponseTypes: [ReportBatchItemFailures]" } else { "" };
    format!(
        "Transform: AWS::Serverless-2016-10-31\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n  F:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: src/\n      Handler: {handler}\n      Runtime: {runtime}\n      Events:\n        E:\n          Type: SQS\n          Properties: {{Queue: !GetAtt Q.Arn{types}}}\n"
    )
}

/// The note about function F's handler, which must exist.
fn note_of_f(outcome: &Outcome) -> String {
    let notes: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).collect();
    notes.iter().find(|n| n.contains("handler of F")).unwrap_or_else(|| panic!("no note on F: {notes:#?}")).to_string()
}

/// A handler bound to what a package exports (`require("@acme/consumer")`)
/// is not read: a note naming the package, never SQS202.
#[test]
fn a_handler_from_a_package_is_a_note() {
    let dir = project(&[
        ("template.yaml", &sam("index.handler", "nodejs20.x", true)),
        ("src/index.js", "const { handler } = require(\"@acme/consumer\");\nexports.handler = handler;\n"),
    ]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    let note = note_of_f(&outcome);
    assert!(note.contains("@acme/consumer"), "{note}");
}

/// A handler bound to a name of a package's module (`handler =
/// consumer.handler` after `import acme_consumer as consumer`) is not read
/// either.
#[test]
fn a_handler_bound_to_a_package_s_name_is_a_note() {
    let code = "import acme_consumer as consumer\n\nhandler = consumer.handler\n";
    let dir = project(&[("template.yaml", &sam("app.handler", "python3.12", true)), ("src/app.py", code)]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    let note = note_of_f(&outcome);
    assert!(note.contains("`consumer.handler` of the package `acme_consumer`"), "{note}");
    // A file of that one statement, without a line break.
    let alone = "exports.handler = main";
    let dir = project(&[("template.yaml", &sam("index.handler", "nodejs20.x", true)), ("src/index.js", alone)]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    // Bound to a module of the code folder, it is read there.
    let dir = project(&[
        ("template.yaml", &sam("app.handler", "python3.12", false)),
        ("src/app.py", "import impl\n\nhandler = impl.handler\n"),
        ("src/impl.py", "def handler(event, context):\n    return {\"batchItemFailures\": []}\n"),
    ]);
    assert_eq!(codes(&common::lint(dir.path())), ["SQS201"]);
}

/// `exports.handler = middy(main)` without the batch middleware: middy's
/// answer is not read, a note; with `.use(sqsPartialBatchFailure())` it
/// returns batch item failures (SQS201 on a mapping without them).
#[test]
fn a_middy_wrapper_is_read_only_with_its_batch_middleware() {
    let plain =
        "const middy = require(\"@middy/core\");\nconst main = async (event) => {};\nexports.handler = middy(main);\n";
    let dir = project(&[("template.yaml", &sam("index.handler", "nodejs20.x", true)), ("src/index.js", plain)]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    assert!(note_of_f(&outcome).contains("`middy`"), "{}", note_of_f(&outcome));
    let batch = "const middy = require(\"@middy/core\");\nconst sqsPartialBatchFailure = require(\"@middy/sqs-partial-batch-failure\");\nconst main = async (event) => Promise.allSettled([]);\nexports.handler = middy(main).use(sqsPartialBatchFailure());\n";
    let dir = project(&[("template.yaml", &sam("index.handler", "nodejs20.x", false)), ("src/index.js", batch)]);
    let outcome = common::lint(dir.path());
    assert!(codes(&outcome).contains(&"SQS201"), "{}", common::render(&outcome));
}

/// A Python handler under a decorator imported from a package that is not
/// read may return anything: a note naming the decorator, not SQS202.
#[test]
fn a_python_handler_under_an_unread_decorator_is_a_note() {
    let code = "from acme.lambda_tools import sqs_batch\n\n\n@sqs_batch\ndef handler(event, context):\n    for record in event[\"Records\"]:\n        print(record[\"body\"])\n";
    let dir = project(&[("template.yaml", &sam("app.handler", "python3.12", true)), ("src/app.py", code)]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    let note = note_of_f(&outcome);
    assert!(note.contains("sqs_batch"), "{note}");
    // Powertools' logger decorator passes the answer through: still judged.
    let logged = "from aws_lambda_powertools import Logger\n\nlogger = Logger()\n\n\n@logger.inject_lambda_context\ndef handler(event, context):\n    for record in event[\"Records\"]:\n        print(record[\"body\"])\n";
    let dir = project(&[("template.yaml", &sam("app.handler", "python3.12", true)), ("src/app.py", logged)]);
    let outcome = common::lint(dir.path());
    assert_eq!(codes(&outcome), ["SQS202"], "{}", common::render(&outcome));
}

/// Behind a decorator that is not read, even a body that returns batch
/// item failures is not what Lambda is known to get: a note, not SQS201.
#[test]
fn a_reporting_body_under_an_unread_decorator_is_a_note() {
    let code = "from acme.lambda_tools import sqs_batch\n\n\n@sqs_batch\ndef handler(event, context):\n    return {\"batchItemFailures\": []}\n";
    let dir = project(&[("template.yaml", &sam("app.handler", "python3.12", false)), ("src/app.py", code)]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS201"), "{}", common::render(&outcome));
    assert!(note_of_f(&outcome).contains("sqs_batch"), "{}", note_of_f(&outcome));
}

/// `handler = app.handle` where `app` is an object the code builds, not a
/// module: its `handle` is not some function of that name in another
/// module the file imports, judged in its place; a note, never SQS202.
#[test]
fn a_handler_bound_to_an_object_s_method_is_not_looked_up_by_name_elsewhere() {
    let code = "import helpers\nfrom acme.web import App\n\napp = App()\nhandler = app.handle\n";
    let helpers = "def handle(event, context):\n    for record in event[\"Records\"]:\n        print(record)\n";
    let dir = project(&[
        ("template.yaml", &sam("app.handler", "python3.12", true)),
        ("src/app.py", code),
        ("src/helpers.py", helpers),
    ]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    let _ = note_of_f(&outcome);
}

/// Names bound to names in a circle are followed to a limit, then said:
/// the binding reached is not known to be the handler, so no SQS202.
#[test]
fn names_bound_in_a_circle_are_a_note() {
    let code = "a = b\nb = a\nhandler = a\n";
    let dir = project(&[("template.yaml", &sam("app.handler", "python3.12", true)), ("src/app.py", code)]);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    let _ = note_of_f(&outcome);
}

/// A handler re-exported from a module of the code folder is followed;
/// re-exported from a package, the note says so, not that the file
/// defines no handler.
#[test]
fn re_exported_handlers_are_followed_or_said() {
    let impl_js = "exports.handler = async (event) => ({ batchItemFailures: [] });\n";
    let impl_py = "def handler(event, context):\n    return {\"batchItemFailures\": []}\n";
    for (handler, runtime, files) in [
        (
            "index.handler",
            "nodejs20.x",
            [("src/index.mjs", "export { handler } from \"./impl.js\";\n"), ("src/impl.js", impl_js)],
        ),
        (
            "index.handler",
            "nodejs20.x",
            [("src/index.js", "module.exports = require(\"./impl\");\n"), ("src/impl.js", impl_js)],
        ),
        ("app.handler", "python3.12", [("src/app.py", "from .impl import handler\n"), ("src/impl.py", impl_py)]),
    ] {
        let mut all = vec![("template.yaml", sam(handler, runtime, false))];
        all.extend(files.iter().map(|(p, t)| (*p, t.to_string())));
        let all: Vec<(&str, &str)> = all.iter().map(|(p, t)| (*p, t.as_str())).collect();
        let dir = project(&all);
        let outcome = common::lint(dir.path());
        assert_eq!(codes(&outcome), ["SQS201"], "{files:?}: {}", common::render(&outcome));
    }
    for (handler, runtime, file, text) in [
        ("index.handler", "nodejs20.x", "src/index.mjs", "export { handler } from \"@acme/consumer\";\n"),
        ("index.handler", "nodejs20.x", "src/index.js", "module.exports = require(\"@acme/consumer\");\n"),
        ("app.handler", "python3.12", "src/app.py", "from acme_consumer import handler\n"),
    ] {
        let dir = project(&[("template.yaml", &sam(handler, runtime, true)), (file, text)]);
        let outcome = common::lint(dir.path());
        assert!(!codes(&outcome).contains(&"SQS202"), "{text}: {}", common::render(&outcome));
        let note = note_of_f(&outcome);
        assert!(note.contains("re-exported from the package") && !note.contains("defines no"), "{text}: {note}");
    }
}

/// Amazon Pinpoint's `send_messages` is no SQS batch call: no SQS206.
#[test]
fn a_method_of_another_service_is_not_an_sqs_call() {
    let code = "import boto3\n\npinpoint = boto3.client(\"pinpoint\")\n\n\ndef send(app, request):\n    pinpoint.send_messages(ApplicationId=app, MessageRequest=request)\n";
    let dir = project(&[("notify.py", code)]);
    let outcome = common::lint(dir.path());
    assert!(codes(&outcome).is_empty(), "{}", common::render(&outcome));
    // Behind an SQS client (or an unknown client in a file that uses SQS)
    // the same call is SQS's.
    let sqs = "import boto3\n\nsqs = boto3.resource(\"sqs\")\nqueue = sqs.Queue(URL)\n\n\ndef send(entries):\n    queue.send_messages(Entries=entries)\n";
    let dir = project(&[("send.py", sqs)]);
    assert_eq!(codes(&common::lint(dir.path())), ["SQS206"]);
}

/// The Framework's Go layout: `handler: bin/hello`, built by its Makefile
/// from `hello/main.go`.
const GO_SERVICE: &[(&str, &str)] = &[
    (
        "svc/serverless.yml",
        "service: svc\nprovider:\n  name: aws\n  runtime: go1.x\nfunctions:\n  hello:\n    handler: bin/hello\n    events:\n      - sqs:\n          arn: !GetAtt Orders.Arn\n          functionResponseType: ReportBatchItemFailures\nresources:\n  Resources:\n    Orders:\n      Type: AWS::SQS::Queue\n",
    ),
    ("svc/Makefile", "build:\n\tenv GOOS=linux go build -o bin/hello hello/main.go\n"),
    (
        "svc/hello/main.go",
        "package main\n\nimport (\n\t\"github.com/aws/aws-lambda-go/events\"\n\t\"github.com/aws/aws-lambda-go/lambda\"\n)\n\nfunc handle(ev events.SQSEvent) error {\n\treturn nil\n}\n\nfunc main() { lambda.Start(handle) }\n",
    ),
];

/// The Go handler of a Framework service is found in the folder named
/// after its binary, linting the service's parent or (from inside it)
/// the service itself; no note has an empty path.
#[test]
fn serverless_go_handlers_are_read() {
    let dir = project(GO_SERVICE);
    let outcome = common::lint(dir.path());
    assert_eq!(codes(&outcome), ["SQS202"], "{}", common::render(&outcome));
    assert!(outcome.notes.is_empty(), "{:#?}", outcome.notes);
    let svc = dir.path().join("svc");
    for arg in ["serverless.yml", "."] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .current_dir(&svc)
            .args(["lint", "--format", "json", "--fail-on", "never", arg])
            .output()
            .unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let rules: Vec<&str> = doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap())
            .filter(|r| r.starts_with("SQS2"))
            .collect();
        assert_eq!(rules, ["SQS202"], "{arg}: {doc}");
        assert_eq!(doc["notes"].as_array().map_or(0, Vec::len), 0, "{arg}: {doc}");
    }
    // A Java function whose class is not there: its note names a folder.
    let java = "  orders:\n    handler: com.example.Orders\n    runtime: java21\n";
    let yml = std::fs::read_to_string(svc.join("serverless.yml"))
        .unwrap()
        .replace("resources:", &format!("{java}resources:"));
    std::fs::write(svc.join("serverless.yml"), yml).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .current_dir(&svc)
        .args(["lint", "--fail-on", "never", "serverless.yml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("com/example/Orders.java was found under ."), "{text}");
}

/// Java with `\u` escapes outside strings is valid Java: the note says
/// what the reader does not read, where, not that the code is invalid.
#[test]
fn java_unicode_escapes_are_not_called_invalid() {
    let code = "public class H implements RequestHandler<SQSEvent, SQSBatchResponse> {\n  public SQSBatchResponse handleRequest(SQSEvent e, Context c) {\n    String \\u0061 = \"\\u0041\";\n    return new SQSBatchResponse(new ArrayList<>());\n  }\n}\n";
    let dir = project(&[("template.yaml", &sam("H::handleRequest", "java21", false)), ("src/H.java", code)]);
    let outcome = common::lint(dir.path());
    let notes: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).collect();
    assert!(notes.iter().all(|n| !n.contains("not valid Java")), "{notes:#?}");
    let said = notes.iter().any(|n| n.contains("H.java:3:12") && n.contains("uses \\u escapes outside strings"));
    assert!(said, "{notes:#?}");
}

/// A symlinked folder that leads outside the linted repository is not
/// searched for SQS API calls.
#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_repository_is_not_searched() {
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        &[(
            "worker.py",
            "import boto3\n\nsqs = boto3.client(\"sqs\")\n\n\ndef poll(url):\n    return sqs.receive_message(QueueUrl=url)\n",
        )],
    );
    let dir = project(&[("README.md", "a repository\n")]);
    std::os::unix::fs::symlink(outside.path(), dir.path().join("shared")).unwrap();
    let outcome = common::lint(dir.path());
    assert!(codes(&outcome).is_empty(), "{}", common::render(&outcome));
}

/// A Python file of 262,000 short lines is analysed within bounds: it is
/// fully read (its one call is found) or a note says which bound was hit.
#[test]
fn a_long_python_file_is_analysed_within_bounds() {
    let mut code = String::from("import boto3\n\nsqs = boto3.client(\"sqs\")\n");
    for _ in 0..262_000 {
        code.push_str("x=1\n");
    }
    code.push_str("\n\ndef poll(url):\n    return sqs.receive_message(QueueUrl=url)\n");
    let dir = project(&[("long.py", &code)]);
    let outcome = common::lint(dir.path());
    let noted = outcome.notes.iter().any(|n| n.message.contains("long.py"));
    assert!(codes(&outcome) == ["SQS204"] || noted, "{}", common::render(&outcome));
}

/// Past the bound of syntax nodes one file's analysis visits (70,000
/// lines of `x=1` are 350,000), the file is a note that says so.
#[test]
fn a_file_over_the_node_bound_is_a_note() {
    let mut code = String::from("import boto3\n\nsqs = boto3.client(\"sqs\")\n");
    code.push_str(&"x=1\n".repeat(70_000));
    code.push_str("\n\ndef poll(url):\n    return sqs.receive_message(QueueUrl=url)\n");
    let dir = project(&[("long.py", &code)]);
    let outcome = common::lint(dir.path());
    let notes: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).collect();
    assert!(notes.iter().any(|n| n.contains("long.py") && n.contains("syntax nodes")), "{notes:#?}");
    assert!(codes(&outcome).is_empty(), "{}", common::render(&outcome));
}

/// One handler's files together are bounded too: eight modules of
/// 140,000 nodes each (each under the bound of one file) leave what the
/// handler returns unknown, said in a note, never SQS202.
#[test]
fn a_handler_whose_modules_are_over_the_node_bound_is_a_note() {
    let mut files: Vec<(String, String)> = vec![("template.yaml".into(), sam("app.handler", "python3.12", true))];
    let mut app = String::new();
    let mut body = String::from("\n\ndef handler(event, context):\n");
    for i in 0..8 {
        app.push_str(&format!("from m{i} import f{i}\n"));
        body.push_str(&format!("    f{i}(event)\n"));
        files.push((format!("src/m{i}.py"), format!("def f{i}(event):\n    pass\n\n\n{}", "x=1\n".repeat(28_000))));
    }
    files.push(("src/app.py".into(), app + &body));
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
    let dir = project(&files);
    let outcome = common::lint(dir.path());
    assert!(!codes(&outcome).contains(&"SQS202"), "{}", common::render(&outcome));
    let note = note_of_f(&outcome);
    assert!(note.contains("syntax nodes"), "{note}");
}
