//! A Language Server client for the tests that drive `sqsguard server` in
//! process, over lsp-server's memory connection (tests/it/server.rs, the
//! server's fuzz test). The real clients drive the binary in tests/lsp
//! (pytest-lsp) and tests/ext/nvim.rs.
#![allow(dead_code)] // each test uses its part

use std::path::Path;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

/// How long any one answer may take before the test says the server hung.
pub const PATIENCE: Duration = Duration::from_secs(30);

pub struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<Result<(), String>>>,
    next: i32,
    /// Notifications read while waiting for something else.
    pub seen: Vec<Notification>,
}

impl Client {
    /// A server on `root`, initialized with `init` as its
    /// `initializationOptions` and a client that offers no capabilities.
    pub fn start(root: &Path, init: Value) -> Client {
        Client::start_with(root, init, json!({}))
    }

    pub fn start_with(root: &Path, init: Value, capabilities: Value) -> Client {
        let (server, conn) = Connection::memory();
        let handle = std::thread::spawn(move || sqsguard::server::serve(&server));
        let mut client = Client { conn, server: Some(handle), next: 0, seen: Vec::new() };
        let reply = client.request(
            "initialize",
            json!({"processId": null, "rootUri": url(root), "capabilities": capabilities, "initializationOptions": init}),
        );
        assert_eq!(reply["serverInfo"]["name"], "sqsguard");
        client.notify("initialized", json!({}));
        client
    }

    pub fn notify(&self, method: &str, params: Value) {
        self.conn.sender.send(Message::Notification(Notification::new(method.into(), params))).unwrap();
    }

    /// The answer to a request, which must be a result.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        match self.answer(method, params).response_result {
            Ok(result) => result,
            Err(e) => panic!("{method}: {e:?}"),
        }
    }

    /// The answer to a request, a result or an error; a panic when none
    /// comes within [`PATIENCE`].
    pub fn answer(&mut self, method: &str, params: Value) -> Response {
        self.next += 1;
        let id = RequestId::from(self.next);
        self.conn.sender.send(Message::Request(Request::new(id.clone(), method.into(), params))).unwrap();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.conn.receiver.recv_timeout(left) {
                Ok(Message::Response(r)) if r.id == id => return r,
                Ok(Message::Notification(n)) => self.seen.push(n),
                Ok(_) => {}
                Err(_) => panic!("no answer to {method} in {PATIENCE:?}"),
            }
        }
    }

    /// The next publication for `file` that `accept` takes (taken out of
    /// `seen`).
    pub fn diagnostics(&mut self, file: &Path, accept: impl Fn(&Value) -> bool) -> Value {
        self.diagnostics_of(&url(file), accept)
    }

    /// As [`Client::diagnostics`], for a document by its URI (an
    /// `untitled:` one, say).
    pub fn diagnostics_of(&mut self, uri: &str, accept: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(i) = self.seen.iter().position(|n| {
                n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri && accept(&n.params)
            }) {
                return self.seen.remove(i).params;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.conn.receiver.recv_timeout(left) {
                Ok(Message::Notification(n)) => self.seen.push(n),
                Ok(_) => {}
                Err(_) => panic!("no diagnostics for {uri} that the test accepts; seen: {:#?}", self.seen),
            }
        }
    }

    /// A document by its URI and language id.
    pub fn open_uri(&self, uri: &str, language: &str, text: &str) {
        let doc = json!({"uri": uri, "languageId": language, "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    pub fn open(&self, file: &Path, text: &str) {
        let doc = json!({"uri": url(file), "languageId": "", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
    }

    /// The whole text, as version `version`.
    pub fn change(&self, file: &Path, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": url(file), "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    /// `text` inserted at (`line`, `character`), as version `version`.
    pub fn insert(&self, file: &Path, version: i32, line: u32, character: u32, text: &str) {
        let at = json!({"line": line, "character": character});
        self.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": url(file), "version": version},
                "contentChanges": [{"range": {"start": at, "end": at}, "text": text}],
            }),
        );
    }

    pub fn close(&self, file: &Path) {
        self.notify("textDocument/didClose", json!({"textDocument": {"uri": url(file)}}));
    }

    /// Shut the server down as an editor does; it must end cleanly.
    pub fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let served = self.server.take().unwrap().join().unwrap();
        assert_eq!(served, Ok(()));
    }
}

pub fn url(path: &Path) -> String {
    lsp_types::Url::from_file_path(path).unwrap().to_string()
}

/// The codes of a publication's diagnostics.
pub fn codes(published: &Value) -> Vec<String> {
    let list = published["diagnostics"].as_array().unwrap();
    list.iter().filter_map(|d| d["code"].as_str().map(String::from)).collect()
}
