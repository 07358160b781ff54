//! Values written as literals of the generated formats: YAML flow values
//! and HCL values and string contents, each escaped so that no value can
//! become a boolean, a tag, an interpolation or a directive. The plan uses
//! them for the text it computes, the templates' helpers for the rest.

use serde_json::Value;

/// Text for inside an HCL quoted string or comment: quotes, backslashes,
/// newlines, `${` and `%{` escaped.
pub(crate) fn hcl_inner(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted[1..quoted.len() - 1].replace("${", "$${").replace("%{", "%%{")
}

/// A YAML flow value. Strings are always double-quoted (JSON escapes are
/// valid YAML), so no string can turn into a boolean, a number or a tag.
pub(crate) fn yaml(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// An HCL value: strings quoted with `${` and `%{` escaped so a value can
/// never become an interpolation or a directive.
pub(crate) fn hcl(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let quoted = serde_json::to_string(s).unwrap_or_default();
            quoted.replace("${", "$${").replace("%{", "%%{")
        }
        Value::Array(items) => format!("[{}]", items.iter().map(hcl).collect::<Vec<_>>().join(", ")),
        Value::Object(map) if map.is_empty() => "{}".to_string(),
        Value::Object(map) => {
            let entries: Vec<String> =
                map.iter().map(|(k, v)| format!("{} = {}", hcl(&Value::String(k.clone())), hcl(v))).collect();
            format!("{{ {} }}", entries.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_strings_stay_strings() {
        for s in ["yes", "on", "012", "1:20", "null", "~", "- x", "a: b", "#c", "!Ref X", "*a"] {
            let out = yaml(&Value::String(s.into()));
            let file = sqsguard_source::SourceFile::new("t.yaml", format!("k: {out}\n"));
            let node = sqsguard_syntax::yaml::parse(&file).unwrap();
            assert_eq!(node.get("k").and_then(|n| n.as_str()), Some(s), "{s} came back as {:?}", node.get("k"));
        }
    }

    #[test]
    fn hcl_strings_cannot_interpolate() {
        assert_eq!(hcl(&Value::String("${var.x} %{if}".into())), r#""$${var.x} %%{if}""#);
        assert_eq!(hcl(&serde_json::json!({"team": "sre"})), r#"{ "team" = "sre" }"#);
    }
}
