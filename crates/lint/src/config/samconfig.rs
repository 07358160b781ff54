//! The SAM CLI's configuration file (`samconfig.toml`, `.yaml` or
//! `.yml`): the Parameter values `sam deploy --config-env ENV` would
//! deploy with. A file holds environments (`default` unless named), each
//! with its commands' `parameters`; `global.parameters` apply to every
//! command, and the `deploy` command's win over them:
//!
//! ```toml
//! [prod.deploy.parameters]
//! parameter_overrides = "Timeout=900 Env=prod"   # or ["Timeout=900", "Env=prod"]
//! ```

use std::path::Path;

use serde_json::Value as Json;

use sqsguard_finding::error::Error;
use sqsguard_frontend::stage::{Given, sam_override, sam_overrides};

/// The environment `sam` reads without `--config-env`.
pub const DEFAULT_ENV: &str = "default";

/// The `parameter_overrides` of environment `env` in `path`, global ones
/// first. Any problem (no such file, a file that does not parse, no such
/// environment, a value that is no `Key=Value`) is an error of one line.
pub fn parameter_overrides(path: &Path, env: &str) -> Result<Vec<Given>, Error> {
    let text = sqsguard_source::read_named(path).map_err(|e| Error::io(path, e))?;
    let unusable = |message: String| Error::Unusable { path: path.to_path_buf(), message };
    let doc = parse(path, &text).map_err(unusable)?;
    let Some(environment) = doc.get(env) else {
        let mut known: Vec<&str> = doc
            .as_object()
            .map(|o| o.keys().map(String::as_str).filter(|k| *k != "version").collect())
            .unwrap_or_default();
        known.sort_unstable();
        let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        return Err(unusable(format!("no environment `{env}` (--config-env); the file has: {known}")));
    };
    let from = format!("{} ({env})", path.display());
    let mut out = Vec::new();
    for command in ["global", "deploy"] {
        let Some(value) =
            environment.get(command).and_then(|c| c.get("parameters")).and_then(|p| p.get("parameter_overrides"))
        else {
            continue;
        };
        let words = match value {
            Json::String(s) => sam_overrides(s, &from),
            Json::Array(items) => items
                .iter()
                .map(|item| match item {
                    Json::String(s) => sam_override(s, &from),
                    other => Err(format!("{from}: parameter_overrides holds {other}, not a \"Key=Value\" string")),
                })
                .collect(),
            other => Err(format!("{from}: parameter_overrides is {other}, not a string or a list of \"Key=Value\"")),
        };
        out.extend(words.map_err(Error::Usage)?);
    }
    Ok(out)
}

/// The file as plain data: TOML, or YAML for `.yaml`/`.yml`.
fn parse(path: &Path, text: &str) -> Result<Json, String> {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        let file = sqsguard_source::SourceFile::new(path.to_path_buf(), text.to_string());
        let root = sqsguard_syntax::yaml::parse(&file).map_err(|e| {
            let at = file.location(e.span);
            format!("line {}: {} (it is read as YAML)", at.line, e.message)
        })?;
        return Ok(json_of(&root));
    }
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let what = e.message().trim_end_matches('.').to_string();
        match e.span() {
            Some(span) => {
                let line = text.get(..span.start).unwrap_or(text).matches('\n').count() + 1;
                format!("line {line}: {what} (it is read as TOML)")
            }
            None => format!("{what} (it is read as TOML)"),
        }
    })?;
    serde_json::to_value(table).map_err(|e| e.to_string())
}

/// A YAML tree as plain data (scalars as strings: only strings are read).
fn json_of(node: &sqsguard_syntax::Node) -> Json {
    use sqsguard_syntax::Kind;
    match &node.kind {
        Kind::Null => Json::Null,
        Kind::Bool(b) => Json::Bool(*b),
        Kind::Number(n) | Kind::String(n) => Json::String(n.clone()),
        Kind::Seq(items) => Json::Array(items.iter().map(json_of).collect()),
        Kind::Map(entries) => Json::Object(entries.iter().map(|e| (e.key.clone(), json_of(&e.value))).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overrides(name: &str, text: &str, env: &str) -> Result<Vec<(String, String)>, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        parameter_overrides(&path, env)
            .map(|g| g.into_iter().map(|g| (g.key, g.value)).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn global_then_deploy_in_toml_and_yaml() {
        let toml = "version = 0.1\n[prod.global.parameters]\nparameter_overrides = \"Env=prod Timeout=3\"\n[prod.deploy.parameters]\nparameter_overrides = [\"Timeout=900\"]\n";
        let p = |k: &str, v: &str| (k.to_string(), v.to_string());
        assert_eq!(
            overrides("samconfig.toml", toml, "prod").unwrap(),
            [p("Env", "prod"), p("Timeout", "3"), p("Timeout", "900")]
        );
        let yaml = "version: 0.1\ndefault:\n  deploy:\n    parameters:\n      parameter_overrides: Timeout=60\n";
        assert_eq!(overrides("samconfig.yaml", yaml, "default").unwrap(), [p("Timeout", "60")]);
    }

    #[test]
    fn problems_are_one_line_each() {
        let e = overrides("samconfig.toml", "[default.deploy.parameters]\n", "prod").unwrap_err();
        assert!(e.ends_with("no environment `prod` (--config-env); the file has: default"), "{e}");
        let e = overrides("samconfig.toml", "[default\n", "default").unwrap_err();
        assert!(e.contains("line 1: ") && e.contains("TOML") && !e.contains('\n'), "{e}");
        let e =
            overrides("samconfig.toml", "[default.deploy.parameters]\nparameter_overrides = \"Timeout\"\n", "default")
                .unwrap_err();
        assert!(e.ends_with("Timeout: expected KEY=VALUE"), "{e}");
    }
}
