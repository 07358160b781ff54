//! The Terraform front-end: a folder of `.tf` files (one module) in, a
//! [`Model`](crate::model::Model) out.
//!
//! `parse` reads HCL with spans (hcl-edit), `eval` evaluates expressions
//! (variables with tfvars overrides, locals, references, `jsonencode`), and
//! `resources` maps the AWS resources into the model.

pub mod eval;
pub mod module;
pub mod parse;
pub mod plan;
pub mod registry;
pub mod resources;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use eval::{File, Scope};

use crate::extract::value::R;
use crate::finding::Finding;
use crate::lint::{JobResult, read_source, unparsable};
use crate::model::Model;
use crate::rules;

/// Lint the module in `dir`: every `.tf` file in it, with the variables
/// set by `terraform.tfvars` and `*.auto.tfvars`.
pub(crate) fn lint_module(dir: &Path, config: &crate::config::Config) -> JobResult {
    let (inputs, broken) = tfvars(dir);
    let loaded = module::load(dir, String::new(), inputs);
    let mut result = JobResult {
        files: loaded.files,
        skipped: 0,
        findings: loaded.findings,
        called: loaded.called,
        notes: loaded.notes,
        suppressed: 0,
        used: Vec::new(),
        unused: Vec::new(),
        linted: loaded.paths.iter().map(|p| crate::source::display_path(p)).collect(),
    };
    result.findings.extend(broken);

    let resources = resources::collect_tree(&loaded.scope);
    let linker = resources::link(&resources);
    let mut model = Model { dialect: crate::model::Dialect::Terraform, ..Model::default() };
    resources::read(&resources, &linker, &mut model);
    let sources: Vec<crate::source::Source> = loaded.scope.files.iter().map(|f| f.source.clone()).collect();
    let checked = crate::check::model(model, config, &sources);
    result.findings.extend(checked.findings);
    result.notes.extend(checked.notes);
    result.suppressed = checked.suppressed;
    result.used = checked.used;
    result.unused = checked.unused;
    result
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

/// Parse each file; the ones that cannot be read or parsed become SQS000.
pub(crate) fn read_files(paths: &[PathBuf]) -> (Vec<File>, Vec<Finding>) {
    let mut files = Vec::new();
    let mut broken = Vec::new();
    for path in paths {
        match read_source(path) {
            Ok(source) => match parse::parse(&source) {
                Ok(body) => files.push(File { source, body }),
                Err(e) => broken.push(unparsable(&source, e.span, e.message)),
            },
            Err(Some(finding)) => broken.push(*finding),
            Err(None) => {}
        }
    }
    (files, broken)
}

/// Variable values from `terraform.tfvars`, `terraform.tfvars.json`, then
/// `*.auto.tfvars` and `*.auto.tfvars.json` in name order (later files
/// win), as Terraform loads them.
fn tfvars(dir: &Path) -> (HashMap<String, R>, Vec<Finding>) {
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
        let source = match read_source(&path) {
            Ok(source) => source,
            Err(Some(finding)) => {
                broken.push(*finding);
                continue;
            }
            Err(None) => continue,
        };
        if name_of(&path).ends_with(".json") {
            match crate::syntax::json::parse(&source) {
                Ok(root) => {
                    for entry in root.as_map().unwrap_or_default() {
                        values.insert(entry.key.clone(), crate::extract::value::from_node(&entry.value, 0));
                    }
                }
                Err(e) => broken.push(unparsable(&source, e.span, e.message)),
            }
            continue;
        }
        match parse::parse(&source) {
            Ok(body) => {
                for attr in body.attributes() {
                    values.insert(attr.key.as_str().to_string(), constants.eval(&attr.value, 0));
                }
            }
            Err(e) => broken.push(unparsable(&source, e.span, e.message)),
        }
    }
    (values, broken)
}

/// Lint Terraform files held in memory as one module (the generator's
/// self-check). Files that do not parse become SQS000.
pub fn lint_sources(sources: Vec<crate::source::Source>) -> Vec<Finding> {
    let mut findings = Vec::new();
    let mut files = Vec::new();
    for source in sources {
        match parse::parse(&source) {
            Ok(body) => files.push(File { source, body }),
            Err(e) => findings.push(unparsable(&source, e.span, e.message)),
        }
    }
    let scope = Scope::new(files, String::new(), HashMap::new());
    let resources = resources::collect(&scope);
    let linker = resources::link(&resources);
    let mut model = Model { dialect: crate::model::Dialect::Terraform, ..Model::default() };
    resources::read(&resources, &linker, &mut model);
    findings.extend(rules::check(&model, &rules::Options::default()));
    findings
}
