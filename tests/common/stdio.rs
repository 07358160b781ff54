//! `sqsguard server`, the built binary, over its standard input and
//! output with whatever bytes a test writes: what a broken client sends
//! (tests/it/server_stdio.rs, the fuzz test of tests/it/server_fuzz.rs). Its
//! answers are read strictly: the server itself must frame them right.
#![allow(dead_code)] // each test uses its part

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};

use crossbeam_channel::Receiver;
use serde_json::{Value, json};

use super::lsp::{PATIENCE, url};

pub struct Server {
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    out: Receiver<Value>,
    stderr: Arc<Mutex<String>>,
    /// The thread that reads standard error to its end: joined once the
    /// process has ended, so `stderr()` then holds all of it.
    stderr_reader: Option<std::thread::JoinHandle<()>>,
    /// What was read while waiting for something else.
    pub seen: Vec<Value>,
}

/// A message framed as LSP's base protocol frames it.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

pub fn framed(message: &Value) -> Vec<u8> {
    frame(message.to_string().as_bytes())
}

pub fn request(id: Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

pub fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

impl Server {
    /// The binary, not yet initialized.
    pub fn spawn() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sqsguard server");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let kept = Arc::clone(&stderr);
        let stderr_reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = err.read_to_string(&mut text);
            kept.lock().unwrap().push_str(&text);
        });
        let (send, out) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            while let Some(message) = read_message(&mut stdout) {
                if send.send(message).is_err() {
                    return;
                }
            }
        });
        Server { child: Some(child), stdin, out, stderr, stderr_reader: Some(stderr_reader), seen: Vec::new() }
    }

    /// The binary, initialized on `root` (a client with no capabilities).
    pub fn start(root: &Path) -> Server {
        let mut server = Server::spawn();
        let params = json!({"processId": null, "rootUri": url(root), "capabilities": {}});
        let answer = server.call(json!(0), "initialize", params);
        assert_eq!(answer["result"]["serverInfo"]["name"], "sqsguard", "{answer}");
        server.send(&notification("initialized", json!({})));
        server
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("standard input is open");
        stdin.write_all(bytes).expect("the server reads its input");
        stdin.flush().unwrap();
    }

    pub fn send(&mut self, message: &Value) {
        self.send_raw(&framed(message));
    }

    /// The next message the server writes; a panic when none comes within
    /// [`PATIENCE`] or the server's output ended.
    pub fn next(&mut self) -> Value {
        match self.out.recv_timeout(PATIENCE) {
            Ok(message) => message,
            Err(e) => panic!("no message from the server ({e}); seen: {:#?}\nstderr: {}", self.seen, self.stderr()),
        }
    }

    /// The first message (read now or seen before) that `accept` takes.
    pub fn wait_for(&mut self, accept: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&accept) {
            return self.seen.remove(i);
        }
        loop {
            let message = self.next();
            if accept(&message) {
                return message;
            }
            self.seen.push(message);
        }
    }

    /// The answer (a result or an error) to the request with this id.
    pub fn answer_to(&mut self, id: &Value) -> Value {
        self.wait_for(|m| m.get("method").is_none() && m.get("id") == Some(id))
    }

    /// Send a request and wait for its answer.
    pub fn call(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(&request(id.clone(), method, params));
        self.answer_to(&id)
    }

    /// The log lines (`window/logMessage`) seen so far, taken out.
    pub fn logs(&mut self) -> Vec<String> {
        let (logs, rest) = std::mem::take(&mut self.seen).into_iter().partition(|m| m["method"] == "window/logMessage");
        self.seen = rest;
        logs.into_iter().map(|m: Value| m["params"]["message"].as_str().unwrap_or_default().to_string()).collect()
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        self.child.as_mut().unwrap().try_wait().unwrap().is_none()
    }

    /// Close standard input.
    pub fn close_input(&mut self) {
        self.stdin.take();
    }

    /// How the process ended, its standard input still open (a panic
    /// when it does not end within [`PATIENCE`]).
    pub fn exit_status(&mut self) -> ExitStatus {
        let mut child = self.child.take().unwrap();
        let (send, ended) = crossbeam_channel::bounded(1);
        std::thread::spawn(move || {
            let _ = send.send(child.wait());
        });
        let status = ended.recv_timeout(PATIENCE).expect("the server ends").unwrap();
        self.stdin.take();
        // Standard error is closed now that the process has ended: read it
        // all before anyone asks what it said.
        if let Some(reader) = self.stderr_reader.take() {
            let _ = reader.join();
        }
        status
    }

    /// shutdown, then exit: the process must end with 0.
    pub fn stop(mut self) {
        assert!(self.running(), "the server ended before exit; stderr: {}", self.stderr());
        let answer = self.call(json!("shutdown"), "shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.send(&notification("exit", Value::Null));
        let status = self.exit_status();
        assert!(status.success(), "{status}; stderr: {}", self.stderr());
    }

    /// What the server wrote to standard error so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One message of the server's output; `None` at its end. A frame that
/// is not exactly right fails the test.
fn read_message(input: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).unwrap() == 0 {
            assert!(length.is_none(), "the server's output ended inside a header");
            return None;
        }
        let line = line.strip_suffix("\r\n").unwrap_or_else(|| panic!("a header line without CRLF: {line:?}"));
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(": ").unwrap_or_else(|| panic!("a header line: {line:?}"));
        if name.eq_ignore_ascii_case("Content-Length") {
            length = Some(value.parse::<usize>().unwrap());
        }
    }
    let mut body = vec![0; length.expect("the server's Content-Length")];
    input.read_exact(&mut body).unwrap();
    Some(serde_json::from_slice(&body).unwrap_or_else(|e| panic!("the server wrote no JSON ({e})")))
}
