//! The editor's notifications: documents opened, changed, closed and
//! saved, settings and files on disk changed. A notification whose params
//! cannot be read is logged (`window/logMessage`), never answered.

use std::path::PathBuf;

use lsp_server::Notification;
use lsp_types::notification::{self as note, Notification as _};

use super::documents::{self, Document, path_of};
use super::settings::{self, Settings};
use super::workspace::Workspace;

pub(super) fn show(workspace: &Workspace, typ: lsp_types::MessageType, message: String) {
    workspace.notify::<note::ShowMessage>(lsp_types::ShowMessageParams { typ, message });
}

fn log(workspace: &Workspace, typ: lsp_types::MessageType, message: String) {
    workspace.notify::<note::LogMessage>(lsp_types::LogMessageParams { typ, message });
}

/// A notification's params, or `None` and a log line saying why not.
fn params<N: note::Notification>(workspace: &Workspace, n: Notification) -> Option<N::Params> {
    match n.extract::<N::Params>(N::METHOD) {
        Ok(p) => Some(p),
        Err(lsp_server::ExtractError::JsonError { method, error }) => {
            let message = format!("sqsguard server: the {method} notification's params are not valid: {error}");
            log(workspace, lsp_types::MessageType::WARNING, message);
            None
        }
        Err(lsp_server::ExtractError::MethodMismatch(_)) => None,
    }
}

/// The path a newly opened document is checked as: a `file:` URI's, or
/// one made up for an `untitled:` buffer (see [`documents::untitled_path`]).
/// A document not on disk is checked from its text, and a log line says
/// what that leaves out.
fn opened_path(workspace: &Workspace, item: &lsp_types::TextDocumentItem) -> Option<PathBuf> {
    let untitled = item.uri.scheme() == documents::UNTITLED;
    let path = if untitled {
        let root = workspace.root.clone().or_else(|| std::env::current_dir().ok())?;
        documents::untitled_path(&item.uri, &item.language_id, &root)
    } else {
        path_of(&item.uri)?
    };
    let folder_missing = path.parent().is_some_and(|dir| !dir.is_dir());
    if untitled || (folder_missing && !path.exists()) {
        let message = format!(
            "sqsguard server: {} is not saved: it is checked from its text as {}, but the files it names by a \
             relative path (handler code, modules, variable files) cannot be found until it is saved, so what \
             needs them is not checked",
            item.uri,
            path.display()
        );
        log(workspace, lsp_types::MessageType::INFO, message);
    }
    Some(path)
}

pub(super) fn notified(workspace: &mut Workspace, n: Notification) {
    let encoding = workspace.encoding;
    match n.method.as_str() {
        note::DidOpenTextDocument::METHOD => {
            let Some(p) = params::<note::DidOpenTextDocument>(workspace, n) else { return };
            let Some(path) = opened_path(workspace, &p.text_document) else { return };
            let doc = Document::new(p.text_document.uri, p.text_document.version, p.text_document.text);
            workspace.docs.open(path.clone(), doc);
            workspace.changed(&path);
        }
        note::DidChangeTextDocument::METHOD => {
            let Some(p) = params::<note::DidChangeTextDocument>(workspace, n) else { return };
            let Some(path) = workspace.docs.path_of(&p.text_document.uri) else { return };
            let Some(doc) = workspace.docs.get_mut(&path) else { return };
            doc.apply(p.text_document.version, p.content_changes, encoding);
            workspace.changed(&path);
        }
        note::DidCloseTextDocument::METHOD => {
            let Some(p) = params::<note::DidCloseTextDocument>(workspace, n) else { return };
            let Some(path) = workspace.docs.path_of(&p.text_document.uri) else { return };
            if workspace.docs.close(&path).is_some() {
                workspace.closed(&path);
            }
        }
        note::DidSaveTextDocument::METHOD => {
            let Some(p) = params::<note::DidSaveTextDocument>(workspace, n) else { return };
            // The unsaved text was checked already; a saved config may
            // now govern files that are not open.
            if let Some(path) = path_of(&p.text_document.uri).filter(|p| settings::is_config(p)) {
                workspace.changed_on_disk(&path);
            }
        }
        note::DidChangeConfiguration::METHOD => {
            let Some(p) = params::<note::DidChangeConfiguration>(workspace, n) else { return };
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
            let Some(p) = params::<note::DidChangeWatchedFiles>(workspace, n) else { return };
            for change in p.changes {
                if let Some(path) = path_of(&change.uri) {
                    workspace.changed_on_disk(&path);
                }
            }
        }
        _ => {}
    }
}
