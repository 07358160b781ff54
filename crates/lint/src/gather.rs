//! One [`Outcome`] from the jobs' results: their findings, notes and
//! files, a module another module calls counted once (through its
//! caller), and the fixes `--fix` would refuse to write taken off.

use std::collections::HashSet;
use std::path::PathBuf;

use super::file::Done;
use super::writable::unwritable;
use crate::check::{self, Key};
use crate::outcome::Outcome;
use crate::session::Session;
use sqsguard_finding::Note;

/// The outcome of the jobs' results.
pub(super) fn outcome(
    walked: impl Iterator<Item = (Note, Option<String>)>,
    results: impl Iterator<Item = (Option<PathBuf>, Done)>,
    session: &Session,
) -> Outcome {
    let stage = &session.inputs.stage;
    let mut outcome = Outcome::default();
    for (note, named) in walked {
        outcome.unlinted.extend(named);
        outcome.notes.push(note);
    }
    let results: Vec<(Option<PathBuf>, Done)> = results.collect();
    // A module folder that another module of the walk calls was linted as
    // part of its caller, with the caller's arguments: don't lint it again
    // on its own (its variables would mostly be unknown). So was a file a
    // Serverless service includes, with the service's variables.
    let called: HashSet<PathBuf> = results.iter().flat_map(|(_, r)| r.called.iter().cloned()).collect();
    let (mut used, mut unused): (Vec<Key>, Vec<(Key, Note)>) = (Vec::new(), Vec::new());
    let declared: HashSet<&str> = results.iter().flat_map(|(_, r)| r.parameters.iter().map(String::as_str)).collect();
    outcome.undeclared = stage.overrides.iter().filter(|g| !declared.contains(g.key.as_str())).cloned().collect();
    // One allocation for every job's findings and files: grown job by job,
    // a run of thousands of templates copied them over and over.
    outcome.findings.reserve(results.iter().map(|(_, d)| d.checked.findings.len()).sum());
    outcome.linted.reserve(results.iter().map(|(_, d)| d.linted.len()).sum());
    for (dir, done) in results {
        if dir.is_some_and(|d| called.contains(&d)) {
            continue;
        }
        outcome.files += done.linted.len();
        outcome.skipped += done.skips.len();
        outcome.skips.extend(done.skips);
        outcome.unlinted.extend(done.unlinted);
        outcome.linted.extend(done.linted);
        outcome.notes.extend(done.checked.notes);
        outcome.suppressed += done.checked.suppressed;
        outcome.findings.extend(done.checked.findings);
        used.extend(done.checked.used);
        unused.extend(done.checked.unused);
    }
    outcome.notes.extend(check::stale(&used, unused));
    outcome.unwritable = unwritable(&mut outcome.findings, session);
    outcome.linted.sort();
    outcome.skips.sort_by(|a, b| a.file.cmp(&b.file));
    outcome.finish();
    outcome
}
