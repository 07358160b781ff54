//! The Terraform front-end: a folder of `.tf` files (one module) in, a
//! [`Loaded`] model out; and [`plan`], for plan JSON.
//!
//! `parse` reads HCL with spans (hcl-edit), `eval` evaluates expressions
//! (variables with tfvars overrides, locals, references, `jsonencode`),
//! `module` follows module calls, `registry` models well-known registry
//! modules, and `resources` maps the AWS resources into the model.

mod document;
mod each;
pub(crate) mod eval;
mod functions;
mod instances;
pub(crate) mod json;
pub(crate) mod module;
pub mod parse;
pub(crate) mod plan;
pub(crate) mod registry;
pub(crate) mod resources;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use eval::{File, Scope};

use super::loaded::{Broken, Loaded};
use super::value::{R, RV};
use sqsguard_edit::Writer;
use sqsguard_model::{Dialect, Model, Suppression};
use sqsguard_source::{Overlay, Source};

/// The module in `dir`: every `.tf` file in it, with the variables set by
/// `terraform.tfvars`, `*.auto.tfvars` and then `var_files` (as
/// `terraform plan -var-file`), and the modules it calls.
/// Files in `overlay` are read from it.
pub fn load_module(dir: &Path, var_files: &[PathBuf], overlay: &Overlay) -> Loaded {
    let (inputs, mut broken, mut writer) = tfvars(dir, var_files, overlay);
    let loaded = module::load(dir, String::new(), inputs, overlay);
    broken.extend(loaded.broken);
    // Before collecting, which takes the module calls apart.
    let suppressions = loaded.scope.all_suppressions();
    let default_tags = default_tags(&loaded.scope);
    let mut resources = resources::collect_tree(&loaded.scope);
    if let Some(defaults) = default_tags {
        for r in resources.iter_mut().filter(|r| r.kind == "aws_sqs_queue") {
            merge_tags(&mut r.props, &defaults);
        }
    }
    let mut out = finish(
        &resources,
        suppressions,
        Loaded { broken, notes: loaded.notes, files: loaded.paths, called: loaded.called, ..Loaded::default() },
    );
    drop(resources);
    hold(&mut writer, loaded.scope, &out.broken);
    out.writer = writer;
    out
}

/// The trees of a module's files (and of the local modules it calls)
/// handed to the writer, with what each module folder declares.
fn hold(writer: &mut Writer, scope: Scope, broken: &[Broken]) {
    if let Some(folder) = scope.files.first().map(|f| f.source.path.parent().unwrap_or(Path::new("")).to_path_buf()) {
        let unparsed = broken.iter().any(|b| b.file.path.parent().unwrap_or(Path::new("")) == folder);
        let declared = (!unparsed).then(|| scope.resources.keys().cloned().collect());
        let sqs_calls = scope
            .files
            .iter()
            .flat_map(|f| f.body.blocks())
            .filter(|b| b.ident.as_str() == "module" && b.labels.len() == 1)
            .filter(|b| {
                b.body.get_attribute("source").and_then(|s| s.value.as_str()).is_some_and(registry::is_sqs_module)
            })
            .map(|b| b.labels[0].as_str().to_string())
            .collect();
        writer.add_module(&folder, declared, sqs_calls);
    }
    let children = scope.children.into_inner();
    for file in scope.files {
        match file.json {
            Some(root) => writer.add_json(&file.source, root),
            None => writer.add_hcl(&file.source, file.body),
        }
    }
    for child in children {
        if let eval::Child::Local { scope, .. } = child {
            hold(writer, *scope, broken);
        }
    }
}

/// The `default_tags` of the module's default `aws` provider (the one
/// without an `alias`), evaluated.
fn default_tags(scope: &Scope) -> Option<R> {
    scope.files.iter().enumerate().find_map(|(fi, f)| {
        f.body.blocks().filter(|b| b.ident.as_str() == "provider").find_map(|b| {
            let aws = eval::labels(b).first().is_some_and(|l| l == "aws") && b.body.get_attribute("alias").is_none();
            let defaults = b.body.blocks().find(|d| d.ident.as_str() == "default_tags")?;
            let tags = defaults.body.get_attribute("tags")?;
            aws.then(|| scope.eval(&tags.value, fi))
        })
    })
}

/// Provider default tags under a resource's own `tags` (its own win), as
/// the provider applies them.
fn merge_tags(props: &mut R, defaults: &R) {
    let RV::Map(defaults) = &defaults.v else { return };
    let RV::Map(entries) = &mut props.v else { return };
    let tags = match entries.iter_mut().find(|(k, _, _)| k == "tags") {
        Some((_, _, tags)) => tags,
        None => {
            entries.push(("tags".to_string(), props.span, R::new(RV::Map(Vec::new()), props.span)));
            let Some((_, _, tags)) = entries.last_mut() else { return };
            tags
        }
    };
    // A tags value only known at plan time stays unknown.
    let RV::Map(own) = &mut tags.v else { return };
    for (k, ks, v) in defaults {
        if !own.iter().any(|(o, _, _)| o == k) {
            own.push((k.clone(), *ks, v.clone()));
        }
    }
}

/// Terraform files held in memory as one module (the generator's
/// self-check).
pub fn load_sources(sources: Vec<Source>) -> Loaded {
    let paths = sources.iter().map(|s| s.path.clone()).collect();
    let (files, broken): (Vec<_>, Vec<_>) = sources.into_iter().map(parse_file).partition(Result::is_ok);
    let files: Vec<File> = files.into_iter().flatten().collect();
    let broken = broken.into_iter().filter_map(Result::err).collect();
    let scope = Scope::new(files, String::new(), HashMap::new());
    let resources = resources::collect(&scope);
    finish(&resources, scope.all_suppressions(), Loaded { broken, files: paths, ..Loaded::default() })
}

/// The model of `resources`, with `suppressions`.
fn finish(resources: &[resources::Resource], suppressions: Vec<Suppression>, mut loaded: Loaded) -> Loaded {
    let linker = resources::link(resources);
    let mut model = Model { dialect: Dialect::Terraform, ..Model::default() };
    resources::read(resources, &linker, &mut model);
    loaded.model = model;
    loaded.suppressions = suppressions;
    loaded
}

/// `*.tf.json`: Terraform's JSON syntax.
pub(crate) fn is_tf_json(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.to_ascii_lowercase().ends_with(".tf.json"))
}

/// A `.tf` or `.tf.json` file parsed, with its suppressions; a located
/// error when it does not parse.
fn parse_file(source: Source) -> Result<File, Broken> {
    if !is_tf_json(&source.path) {
        return match parse::parse(&source) {
            Ok(body) => Ok(File { suppressions: super::comment::scan(&source), source, body, remap: None, json: None }),
            Err(e) => Err(Broken { file: source, span: e.span, message: e.message }),
        };
    }
    let converted = match json::convert(&source) {
        Ok(converted) => converted,
        Err(e) => return Err(Broken { file: source, span: e.span, message: e.message }),
    };
    match parse::parse_text(&converted.hcl) {
        Ok(body) => Ok(File {
            source,
            body,
            remap: Some(converted.remap),
            suppressions: converted.suppressions,
            json: Some(converted.root),
        }),
        // JSON that is no Terraform expression (`"${"`): where it went wrong.
        Err(e) => Err(Broken {
            span: converted.remap.span(e.span),
            message: e.message.replacen("HCL syntax error", "Terraform JSON: syntax error in an expression", 1),
            file: source,
        }),
    }
}

/// The `.tf` and `.tf.json` files of `dir`, sorted by name.
pub(crate) fn module_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = tf_files(dir, "tf")?;
    out.extend(tf_files(dir, "json")?.into_iter().filter(|p| is_tf_json(p)));
    out.sort();
    Ok(out)
}

/// Files of `dir` ending in `.ext`, sorted; an error when the folder
/// cannot be listed, so the caller can say what it did not read.
pub(crate) fn tf_files(dir: &Path, ext: &str) -> std::io::Result<Vec<PathBuf>> {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .collect::<std::io::Result<Vec<_>>>()?
        .into_iter()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == ext))
        .map(|p| p.strip_prefix("./").map(Path::to_path_buf).unwrap_or(p))
        .collect();
    out.sort();
    Ok(out)
}

/// Parse each file; the ones that cannot be read or parsed are broken.
pub(crate) fn read_files(paths: &[PathBuf], overlay: &Overlay) -> (Vec<File>, Vec<Broken>) {
    let mut files = Vec::new();
    let mut broken = Vec::new();
    for path in paths {
        match overlay.read(path) {
            // An editor's checks parse each unchanged file once.
            Ok(source) => match overlay.parsed(&source, || parse_file(source.clone())) {
                Ok(file) => files.push(file),
                Err(b) => broken.push(b),
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
fn tfvars(dir: &Path, var_files: &[PathBuf], overlay: &Overlay) -> (HashMap<String, R>, Vec<Broken>, Writer) {
    let name_of = |p: &PathBuf| p.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
    // A folder that cannot be listed is reported by the module load.
    let mut paths: Vec<PathBuf> = tf_files(dir, "tfvars").unwrap_or_default();
    paths
        .extend(tf_files(dir, "json").unwrap_or_default().into_iter().filter(|p| name_of(p).ends_with(".tfvars.json")));
    paths.retain(|p| {
        let name = name_of(p);
        name == "terraform.tfvars" || name == "terraform.tfvars.json" || name.contains(".auto.tfvars")
    });
    paths.sort_by_key(|p| (!name_of(p).starts_with("terraform.tfvars"), name_of(p)));
    // Named files last: they win, as in `terraform plan -var-file`.
    paths.extend(var_files.iter().cloned());
    let mut values = HashMap::new();
    let mut broken = Vec::new();
    let mut writer = Writer::default();
    for path in paths {
        let source = match overlay.read(&path) {
            Ok(source) => source,
            Err(e) if e.infrastructure => {
                broken.push(Broken { file: e.file, span: e.span, message: e.message });
                continue;
            }
            Err(_) => continue,
        };
        if name_of(&path).ends_with(".json") {
            match sqsguard_syntax::json::parse(&source) {
                Ok(root) => {
                    for entry in root.as_map().unwrap_or_default() {
                        values.insert(entry.key.clone(), super::value::from_node(&entry.value, 0).written_in(&source));
                    }
                    writer.add_json(&source, root);
                }
                Err(e) => broken.push(Broken { file: source, span: e.span, message: e.message }),
            }
            continue;
        }
        match parse::parse(&source) {
            Ok(body) => {
                // Evaluated as a file of its own, so its values keep their
                // places in it (for a fix) and can use no variable.
                let file = File { source: source.clone(), body, remap: None, suppressions: Vec::new(), json: None };
                let scope = Scope::new(vec![file], String::new(), HashMap::new());
                for attr in scope.files[0].body.attributes() {
                    values.insert(attr.key.as_str().to_string(), scope.eval_written(&attr.value, 0));
                }
                for file in scope.files {
                    writer.add_hcl(&file.source, file.body);
                }
            }
            Err(e) => broken.push(Broken { file: source, span: e.span, message: e.message }),
        }
    }
    (values, broken, writer)
}
