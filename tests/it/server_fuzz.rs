//! `sqsguard server` as someone types every file of the corpora: each
//! corpus template and code file is opened empty and typed a line at a
//! time (incremental changes, as editors send them), so the server checks
//! every prefix by line: half a resource, an unclosed bracket, a handler
//! cut mid-function. After each line a request (a hover, then code
//! actions) must be answered, the prefix's diagnostics must be published,
//! none may lie outside the text it was made for, and no check may fail.
//!
//! And the built binary fed mutated messages on standard input (broken
//! framing, broken bodies, seeded so each run sends the same bytes): after
//! each one a request must still be answered, and the server must end only
//! on exit.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;
use crate::common::lsp;
use crate::common::stdio;

use crate::common::rng;
use rng::Rng;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use lsp::Client;
use serde_json::{Value, json};

/// The files of tests/corpus (templates) and tests/code_corpus (handlers
/// and workers) that lint reads, in a stable order.
fn corpus_files() -> Vec<PathBuf> {
    const READ: &[&str] = &["yaml", "yml", "json", "tf", "py", "js", "mjs", "ts", "go", "java"];
    let mut files = Vec::new();
    for dir in ["tests/corpus", "tests/code_corpus"] {
        for entry in ignore::WalkBuilder::new(common::root().join(dir)).standard_filters(false).build() {
            let path = entry.unwrap().into_path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
            if path.is_file() && READ.contains(&ext) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Each line's length in UTF-16 units (what the client counts), its
/// break not counted; a text's last line may be empty.
fn line_widths(text: &str) -> Vec<u64> {
    let mut widths = Vec::new();
    let mut rest = text;
    loop {
        let (line, next) = match rest.find(['\n', '\r']) {
            Some(i) => {
                let width = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                (&rest[..i], Some(&rest[i + width..]))
            }
            None => (rest, None),
        };
        widths.push(line.encode_utf16().count() as u64);
        match next {
            Some(next) => rest = next,
            None => return widths,
        }
    }
}

/// The widths of a text grown by `line`, one of its `split_inclusive('\n')`
/// pieces: the text before it ends with its break (an empty last line),
/// which the line's own widths take the place of. Typing a file costs
/// its length, not its length squared.
fn type_line(widths: &mut Vec<u64>, line: &str) {
    widths.pop();
    widths.extend(line_widths(line));
}

/// Why `range` does not lie in a text of these line widths, if it does not.
fn outside(range: &Value, widths: &[u64]) -> Option<String> {
    let at = |p: &Value| (p["line"].as_u64().unwrap(), p["character"].as_u64().unwrap());
    let (start, end) = (at(&range["start"]), at(&range["end"]));
    if start > end {
        return Some(format!("starts after it ends: {range}"));
    }
    for (line, character) in [start, end] {
        match widths.get(line as usize) {
            None => return Some(format!("line {line} of a text of {} lines: {range}", widths.len())),
            Some(&width) if character > width => {
                return Some(format!("character {character} of line {line}, {width} wide: {range}"));
            }
            Some(_) => {}
        }
    }
    None
}

/// The ranges of every text edit a code action answer makes in `uri`.
fn edit_ranges<'a>(actions: &'a Value, uri: &'a str) -> impl Iterator<Item = &'a Value> + 'a {
    let actions = actions.as_array().map(Vec::as_slice).unwrap_or_default();
    actions.iter().filter_map(move |a| a["edit"]["changes"][uri].as_array()).flatten().map(|edit| &edit["range"])
}

/// Type `file` into an open document a line at a time; the problems met.
fn type_out(client: &mut Client, file: &Path, text: &str, problems: &mut Vec<String>) {
    let uri = lsp::url(file);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut problem = |what: String| problems.push(format!("{}: {what}", common::relative(file).display()));
    // The texts of other files a check spoke of (read from disk).
    let mut disk: HashMap<String, Vec<u64>> = HashMap::new();
    client.open(file, "");
    let mut widths = line_widths("");
    for (k, line) in lines.iter().enumerate() {
        let version = i32::try_from(k).unwrap() + 2;
        client.insert(file, version, u32::try_from(k).unwrap(), 0, line);
        type_line(&mut widths, line);
        // An answer to each request, and one that stays in the text.
        let at = json!({"line": k, "character": 0});
        let document = json!({"uri": uri});
        if k % 2 == 0 {
            let answer = client.answer("textDocument/hover", json!({"textDocument": document, "position": at}));
            if let Err(e) = answer.response_result {
                problem(format!("hover after line {}: {e:?}", k + 1));
            }
        } else {
            let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": k + 1, "character": 0}});
            let params = json!({"textDocument": document, "range": whole, "context": {"diagnostics": []}});
            match client.answer("textDocument/codeAction", params).response_result {
                Err(e) => problem(format!("code actions after line {}: {e:?}", k + 1)),
                Ok(actions) => {
                    for range in edit_ranges(&actions, &uri) {
                        if let Some(why) = outside(range, &widths) {
                            problem(format!("a fix after line {} edits outside the text: {why}", k + 1));
                        }
                    }
                }
            }
        }
        // This prefix's diagnostics, each in the text they were made for.
        let published = client.diagnostics(file, |p| p["version"] == version);
        for d in published["diagnostics"].as_array().unwrap() {
            if let Some(why) = outside(&d["range"], &widths) {
                problem(format!("after line {}, {} is outside the text: {why}", k + 1, d["code"]));
            }
        }
    }
    for n in std::mem::take(&mut client.seen) {
        match n.method.as_str() {
            "textDocument/publishDiagnostics" if n.params["uri"] != uri => {
                let other = n.params["uri"].as_str().unwrap().to_string();
                let widths = disk.entry(other.clone()).or_insert_with(|| {
                    let path = lsp_types::Url::parse(&other).unwrap().to_file_path().unwrap();
                    line_widths(&std::fs::read_to_string(path).unwrap_or_default())
                });
                for d in n.params["diagnostics"].as_array().unwrap() {
                    if let Some(why) = outside(&d["range"], widths) {
                        problem(format!("on {other}, {} is outside the file: {why}", d["code"]));
                    }
                }
            }
            "window/showMessage" if n.params["type"] == 1 => {
                problem(format!("a check failed: {}", n.params["message"]))
            }
            _ => {}
        }
    }
    client.close(file);
}

#[test]
fn every_prefix_of_every_corpus_file_is_answered_and_stays_in_its_text() {
    let root = common::root().canonicalize().unwrap();
    let files = corpus_files();
    assert!(files.len() > 300, "the corpora hold {} files", files.len());
    let mut client = Client::start(&root, json!(null));
    let mut problems = Vec::new();
    let mut lines = 0;
    for file in &files {
        let text = std::fs::read(file).unwrap();
        // A file that is no UTF-8 cannot be an editor's document.
        let Ok(text) = String::from_utf8(text) else { continue };
        lines += text.split_inclusive('\n').count();
        type_out(&mut client, file, &text, &mut problems);
    }
    client.stop();
    eprintln!("typed {lines} lines of {} files", files.len());
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn widths_grown_a_line_at_a_time_are_the_whole_texts() {
    let text = "a\r\nbé\rc\n\n\u{1F600}x\nlast";
    let mut widths = line_widths("");
    let mut typed = String::new();
    for line in text.split_inclusive('\n') {
        type_line(&mut widths, line);
        typed.push_str(line);
        assert_eq!(widths, line_widths(&typed), "after {typed:?}");
    }
    assert_eq!(widths, [1, 2, 1, 0, 3, 4]);
}

#[test]
fn a_range_past_the_text_is_caught() {
    let widths = line_widths("ab\r\ncd\n");
    assert_eq!(widths, [2, 2, 0]);
    let range = |l1: u64, c1: u64, l2: u64, c2: u64| json!({"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}});
    assert_eq!(outside(&range(0, 0, 2, 0), &widths), None);
    assert!(outside(&range(0, 3, 0, 3), &widths).is_some());
    assert!(outside(&range(3, 0, 3, 0), &widths).is_some());
    assert!(outside(&range(1, 1, 1, 0), &widths).is_some());
}

/// Messages an editor sends, to be broken.
fn editor_messages(uri: &str, template: &str) -> Vec<Value> {
    let at = json!({"line": 3, "character": 4});
    let document = json!({"uri": uri});
    let range = json!({"start": at, "end": at});
    vec![
        stdio::notification(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": template}}),
        ),
        stdio::notification(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"range": range, "text": "  # x\n"}]}),
        ),
        stdio::request(json!(1), "textDocument/hover", json!({"textDocument": document, "position": at})),
        stdio::request(
            json!(2),
            "textDocument/codeAction",
            json!({"textDocument": document, "range": range, "context": {"diagnostics": []}}),
        ),
        stdio::notification("workspace/didChangeConfiguration", json!({"settings": {"select": ["SQS0"]}})),
        stdio::notification("$/cancelRequest", json!({"id": 1})),
        stdio::request(json!("s"), "workspace/symbol", json!({"query": "q"})),
        stdio::notification("textDocument/didClose", json!({"textDocument": document})),
    ]
}

/// `message`, its body and then its framing broken at random; a length
/// that lies says at most 20 bytes more than the body has (what follows
/// is a longer request, so the server never waits for bytes that do not
/// come).
fn broken(rng: &mut Rng, message: &Value) -> Vec<u8> {
    let mut body = message.to_string().into_bytes();
    let at = |rng: &mut Rng, body: &Vec<u8>| rng.below(body.len() + 1);
    match rng.below(8) {
        0 => {}
        1 => {
            for _ in 0..=rng.below(4) {
                let i = rng.below(body.len());
                body[i] = rng.next() as u8;
            }
        }
        2 => body.truncate(at(rng, &body)),
        3 => {
            let i = at(rng, &body);
            let escape: &[u8] = [br"\ud800".as_slice(), br"\udfff", br"\ud83d", br"\\u"][rng.below(4)];
            body.splice(i..i, escape.iter().copied());
        }
        4 => {
            let depth = 50 + rng.below(3000);
            body = [vec![b'['; depth], body, vec![b']'; depth]].concat();
        }
        5 => {
            let (a, b) = (at(rng, &body), at(rng, &body));
            body.drain(a.min(b)..a.max(b));
        }
        6 => {
            let i = at(rng, &body);
            let junk: Vec<u8> = (0..=rng.below(8)).map(|_| rng.next() as u8).collect();
            body.splice(i..i, junk);
        }
        _ => {
            let (a, b) = (at(rng, &body), at(rng, &body));
            let copy = body[a.min(b)..a.max(b)].to_vec();
            body.splice(a.max(b)..a.max(b), copy);
        }
    }
    let n = body.len();
    let header = match rng.below(10) {
        0 | 1 => format!("Content-Length: {n}\r\n\r\n"),
        2 => format!("Content-Length: {}\r\n\r\n", (n + 20).saturating_sub(rng.below(41))),
        3 => "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n".to_string(),
        4 => format!("Content-Length: {n}\n\n"),
        5 => format!("Content-Length: {n}x\r\n\r\n"),
        6 => format!("Content-Length: {}\r\n\r\n", u64::MAX - rng.below(1000) as u64),
        7 => format!("X-Junk\r\nContent-Length: {n}\r\n\r\n"),
        8 => format!("Content-Length: {n}\r\n"),
        _ => format!("%$#Content-Length: {n}\r\ncontent-type: x\r\n\r\n"),
    };
    [header.into_bytes(), body].concat()
}

#[test]
fn mutated_messages_never_end_the_server_and_each_next_request_is_answered() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let template = std::fs::read_to_string(common::root().join("tests/fixtures/server/worker.yaml")).unwrap();
    let file = root.join("template.yaml");
    std::fs::write(&file, &template).unwrap();
    let messages = editor_messages(&lsp::url(&file), &template);
    let mut server = stdio::Server::start(&root);
    let mut rng = Rng(0x5eed_0040);
    let started = std::time::Instant::now();
    let cases = 2000;
    let mut met: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for k in 0..cases {
        let which = rng.below(messages.len());
        let mut bytes = broken(&mut rng, &messages[which]);
        // A request longer than any lie of a length.
        let id = json!(format!("probe-{k}"));
        let padding = "p".repeat(100);
        let uri = format!("file:///{padding}.yaml");
        let position = json!({"line": 0, "character": 0});
        let probe = stdio::request(
            id.clone(),
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position}),
        );
        bytes.extend(stdio::framed(&probe));
        server.send_raw(&bytes);
        let answer = server.answer_to(&id);
        assert_eq!(answer["result"], Value::Null, "case {k}: {answer}");
        assert!(server.running(), "case {k}: the server ended; stderr: {}", server.stderr());
        for m in server.seen.drain(..) {
            let kind = match (&m["error"]["code"], &m["method"]) {
                (Value::Number(code), _) => code.to_string(),
                (_, Value::String(method)) => method.clone(),
                _ => "result".to_string(),
            };
            *met.entry(kind).or_insert(0) += 1;
        }
    }
    eprintln!("{cases} mutated messages in {:?}: {met:?}", started.elapsed());
    // The cases reach each way of refusing input, not only valid messages.
    for kind in ["-32700", "-32600", "window/logMessage", "textDocument/publishDiagnostics"] {
        assert!(met.get(kind).is_some_and(|&n| n >= 10), "{kind}: {met:?}");
    }
    server.stop();
}
