//! The code front-end: the handlers of a template's functions and the SQS
//! API calls of code, read with tree-sitter into the model's
//! [`Handler`](crate::model::code::Handler)s and
//! [`SdkCall`](crate::model::code::SdkCall)s.
//!
//! It runs after a template's front-end, on the functions that front-end
//! found with a [`CodeRef`]: the handler's file is found by the runtime's
//! rules ([`locate`]), parsed within caps ([`unit`]), and read
//! ([`handler`]); then the SQS API calls of every file parsed ([`calls`]),
//! as the code of the function that named it. Code files that no template
//! names are read by [`read_loose`], each as its own job. What cannot be
//! found, read or parsed is a note naming the function and the path tried,
//! never a finding and never SQS000: code is not infrastructure.

pub mod calls;
pub mod handler;
pub mod lang;
pub mod locate;
pub mod unit;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::finding::Note;
use crate::frontend::Loaded;
use crate::model::code::{CodePlace, CodeRef};
use crate::source::{Overlay, Source};
use unit::Unit;

/// A path as notes print it.
pub(crate) fn shown(path: &Path) -> String {
    crate::source::display_path(path)
}

/// Read the code of every function of `loaded` that says where its code
/// is, into its model; what could not be read becomes notes. The files
/// read join `loaded.files`, so a change to a handler lints its template
/// again.
pub fn read(loaded: &mut Loaded, overlay: &Overlay) {
    let mut units: HashMap<PathBuf, Result<Unit, String>> = HashMap::new();
    let mut handlers = Vec::new();
    let mut notes = Vec::new();
    // Which functions' code each file is.
    let mut owners: Vec<(PathBuf, usize)> = Vec::new();
    let root = loaded.files.first().and_then(|f| f.parent()).map(locate::repository_of);
    for (index, function) in loaded.model.functions.iter().enumerate() {
        let Some(code) = &function.code else { continue };
        let not_read = |why: String| Note {
            origin: code.origin.clone(),
            message: format!("the handler of {} was not read: {why}", function.resource),
        };
        let Some(root) = &root else { continue };
        match handler_of(code, index, root, overlay, &mut units, &mut owners) {
            Ok(handler) => handlers.push(handler),
            Err(why) => notes.push(not_read(why)),
        }
    }
    let mut calls = Vec::new();
    for (path, index) in &owners {
        let (Some(Ok(unit)), Some(function)) = (units.get(path), loaded.model.functions.get(*index)) else { continue };
        let env = function.code.as_ref().map_or(&[][..], |c| c.env.as_slice());
        let scope = calls::Scope { owner: Some(&function.resource), env, queues: &loaded.model.queues };
        calls.extend(calls::read(unit, &scope));
    }
    loaded.model.calls.extend(calls);
    for (path, unit) in &units {
        if let Ok(unit) = unit {
            loaded.suppressions.extend(crate::frontend::comment::scan(&unit.source));
        }
        if !loaded.files.contains(path) {
            loaded.files.push(path.clone());
        }
    }
    loaded.model.handlers.extend(handlers);
    loaded.notes.extend(notes);
}

fn handler_of(
    code: &CodeRef,
    index: usize,
    root: &Path,
    overlay: &Overlay,
    units: &mut HashMap<PathBuf, Result<Unit, String>>,
    owners: &mut Vec<(PathBuf, usize)>,
) -> Result<crate::model::code::Handler, String> {
    let language = code.runtime.as_deref().and_then(lang::of_runtime).ok_or_else(|| match &code.runtime {
        Some(r) => format!("sqsguard does not read code of the {r} runtime"),
        None => "its runtime is not known".to_string(),
    })?;
    let found;
    let unit = match &code.place {
        CodePlace::Folder(folder) => {
            found = locate::find(folder, &code.handler, language, root)?;
            let file = found.file.clone();
            units.entry(file.clone()).or_insert_with(|| parse_file(&file, found.language, overlay));
            owners.push((file.clone(), index));
            units[&file].as_ref().map_err(Clone::clone)?
        }
        CodePlace::File(file) => {
            let file = locate::inside(file, root)?;
            let language = lang::of_path(&file).unwrap_or(language);
            let function = code.handler.rsplit_once('.').map_or(code.handler.as_str(), |(_, f)| f).to_string();
            found = locate::Found { file: file.clone(), function, language };
            units.entry(file.clone()).or_insert_with(|| parse_file(&file, language, overlay));
            owners.push((file.clone(), index));
            units[&file].as_ref().map_err(Clone::clone)?
        }
        CodePlace::Inline { .. } => return Err("code written in the template is not read yet".to_string()),
    };
    handler::read(unit, &found.function, index)
}

/// Read and parse one code file; why not, when it cannot be.
fn parse_file(path: &Path, language: lang::Language, overlay: &Overlay) -> Result<Unit, String> {
    let source: Source = overlay.read(path).map_err(|e| format!("{} cannot be read: {}", shown(path), e.message))?;
    Unit::parse(&source, language).map_err(|e| {
        let at = source.position(e.span.start);
        format!("{}:{}:{} was not parsed: {}", shown(path), at.line, at.column, e.why)
    })
}

/// What marks a file that calls the SQS API, in any language's spelling
/// (matched without regard to case): a file without one is never parsed.
const MENTIONS: &[&str] = &[
    "receivemessage",
    "receive_message",
    "sendmessage",
    "send_message",
    "deletemessagebatch",
    "delete_message_batch",
    "changemessagevisibilitybatch",
    "change_message_visibility_batch",
];

/// Whether a file's bytes mention the SQS API: the fast path that keeps a
/// repository of source files that never call SQS from being parsed.
pub fn mentions_sqs(bytes: &[u8]) -> bool {
    matcher().is_none_or(|m| m.is_match(bytes))
}

/// [`mentions_sqs`] of a file read in pieces (one too large to parse):
/// memory stays bounded whatever its size. A file that cannot be read is
/// taken to mention it, so that it is said rather than dropped.
fn file_mentions_sqs(path: &Path) -> bool {
    let Some(m) = matcher() else { return true };
    match std::fs::File::open(path) {
        Ok(file) => m.stream_find_iter(std::io::BufReader::new(file)).next().is_some(),
        Err(_) => true,
    }
}

fn matcher() -> Option<&'static aho_corasick::AhoCorasick> {
    static MATCHER: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> = std::sync::OnceLock::new();
    MATCHER
        .get_or_init(|| aho_corasick::AhoCorasick::builder().ascii_case_insensitive(true).build(MENTIONS).ok())
        .as_ref()
}

/// A code file the code front-end reads (`.py`, `.js`, `.ts`, `.go`,
/// `.java`, ...), and no Serverless Framework service written as code.
pub fn is_code_file(path: &Path) -> bool {
    lang::of_path(path).is_some() && !crate::source::is_serverless_code(path)
}

/// A code file that no template names as a function's code: its SQS API
/// calls, each owned by its enclosing function, and its queue known only
/// from literals. `None` when a template's job read it already (`handled`:
/// canonical paths), when it does not mention the SQS API (it is not
/// parsed) or cannot be read; a file that does not parse is a note.
pub fn read_loose(path: &Path, overlay: &Overlay, handled: &HashSet<PathBuf>) -> Option<Loaded> {
    if handled.contains(&path.canonicalize().unwrap_or_else(|_| path.to_path_buf())) {
        return None;
    }
    let language = lang::of_path(path)?;
    let meta = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    if meta.len() > unit::MAX_CODE_BYTES as u64 {
        // Never parsed, but never dropped in silence when it may call SQS.
        if !file_mentions_sqs(path) {
            return None;
        }
        let note = Note {
            origin: crate::model::Origin::path(path),
            message: format!("the SQS API calls of {} were not read: {}", shown(path), unit::too_large(meta.len())),
        };
        return Some(Loaded { notes: vec![note], ..Loaded::default() });
    }
    let bytes = std::fs::read(path).ok()?;
    if !mentions_sqs(&bytes) {
        return None;
    }
    let mut loaded = Loaded { files: vec![path.to_path_buf()], ..Loaded::default() };
    match parse_file(path, language, overlay) {
        Ok(unit) => {
            let scope = calls::Scope { owner: None, env: &[], queues: &[] };
            loaded.model.calls = calls::read(&unit, &scope);
            loaded.suppressions.extend(crate::frontend::comment::scan(&unit.source));
        }
        Err(why) => {
            loaded.files.clear();
            loaded.notes.push(Note {
                origin: crate::model::Origin::path(path),
                message: format!("the SQS API calls of {} were not read: {why}", shown(path)),
            })
        }
    }
    Some(loaded)
}
