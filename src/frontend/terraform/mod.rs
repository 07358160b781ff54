//! The Terraform front-end: a folder of `.tf` files (one module) in, a
//! [`Loaded`] model out; and [`plan`], for plan JSON.
//!
//! `parse` reads HCL with spans (hcl-edit), `eval` evaluates expressions
//! (variables with tfvars overrides, locals, references, `jsonencode`),
//! `module` follows module calls, `registry` models well-known registry
//! modules, and `resources` maps the AWS resources into the model.

pub mod eval;
pub mod module;
pub mod parse;
pub mod plan;
pub mod registry;
pub mod resources;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use eval::{File, Scope};

use super::value::R;
use super::{Broken, Loaded};
use crate::model::{Dialect, Model};
use crate::source::Source;

/// The module in `dir`: every `.tf` file in it, with the variables set by
/// `terraform.tfvars` and `*.auto.tfvars`, and the modules it calls.
pub fn load_module(dir: &Path) -> Loaded {
    let (inputs, mut broken) = tfvars(dir);
    let loaded = module::load(dir, String::new(), inputs);
    broken.extend(loaded.broken);
    // Before collecting, which takes the module calls apart.
    let sources = loaded.scope.all_sources();
    let resources = resources::collect_tree(&loaded.scope);
    finish(
        &resources,
        &sources,
        Loaded { broken, notes: loaded.notes, files: loaded.paths, called: loaded.called, ..Loaded::default() },
    )
}

/// Terraform files held in memory as one module (the generator's
/// self-check).
pub fn load_sources(sources: Vec<Source>) -> Loaded {
    let mut files = Vec::new();
    let mut broken = Vec::new();
    for source in &sources {
        match parse::parse(source) {
            Ok(body) => files.push(File { source: source.clone(), body }),
            Err(e) => broken.push(Broken { file: source.clone(), span: e.span, message: e.message }),
        }
    }
    let scope = Scope::new(files, String::new(), HashMap::new());
    let resources = resources::collect(&scope);
    let paths = sources.iter().map(|s| s.path.clone()).collect();
    finish(&resources, &sources, Loaded { broken, files: paths, ..Loaded::default() })
}

/// The model of `resources`, with the suppression comments of `sources`.
fn finish(resources: &[resources::Resource], sources: &[Source], mut loaded: Loaded) -> Loaded {
    let linker = resources::link(resources);
    let mut model = Model { dialect: Dialect::Terraform, ..Model::default() };
    resources::read(resources, &linker, &mut model);
    loaded.model = model;
    loaded.suppressions = sources.iter().flat_map(super::comment::scan).collect();
    loaded
}

/// Files of `dir` ending in `.ext`, sorted.
pub(crate) fn tf_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
        .map(|p| p.strip_prefix("./").map(Path::to_path_buf).unwrap_or(p))
        .collect();
    out.sort();
    out
}

/// Parse each file; the ones that cannot be read or parsed are broken.
pub(crate) fn read_files(paths: &[PathBuf]) -> (Vec<File>, Vec<Broken>) {
    let mut files = Vec::new();
    let mut broken = Vec::new();
    for path in paths {
        match crate::source::read(path) {
            Ok(source) => match parse::parse(&source) {
                Ok(body) => files.push(File { source, body }),
                Err(e) => broken.push(Broken { file: source, span: e.span, message: e.message }),
            },
            Err(e) if e.infrastructure => broken.push(Broken { file: e.file, span: e.span, message: e.message }),
            Err(_) => {}
        }
    }
    (files, broken)
}

/// Variable values from `terraform.tfvars`, `terraform.tfvars.json`, then
/// `*.auto.tfvars` and `*.auto.tfvars.json` in name order (later files
/// win), as Terraform loads them.
fn tfvars(dir: &Path) -> (HashMap<String, R>, Vec<Broken>) {
    let name_of = |p: &PathBuf| p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    let mut paths: Vec<PathBuf> = tf_files(dir, "tfvars");
    paths.extend(tf_files(dir, "json").into_iter().filter(|p| name_of(p).ends_with(".tfvars.json")));
    paths.retain(|p| {
        let name = name_of(p);
        name == "terraform.tfvars" || name == "terraform.tfvars.json" || name.contains(".auto.tfvars")
    });
    paths.sort_by_key(|p| (!name_of(p).starts_with("terraform.tfvars"), name_of(p)));
    let constants = Scope::new(Vec::new(), String::new(), HashMap::new());
    let mut values = HashMap::new();
    let mut broken = Vec::new();
    for path in paths {
        let source = match crate::source::read(&path) {
            Ok(source) => source,
            Err(e) if e.infrastructure => {
                broken.push(Broken { file: e.file, span: e.span, message: e.message });
                continue;
            }
            Err(_) => continue,
        };
        if name_of(&path).ends_with(".json") {
            match crate::syntax::json::parse(&source) {
                Ok(root) => {
                    for entry in root.as_map().unwrap_or_default() {
                        values.insert(entry.key.clone(), super::value::from_node(&entry.value, 0));
                    }
                }
                Err(e) => broken.push(Broken { file: source, span: e.span, message: e.message }),
            }
            continue;
        }
        match parse::parse(&source) {
            Ok(body) => {
                for attr in body.attributes() {
                    values.insert(attr.key.as_str().to_string(), constants.eval(&attr.value, 0));
                }
            }
            Err(e) => broken.push(Broken { file: source, span: e.span, message: e.message }),
        }
    }
    (values, broken)
}
