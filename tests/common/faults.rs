//! A fault-injecting HTTP proxy for the audit tests: a plain forwarder on
//! a free loopback port, in front of moto, that answers some requests
//! itself by a deterministic schedule. A fault is throttling (in the error
//! shape each service's protocol really uses), a 5xx status, a reset
//! connection, a delay, or an answer of its own (a `200 {}` that says
//! less than was asked); it is transient (the first K attempts of a
//! request fail, later ones pass) or permanent.
//!
//! One request per connection: the proxy reads it (head and Content-Length
//! body), and forwards it with `Connection: close` or answers it, so that no
//! client connection outlives its request. std::net only, one thread a
//! connection.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// 400 (Lambda: 429) with the service's throttling error.
    Throttle,
    /// This status with an empty body (a load balancer's 500 or 503).
    Status(u16),
    /// The connection reset (RST) once the request is read, no answer.
    Reset,
    /// The request forwarded after this long.
    Delay(Duration),
    /// This status and body, in the service's content type (XML when the
    /// body is): an answer the service did give, saying less than was
    /// asked (`200 {}`).
    Answer(u16, &'static str),
}

/// How many attempts of one request the fault hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Times {
    /// The first K attempts; later ones pass.
    First(u32),
    Always,
}

/// Which requests a fault hits: an operation (`ListQueues`), or every one
/// (`None`), and of those only the ones whose path or body contains `only`.
#[derive(Clone, Debug)]
pub struct Rule {
    pub operation: Option<String>,
    pub only: Option<String>,
    pub fault: Fault,
    pub times: Times,
}

impl Rule {
    pub fn new(operation: Option<&str>, fault: Fault, times: Times) -> Rule {
        Rule { operation: operation.map(str::to_string), only: None, fault, times }
    }

    fn hits(&self, request: &Request, attempt: u32) -> bool {
        let operation = self.operation.as_ref().is_none_or(|o| *o == request.operation);
        let only = self.only.as_ref().is_none_or(|s| request.path.contains(s) || request.body_text().contains(s));
        let now = match self.times {
            Times::First(k) => attempt <= k,
            Times::Always => true,
        };
        operation && only && now
    }
}

/// A request the proxy saw: its operation, and the fault it got, if any.
#[derive(Clone, Debug)]
pub struct Seen {
    pub service: String,
    pub operation: String,
    pub fault: Option<Fault>,
}

struct Request {
    head: Vec<String>,
    body: Vec<u8>,
    path: String,
    /// The SigV4 signing name: `sqs`, `lambda`, `monitoring`, `sts`.
    service: String,
    operation: String,
}

impl Request {
    fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// What a retry of this request has in common with it (the signature
    /// and date differ): service, path and body.
    fn identity(&self) -> String {
        format!("{} {} {}", self.service, self.path, self.body_text())
    }
}

#[derive(Default)]
struct State {
    attempts: HashMap<String, u32>,
    seen: Vec<Seen>,
}

/// The proxy; stopped when dropped.
pub struct Proxy {
    pub endpoint: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    port: u16,
}

impl Proxy {
    /// Every request seen, in the order they came.
    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }

    /// How many requests got a fault.
    pub fn faults(&self) -> usize {
        self.seen().iter().filter(|s| s.fault.is_some()).count()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// A proxy to `upstream` (`http://127.0.0.1:PORT`) applying the first of
/// `rules` that hits each request.
pub fn start(upstream: &str, rules: Vec<Rule>) -> Proxy {
    let upstream = upstream.trim_start_matches("http://").to_string();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let state = Arc::new(Mutex::new(State::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let rules = Arc::new(rules);
    let (thread_state, thread_stop) = (state.clone(), stop.clone());
    std::thread::spawn(move || {
        for client in listener.incoming() {
            if thread_stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok(client) = client else { continue };
            let (state, rules, upstream) = (thread_state.clone(), rules.clone(), upstream.clone());
            std::thread::spawn(move || serve(client, &upstream, &rules, &state));
        }
    });
    Proxy { endpoint: format!("http://127.0.0.1:{port}"), state, stop, port }
}

fn serve(client: TcpStream, upstream: &str, rules: &[Rule], state: &Mutex<State>) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    let Some(request) = read_request(&mut reader) else { return };
    let fault = {
        let mut state = state.lock().unwrap();
        let attempt = state.attempts.entry(request.identity()).or_default();
        *attempt += 1;
        let attempt = *attempt;
        let fault = rules.iter().find(|r| r.hits(&request, attempt)).map(|r| r.fault);
        state.seen.push(Seen { service: request.service.clone(), operation: request.operation.clone(), fault });
        fault
    };
    let mut client = client;
    match fault {
        Some(Fault::Throttle) => {
            let (status, headers, body) = throttling(&request.service);
            let _ = respond(&mut client, status, &headers, body.as_bytes());
        }
        Some(Fault::Status(status)) => {
            let _ = respond(&mut client, status, &[], b"");
        }
        Some(Fault::Answer(status, body)) => {
            let kind = match request.service.as_str() {
                _ if body.starts_with('<') => "text/xml",
                "sqs" => "application/x-amz-json-1.0",
                "events" | "kms" => "application/x-amz-json-1.1",
                _ => "application/json",
            };
            let _ = respond(&mut client, status, &[("Content-Type", kind)], body.as_bytes());
        }
        Some(Fault::Reset) => reset(client),
        Some(Fault::Delay(d)) => {
            std::thread::sleep(d);
            forward(&request, upstream, &mut client);
        }
        None => forward(&request, upstream, &mut client),
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end_matches(['\r', '\n']).to_string();
        if line.is_empty() {
            break;
        }
        head.push(line);
    }
    let header = |name: &str| {
        head.iter().skip(1).find_map(|h| {
            let (k, v) = h.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim().to_string())
        })
    };
    assert!(header("transfer-encoding").is_none(), "the proxy reads Content-Length bodies only: {head:?}");
    let length: usize = header("content-length").and_then(|l| l.parse().ok()).unwrap_or(0);
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let path = head.first()?.split(' ').nth(1)?.to_string();
    // `Credential=KEY/DATE/REGION/SERVICE/aws4_request`
    let service = header("authorization")
        .and_then(|a| a.split("Credential=").nth(1).and_then(|c| c.split('/').nth(3)).map(str::to_string))
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&body).into_owned();
    let operation = match header("x-amz-target") {
        // JSON protocols (SQS, EventBridge, KMS): `AmazonSQS.ListQueues`.
        Some(target) => target.rsplit('.').next().unwrap_or_default().to_string(),
        // Query protocols (CloudWatch 1.99, STS, SNS): `Action=GetMetricData&...`.
        None => match text.split('&').find_map(|p| p.strip_prefix("Action=")) {
            Some(action) => action.to_string(),
            None => rest_operation(&path),
        },
    };
    Some(Request { head, body, path, service, operation })
}

/// Lambda's REST paths, by the operations the audit sends.
fn rest_operation(path: &str) -> String {
    let path = path.split('?').next().unwrap_or_default();
    if path.ends_with("/event-source-mappings") || path.ends_with("/event-source-mappings/") {
        "ListEventSourceMappings".into()
    } else if path.contains("/functions/") && path.ends_with("/configuration") {
        "GetFunctionConfiguration".into()
    } else if path.contains("/functions/") && path.ends_with("/concurrency") {
        "GetFunctionConcurrency".into()
    } else {
        format!("unknown {path}")
    }
}

/// The status, headers and body each protocol throttles with: SQS's JSON
/// protocol (query-compatible: the code is in `x-amzn-query-error`),
/// Lambda's REST-JSON 429, the JSON 1.1 of EventBridge and KMS, and the
/// awsQuery XML of CloudWatch, STS and SNS. Each code is one the SDK's retry classifier counts as throttling.
fn throttling(service: &str) -> (u16, Vec<(&'static str, &'static str)>, String) {
    match service {
        "sqs" => (
            400,
            vec![("Content-Type", "application/x-amz-json-1.0"), ("x-amzn-query-error", "RequestThrottled;Sender")],
            r#"{"__type":"com.amazonaws.sqs#RequestThrottled","message":"Request is throttled."}"#.into(),
        ),
        "lambda" => (
            429,
            vec![("Content-Type", "application/json"), ("x-amzn-ErrorType", "TooManyRequestsException")],
            r#"{"Reason":"CallerRateLimitExceeded","Type":"User","message":"Rate exceeded"}"#.into(),
        ),
        "events" | "kms" => (
            400,
            vec![("Content-Type", "application/x-amz-json-1.1")],
            r#"{"__type":"ThrottlingException","message":"Rate exceeded"}"#.into(),
        ),
        _ => (
            400,
            vec![("Content-Type", "text/xml")],
            "<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message>\
             </Error><RequestId>00000000-0000-0000-0000-000000000000</RequestId></ErrorResponse>"
                .into(),
        ),
    }
}

fn respond(client: &mut TcpStream, status: u16, headers: &[(&str, &str)], body: &[u8]) -> std::io::Result<()> {
    let mut head = format!("HTTP/1.1 {status} Fault\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    client.write_all(head.as_bytes())?;
    client.write_all(body)?;
    client.flush()
}

/// Closes with a reset (SO_LINGER 0), as a dropped connection does, not an
/// orderly FIN. The only unsafe call: std has no stable set_linger.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn reset(client: TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger { l_onoff: 1, l_linger: 0 };
    // SAFETY: a valid socket descriptor and a pointer to a live `linger` of the size given.
    let done = unsafe {
        libc::setsockopt(
            client.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    assert_eq!(done, 0, "setsockopt(SO_LINGER)");
    drop(client);
}

/// Elsewhere an orderly close without an answer: a dropped connection too.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn reset(client: TcpStream) {
    drop(client);
}

/// The request to moto with `Connection: close`, and its answer back to
/// the client, its head saying `Connection: close` too.
fn forward(request: &Request, upstream: &str, client: &mut TcpStream) {
    let Ok(mut server) = TcpStream::connect(upstream) else {
        let _ = respond(client, 502, &[], b"");
        return;
    };
    let mut head = String::new();
    for line in &request.head {
        if !line.to_ascii_lowercase().starts_with("connection:") {
            head.push_str(line);
            head.push_str("\r\n");
        }
    }
    head.push_str("Connection: close\r\n\r\n");
    if server.write_all(head.as_bytes()).and_then(|()| server.write_all(&request.body)).is_err() {
        return;
    }
    let mut answer = Vec::new();
    if server.read_to_end(&mut answer).is_err() {
        let _ = respond(client, 502, &[], b"");
        return;
    }
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").map_or(answer.len(), |i| i + 4);
    let (answer_head, body) = answer.split_at(split);
    let mut out = String::new();
    for line in String::from_utf8_lossy(answer_head).split("\r\n").filter(|l| !l.is_empty()) {
        if !line.to_ascii_lowercase().starts_with("connection:") {
            out.push_str(line);
            out.push_str("\r\n");
        }
    }
    out.push_str("Connection: close\r\n\r\n");
    let _ = client.write_all(out.as_bytes()).and_then(|()| client.write_all(body)).and_then(|()| client.flush());
}
