//! Laying a [`Plan`] out through the handlebars templates in `templates/`.
//!
//! Templates hold layout only. Every value reaches the output through a
//! format-aware helper that serializes it with a real serializer — `yaml`
//! (double-quoted JSON strings, which YAML 1.1 and 1.2 both read as strings,
//! so `yes`, `on` or `012` stay strings), `json`, `hcl` (HCL strings with
//! `${` and `%{` escaped) — and strict mode turns a misspelt field into an
//! error instead of an empty string. HTML escaping is off.

use std::path::Path;

use handlebars::{
    Context, Handlebars, Helper, HelperDef, HelperResult, Output as HbOutput, RenderContext, RenderErrorReason,
};
use serde_json::Value;

use super::literal::{hcl, hcl_inner, yaml};
use super::plan::Plan;

/// A template and the file it renders to.
pub struct Output {
    pub name: String,
    pub text: String,
}

/// (template name, built-in text).
const BUILTIN: &[(&str, &str)] = &[
    ("cloudformation.yaml", include_str!("../../../templates/cloudformation.yaml.hbs")),
    ("main.tf", include_str!("../../../templates/terraform/main.tf.hbs")),
    ("variables.tf", include_str!("../../../templates/terraform/variables.tf.hbs")),
    ("outputs.tf", include_str!("../../../templates/terraform/outputs.tf.hbs")),
];

/// The templates: built in, or `NAME.hbs` files of `dir` where present.
pub(crate) fn registry(dir: Option<&Path>) -> Result<Handlebars<'static>, String> {
    let mut hb = Handlebars::new();
    hb.set_strict_mode(true);
    hb.register_escape_fn(handlebars::no_escape);
    for s in SERIALIZERS {
        hb.register_helper(s.name, Box::new(Serializer { name: s.name, write: s.write }));
    }
    for (name, text) in BUILTIN {
        let custom = dir.map(|d| d.join(format!("{name}.hbs"))).filter(|p| p.is_file());
        let text = match custom {
            Some(path) => sqsguard_source::read_named(&path).map_err(|e| format!("{}: {e}", path.display()))?,
            None => (*text).to_string(),
        };
        hb.register_template_string(name, text).map_err(|e| format!("template {name}: {e}"))?;
    }
    Ok(hb)
}

pub(crate) fn render(hb: &Handlebars<'_>, template: &str, plan: &Plan) -> Result<String, String> {
    hb.render(template, plan).map_err(|e| format!("template {template}: {e}"))
}

/// The JSON form of a rendered CloudFormation YAML template: the same
/// document (short tags in their long form), so the two never drift apart.
pub(crate) fn cloudformation_json(yaml_text: &str) -> Result<String, String> {
    let file = sqsguard_source::SourceFile::new("cloudformation.yaml", yaml_text.to_string());
    let root =
        sqsguard_syntax::yaml::parse(&file).map_err(|e| format!("the rendered template is not YAML: {}", e.message))?;
    let mut text = serde_json::to_string_pretty(&sqsguard_syntax::schema::to_json(&root)).map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

/// The helper's argument. A field that does not exist is an error (strict
/// mode does not cover helper arguments by itself): a misspelt name in a
/// template must not print `null`.
fn param<'a>(h: &'a Helper<'_>, name: &'static str) -> Result<&'a Value, RenderErrorReason> {
    let p = h.param(0).ok_or(RenderErrorReason::ParamNotFoundForIndex(name, 0))?;
    if p.is_value_missing() {
        return Err(RenderErrorReason::MissingVariable(p.relative_path().cloned()));
    }
    Ok(p.value())
}

/// A helper that writes its one argument through a serializer.
struct Serializer {
    name: &'static str,
    write: fn(&Value) -> String,
}

impl HelperDef for Serializer {
    fn call<'reg: 'rc, 'rc>(
        &self,
        h: &Helper<'rc>,
        _: &'reg Handlebars<'reg>,
        _: &'rc Context,
        _: &mut RenderContext<'reg, 'rc>,
        out: &mut dyn HbOutput,
    ) -> HelperResult {
        out.write(&(self.write)(param(h, self.name)?))?;
        Ok(())
    }
}

/// `yaml`, `json`, `hcl` (a whole HCL value) and `hcl_inner` (text inside
/// an HCL string).
const SERIALIZERS: &[Serializer] = &[
    Serializer { name: "yaml", write: yaml },
    Serializer { name: "json", write: |v| serde_json::to_string(v).unwrap_or_default() },
    Serializer { name: "hcl", write: hcl },
    Serializer { name: "hcl_inner", write: |v| hcl_inner(v.as_str().unwrap_or_default()) },
];
