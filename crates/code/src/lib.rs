//! The code front-end: the handlers of a template's functions and the SQS
//! API calls of code, read with tree-sitter into the model's
//! [`Handler`](sqsguard_model::code::Handler)s and
//! [`SdkCall`](sqsguard_model::code::SdkCall)s.
//!
//! It runs after a template's front-end, on the functions that front-end
//! found with a [`CodeRef`]: the handler's file is found by the runtime's
//! rules ([`locate`]), parsed within caps ([`unit`]), and read
//! ([`handler`]); then the SQS API calls of every file parsed ([`calls`]),
//! as the code of the function that named it. Code files that no template
//! names are read by [`read_loose`], each as its own job. What cannot be
//! found, read or parsed is a note naming the function and the path tried,
//! never a finding and never SQS000: code is not infrastructure.

pub(crate) mod calls;
mod check;
mod fields;
mod flat;
#[cfg(test)]
mod flat_tests;
pub mod handler;
pub(crate) mod host;
mod imports;
#[cfg(test)]
mod imports_tests;
mod kinds;
mod known;
pub mod lang;
pub(crate) mod locate;
pub(crate) mod program;
mod query;
mod raises;
mod resolve;
mod response;
pub mod unit;
#[cfg(test)]
mod unit_tests;
mod wrapped;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use host::Host;
use program::{Program, Units};
use sqsguard_finding::Note;
use sqsguard_frontend::loaded::Loaded;
use sqsguard_model::code::{CodePlace, CodeRef};
use sqsguard_source::Overlay;
use unit::Unit;

pub use known::KnownQueues;
// A path as notes print it (the current folder as `.`).
pub(crate) use sqsguard_source::repository::shown;

/// Read the code of every function of `loaded` that says where its code
/// is, into its model; what could not be read becomes notes. The files
/// read join `loaded.files`, so a change to a handler lints its template
/// again.
pub fn read(loaded: &mut Loaded, overlay: &Overlay) {
    let mut units = Units::new();
    let mut handlers = Vec::new();
    let mut notes = Vec::new();
    // Which functions' code each file is.
    let mut owners: Vec<(PathBuf, usize)> = Vec::new();
    // Most templates name no code: the folders above them are not looked at.
    if loaded.model.functions.iter().all(|f| f.code.is_none()) {
        return;
    }
    let root = loaded.files.first().and_then(|f| f.parent()).map(sqsguard_source::repository::repository_of);
    let mut ahead = match &root {
        Some(_) => inline_ahead(&loaded.model.functions, overlay),
        None => Vec::new(),
    };
    for (index, function) in loaded.model.functions.iter().enumerate() {
        let Some(code) = &function.code else { continue };
        let not_read = |why: String| Note {
            origin: code.origin.clone(),
            message: format!("the handler of {} was not read: {why}", function.resource),
        };
        let Some(root) = &root else { continue };
        let parsed = ahead.get_mut(index).and_then(Option::take);
        match handler_of(code, index, &function.resource, root, overlay, parsed, &mut units, &mut owners) {
            Ok(handler) => handlers.push(handler),
            Err(why) => notes.push(not_read(why)),
        }
    }
    let mut calls = Vec::new();
    let names = calls::QueueNames::of(&loaded.model.queues);
    for (path, index) in &owners {
        let (Some(Ok(unit)), Some(function)) = (units.get(path), loaded.model.functions.get(*index)) else { continue };
        let env = function.code.as_ref().map_or(&[][..], |c| c.env.as_slice());
        let scope = calls::Scope { owner: Some(&function.resource), env, queues: &names, imported: None };
        calls.extend(calls::read(unit, &scope));
    }
    // A module that many functions share holds one call for all of them:
    // said once, for the first, unless their environments send it to
    // different queues.
    let mut seen = HashSet::new();
    calls.retain(|c: &sqsguard_model::code::SdkCall| {
        let at = match &c.origin {
            sqsguard_model::Origin::File { file, span } => (file.path.clone(), *span),
            sqsguard_model::Origin::Live(_) => return true,
        };
        seen.insert((at, format!("{:?}", c.queue)))
    });
    loaded.model.calls.extend(calls);
    for (path, unit) in &units {
        match unit {
            // Inline code is the template's: its comments are the template's.
            Ok(unit) if unit.host.is_some() => continue,
            Ok(unit) => loaded.suppressions.extend(sqsguard_frontend::comment::scan(&unit.source)),
            Err(_) if !path.exists() => continue,
            Err(_) => {}
        }
        if !loaded.files.contains(path) {
            loaded.files.push(path.clone());
        }
    }
    // A consumer's handler whose answer is not known is said by the rules
    // (`rules::unresolved_links`), which know which of them it blinds.
    loaded.model.handlers.extend(handlers);
    loaded.notes.extend(notes);
}

/// The inline code of every function that has some, parsed on every core
/// before the handlers are read one function after another: a template
/// of thousands of functions is thousands of small parses, most of the
/// time code reading takes. By function, as [`inline`] gives it.
fn inline_ahead(functions: &[sqsguard_model::Function], overlay: &Overlay) -> Vec<Option<InlineParse>> {
    use rayon::prelude::*;
    functions
        .par_iter()
        .map(|function| {
            let code = function.code.as_ref()?;
            let CodePlace::Inline { text, origin } = &code.place else { return None };
            let language = language_of(code).ok()?;
            Some(inline(text, origin, &function.resource, language, overlay))
        })
        .collect()
}

/// A function's inline code parsed: its key among the units and its unit,
/// or why it was not parsed.
type InlineParse = Result<(PathBuf, Unit), String>;

/// The language a function's runtime is written in, or why it is not read.
fn language_of(code: &CodeRef) -> Result<lang::Language, String> {
    code.runtime.as_deref().and_then(lang::of_runtime).ok_or_else(|| match &code.runtime {
        Some(r) => format!("sqsguard does not read code of the {r} runtime"),
        None => "its runtime is not known".to_string(),
    })
}

/// The handler of function `index`, whose inline code, when it has some,
/// may be `parsed` already ([`inline_ahead`]).
#[expect(clippy::too_many_arguments, reason = "the function, where to read, and the read's state, passed down once")]
fn handler_of(
    code: &CodeRef,
    index: usize,
    resource: &str,
    root: &Path,
    overlay: &Overlay,
    parsed: Option<InlineParse>,
    units: &mut Units,
    owners: &mut Vec<(PathBuf, usize)>,
) -> Result<sqsguard_model::code::Handler, String> {
    let language = language_of(code)?;
    let function_of = |handler: &str| handler.rsplit_once('.').map_or(handler, |(_, f)| f).to_string();
    let (found, base) = match &code.place {
        CodePlace::Folder(folder) => (locate::find(folder, &code.handler, language, root)?, folder.clone()),
        CodePlace::File(file) => {
            let file = sqsguard_source::repository::inside(file, root)?;
            let language = sqsguard_model::code::Language::of_path(&file).unwrap_or(language);
            let base = file.parent().unwrap_or(Path::new("")).to_path_buf();
            (locate::Found { file, function: function_of(&code.handler), language }, base)
        }
        CodePlace::Inline { text, origin } => {
            // (Always parsed ahead: the language is known, as it was
            // there. Parsed here should that ever not hold.)
            let (key, unit) = parsed.unwrap_or_else(|| inline(text, origin, resource, language, overlay))?;
            units.insert(key.clone(), Ok(unit));
            let found = locate::Found { file: key, function: function_of(&code.handler), language };
            (found, PathBuf::new())
        }
    };
    // `CodeUri: .` gives `dir/./src/...`: one path per file, as shown.
    let found = locate::Found { file: program::strip_dot(&found.file), ..found };
    let mut program = Program::new(units, overlay, root, base);
    program.load(&found.file, found.language)?;
    match found.language {
        lang::Language::Go => program.go_package(&found.file),
        lang::Language::Java => program.java_chain(&found.file),
        _ => {}
    }
    let handler = handler::read_in(&mut program, &found.file, &found.function, index);
    // The SDK calls of every file the handler's body reaches are its
    // function's, read with its environment.
    // (Only this call adds `index`'s files: whether the handler's own
    // file is among them is asked of this program's files, not of every
    // function's, which made a template of many functions quadratic.)
    let own = !program.opened().any(|f| *f == found.file);
    owners.extend(program.opened().map(|f| (f.clone(), index)));
    if own {
        owners.push((found.file.clone(), index));
    }
    handler
}

/// Parse a function's inline code as `language`, its places mapped into
/// the template, under a name of its own (not a file's): that name, the
/// key among the units, and the unit, or why it does not parse (at its
/// place in the template).
fn inline(
    text: &str,
    origin: &sqsguard_model::Origin,
    resource: &str,
    language: lang::Language,
    overlay: &Overlay,
) -> InlineParse {
    let sqsguard_model::Origin::File { file: template, span } = origin else {
        return Err("its inline code has no place".to_string());
    };
    let key = PathBuf::from(format!("{} (the inline code of {resource})", shown(&template.path)));
    let host = Host::new(template, *span, text);
    let source = sqsguard_source::SourceFile::new(key.clone(), text.to_string());
    let language = match language {
        // Inline Node.js code is `index.js`.
        lang::Language::TypeScript | lang::Language::Tsx => lang::Language::JavaScript,
        l => l,
    };
    match Unit::parse_kept(&source, language, overlay) {
        Ok(mut unit) => {
            unit.host = Some(host);
            Ok((key, unit))
        }
        Err(e) => {
            let at = template.position(host.span(&source, e.span).start);
            Err(format!(
                "its inline code at {}:{}:{} was not parsed: {}",
                shown(&template.path),
                at.line,
                at.column,
                e.why
            ))
        }
    }
}

/// What marks a file that calls the SQS API, in any language's spelling
/// (matched without regard to case): a file without one is never parsed.
const MENTIONS: &[&str] = &[
    "receivemessage",
    "receive_message",
    "sendmessage",
    "send_message",
    // And their batch forms.
    "deletemessage",
    "delete_message",
    "changemessagevisibility",
    "change_message_visibility",
];

/// Whether a file's bytes mention the SQS API: the fast path that keeps a
/// repository of source files that never call SQS from being parsed.
pub(crate) fn mentions_sqs(bytes: &[u8]) -> bool {
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
    sqsguard_model::code::Language::of_path(path).is_some() && !sqsguard_source::is_serverless_code(path)
}

/// A code file that no template names as a function's code: its SQS API
/// calls, each owned by its enclosing function, and its queue known only
/// from literals: a queue of the run by that name ([`KnownQueues`]), else
/// an outside one. `None` when a template's job read it already (`handled`:
/// canonical paths), when it does not mention the SQS API (it is not
/// parsed) or cannot be read; a file that does not parse is a note.
pub fn read_loose(path: &Path, overlay: &Overlay, handled: &HashSet<PathBuf>, known: &KnownQueues) -> Option<Loaded> {
    if handled.contains(&path.canonicalize().unwrap_or_else(|_| path.to_path_buf())) {
        return None;
    }
    let language = sqsguard_model::code::Language::of_path(path)?;
    let meta = std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file)?;
    if meta.len() > unit::MAX_CODE_BYTES as u64 {
        // Never parsed, but never dropped in silence when it may call SQS.
        if !file_mentions_sqs(path) {
            return None;
        }
        let note = Note {
            origin: sqsguard_model::Origin::path(path),
            message: format!("the SQS API calls of {} were not read: {}", shown(path), unit::too_large(meta.len())),
        };
        return Some(Loaded { notes: vec![note], ..Loaded::default() });
    }
    // The editor's or --fix's text when there is one, else the file's.
    let source = match overlay.read(path) {
        Ok(source) => source,
        Err(e) => {
            let message =
                format!("the SQS API calls of {} were not read: it cannot be read: {}", shown(path), e.message);
            return Some(Loaded {
                notes: vec![Note { origin: sqsguard_model::Origin::path(path), message }],
                ..Loaded::default()
            });
        }
    };
    if !mentions_sqs(source.text.as_bytes()) {
        return None;
    }
    let mut loaded = Loaded { files: vec![path.to_path_buf()], ..Loaded::default() };
    match Unit::parse_kept(&source, language, overlay) {
        Ok(unit) => {
            // A literal URL, ARN or name of a queue linted in the same run
            // is that queue (`known`), with its attributes.
            // Values its config module or package sets (`from settings
            // import READ_TIMEOUT`), read when a name needs them.
            let imports = calls::Imports::new(path, overlay);
            let scope = calls::Scope { owner: None, env: &[], queues: known.names(), imported: Some(&imports) };
            loaded.model.calls = calls::read(&unit, &scope);
            loaded.model.queues = known.adopt(&mut loaded.model.calls);
            loaded.suppressions.extend(sqsguard_frontend::comment::scan(&unit.source));
        }
        // Said where the parser stopped.
        Err(e) => {
            loaded.files.clear();
            loaded.notes.push(Note {
                origin: sqsguard_model::Origin::file(&source, e.span),
                message: format!("the SQS API calls of {} were not read: {}", shown(path), e.why),
            })
        }
    }
    Some(loaded)
}
