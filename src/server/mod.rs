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
//! [`documents`] keeps the texts and turns byte offsets into the client's
//! positions (UTF-16 unless it speaks UTF-8); [`settings`] makes a
//! document's session from `.sqsguard.yaml` and the editor's settings;
//! [`check`] lints and makes diagnostics; [`actions`] and [`hover`] answer
//! requests.

mod actions;
mod check;
mod documents;
mod hover;
mod settings;
mod workspace;

use std::path::PathBuf;

use crossbeam_channel::select;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionOrCommand, CodeActionParams, CodeActionProviderCapability,
    HoverParams, HoverProviderCapability, InitializeParams, PositionEncodingKind, SaveOptions, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

use crate::session::FixMode;
use documents::{Document, Encoding, path_of};
use settings::Settings;
use workspace::Workspace;

/// Serve on standard input and output until the client says `exit`.
pub fn run() -> Result<(), String> {
    small_pages();
    let (connection, io) = Connection::stdio();
    let served = serve(&connection);
    drop(connection);
    io.join().map_err(|e| format!("the connection to the editor failed: {e}"))?;
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
/// channel): the handshake, then messages until `shutdown` and `exit`.
pub fn serve(connection: &Connection) -> Result<(), String> {
    let (id, params) = connection.initialize_start().map_err(|e| e.to_string())?;
    let params: InitializeParams =
        serde_json::from_value(params).map_err(|e| format!("the editor's initialize request is not valid: {e}"))?;
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
    connection.initialize_finish(id, result).map_err(|e| e.to_string())?;
    let mut workspace = Workspace::new(connection.sender.clone(), encoding, root_of(&params), settings)?;
    if let Some(why) = refused {
        show(&workspace, lsp_types::MessageType::WARNING, why);
    }
    if watches_files(&params) {
        register_watchers(connection);
    }
    loop {
        select! {
            recv(connection.receiver) -> message => match message {
                Err(_) => return Ok(()),
                Ok(Message::Request(request)) => {
                    if connection.handle_shutdown(&request).map_err(|e| e.to_string())? {
                        return Ok(());
                    }
                    answer(&mut workspace, request);
                }
                Ok(Message::Notification(n)) if n.method == note::Exit::METHOD => {
                    return Err("the editor said exit before shutdown".to_string());
                }
                Ok(Message::Notification(n)) => notified(&mut workspace, n),
                Ok(Message::Response(_)) => {}
            },
            recv(workspace.results()) -> done => if let Ok(done) = done { workspace.finished(done) },
            recv(quiet(&workspace)) -> _ => workspace.give_back(),
        }
    }
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
    let watchers: Vec<serde_json::Value> = ["**/.sqsguard.yaml", "**/*.tf", "**/*.tfvars"]
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

fn show(workspace: &Workspace, typ: lsp_types::MessageType, message: String) {
    workspace.notify::<note::ShowMessage>(lsp_types::ShowMessageParams { typ, message });
}

fn notified(workspace: &mut Workspace, n: Notification) {
    let encoding = workspace.encoding;
    match n.method.as_str() {
        note::DidOpenTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidOpenTextDocumentParams>(note::DidOpenTextDocument::METHOD) else {
                return;
            };
            let Some(path) = path_of(&p.text_document.uri) else { return };
            let doc = Document::new(p.text_document.uri, p.text_document.version, p.text_document.text);
            workspace.docs.open(path.clone(), doc);
            workspace.changed(&path);
        }
        note::DidChangeTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidChangeTextDocumentParams>(note::DidChangeTextDocument::METHOD) else {
                return;
            };
            let Some(path) = path_of(&p.text_document.uri) else { return };
            let Some(doc) = workspace.docs.get_mut(&path) else { return };
            doc.apply(p.text_document.version, p.content_changes, encoding);
            workspace.changed(&path);
        }
        note::DidCloseTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidCloseTextDocumentParams>(note::DidCloseTextDocument::METHOD) else {
                return;
            };
            let Some(path) = path_of(&p.text_document.uri) else { return };
            if workspace.docs.close(&path).is_some() {
                workspace.closed(&path);
            }
        }
        note::DidSaveTextDocument::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidSaveTextDocumentParams>(note::DidSaveTextDocument::METHOD) else {
                return;
            };
            // The unsaved text was checked already; a saved config may
            // now govern files that are not open.
            if let Some(path) = path_of(&p.text_document.uri).filter(|p| settings::is_config(p)) {
                workspace.changed_on_disk(&path);
            }
        }
        note::DidChangeConfiguration::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidChangeConfigurationParams>(note::DidChangeConfiguration::METHOD)
            else {
                return;
            };
            match Settings::from_value(&p.settings) {
                Ok(Some(settings)) => {
                    workspace.settings = settings;
                    workspace.recheck_all();
                }
                Ok(None) => {}
                Err(why) => show(workspace, lsp_types::MessageType::WARNING, why),
            }
        }
        note::DidChangeWatchedFiles::METHOD => {
            let Ok(p) = n.extract::<lsp_types::DidChangeWatchedFilesParams>(note::DidChangeWatchedFiles::METHOD) else {
                return;
            };
            for change in p.changes {
                if let Some(path) = path_of(&change.uri) {
                    workspace.changed_on_disk(&path);
                }
            }
        }
        _ => {}
    }
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
                let path = path_of(&at.text_document.uri);
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
            Err(e) => reply(workspace, Response::new_err(id, ErrorCode::InvalidParams as i32, format!("{e:?}"))),
        },
        req::CodeActionRequest::METHOD => match request.extract::<CodeActionParams>(req::CodeActionRequest::METHOD) {
            Ok((id, p)) => code_actions(workspace, id, p),
            Err(e) => reply(workspace, Response::new_err(id, ErrorCode::InvalidParams as i32, format!("{e:?}"))),
        },
        method => {
            let message = format!("sqsguard server does not answer {method}");
            reply(workspace, Response::new_err(id, ErrorCode::MethodNotFound as i32, message));
        }
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
    let Some(path) = path_of(&p.text_document.uri) else {
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
                    fixable |= unsafe_fixes || fix.applicability == crate::finding::Applicability::Safe;
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
