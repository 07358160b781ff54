//! The Terraform JSON twin of an HCL rule fixture, made at test time
//! rather than kept by hand beside it: each `.tf` file becomes a
//! `.tf.json` file with the same meaning in [Terraform's JSON
//! configuration syntax](https://developer.hashicorp.com/terraform/language/syntax/json),
//! other files (`.tfvars`, `.tfvars.json`) are copied as they are, and so
//! are local modules' folders. hcl-rs reads the HCL (the parser of
//! hcl-edit, which sqsguard reads HCL with).
//!
//! The translation: a top-level block nests its labels as objects
//! (`resource.TYPE.NAME`), `locals` merge, `terraform` blocks form an
//! array; a nested block is an array of its bodies (`"scaling_config":
//! [{...}]`); an expression that is not a literal is a `"${...}"` template
//! string, and a variable's `type` its type expression. tests/rules/terraform-json.md says more.

use std::path::Path;

use hcl::{Body, Structure};
use serde_json::{Map, Value};

/// The twin kept by hand for the HCL module `module`
/// (tests/rules/CODE/terraform/NAME), at tests/rules/CODE/terraform-json/NAME,
/// if there is one: kept where it shows what a made twin cannot
/// (tests/rules/terraform-json.md says which and why).
pub fn kept_twin(module: &Path) -> Option<std::path::PathBuf> {
    let kept = module.parent()?.with_file_name("terraform-json").join(module.file_name()?);
    kept.is_dir().then_some(kept)
}

/// Writes the twin of the module in `module` into `to` (made if missing).
pub fn write_twin(module: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    let mut entries: Vec<_> = std::fs::read_dir(module)
        .unwrap_or_else(|e| panic!("{}: {e}", module.display()))
        .map(|e| e.expect("a module's file").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().expect("a name").to_string_lossy().into_owned();
        if path.is_dir() {
            write_twin(&path, &to.join(&name));
        } else if name.ends_with(".tf") {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let json = file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let text = serde_json::to_string_pretty(&json).expect("JSON") + "\n";
            std::fs::write(to.join(format!("{name}.json")), text).expect("write a twin");
        } else {
            std::fs::copy(&path, to.join(&name)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
}

/// The twin of one `.tf` file, or why it could not be made.
pub fn file(hcl: &str) -> Result<Value, String> {
    let body = hcl::parse(hcl).map_err(|e| e.to_string())?;
    let mut out = Map::new();
    for structure in body.iter() {
        match structure {
            Structure::Attribute(a) => {
                out.insert(a.key.to_string(), expression(&a.expr)?);
            }
            Structure::Block(b) => {
                let kind = b.identifier.as_str();
                let body = block_body(&b.body, kind == "variable")?;
                match kind {
                    "locals" => {
                        let locals = out.entry("locals").or_insert_with(|| Value::Object(Map::new()));
                        if let (Some(locals), Value::Object(body)) = (locals.as_object_mut(), body) {
                            locals.extend(body);
                        }
                    }
                    "terraform" => {
                        let blocks = out.entry("terraform").or_insert_with(|| Value::Array(Vec::new()));
                        if let Some(blocks) = blocks.as_array_mut() {
                            blocks.push(body);
                        }
                    }
                    _ => {
                        let mut slot = out.entry(kind).or_insert_with(|| Value::Object(Map::new()));
                        for label in &b.labels {
                            slot = slot
                                .as_object_mut()
                                .expect("labels nest objects")
                                .entry(label.as_str())
                                .or_insert_with(|| Value::Object(Map::new()));
                        }
                        *slot = body;
                    }
                }
            }
        }
    }
    Ok(Value::Object(out))
}

/// A block's body: its attributes, and each nested block kind as an array
/// of bodies (a labelled nested block, such as `dynamic "x"`, as an
/// object of its label).
fn block_body(body: &Body, variable: bool) -> Result<Value, String> {
    let mut out = Map::new();
    for structure in body.iter() {
        match structure {
            Structure::Attribute(a) if variable && a.key.as_str() == "type" => {
                out.insert(
                    a.key.to_string(),
                    Value::String(hcl::format::to_string(&a.expr).map_err(|e| e.to_string())?),
                );
            }
            Structure::Attribute(a) => {
                out.insert(a.key.to_string(), expression(&a.expr)?);
            }
            Structure::Block(b) => {
                let mut value = block_body(&b.body, false)?;
                for label in b.labels.iter().rev() {
                    value = Value::Object(Map::from_iter([(label.as_str().to_string(), value)]));
                }
                let blocks = out.entry(b.identifier.as_str()).or_insert_with(|| Value::Array(Vec::new()));
                if let Some(blocks) = blocks.as_array_mut() {
                    blocks.push(value);
                }
            }
        }
    }
    Ok(Value::Object(out))
}

/// A literal as itself; anything else as the `"${...}"` template Terraform
/// JSON reads as that expression.
fn expression(expr: &hcl::Expression) -> Result<Value, String> {
    serde_json::to_value(hcl::Value::from(expr.clone())).map_err(|e| e.to_string())
}
