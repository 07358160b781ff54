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
pub mod lang;
pub mod locate;
pub mod unit;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::finding::Note;
use crate::frontend::Loaded;
use crate::frontend::link::Linker;
use crate::frontend::value::{R, RV};
use crate::model::code::{CodePlace, CodeRef, EnvVar};
use crate::model::{Target, Value};
use crate::source::{Overlay, Source};
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
    let mut units: HashMap<PathBuf, Result<Unit, String>> = HashMap::new();
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
        match handler_of(code, index, root, overlay, &mut units) {
            Ok(handler) => handlers.push(handler),
            Err(why) => notes.push(not_read(why)),
        }
    }
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
            units[&file].as_ref().map_err(Clone::clone)?
        }
        CodePlace::File(file) => {
            let file = locate::inside(file, root)?;
            let language = lang::of_path(&file).unwrap_or(language);
            let function = code.handler.rsplit_once('.').map_or(code.handler.as_str(), |(_, f)| f).to_string();
            found = locate::Found { file: file.clone(), function, language };
            units.entry(file.clone()).or_insert_with(|| parse_file(&file, language, overlay));
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
