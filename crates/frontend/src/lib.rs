//! The front-ends: each reads one kind of input into the shared
//! [`Model`], in one function that returns a [`Loaded`].
//!
//! - [`cfn`]: a CloudFormation or SAM template (YAML or JSON);
//! - [`serverless`]: a Serverless Framework service;
//! - [`terraform`]: a folder of `.tf` files (one module, with the local
//!   and registry modules it calls), and [`terraform::plan`]: plan JSON;
//! - [`live`]: what the audit read from an AWS account.
//!
//! This file is the dispatcher only: which front-end reads which file.
//! What the front-ends share is in files of its own, which they import
//! (never this one): what a front-end gives ([`loaded`]), the resolved
//! value type ([`value`]), conversions to typed values ([`convert`]),
//! linking references to queues and functions ([`link`]), reading
//! attributes with their alternatives ([`fields`]), finding dead-letter targets
//! ([`dead_letter`]), policy documents ([`policy`]), producers
//! ([`producer`]) and suppression comments ([`comment`]). The trees they
//! parsed go to the edit layer ([`sqsguard_edit::Writer`]).

pub(crate) mod cfn;

pub mod comment;
pub(crate) mod convert;
pub(crate) mod dead_letter;
pub(crate) mod fields;
pub(crate) mod link;
pub mod live;
mod live_fields;
pub mod live_key;
pub mod loaded;
pub(crate) mod policy;
pub(crate) mod producer;
pub mod serverless;
pub mod stage;
pub mod terraform;
pub(crate) mod value;

pub use loaded::{Broken, Loaded};

use sqsguard_source::{Source, Span};
use sqsguard_syntax::{self as syntax, Node};

/// A front-end that reads a file's text itself (a plan, too large for a
/// tree): `None` when it is not its kind, `Some(Err)` when it is and
/// cannot be read.
type TextReader = fn(&Source) -> Option<Result<Loaded, Broken>>;

/// A front-end that reads one parsed document, `None` when the document
/// is not its kind.
type DocumentReader = fn(&Source, &Node, &stage::Stage) -> Option<Loaded>;

/// The front-ends for single files, tried in order: a new one is one line
/// here.
const TEXT_READERS: &[TextReader] = &[terraform::plan::load];
const DOCUMENT_READERS: &[DocumentReader] = &[serverless::load, cfn::load];

/// What one YAML or JSON file is.
pub enum Document {
    Loaded(Box<Loaded>),
    /// Parsed, but no front-end's kind (a workflow, a k8s manifest).
    Other,
    /// It does not parse.
    Unparsable(syntax::ParseError),
    /// A front-end knows its kind and cannot read it (a truncated plan).
    Broken(Broken),
}

/// Read `file` with the first front-end that knows its kind: those that
/// read text first, then (parsed as JSON or YAML, by extension or
/// content) those that read a tree, with the values of `stage`.
pub fn document(file: &Source, stage: &stage::Stage) -> Document {
    document_in(file, stage, &sqsguard_source::Overlay::default())
}

/// [`document`], with what `overlay` keeps across runs: an editor's large
/// YAML template is parsed a piece at a time, only the pieces it changed.
pub fn document_in(file: &Source, stage: &stage::Stage, overlay: &sqsguard_source::Overlay) -> Document {
    for read in TEXT_READERS {
        match read(file) {
            Some(Ok(loaded)) => return Document::Loaded(Box::new(loaded)),
            Some(Err(broken)) => return Document::Broken(broken),
            None => {}
        }
    }
    // What is not a plan is a template: past its limit, not parsed.
    let size = file.size() as u64;
    if size > sqsguard_source::MAX_TEMPLATE_BYTES {
        let message = sqsguard_source::too_large(size);
        return Document::Unparsable(syntax::ParseError { message, span: Span::new(0, 0) });
    }
    let parsed = if syntax::is_json(&file.path, &file.text) {
        syntax::json::parse(file)
    } else {
        syntax::yaml::parse_in_pieces(file, overlay)
    };
    let root = match parsed {
        Ok(root) => root,
        Err(e) => return Document::Unparsable(e),
    };
    match DOCUMENT_READERS.iter().find_map(|read| read(file, &root, stage)) {
        Some(mut loaded) => {
            loaded.writer = sqsguard_edit::Writer::template(file, root);
            Document::Loaded(Box::new(loaded))
        }
        None => Document::Other,
    }
}
