//! What a front-end gives: the model, and what came with it.

use std::path::PathBuf;

use super::comment;
use sqsguard_finding::Note;
use sqsguard_model::{Model, Suppression};
use sqsguard_source::{Source, Span};

/// The model one front-end read, and what came with it.
#[derive(Debug, Default)]
pub struct Loaded {
    pub model: Model,
    /// Suppressions written in its files (comments) or declared in its
    /// data (CloudFormation Metadata).
    pub suppressions: Vec<Suppression>,
    /// Things worth knowing that are not findings (a module that was not
    /// analysed).
    pub notes: Vec<Note>,
    /// Files that look like infrastructure but could not be read or parsed.
    pub broken: Vec<Broken>,
    /// Every file read (as given), broken ones included.
    pub files: Vec<PathBuf>,
    /// Terraform: the local module folders called (canonical paths), which
    /// were linted through this caller; Serverless: the files a service
    /// includes with `${file(...)}` that are no service of their own.
    pub called: Vec<PathBuf>,
    /// CloudFormation: the keys of the run's Parameter values
    /// ([`stage::Stage::overrides`]) this template declares.
    pub parameters: Vec<String>,
    /// The trees of the files read, for the fixes of the findings.
    pub writer: sqsguard_edit::Writer,
}

/// A file that could not be read or parsed, and where reading stopped.
#[derive(Clone, Debug)]
pub struct Broken {
    pub file: Source,
    pub span: Span,
    pub message: String,
}

/// The model of one document front-end, with the suppression comments of
/// its file.
pub(crate) fn loaded_from(file: &Source, model: Model, mut suppressions: Vec<Suppression>) -> Loaded {
    suppressions.extend(comment::scan(file));
    Loaded { model, suppressions, files: vec![file.path.clone()], ..Loaded::default() }
}
