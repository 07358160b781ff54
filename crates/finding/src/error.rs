//! What can fail, as one type. The commands return it; only `cli` turns it
//! into words on stderr and an exit status, so every failure is said the
//! same way, once.

use std::path::PathBuf;

use crate::Finding;
use sqsguard_source::{Source, Span};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file or folder that had to be read or written, and why it could
    /// not be.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A config or baseline that is not one: every problem, located.
    #[error("{}: {what}", file.path.display())]
    Invalid { what: &'static str, file: Source, problems: Vec<(Span, String)> },
    /// A file that is not what it should be, in one sentence.
    #[error("{}: {message}", path.display())]
    Unusable { path: PathBuf, message: String },
    /// The command line asks for something that cannot be done.
    #[error("{0}")]
    Usage(String),
    /// The spec is invalid: located diagnostics, then a sentence.
    #[error("{}", message.as_deref().unwrap_or("the spec is invalid"))]
    Spec { findings: Vec<Finding>, message: Option<String> },
    /// The spec would break a rule, or the generated output fails its own
    /// lint: the rules' findings, then a sentence.
    #[error("{}", message.as_deref().unwrap_or("refused"))]
    Refused { findings: Vec<Finding>, message: Option<String> },
    /// AWS cannot be reached at all (no endpoint, no credentials, no Region).
    #[error("{0}")]
    Aws(String),
}

impl Error {
    /// The exit status docs/generate.md gives it: 1 for a refusal (the spec breaks a
    /// rule), 2 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Refused { .. } => 1,
            _ => 2,
        }
    }

    /// Located diagnostics to show before the one-line message, if any.
    pub fn findings(&self) -> &[Finding] {
        match self {
            Error::Spec { findings, .. } | Error::Refused { findings, .. } => findings,
            _ => &[],
        }
    }

    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}
