//! One run of `lint`, ready to go: what the command line resolved before
//! anything is read (as ripgrep turns parsed arguments into a ready
//! object), handed to the commands. The settings of `.sqsguard.yaml` stay
//! in [`Config`]: one for every file (`--config`, an editor's document,
//! a library's caller), or each file's nearest (`sqsguard lint` without
//! `--config`), resolved as the lint meets the files; what belongs to this run alone (the paths, variables
//! files, the stage, texts that stand in for files, the baseline, the fix
//! mode) is here. An editor server keeps one per workspace, with the
//! editor's unsaved texts as its overlay.

use std::path::PathBuf;

use crate::baseline::Baseline;
use crate::config::{Config, Stage};
use sqsguard_rules::Filter;
use sqsguard_source::Overlay;

/// One run's settings and inputs.
#[derive(Clone, Debug, Default)]
pub struct Session {
    /// The config of every file when `nearest` is `None`:
    /// `.sqsguard.yaml` (or the defaults), with the command line's
    /// `--select` and `--ignore` applied.
    pub config: Config,
    /// `Some`: each file is governed by its nearest `.sqsguard.yaml`
    /// (`crate::config::nearest`), with the command line's `--select` and
    /// `--ignore` (these) over it, and `config` is not used.
    pub nearest: Option<Filter>,
    pub inputs: Inputs,
    /// `--baseline`: findings it records are reported as baselined, and
    /// never fixed.
    pub baseline: Option<Baseline>,
    pub fix: FixMode,
}

/// What a run reads.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    /// The files and folders named.
    pub paths: Vec<PathBuf>,
    /// `--var-file`: Terraform variable values, after the module's own
    /// `terraform.tfvars` and `*.auto.tfvars`.
    pub var_files: Vec<PathBuf>,
    /// The stage or environment: `--stage`, `--param`, the Parameter
    /// values of `--samconfig` and `--parameter-overrides`. Without a
    /// name, the `stage:` of the config that governs a file names it.
    pub stage: Stage,
    /// Texts read in place of files' contents: the fixed texts of earlier
    /// passes of `--fix`, an editor's unsaved buffers.
    pub overlay: Overlay,
    /// `--no-code`: read the templates only, not the handlers and SDK
    /// calls of their code.
    pub no_code: bool,
    /// `--no-cdk-source`: keep a CDK app's findings in its synthesized
    /// templates rather than at the constructs of its source.
    pub no_cdk_source: bool,
    /// The CDK apps the run has read, each once ([`sqsguard_cdk`]).
    pub cdk: std::sync::Arc<sqsguard_cdk::Apps>,
    /// An editor's workspace folder: outside a git repository, where the
    /// templates of a handler are looked for up to.
    pub workspace: Option<PathBuf>,
}

/// What `lint` does with the fixes its findings carry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FixMode {
    /// Report them (marked fixable).
    #[default]
    Report,
    /// `--fix`: write them.
    Write { unsafe_fixes: bool },
    /// `--diff`: print them as a diff, write nothing.
    Diff { unsafe_fixes: bool },
}

impl FixMode {
    /// Whether unsafe fixes are applied too (`--unsafe-fixes`).
    pub(crate) fn unsafe_fixes(self) -> bool {
        match self {
            FixMode::Report => false,
            FixMode::Write { unsafe_fixes } | FixMode::Diff { unsafe_fixes } => unsafe_fixes,
        }
    }
}

impl Inputs {
    /// The stage a file governed by `config` is linted with: the one
    /// named here, else the config's `stage:`.
    pub(crate) fn stage_for(&self, config: &Config) -> std::borrow::Cow<'_, Stage> {
        if self.stage.name.is_some() || config.stage.name.is_none() {
            return std::borrow::Cow::Borrowed(&self.stage);
        }
        let mut stage = self.stage.clone();
        (stage.name, stage.named_in) = (config.stage.name.clone(), config.stage.named_in.clone());
        std::borrow::Cow::Owned(stage)
    }
}

impl Session {
    /// A session that lints `paths` with `config` and nothing else given.
    pub fn of(paths: &[PathBuf], config: &Config) -> Session {
        let inputs = Inputs { paths: paths.to_vec(), stage: config.stage.clone(), ..Inputs::default() };
        Session { config: config.clone(), inputs, ..Session::default() }
    }
}
