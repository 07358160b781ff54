//! The Terraform front-end: a folder of `.tf` files (one module) in, a
//! [`Model`](crate::model::Model) out.
//!
//! `parse` reads HCL with spans (hcl-edit), `eval` evaluates expressions
//! (variables with tfvars overrides, locals, references, `jsonencode`), and
//! `resources` maps the AWS resources into the model.

pub mod eval;
pub mod module;
pub mod parse;
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
pub(crate) fn lint_module(dir: &Path) -> JobResult {
    let (inputs, broken) = tfvars(dir);
    let loaded = module::load(dir, String::new(), inputs);
    let mut result = JobResult { files: loaded.files, skipped: 0, findings: loaded.findings, called: loaded.called };
    result.findings.extend(broken);

    let resources = resources::collect_tree(&loaded.scope);
    let linker = resources::link(&resources);
    let mut model = Model::default();
    resources::read(&resources, &linker, &mut model);
    result.findings.extend(rules::check(&model));
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

/// Variable values from `terraform.tfvars`, then `*.auto.tfvars` in name
/// order (later files win), as Terraform loads them.
fn tfvars(dir: &Path) -> (HashMap<String, R>, Vec<Finding>) {
    let mut paths: Vec<PathBuf> = tf_files(dir, "tfvars");
    paths.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        name == "terraform.tfvars" || name.ends_with(".auto.tfvars")
    });
    paths.sort_by_key(|p| p.file_name().is_some_and(|n| n != "terraform.tfvars"));
    let (files, broken) = read_files(&paths);
    let constants = Scope::new(Vec::new(), String::new(), HashMap::new());
    let mut values = HashMap::new();
    for file in &files {
        for attr in file.body.attributes() {
            values.insert(attr.key.as_str().to_string(), constants.eval(&attr.value, 0));
        }
    }
    (values, broken)
}
