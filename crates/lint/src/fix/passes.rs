//! The passes of `--fix` and `--diff`, in memory: lint, apply every fix
//! the findings carry, lint again the jobs (a template, a module) that
//! read a fixed file, and again until nothing more is fixable. A pass that makes a file unreadable, or moves a finding it
//! did not fix anywhere but where its edits put it, is reverted for that
//! file, as ruff's `lint_fix` does (see [`verify::check`]).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

use super::plan::{Plan, plan};
use super::verify;
use crate::outcome::Outcome;
use crate::session::Session;
use sqsguard_finding::error::Error;
use sqsguard_source::{Source, display_path};

/// Passes of `--fix` at most: a fix can make another possible (or two
/// overlapping ones wait for the next pass), never forever.
const FIX_PASSES: usize = 8;

/// Every pass of `--fix`, in memory.
pub struct Fixed {
    /// Each changed file: its text on disk, its text after every pass, and
    /// how many findings those passes fixed in it.
    pub files: BTreeMap<PathBuf, (Source, String, usize)>,
    /// The lint of the fixed texts that found nothing more to fix (none
    /// when the passes ran out first).
    pub last: Option<Outcome>,
    /// What was not fixed and why, in the order it was found.
    pub events: Vec<Event>,
    /// How many passes fixed something: more than one when fixing some
    /// findings made others fixable.
    pub passes: usize,
}

/// A file the passes did not fix.
#[derive(Debug, PartialEq, Eq)]
pub enum Event {
    /// Not written, and why (outside the paths, a symbolic link, a
    /// read-only file): lint did not offer its findings' fixes.
    Refused(PathBuf, &'static str),
    /// A pass's fixes of it were reverted, for this reason.
    Reverted(PathBuf, String),
}

impl Fixed {
    /// How many findings the passes fixed.
    pub fn fixes(&self) -> usize {
        self.files.values().map(|(_, _, n)| n).sum()
    }
}

/// Apply the fixes and lint the fixed texts again, in memory, until
/// nothing more is fixable: what `--fix` writes and `--diff` shows (unsafe
/// fixes too when the session's fix mode says so). Only files under the
/// session's paths are changed: not a module followed out of them, nor a
/// file reached through a symlinked folder (lint offers no fix of those,
/// nor of a symlink or a read-only file). A file whose fixed text no
/// longer parses, or whose other findings did not stay where the edits put
/// them, keeps the text of the pass before and is fixed no further.
/// Findings the session's baseline records are not fixed. A config that
/// cannot be used is the error, before anything is fixed.
pub fn passes(session: &Session) -> Result<Fixed, Error> {
    let unsafe_fixes = session.fix.unsafe_fixes();
    let base = session.inputs.overlay.clone();
    let mut session = session.clone();
    let mut fixed = Fixed { files: BTreeMap::new(), last: None, events: Vec::new(), passes: 0 };
    let mut said = BTreeSet::new();
    let mut refused = BTreeSet::new();
    // What `--fix` acts on: the findings a baseline does not record.
    let actionable = |run: &crate::Run, session: &Session| {
        let mut outcome = run.outcome(session);
        if let Some(baseline) = &session.baseline {
            outcome.baselined = Some(baseline.clone().apply(&mut outcome));
        }
        outcome
    };
    let mut run = crate::Run::new(&session)?;
    let mut outcome = actionable(&run, &session);
    for _ in 0..FIX_PASSES {
        for (path, why) in &outcome.unwritable {
            if said.insert(path.clone()) {
                fixed.events.push(Event::Refused(path.clone(), why));
            }
        }
        // Lint offered no fix of a file --fix would refuse to write
        // (`Outcome::unwritable`): only the reverted ones are left out here.
        let mut plan = plan(&outcome.findings, unsafe_fixes);
        plan.files.retain(|path, _| !refused.contains(path));
        if plan.files.is_empty() {
            fixed.last = Some(outcome);
            break;
        }
        // The texts so far, with this pass's.
        let texts = |plan: &Plan, fixed: &Fixed| {
            let mut texts: HashMap<PathBuf, String> =
                fixed.files.iter().map(|(path, (_, text, _))| (path.clone(), text.clone())).collect();
            texts.extend(plan.files.iter().map(|(path, f)| (path.clone(), f.text.clone())));
            base.extended(texts)
        };
        session.inputs.overlay = texts(&plan, &fixed);
        let changed: Vec<PathBuf> = plan.files.keys().cloned().collect();
        run.relint(&changed, &session);
        let mut next = actionable(&run, &session);
        // A file the lint read before (a template, a module's `.tf`; a
        // `.tfvars` is read but not linted as a file) must still be read.
        let was: HashSet<&str> = outcome.linted.iter().map(String::as_str).collect();
        let is: HashSet<&str> = next.linted.iter().map(String::as_str).collect();
        let bad: Vec<(PathBuf, String)> = plan
            .files
            .iter()
            .filter_map(|(path, f)| {
                let shown = display_path(path);
                let read = is.contains(shown.as_str()) || !was.contains(shown.as_str());
                verify::check(f, &outcome.findings, &next.findings, read).err().map(|why| (path.clone(), why))
            })
            .collect();
        if !bad.is_empty() {
            let reverted: Vec<PathBuf> = bad.iter().map(|(path, _)| path.clone()).collect();
            for (path, why) in bad {
                plan.files.remove(&path);
                refused.insert(path.clone());
                fixed.events.push(Event::Reverted(path, why));
            }
            // Lint them again as they were: what the next pass plans from.
            session.inputs.overlay = texts(&plan, &fixed);
            run.relint(&reverted, &session);
            next = actionable(&run, &session);
        }
        fixed.passes += usize::from(!plan.files.is_empty());
        for (path, f) in plan.files {
            // The text on disk is the one the first pass read.
            let entry = fixed.files.entry(path).or_insert_with(|| (f.file, String::new(), 0));
            entry.1 = f.text;
            entry.2 += f.fixed.len();
        }
        outcome = next;
    }
    fixed.files.retain(|_, (file, text, _)| file.text != *text);
    Ok(fixed)
}
