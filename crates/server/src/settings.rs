//! What the editor sets (`initializationOptions`, then each
//! `workspace/didChangeConfiguration`) and the `.sqsguard.yaml` nearest
//! each document: together, the [`Session`] a check of that document runs
//! with, as the command line makes one for `lint`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use sqsguard_finding::error::Error;
use sqsguard_lint::config::{self, Config};
use sqsguard_lint::session::{FixMode, Inputs, Session};
use sqsguard_rules as rules;
use sqsguard_source::Overlay;

/// The editor's settings, as `lint`'s flags of the same names.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct Settings {
    /// `--select`: replaces the config's.
    pub(super) select: Vec<String>,
    /// `--ignore`: added to the config's.
    pub(super) ignore: Vec<String>,
    /// `--unsafe-fixes`: "fix all" applies unsafe fixes too (each one is
    /// offered as a quick fix, labelled, either way).
    pub(super) unsafe_fixes: bool,
    /// `--var-file`, relative to the workspace's folder.
    pub(super) var_files: Vec<PathBuf>,
    /// `--stage`.
    pub(super) stage: Option<String>,
}

impl Settings {
    /// The settings in `value`: `{"select": ...}`, or the same under a
    /// `sqsguard` key (what clients send for a configuration section).
    /// `None` for no settings at all (a `null`); an error names what is
    /// wrong, and the settings before stay.
    pub(super) fn from_value(value: &serde_json::Value) -> Result<Option<Settings>, String> {
        let value = value.get("sqsguard").unwrap_or(value);
        if value.is_null() {
            return Ok(None);
        }
        let settings: Settings =
            serde_json::from_value(value.clone()).map_err(|e| format!("sqsguard: the settings are not valid: {e}"))?;
        for selector in settings.select.iter().chain(&settings.ignore) {
            if !rules::selects_any(selector) {
                return Err(format!("sqsguard: the settings name `{selector}`, which matches no rule code"));
            }
        }
        Ok(Some(settings))
    }
}

/// The configs met so far, by the `.sqsguard.yaml` that governs a folder
/// (`None`: none does), each read once until a config changes.
#[derive(Default)]
pub(super) struct Configs {
    read: HashMap<Option<PathBuf>, Result<Config, ConfigProblem>>,
    /// The folder each config was looked for from, and what was found.
    found: HashMap<PathBuf, Option<PathBuf>>,
}

/// A `.sqsguard.yaml` that could not be used: its problems, located, for
/// a diagnostic on it. The defaults govern meanwhile.
#[derive(Clone, Debug)]
pub(super) struct ConfigProblem {
    pub(super) path: PathBuf,
    pub(super) error: std::sync::Arc<Error>,
}

impl Configs {
    /// Forget every config read (one changed, or one was made or deleted).
    pub(super) fn clear(&mut self) {
        self.read.clear();
        self.found.clear();
    }

    /// The config governing `path`: the nearest `.sqsguard.yaml` in its
    /// folder or above, its unsaved text when it is open.
    pub(super) fn of(&mut self, path: &Path, overlay: &Overlay) -> &Result<Config, ConfigProblem> {
        let folder = path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        let found = self.found.entry(folder.clone()).or_insert_with(|| nearest(&folder, overlay)).clone();
        self.read.entry(found.clone()).or_insert_with(|| match &found {
            None => Ok(Config::default()),
            Some(file) => {
                let read = match overlay.read(file) {
                    Ok(source) => config::load_text(file, source.text.clone()),
                    Err(_) => config::load(file),
                };
                read.map_err(|e| ConfigProblem { path: file.clone(), error: std::sync::Arc::new(e) })
            }
        })
    }

    /// Every config that could not be used.
    pub(super) fn problems(&self) -> impl Iterator<Item = &ConfigProblem> {
        self.read.values().filter_map(|r| r.as_ref().err())
    }
}

/// The `.sqsguard.yaml` in `folder` or the nearest folder above it (up to
/// the repository's root, as `lint` looks), on disk or open in the editor.
fn nearest(folder: &Path, overlay: &Overlay) -> Option<PathBuf> {
    config::nearest(folder, |p| overlay.holds(p) || p.is_file())
}

/// Whether `path` is a config file.
pub(super) fn is_config(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == config::FILE_NAME)
}

/// The session that checks `path`: its config with the editor's settings
/// over it, the open texts, and the fix mode asked for.
pub(super) fn session(
    path: &Path,
    config: &Config,
    settings: &Settings,
    root: Option<&Path>,
    overlay: Overlay,
    fix: FixMode,
) -> Session {
    let cli = sqsguard_rules::Filter { select: settings.select.clone(), ignore: settings.ignore.clone() };
    let config = config.clone().overridden(&cli);
    let mut stage = config.stage.clone();
    if let Some(name) = &settings.stage {
        stage.name = Some(name.clone());
        stage.named_in = None;
    }
    let var_files = settings
        .var_files
        .iter()
        .map(|f| match root {
            Some(root) if f.is_relative() => root.join(f),
            _ => f.clone(),
        })
        .collect();
    let workspace = root.map(Path::to_path_buf);
    // A synthesized template's findings go to the constructs of its app's
    // source, as lint's do: the files the user edits.
    let inputs = Inputs {
        paths: vec![path.to_path_buf()],
        var_files,
        stage,
        overlay,
        no_code: false,
        workspace,
        ..Inputs::default()
    };
    Session { config, nearest: None, inputs, baseline: None, fix }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_flat_or_under_the_section_and_checked() {
        let flat = serde_json::json!({"ignore": ["SQS001"], "unsafeFixes": true});
        let under = serde_json::json!({"sqsguard": {"ignore": ["SQS001"], "unsafeFixes": true}});
        let want = Settings { ignore: vec!["SQS001".into()], unsafe_fixes: true, ..Settings::default() };
        assert_eq!(Settings::from_value(&flat), Ok(Some(want.clone())));
        assert_eq!(Settings::from_value(&under), Ok(Some(want)));
        assert_eq!(Settings::from_value(&serde_json::Value::Null), Ok(None));
        let bad = Settings::from_value(&serde_json::json!({"select": ["SQS999"]}));
        assert!(bad.unwrap_err().contains("SQS999"));
        assert!(Settings::from_value(&serde_json::json!({"select": "SQS001"})).is_err());
    }
}
