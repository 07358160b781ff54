//! `sqsguard server`, the built binary, fed malformed input on standard
//! input: it answers what JSON-RPC 2.0 defines an answer for (-32700 Parse
//! error, -32600 Invalid Request), logs broken frames, reads on from the
//! next header, and keeps LSP's lifecycle (initialize once, nothing but
//! exit after shutdown, exit 1 without shutdown). Only exit, or the end of
//! its input, ends it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;
use crate::common::lsp;
use crate::common::stdio;

use serde_json::{Value, json};
use stdio::{Server, frame, framed, notification, request};

/// A request any initialized server answers (a hover on a document it does
/// not know: `null`), long enough that a body read past its message's end
/// cannot swallow it whole.
fn probe(id: &str) -> Vec<u8> {
    let uri = format!("file:///nowhere/{}.yaml", "x".repeat(200));
    framed(&request(
        json!(id),
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}),
    ))
}

/// What the server must answer to a malformed message: JSON-RPC's error
/// (its code and the id it names), or nothing but a log line.
#[derive(Debug)]
enum Expect {
    Error(i64, Value),
    Logged(&'static str),
}

fn cases() -> Vec<(&'static str, Vec<u8>, Expect)> {
    use Expect::{Error, Logged};
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let hover = br#"{"jsonrpc":"2.0","id":50,"method":"textDocument/hover","params":{}}"#;
    vec![
        ("no Content-Length", b"Content-Type: application/json\r\n\r\n{}".to_vec(), Logged("no Content-Length")),
        ("a Content-Length that is no number", b"Content-Length: ten\r\n\r\n{}".to_vec(), Logged("not a number")),
        ("a negative Content-Length", b"Content-Length: -2\r\n\r\n{}".to_vec(), Logged("not a number")),
        (
            "LF-only headers",
            [format!("Content-Length: {}\n\n", hover.len()).as_bytes(), hover].concat(),
            Logged("line feed alone"),
        ),
        ("a header line without a colon", b"Content-Length 2\r\n\r\n{}".to_vec(), Logged("no `name: value`")),
        ("a Content-Length past the cap", b"Content-Length: 99999999999\r\n\r\n{}".to_vec(), Logged("over the 64 MiB")),
        ("junk before a header", b"%%%%".to_vec(), Logged("junk before a header")),
        (
            "a body shorter than its Content-Length",
            [format!("Content-Length: {}\r\n\r\n", hover.len() + 10).as_bytes(), hover].concat(),
            Logged("shorter than its Content-Length"),
        ),
        ("a body that is not JSON", frame(b"{nope"), Error(-32700, Value::Null)),
        ("an empty body", frame(b""), Error(-32700, Value::Null)),
        ("a body that is not UTF-8", frame(b"{\"a\": \"\xff\xfe\"}"), Error(-32700, Value::Null)),
        ("JSON nested past any depth", frame(deep.as_bytes()), Error(-32700, Value::Null)),
        ("an array", frame(b"[1,2,3]"), Error(-32600, Value::Null)),
        ("an empty array (a batch)", frame(b"[]"), Error(-32600, Value::Null)),
        ("null", frame(b"null"), Error(-32600, Value::Null)),
        ("a string", frame(b"\"initialize\""), Error(-32600, Value::Null)),
        ("an empty object", frame(b"{}"), Error(-32600, Value::Null)),
        ("an object without method", frame(br#"{"jsonrpc":"2.0","id":7}"#), Error(-32600, json!(7))),
        ("a method that is no string", frame(br#"{"jsonrpc":"2.0","id":8,"method":1}"#), Error(-32600, json!(8))),
        ("an id that is a fraction", frame(br#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#), Error(-32600, Value::Null)),
        ("no jsonrpc 2.0", frame(br#"{"jsonrpc":"1.0","id":9,"method":"x"}"#), Error(-32600, json!(9))),
        ("params of the wrong type", frame(hover), Error(-32602, json!(50))),
        ("an unknown request", frame(br#"{"jsonrpc":"2.0","id":51,"method":"x/y"}"#), Error(-32601, json!(51))),
    ]
}

#[test]
fn each_malformed_message_is_answered_or_logged_and_the_next_request_still_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    let mut problems = Vec::new();
    for (k, (what, bytes, expect)) in cases().into_iter().enumerate() {
        let id = format!("probe-{k}");
        server.send_raw(&[bytes, probe(&id)].concat());
        let answer = server.answer_to(&json!(id));
        if answer.get("result") != Some(&Value::Null) {
            problems.push(format!("{what}: the next request's answer is {answer}"));
        }
        match expect {
            Expect::Error(code, id) => {
                let error = server.wait_for(|m| m.get("error").is_some() && m["id"] == id);
                let message = error["error"]["message"].as_str().unwrap_or_default();
                if error["error"]["code"] != code || message.contains("Error {") || message.contains("Error(") {
                    problems.push(format!("{what}: answered {error}, not error {code} in a sentence"));
                }
            }
            Expect::Logged(says) => {
                let logs = server.logs();
                if !logs.iter().any(|l| l.contains(says)) {
                    problems.push(format!("{what}: no log line says {says:?}: {logs:?}"));
                }
            }
        }
        // The reader's answers and logs are written before the answer to
        // the request after them: nothing of this case comes later.
        server.seen.clear();
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    server.stop();
}

/// A response, valid or not, is never answered: JSON-RPC answers
/// requests (one without `"jsonrpc": "2.0"` was answered -32600 under its
/// id, which a client reads as the answer to its own request).
#[test]
fn a_response_is_never_answered() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    server.send_raw(&[frame(br#"{"id":99,"result":null}"#), probe("after-response")].concat());
    assert_eq!(server.answer_to(&json!("after-response"))["result"], Value::Null);
    assert!(!server.seen.iter().any(|m| m["id"] == 99), "a response was answered: {:?}", server.seen);
    server.stop();
}

#[test]
fn a_lone_surrogate_in_a_document_is_read_as_a_replacement_character_and_the_document_checked() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let template = std::fs::read_to_string(common::root().join("tests/fixtures/server/worker.yaml")).unwrap();
    let file = root.join("template.yaml");
    std::fs::write(&file, &template).unwrap();
    let mut server = Server::start(&root);
    // As JavaScript's JSON.stringify writes a buffer holding half a pair.
    let text = format!("{template}# note: SURROGATE\n");
    let doc = json!({"uri": lsp::url(&file), "languageId": "yaml", "version": 1, "text": text});
    let body =
        notification("textDocument/didOpen", json!({"textDocument": doc})).to_string().replace("SURROGATE", r"\ud800");
    server.send_raw(&frame(body.as_bytes()));
    let published = server.wait_for(|m| m["method"] == "textDocument/publishDiagnostics");
    assert_eq!(published["params"]["uri"], lsp::url(&file));
    assert_eq!(lsp::codes(&published["params"]), ["SQS004", "SQS002"], "{published}");
    let logs = server.logs();
    assert!(logs.iter().any(|l| l.contains("U+FFFD")), "{logs:?}");
    server.stop();
}

#[test]
fn after_shutdown_a_request_is_an_invalid_request_and_exit_ends_with_0() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    assert_eq!(server.call(json!(1), "shutdown", Value::Null)["result"], Value::Null);
    let refused = server.call(json!(2), "textDocument/hover", json!({}));
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(server.running());
    assert_eq!(server.call(json!(3), "shutdown", Value::Null)["error"]["code"], -32600);
    server.send(&notification("exit", Value::Null));
    let status = server.exit_status();
    assert_eq!(status.code(), Some(0), "stderr: {}", server.stderr());
}

#[test]
fn exit_without_shutdown_ends_with_1() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    server.send(&notification("exit", Value::Null));
    assert_eq!(server.exit_status().code(), Some(1));
    assert!(server.stderr().contains("exit before shutdown"), "{}", server.stderr());
}

#[test]
fn initialize_is_answered_once_and_requests_before_it_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::spawn();
    let early = server.call(json!("early"), "textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    // Notifications before initialize are dropped, not answered.
    server.send(&notification("textDocument/didClose", json!({})));
    let params = json!({"processId": null, "rootUri": lsp::url(dir.path()), "capabilities": {}});
    assert_eq!(server.call(json!(1), "initialize", params.clone())["result"]["serverInfo"]["name"], "sqsguard");
    let again = server.call(json!(2), "initialize", params);
    assert_eq!(again["error"]["code"], -32600, "{again}");
    assert!(server.seen.iter().all(|m| m.get("id") != Some(&Value::Null)), "{:?}", server.seen);
    server.stop();
}

#[test]
fn invalid_params_are_said_in_a_sentence_not_in_debug_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    for method in ["textDocument/hover", "textDocument/codeAction"] {
        let answer = server.call(json!(method), method, json!({"textDocument": 5}));
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("the {method} request's params are not valid: ")), "{message}");
        assert!(!message.contains("JsonError") && !message.contains("Error("), "{message}");
    }
    // A notification's are logged.
    server.send(&notification("textDocument/didOpen", json!({"textDocument": 5})));
    assert_eq!(
        server.call(
            json!(9),
            "textDocument/hover",
            json!({"textDocument": {"uri": "file:///x"}, "position": {"line": 0, "character": 0}})
        )["result"],
        Value::Null
    );
    let log = server.wait_for(|m| m["method"] == "window/logMessage");
    assert!(
        log["params"]["message"].as_str().unwrap().contains("didOpen notification's params are not valid"),
        "{log}"
    );
    server.stop();
}

#[test]
fn a_body_cut_short_by_the_end_of_input_is_logged_and_the_end_ends_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Server::start(dir.path());
    server.send_raw(b"Content-Length: 100\r\n\r\n{\"jsonrpc\":");
    server.close_input();
    let log = server.wait_for(|m| m["method"] == "window/logMessage");
    assert!(log["params"]["message"].as_str().unwrap().contains("11 bytes into a body of 100"), "{log}");
    assert!(server.exit_status().success(), "stderr: {}", server.stderr());
}
