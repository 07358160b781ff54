//! The code front-end: the handlers of a template's functions and the SQS
//! API calls of code, read with tree-sitter into the model's
//! [`Handler`](crate::model::code::Handler)s and
//! [`SdkCall`](crate::model::code::SdkCall)s.
//!
//! It runs after a template's front-end, on the functions that front-end
//! found with a [`CodeRef`]: the handler's file is found by the runtime's
//! rules ([`locate`]), parsed within caps ([`unit`]), and read
//! ([`handler`]). What cannot be found, read or parsed is a note naming the
//! function and the path tried, never a finding and never SQS000: code is
//! not infrastructure.

pub mod handler;
pub mod host;
pub mod lang;
pub mod locate;
pub mod program;
mod resolve;
mod response;
pub mod unit;

use std::path::{Path, PathBuf};

use crate::finding::Note;
use crate::frontend::Loaded;
use crate::frontend::link::Linker;
use crate::frontend::value::{R, RV};
use crate::model::code::{CodePlace, CodeRef, EnvVar};
use crate::model::{Target, Value};
use crate::source::Overlay;
use host::Host;
use program::{Program, Units};
use unit::Unit;

/// The environment variables of a map of them (CloudFormation's
/// `Environment.Variables`, the Framework's `environment`, Terraform's
/// `environment { variables }`), each with the queue it names: a reference
/// to a queue's URL or ARN, or its name.
pub fn env_vars(vars: &R, linker: &Linker) -> Vec<EnvVar> {
    let RV::Map(entries) = &vars.v else { return Vec::new() };
    entries
        .iter()
        .map(|(name, _, value)| {
            let queue = match linker.queue_target(value) {
                Value::Known(Target::Queue(q)) => Value::Known(Target::Queue(q)),
                other => match linker.queue_name_target(value) {
                    Value::Known(Target::Queue(q)) => Value::Known(Target::Queue(q)),
                    _ => other,
                },
            };
            EnvVar { name: name.clone(), queue }
        })
        .collect()
}

/// A path as notes print it.
pub(crate) fn shown(path: &Path) -> String {
    crate::source::display_path(path)
}

/// Read the code of every function of `loaded` that says where its code
/// is, into its model; what could not be read becomes notes. The files
/// read join `loaded.files`, so a change to a handler lints its template
/// again.
pub fn read(loaded: &mut Loaded, overlay: &Overlay) {
    let mut units = Units::new();
    let mut handlers = Vec::new();
    let mut notes = Vec::new();
    let root = loaded.files.first().and_then(|f| f.parent()).map(locate::repository_of);
    for (index, function) in loaded.model.functions.iter().enumerate() {
        let Some(code) = &function.code else { continue };
        let not_read = |why: String| Note {
            origin: code.origin.clone(),
            message: format!("the handler of {} was not read: {why}", function.resource),
        };
        let Some(root) = &root else { continue };
        match handler_of(code, index, &function.resource, root, overlay, &mut units) {
            Ok(handler) => handlers.push(handler),
            Err(why) => notes.push(not_read(why)),
        }
    }
    for (path, unit) in &units {
        match unit {
            // Inline code is the template's: its comments are the template's.
            Ok(unit) if unit.host.is_some() => continue,
            Ok(unit) => loaded.suppressions.extend(crate::frontend::comment::scan(&unit.source)),
            Err(_) if !path.exists() => continue,
            Err(_) => {}
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
    resource: &str,
    root: &Path,
    overlay: &Overlay,
    units: &mut Units,
) -> Result<crate::model::code::Handler, String> {
    let language = code.runtime.as_deref().and_then(lang::of_runtime).ok_or_else(|| match &code.runtime {
        Some(r) => format!("sqsguard does not read code of the {r} runtime"),
        None => "its runtime is not known".to_string(),
    })?;
    let function_of = |handler: &str| handler.rsplit_once('.').map_or(handler, |(_, f)| f).to_string();
    let (found, base) = match &code.place {
        CodePlace::Folder(folder) => (locate::find(folder, &code.handler, language, root)?, folder.clone()),
        CodePlace::File(file) => {
            let file = locate::inside(file, root)?;
            let language = lang::of_path(&file).unwrap_or(language);
            let base = file.parent().unwrap_or(Path::new("")).to_path_buf();
            (locate::Found { file, function: function_of(&code.handler), language }, base)
        }
        CodePlace::Inline { text, origin } => {
            let key = inline(text, origin, resource, language, units)?;
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
    handler::read_in(&mut program, &found.file, &found.function, index)
}

/// Parse a function's inline code as `language`, its places mapped into
/// the template, into `units` (under a name of its own, not a file); the
/// key, or why it does not parse (at its place in the template).
fn inline(
    text: &str,
    origin: &crate::model::Origin,
    resource: &str,
    language: lang::Language,
    units: &mut Units,
) -> Result<PathBuf, String> {
    let crate::model::Origin::File { file: template, span } = origin else {
        return Err("its inline code has no place".to_string());
    };
    let key = PathBuf::from(format!("{} (the inline code of {resource})", shown(&template.path)));
    let host = Host::new(template, *span, text);
    let source = crate::source::SourceFile::new(key.clone(), text.to_string());
    let language = match language {
        // Inline Node.js code is `index.js`.
        lang::Language::TypeScript | lang::Language::Tsx => lang::Language::JavaScript,
        l => l,
    };
    match Unit::parse(&source, language) {
        Ok(mut unit) => {
            unit.host = Some(host);
            units.insert(key.clone(), Ok(unit));
            Ok(key)
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
