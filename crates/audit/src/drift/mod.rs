//! `sqsguard drift`: the templates' model joined with the live account's,
//! read-only as the audit.
//!
//! The templates are read by the front-ends as `lint` reads them, the
//! account by the audit (with its models kept). [`stack`] pairs the
//! resources of the templates `--stack` holds with the live ones by the
//! stack's physical IDs; [`join`] pairs the others by name: the
//! template's name when it is written, a pattern when only part of it is
//! (`${AWS::StackName}-jobs`), and CloudFormation's `STACK-LogicalId-RANDOM`
//! when it is generated, with mappings paired through their queues.
//! [`compare`] makes an SQS105 for each setting the rules read that
//! differs, at the template's value, with both values ([`names`] says what
//! the live resources are called).
//! What is on one side only, or cannot be joined or compared, is a note:
//! never silence; what the audit could not read is said so ([`unread`]),
//! not taken for missing, and blinds SQS105 where drift compares it. The audit's own findings (the rules on the live values)
//! are kept, so a right template over a wrong estate still fails.

mod compare;
mod join;
mod names;
mod stack;
mod unread;
mod wanted;

use std::path::{Path, PathBuf};

use sqsguard_finding::Note;
use sqsguard_finding::error::Error;
use sqsguard_frontend::{self as frontend, Document, Loaded};
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::{Model, Origin};

/// What `drift` is asked.
pub struct Request<'a> {
    /// Template files, and Terraform module folders.
    pub paths: &'a [PathBuf],
    /// CloudFormation stack names the templates are deployed as.
    pub stacks: &'a [String],
    /// How to read the account (its models are kept whatever this says).
    pub audit: crate::Options,
}

/// Run it. `Err` is what stops an audit (AWS unreachable, no Region).
pub fn run(req: Request<'_>) -> Result<Outcome, Error> {
    let mut notes = Vec::new();
    let mut unread = Vec::new();
    let mut templates: Vec<Model> = Vec::new();
    for path in req.paths {
        match template(path, &mut notes) {
            Some(model) => templates.push(model),
            // Named and not compared: the run fails, as lint's does.
            None => unread.push(sqsguard_source::display_path(path)),
        }
    }
    let mut opts = req.audit;
    opts.keep_models = true;
    // First: a stack that cannot be listed stops the run before the audit.
    let stacks = if req.stacks.is_empty() { Vec::new() } else { crate::stacks::stack_resources(&opts, req.stacks)? };
    let audit = crate::run(&opts)?;
    let mut outcome = audit.outcome;
    unread::blind_sqs105(&mut outcome.unaudited);
    let mut joined = join::Joined::new(&templates, &audit.models);
    joined.unread = unread::Unread::of(&outcome.unaudited, &audit.skipped);
    stack::join(&mut joined, &stacks);
    join::join(&mut joined);
    outcome.notes.extend(joined.notes.iter().cloned());
    let mut out =
        compare::Out { findings: &mut outcome.findings, notes: &mut outcome.notes, functions: Default::default() };
    for pair in &joined.queues {
        compare::queue(pair, &joined, &mut out);
    }
    for pair in &joined.consumers {
        compare::consumer(pair, &joined, &mut out);
    }
    outcome.notes.extend(notes);
    outcome.unlinted.extend(unread);
    // SQS105 is chosen away like any rule (`--select`, `--ignore`, the config).
    let settings = &opts.settings;
    outcome.findings.retain(|f| settings.filter.keeps(f.code()));
    for f in &mut outcome.findings {
        f.severity = settings.severity_of(f.code(), f.severity);
    }
    outcome.files += templates.len();
    outcome.finish();
    Ok(outcome)
}

/// The model of one template file or Terraform folder; `None`, with a
/// note, when it is neither (drift never passes over a path quietly).
fn template(path: &Path, notes: &mut Vec<Note>) -> Option<Model> {
    let mut not_read = |why: String| {
        notes.push(Note { origin: Origin::path(path), message: format!("not compared: {why}") });
        None
    };
    if path.is_dir() {
        let loaded = frontend::terraform::load_module(path, &[], &Default::default());
        return model_of(loaded, path, notes);
    }
    let file = match sqsguard_source::read(path) {
        Ok(file) => file,
        Err(e) => return not_read(e.message),
    };
    match frontend::document(&file, &Default::default()) {
        Document::Loaded(loaded) => model_of(*loaded, path, notes),
        Document::Broken(b) => not_read(b.message),
        Document::Unparsable(e) => not_read(format!("it does not parse ({})", e.message)),
        Document::Other => not_read("no CloudFormation or SAM template, Serverless service or Terraform".into()),
    }
}

fn model_of(loaded: Loaded, path: &Path, notes: &mut Vec<Note>) -> Option<Model> {
    if let Some(b) = loaded.broken.first() {
        notes.push(Note { origin: Origin::path(path), message: format!("not compared: {}", b.message) });
        return None;
    }
    notes.extend(loaded.notes);
    Some(loaded.model)
}
