//! `sqsguard server`: the checks of `lint` as a Language Server (LSP 3.17
//! over standard input and output), for any editor.
//!
//! The editor's unsaved texts stand in for the files (the overlay `--fix`
//! lints its passes with), so a check sees what is typed: the document,
//! the other files of its Terraform module, the handler code a template
//! names, the template that names a handler. The loop is synchronous, as
//! rust-analyzer's and ruff's are: messages are read on one thread, checks
//! run on a small pool (see [`workspace`]), and requests are answered from
//! the last checks, so a slow check never holds up a hover.
//!
//! [`wire`] reads the editor's messages (with [`transport`]'s framing)
//! and answers those that are not messages, so malformed input never
//! ends the server; [`notified`] takes the editor's notifications;
//! [`documents`] keeps the texts and turns byte offsets into the client's
//! positions (UTF-16 unless it speaks UTF-8); [`settings`] makes a
//! document's session from `.sqsguard.yaml` and the editor's settings;
//! [`check`] lints and makes diagnostics; [`actions`] and [`hover`] answer
//! requests.

mod actions;
mod check;
mod documents;
mod hover;
mod notified;
mod settings;
mod transport;
mod wire;
mod workspace;

use std::path::PathBuf;

use crossbeam_channel::select;
use lsp_server::{Connection, ErrorCode, Message, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability,
    HoverParams, HoverProviderCapability, InitializeParams, PositionEncodingKind, SaveOptions, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

use documents::{Document, Encoding, path_of};
use notified::{notified, show};
use settings::Settings;
use sqsguard_lint::session::FixMode;
use workspace::Workspace;

/// Serve on standard input and output until the client says `exit`
/// (or standard input ends): malformed input is answered or logged, never
/// the end (see [`wire`]).
pub fn run() -> Result<(), String> {
    small_pages();
    let (connection, writer) = wire::stdio();
    let served = serve(&connection);
    drop(connection);
    writer.join().map_err(|_| "writing to the editor failed".to_string())?;
    served
}

/// Keep the server's memory in small pages. mimalloc is built not to ask
/// for transparent huge pages (Cargo.toml), but a kernel set to give them
/// to every process ("always") would still: a server that stays up all day
/// then holds 2 MiB pages it barely uses (53 MiB resident after typing
/// into a 1 MB template with them, 40 MiB without, benches/server.sh).
#[cfg(target_os = "linux")]
fn small_pages() {
    // SAFETY: PR_SET_THP_DISABLE sets a flag of this process only; it
    // reads no memory of ours. A kernel that refuses it changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn small_pages() {}

/// Serve on `connection` (standard input and output, or a test's memory
/// channel): the handshake, then messages until `exit`. As LSP says, a
/// request before `initialize` is refused with -32002, a second
/// `initialize` and any request after `shutdown` with -32600 (the loop
/// reads on), and `exit` ends it: cleanly after `shutdown`, else as an
/// error (the process exits 1).
pub fn serve(connection: &Connection) -> Result<(), String> {
    let Some((id, params)) = initialize(connection)? else { return Ok(()) };
    let encoding = encoding_of(&params);
    let (settings, refused) = match params.initialization_options.as_ref().map(Settings::from_value) {
        Some(Ok(Some(settings))) => (settings, None),
        Some(Err(why)) => (Settings::default(), Some(why)),
        _ => (Settings::default(), None),
    };
    let result = serde_json::json!({
        "capabilities": capabilities(encoding),
        "serverInfo": {"name": "sqsguard", "version": env!("CARGO_PKG_VERSION")},
    });
    let _ = connection.sender.send(Message::Response(Response::new_ok(id, result)));
    let mut workspace = Workspace::new(connection.sender.clone(), encoding, root_of(&params), settings)?;
    if let Some(why) = refused {
        show(&workspace, lsp_types::MessageType::WARNING, why);
    }
    if watches_files(&params) {
        register_watchers(connection);
    }
    workspace.check_synthesized();
    let mut shut_down = false;
    loop {
        select! {
            recv(connection.receiver) -> message => match message {
                Err(_) => return Ok(()),
                Ok(Message::Request(request)) => {
                    let refusal = if shut_down {
                        Some(format!("the server is shutting down: {} is not answered after shutdown", request.method))
                    } else if request.method == req::Initialize::METHOD {
                        Some("the server is initialized already: initialize is sent once".to_string())
                    } else {
                        None
                    };
                    if let Some(why) = refusal {
                        refuse(connection, request.id, ErrorCode::InvalidRequest, why);
                    } else if request.method == req::Shutdown::METHOD {
                        shut_down = true;
                        let _ = connection.sender.send(Message::Response(Response::new_ok(request.id, ())));
                    } else {
                        answer(&mut workspace, request);
                    }
                }
                Ok(Message::Notification(n)) if n.method == note::Exit::METHOD => {
                    return if shut_down { Ok(()) } else { Err("the editor said exit before shutdown".to_string()) };
                }
                Ok(Message::Notification(_)) if shut_down => {}
                Ok(Message::Notification(n)) => notified(&mut workspace, n),
                Ok(Message::Response(_)) => {}
            },
            recv(workspace.results()) -> done => if let Ok(done) = done { workspace.finished(done) },
            recv(quiet(&workspace)) -> _ => workspace.give_back(),
        }
    }
}

/// Wait for `initialize`: its id and params, `None` when the input ends
/// first. Other requests are refused with -32002 and notifications
/// dropped, as LSP says; `exit` ends the server (an error: no shutdown).
fn initialize(connection: &Connection) -> Result<Option<(lsp_server::RequestId, InitializeParams)>, String> {
    for message in &connection.receiver {
        match message {
            Message::Request(request) if request.method == req::Initialize::METHOD => {
                match serde_json::from_value::<InitializeParams>(request.params) {
                    Ok(params) => return Ok(Some((request.id, params))),
                    Err(e) => {
                        let why = format!("the initialize request's params are not valid: {e}");
                        refuse(connection, request.id, ErrorCode::InvalidParams, why);
                    }
                }
            }
            Message::Request(request) => {
                let why = format!("the server is not initialized yet: {} needs initialize first", request.method);
                refuse(connection, request.id, ErrorCode::ServerNotInitialized, why);
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => {
                return Err("the editor said exit before initialize".to_string());
            }
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
    Ok(None)
}

fn refuse(connection: &Connection, id: lsp_server::RequestId, code: ErrorCode, message: String) {
    let _ = connection.sender.send(Message::Response(Response::new_err(id, code as i32, message)));
}

/// How long the editor must be quiet before the memory checks freed is
/// given back (a pause in typing; keys come faster than this).
const PAUSE: std::time::Duration = std::time::Duration::from_millis(300);

/// A channel that fires after [`PAUSE`] when there is memory to give back,
/// else never.
fn quiet(workspace: &Workspace) -> crossbeam_channel::Receiver<std::time::Instant> {
    if workspace.may_give_back() { crossbeam_channel::after(PAUSE) } else { crossbeam_channel::never() }
}

/// UTF-8 when the client offers it (no counting of UTF-16 units), else
/// UTF-16, which every client speaks.
fn encoding_of(params: &InitializeParams) -> Encoding {
    let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
    if offered.is_some_and(|kinds| kinds.contains(&PositionEncodingKind::UTF8)) {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    }
}

fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::INCREMENTAL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
            ..TextDocumentSyncOptions::default()
        })),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, CodeActionKind::new(actions::FIX_ALL)]),
            ..CodeActionOptions::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        ..ServerCapabilities::default()
    }
}

/// The workspace's folder: the first workspace folder, else the root URI.
fn root_of(params: &InitializeParams) -> Option<PathBuf> {
    let folder = params.workspace_folders.as_ref().and_then(|f| f.first()).map(|f| &f.uri);
    #[allow(deprecated)] // rootUri: what clients without workspace folders send
    let uri = folder.or(params.root_uri.as_ref());
    uri.and_then(path_of)
}

fn watches_files(params: &InitializeParams) -> bool {
    let watched = params.capabilities.workspace.as_ref().and_then(|w| w.did_change_watched_files.as_ref());
    watched.and_then(|w| w.dynamic_registration).unwrap_or(false)
}

/// Ask to hear of `.sqsguard.yaml` and Terraform files changed on disk.
fn register_watchers(connection: &Connection) {
    let watchers: Vec<serde_json::Value> = ["**/.sqsguard.yaml", "**/*.tf", "**/*.tfvars", "**/*.template.json"]
        .iter()
        .map(|glob| serde_json::json!({ "globPattern": glob }))
        .collect();
    let params = serde_json::json!({"registrations": [{
        "id": "sqsguard-watched-files",
        "method": note::DidChangeWatchedFiles::METHOD,
        "registerOptions": {"watchers": watchers},
    }]});
    let request = Request::new("sqsguard-register".to_string().into(), req::RegisterCapability::METHOD.into(), params);
    let _ = connection.sender.send(Message::Request(request));
}

fn answer(workspace: &mut Workspace, request: Request) {
    let id = request.id.clone();
    let reply = |workspace: &Workspace, response: Response| {
        let _ = workspace.sender.send(Message::Response(response));
    };
    match request.method.as_str() {
        req::HoverRequest::METHOD => match request.extract::<HoverParams>(req::HoverRequest::METHOD) {
            Ok((id, p)) => {
                let at = &p.text_document_position_params;
                let path = workspace.docs.path_of(&at.text_document.uri);
                let doc = path.as_ref().and_then(|path| workspace.docs.get(path));
                let encoding = workspace.encoding;
                let shown = doc.and_then(|d| hover::hover(d, at.position, encoding)).or_else(|| {
                    // Else the pages of the rules whose findings are here.
                    let path = path.as_ref()?;
                    let here = workspace.checks_of(path).flat_map(|c| c.findings_in(path)).filter(|f| {
                        let range = check::range_of(&f.origin, encoding);
                        range.start <= at.position && at.position <= range.end
                    });
                    hover::pages(here.map(|f| f.code()))
                });
                reply(workspace, Response::new_ok(id, shown));
            }
            Err(e) => reply(workspace, Response::new_err(id, ErrorCode::InvalidParams as i32, not_valid(&e))),
        },
        req::CodeActionRequest::METHOD => match request.extract::<CodeActionParams>(req::CodeActionRequest::METHOD) {
            Ok((id, p)) => code_actions(workspace, id, p),
            Err(e) => reply(workspace, Response::new_err(id, ErrorCode::InvalidParams as i32, not_valid(&e))),
        },
        method => {
            let message = format!("sqsguard server does not answer {method}");
            reply(workspace, Response::new_err(id, ErrorCode::MethodNotFound as i32, message));
        }
    }
}

/// Why a request's params could not be read, as a sentence (not the
/// error's `Debug` text).
fn not_valid(e: &lsp_server::ExtractError<Request>) -> String {
    match e {
        lsp_server::ExtractError::JsonError { method, error } => {
            format!("the {method} request's params are not valid: {error}")
        }
        lsp_server::ExtractError::MethodMismatch(r) => format!("{} is not the request expected", r.method),
    }
}

/// The quick fixes at the request's range, from the last checks; "fix
/// all" when asked for (or nothing is asked for) and something in the
/// document is fixable, made on the pool and answered from there.
fn code_actions(workspace: &mut Workspace, id: lsp_server::RequestId, p: CodeActionParams) {
    let encoding = workspace.encoding;
    let only = p.context.only.as_ref();
    let wants = |kind: &str| only.is_none_or(|kinds| kinds.iter().any(|k| kind.starts_with(k.as_str())));
    let mut out: Vec<CodeActionOrCommand> = Vec::new();
    let Some(path) = workspace.docs.path_of(&p.text_document.uri) else {
        let _ = workspace.sender.send(Message::Response(Response::new_ok(id, out)));
        return;
    };
    let mut fixable = false;
    let unsafe_fixes = workspace.settings.unsafe_fixes;
    if let Some(doc) = workspace.docs.get(&path) {
        let mut titles = std::collections::HashSet::new();
        for checked in workspace.checks_of(&path) {
            for finding in checked.findings_in(&path) {
                if let Some(fix) = finding.fix_edits() {
                    fixable |= unsafe_fixes || fix.applicability == sqsguard_finding::Applicability::Safe;
                }
                let range = check::range_of(&finding.origin, encoding);
                // At the request's range, or named by the client (Neovim
                // asks with the cursor and the line's diagnostics).
                let named = p.context.diagnostics.iter().any(|d| {
                    d.range == range
                        && matches!(&d.code, Some(lsp_types::NumberOrString::String(c)) if c == finding.code())
                });
                if !wants(CodeActionKind::QUICKFIX.as_str()) || !(named || check::overlaps(&range, &p.range)) {
                    continue;
                }
                let fix = actions::fix_action(finding, &workspace.docs, encoding);
                let suppress = actions::suppress_action(finding, doc, encoding);
                for action in fix.into_iter().chain(suppress) {
                    if titles.insert((action.title.clone(), range.start)) {
                        out.push(CodeActionOrCommand::CodeAction(action));
                    }
                }
            }
        }
    }
    if !(fixable && wants(actions::FIX_ALL)) {
        let _ = workspace.sender.send(Message::Response(Response::new_ok(id, out)));
        return;
    }
    let session = workspace.session_of(&path, FixMode::Write { unsafe_fixes });
    let Some(doc) = workspace.docs.get(&path).map(|d| Document::new(d.uri.clone(), d.version, d.text.clone())) else {
        let _ = workspace.sender.send(Message::Response(Response::new_ok(id, out)));
        return;
    };
    let sender = workspace.sender.clone();
    workspace.spawn(move || {
        let all = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| actions::fix_all(&session, &doc, encoding)));
        out.extend(all.ok().flatten().map(CodeActionOrCommand::CodeAction));
        let _ = sender.send(Message::Response(Response::new_ok(id, out)));
    });
}
