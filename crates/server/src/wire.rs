//! The server's connection on standard input and output: frames from
//! [`transport`](super::transport) decoded into lsp-server's messages, and
//! what JSON-RPC 2.0 answers to those that are not messages.
//!
//! A body that is not JSON (or not UTF-8, or nested past serde_json's
//! depth limit) is answered with -32700 Parse error, valid JSON that is no
//! request, notification or response with -32600 Invalid Request (both
//! with `id: null` unless the message's id can be read). A broken frame
//! is logged (`window/logMessage`). None of them ends the connection:
//! only the end of standard input, or `exit`, does. A lone UTF-16
//! surrogate escape (`"\ud800"`, what JavaScript writes for a broken
//! string) is read as U+FFFD, and logged, so the message still counts.

use std::io::Write;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, never, select};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use serde_json::{Map, Value, json};

use super::transport::{Frame, Reader, find_header_start};

/// A connection on standard input and output, and the thread that writes
/// to standard output: join it once the connection is dropped, so that
/// every answer is written before the process ends. (The reading thread
/// is not joined: it waits on standard input, which ends with the process.)
pub(super) fn stdio() -> (Connection, JoinHandle<()>) {
    let (to_server, receiver) = crossbeam_channel::bounded::<Message>(0);
    let (sender, outgoing) = crossbeam_channel::unbounded::<Message>();
    let (raw_sender, raw) = crossbeam_channel::unbounded::<Value>();
    let writer = std::thread::spawn(move || write_all(&outgoing, raw));
    std::thread::spawn(move || read_all(std::io::stdin().lock(), &to_server, &raw_sender));
    (Connection { sender, receiver }, writer)
}

/// Write what the server and the reader send until the server's side is
/// dropped.
fn write_all(outgoing: &Receiver<Message>, mut raw: Receiver<Value>) {
    let mut stdout = std::io::stdout().lock();
    loop {
        select! {
            recv(outgoing) -> message => match message {
                Ok(message) => {
                    // What the reader said before the server sent this
                    // goes first: an answer to a broken message before
                    // the answer to the request after it.
                    for value in raw.try_iter() {
                        write_value(&mut stdout, &value);
                    }
                    let _ = message.write(&mut stdout);
                }
                Err(_) => break,
            },
            recv(raw) -> value => match value {
                Ok(value) => write_value(&mut stdout, &value),
                // The reader is done (standard input ended).
                Err(_) => raw = never(),
            },
        }
    }
    for value in raw.try_iter() {
        write_value(&mut stdout, &value);
    }
}

fn write_value(out: &mut impl Write, value: &Value) {
    let body = value.to_string();
    let _ = write!(out, "Content-Length: {}\r\n\r\n{body}", body.len());
    let _ = out.flush();
}

/// Read frames until the input ends (or `exit` is read): messages to the
/// server, answers and logs to the writer.
pub(super) fn read_all(input: impl std::io::Read, to_server: &Sender<Message>, raw: &Sender<Value>) {
    let mut reader = Reader::new(input);
    let log = |message: String| {
        let _ = raw.send(json!({"jsonrpc": "2.0", "method": "window/logMessage",
            "params": {"type": 2, "message": format!("sqsguard server: {message}")}}));
    };
    loop {
        let body = match reader.next_frame() {
            Frame::End => return,
            Frame::Broken(why) => {
                log(format!("{why}; reading on from the next Content-Length header"));
                continue;
            }
            Frame::Body(body) => body,
        };
        match decode(&body) {
            Decoded::Message(message, mended) => {
                if mended > 0 {
                    log(format!(
                        "a message held {mended} lone UTF-16 surrogate escape(s) (as `\\ud800`), which are no \
                         text: each was read as U+FFFD (�)"
                    ));
                }
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if to_server.send(message).is_err() || exit {
                    return;
                }
            }
            Decoded::Ignored(why) => log(why),
            Decoded::Refused { id, code, message } => {
                // A body cut short holds (the start of) the next message's
                // header: read on from there, not from after the body.
                if code == ErrorCode::ParseError as i32
                    && let Some(at) = find_header_start(&body)
                {
                    reader.unread(&body[at..]);
                    log(format!(
                        "a message's body may be shorter than its Content-Length: it holds a header; reading on \
                         from there ({message})"
                    ));
                } else {
                    log(message.clone());
                }
                let _ = raw.send(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}));
            }
        }
    }
}

/// What a body is.
#[derive(Debug)]
pub(super) enum Decoded {
    /// A message, and how many lone surrogates were read as U+FFFD.
    Message(Message, usize),
    /// No message, and nothing to answer (a response that is not one).
    Ignored(String),
    /// JSON-RPC's error answer.
    Refused { id: Value, code: i32, message: String },
}

fn refused(id: Value, code: ErrorCode, message: String) -> Decoded {
    Decoded::Refused { id, code: code as i32, message }
}

/// Decode one body.
pub(super) fn decode(body: &[u8]) -> Decoded {
    // Every keystroke's message is read once; only one that does not parse
    // is looked at again, for what can be mended (lone surrogates) or said.
    let (value, mended) = match serde_json::from_slice::<Value>(body) {
        Ok(value) => (value, 0),
        Err(_) => {
            let text = match std::str::from_utf8(body) {
                Ok(text) => text,
                Err(e) => {
                    let why = format!("a message is not JSON: it is not UTF-8 (byte {} of its body)", e.valid_up_to());
                    return refused(Value::Null, ErrorCode::ParseError, why);
                }
            };
            let (text, mended) = mend_surrogates(text);
            match serde_json::from_str(&text) {
                Ok(value) => (value, mended),
                Err(e) => return refused(Value::Null, ErrorCode::ParseError, format!("a message is not JSON: {e}")),
            }
        }
    };
    let Value::Object(object) = value else {
        let why =
            format!("a message must be a JSON object (a request, notification or response), not {}", kind(&value));
        return refused(Value::Null, ErrorCode::InvalidRequest, why);
    };
    message(object, mended)
}

/// The message a JSON object is, or why it is none.
fn message(mut object: Map<String, Value>, mended: usize) -> Decoded {
    let raw_id = object.get("id").cloned();
    let id = match &raw_id {
        Some(Value::Number(n)) => n.as_i64().and_then(|n| i32::try_from(n).ok()).map(RequestId::from),
        Some(Value::String(s)) => Some(RequestId::from(s.clone())),
        _ => None,
    };
    // What an error answer names: the id when it is one.
    let answer_id = if id.is_some() { raw_id.clone().unwrap_or(Value::Null) } else { Value::Null };
    let invalid = |why: String| refused(answer_id.clone(), ErrorCode::InvalidRequest, why);
    // A response is never answered, whatever is wrong with it.
    let response = !object.contains_key("method") && (object.contains_key("result") || object.contains_key("error"));
    if !response && object.get("jsonrpc") != Some(&json!("2.0")) {
        return invalid("a message must say \"jsonrpc\": \"2.0\"".to_string());
    }
    let params = object.remove("params").unwrap_or(Value::Null);
    match object.remove("method") {
        Some(Value::String(method)) => match (raw_id, id) {
            (None, _) => Decoded::Message(Message::Notification(Notification { method, params }), mended),
            (Some(_), Some(id)) => Decoded::Message(Message::Request(Request { id, method, params }), mended),
            (Some(raw), None) => invalid(format!("the request's id {raw} is not a string or a 32-bit integer")),
        },
        Some(other) => invalid(format!("a message's method must be a string, not {}", kind(&other))),
        None if object.contains_key("result") || object.contains_key("error") => {
            match serde_json::from_value::<Response>(Value::Object(object)) {
                Ok(response) => Decoded::Message(Message::Response(response), mended),
                Err(e) => Decoded::Ignored(format!("a response is not valid: {e}")),
            }
        }
        None => invalid("a message without a method is neither a request nor a notification".to_string()),
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `text` with each `\u` escape of a lone UTF-16 surrogate (one not in a
/// high-low pair) made `\ufffd`, and how many were; serde_json refuses
/// them. Backslashes only stand in JSON strings, so every one starts an
/// escape.
pub(super) fn mend_surrogates(text: &str) -> (std::borrow::Cow<'_, str>, usize) {
    let bytes = text.as_bytes();
    let unit = |at: usize| -> Option<u16> {
        let hex = bytes.get(at..at + 6)?;
        if hex[0] != b'\\' || hex[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    };
    let mut out = String::new();
    let (mut copied, mut mended, mut i) = (0, 0, 0);
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(u) = unit(i) else {
            i += 2; // any other escape, `\\` included
            continue;
        };
        let high = (0xD800..0xDC00).contains(&u);
        if high && unit(i + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low)) {
            i += 12;
        } else if high || (0xDC00..0xE000).contains(&u) {
            out.push_str(&text[copied..i]);
            out.push_str("\\ufffd");
            mended += 1;
            i += 6;
            copied = i;
        } else {
            i += 6;
        }
    }
    if mended == 0 {
        return (std::borrow::Cow::Borrowed(text), 0);
    }
    out.push_str(&text[copied..]);
    (std::borrow::Cow::Owned(out), mended)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(body: &str) -> (Value, i32) {
        match decode(body.as_bytes()) {
            Decoded::Refused { id, code, .. } => (id, code),
            other => panic!("{body}: {other:?}"),
        }
    }

    #[test]
    fn what_is_not_a_message_gets_its_json_rpc_error() {
        assert_eq!(refusal("{nope"), (Value::Null, -32700));
        assert_eq!(refusal(&format!("{}{}", "[".repeat(5000), "]".repeat(5000))), (Value::Null, -32700));
        assert_eq!(refusal("[1,2,3]"), (Value::Null, -32600));
        assert_eq!(refusal(r#"{"jsonrpc":"2.0","id":7}"#), (json!(7), -32600));
        assert_eq!(refusal(r#"{"jsonrpc":"2.0","id":"a","method":3}"#), (json!("a"), -32600));
        assert_eq!(refusal(r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#), (Value::Null, -32600));
        assert_eq!(refusal(r#"{"id":1,"method":"x"}"#), (json!(1), -32600));
        assert!(matches!(decode(b"\xff{}"), Decoded::Refused { code: -32700, .. }));
    }

    #[test]
    fn requests_notifications_and_responses_are_read() {
        let request = decode(br#"{"jsonrpc":"2.0","id":3,"method":"shutdown"}"#);
        assert!(matches!(request, Decoded::Message(Message::Request(r), 0) if r.id == 3.into() && r.params.is_null()));
        let note = decode(br#"{"jsonrpc":"2.0","method":"exit","params":{}}"#);
        assert!(matches!(note, Decoded::Message(Message::Notification(n), 0) if n.method == "exit"));
        let response = decode(br#"{"jsonrpc":"2.0","id":"r","result":null}"#);
        assert!(matches!(response, Decoded::Message(Message::Response(_), 0)));
        assert!(matches!(decode(br#"{"jsonrpc":"2.0","result":null}"#), Decoded::Ignored(_)));
    }

    #[test]
    fn lone_surrogates_are_mended_and_pairs_and_other_escapes_kept() {
        let (text, n) = mend_surrogates(r#"{"a": "x\ud800", "b": "\udc00\\ud800\ud83d\ude00\n\uD800"}"#);
        assert_eq!(text, r#"{"a": "x\ufffd", "b": "\ufffd\\ud800\ud83d\ude00\n\ufffd"}"#);
        assert_eq!(n, 3);
        let body = br#"{"jsonrpc":"2.0","method":"m","params":{"text":"a: \ud800"}}"#;
        match decode(body) {
            Decoded::Message(Message::Notification(n), 1) => assert_eq!(n.params["text"], "a: \u{fffd}"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(mend_surrogates("no escapes").0, std::borrow::Cow::Borrowed(_)));
        // A cut escape at the end is left for the parser to refuse.
        assert_eq!(mend_surrogates(r"\ud8").1, 0);
    }
}
