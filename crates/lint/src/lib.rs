//! A lint run, and what it is made of: the run's [`config`], the [`check`]
//! of rules and suppressions over what a front-end loaded, the
//! [`discover`]y of the files to read and their [`owners`], a finding's
//! [`fingerprint`], the [`baseline`], the pipeline [`graph`], the
//! [`session`] (one run's settings and inputs, ready for the commands), the
//! [`outcome`], and [`fix`] (`--fix` and `--diff`). The crate's root is the
//! `lint` command itself.
//!
//! `sqsguard lint`: which files to read, which front-end reads each, and
//! one [`Outcome`] from all of them, in parallel across files. A file that
//! cannot be read or parsed becomes an SQS000 finding when it looks like
//! infrastructure, and never stops the others.
//!
//! Each job is governed by one config, resolved before anything is linted
//! (so a broken one stops the run first): the session's, or the nearest
//! `.sqsguard.yaml` of the job's file. A Terraform module is its folder's
//! (the local modules it calls are linted with it, under its config); the
//! handler code a template names is read under the template's config;
//! code found alone, under its own.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod file;
mod gather;
mod writable;

// The layers of a run below the command itself, lowest first.
pub mod check;
pub mod config;
pub mod discover;
pub use discover::is_terraform;
pub mod baseline;
pub mod fingerprint;
pub mod fix;
pub mod graph;
pub mod outcome;
pub mod owners;
pub mod session;

use rayon::prelude::*;

use crate::config::{Config, Nearest};
use crate::outcome::Outcome;
use crate::session::Session;
use file::{Done, checked, drop_aside, lint_file, own_only, with_code};
use gather::outcome;
use sqsguard_finding::error::Error;
use sqsguard_finding::{Finding, Note};
use sqsguard_frontend::terraform;
use sqsguard_model::{Model, Origin, Queue};
use sqsguard_source::display_path;

/// A job's result: for a module, its folder (canonical), and what it
/// came to.
type JobResult = (Option<PathBuf>, Done);

/// A unit of work: one template (named on the command line or not), one
/// folder of `.tf` files (a module is linted whole even when only one of
/// its files was named), or one code file's SQS API calls (run after the
/// others: a file they read as a function's code is not read alone);
/// each with the config that governs it.
enum Job {
    File(PathBuf, bool, Arc<Config>),
    Module(PathBuf, Arc<Config>),
    Code(PathBuf, bool, Arc<Config>),
}

/// Lint what `session` names. A config governing one of its files that
/// cannot be read or is invalid is the error, before anything is linted.
pub fn lint(session: &Session) -> Result<Outcome, Error> {
    Ok(Run::new(session)?.into_outcome(session))
}

/// One job's model and the findings checked on it: what `sqsguard graph`
/// draws.
pub struct Drawn {
    /// What names the job: its file, or a module's folder.
    pub scope: String,
    pub model: Arc<Model>,
    pub findings: Vec<Finding>,
}

/// Lint what `session` names, keeping each job's model with its findings
/// (a module another module calls is its caller's, as in the outcome).
pub fn drawn(session: &Session) -> Result<(Vec<Drawn>, Outcome), Error> {
    let run = Run::build(session, true)?;
    let called: HashSet<&PathBuf> = run.results.iter().flat_map(|(_, r)| r.called.iter()).collect();
    let drawn = run
        .jobs
        .iter()
        .zip(&run.results)
        .filter(|(_, (dir, _))| !dir.as_ref().is_some_and(|d| called.contains(d)))
        .filter_map(|(job, (_, done))| {
            let model = Arc::clone(done.model.as_ref()?);
            let scope = match job {
                Job::Module(dir, _) => display_path(dir),
                Job::File(path, ..) | Job::Code(path, ..) => {
                    done.linted.first().cloned().unwrap_or_else(|| display_path(path))
                }
            };
            Some(Drawn { scope, model, findings: done.checked.findings.clone() })
        })
        .collect();
    Ok((drawn, run.into_outcome(session)))
}

/// Lint `paths` with `config` and nothing else given.
pub fn lint_paths(paths: &[PathBuf], config: &Config) -> Outcome {
    match lint(&Session::of(paths, config)) {
        Ok(outcome) => outcome,
        // One config governs every file: no other is read, so this is not
        // met; were it, the run would fail, never pass empty.
        Err(e) => {
            let at = paths.first().map_or(Path::new("."), PathBuf::as_path);
            let note = Note { origin: Origin::path(at), message: e.to_string() };
            let unlinted = paths.iter().map(|p| display_path(p)).collect();
            Outcome { notes: vec![note], unlinted, ..Outcome::default() }
        }
    }
}

/// Which config governs each job's file.
enum Governing {
    One(Arc<Config>),
    Nearest(Box<Nearest>),
}

impl Governing {
    fn of(session: &Session) -> Governing {
        match &session.nearest {
            Some(overrides) => Governing::Nearest(Box::new(Nearest::new(overrides))),
            None => Governing::One(Arc::new(session.config.clone())),
        }
    }

    /// The config of the file (or of the module whose file it is) at `path`.
    fn config(&mut self, path: &Path) -> Result<Arc<Config>, Error> {
        match self {
            Governing::One(config) => Ok(Arc::clone(config)),
            Governing::Nearest(nearest) => nearest.of(path),
        }
    }
}

/// A lint kept job by job, so that `--fix` lints again only the jobs that
/// read a file it changed.
pub struct Run {
    /// What the walk could not enter: notes, and the named paths among them.
    walked: Vec<(Note, Option<String>)>,
    jobs: Vec<Job>,
    /// Each job's result, and for a module its folder (canonical).
    results: Vec<(Option<PathBuf>, Done)>,
    /// The code files template jobs read (canonical): code jobs skip them.
    handled: HashSet<PathBuf>,
    /// The queues of the template jobs that code jobs' literals may name.
    known: sqsguard_code::KnownQueues,
}

impl Run {
    /// Every job of the session's paths, linted; a config that governs
    /// one of them and cannot be used is the error, before any is linted.
    pub fn new(session: &Session) -> Result<Run, Error> {
        Run::build(session, false)
    }

    /// As [`Run::new`]; `keep`: each job's result keeps its model.
    #[expect(clippy::too_many_lines, reason = "what a run covers, in order: each step narrows the next one's sets")]
    fn build(session: &Session, keep: bool) -> Result<Run, Error> {
        let mut governing = Governing::of(session);
        let mut jobs = Vec::new();
        // What is linted already, by canonical path: a file (or a module's
        // folder) reached through a symlink and again directly is linted
        // once, under the path met first.
        let mut modules = HashSet::new();
        let mut files = HashSet::new();
        // The config of each folder named: a broken one is an error even
        // when nothing under it is linted.
        for path in session.inputs.paths.iter().filter(|p| p.is_dir()) {
            governing.config(&path.join(crate::config::FILE_NAME))?;
        }
        let found = discover::candidates(&session.inputs.paths);
        let walked = found
            .unwalked
            .into_iter()
            .map(|u| {
                let named = u.named.then(|| display_path(&u.path));
                (Note { origin: Origin::path(&u.path), message: u.message }, named)
            })
            .collect();
        let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
        let mut code = Vec::new();
        for c in found.candidates {
            let config = governing.config(&c.path)?;
            if !config.files.keeps(&c.path, c.explicit) {
                continue;
            }
            if sqsguard_code::is_code_file(&c.path) {
                if files.insert(canonical(&c.path)) {
                    code.push(Job::Code(c.path, true, config));
                }
            } else if is_terraform(&c.path) && (c.path.is_file() || session.inputs.overlay.holds(&c.path)) {
                // `main.tf` (named, or found under `.`) is in `.`, not in "".
                let dir = c.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
                // The unit is the folder: two folders that share a symlinked
                // file are two modules.
                if modules.insert(canonical(&dir)) {
                    jobs.push(Job::Module(dir, config));
                }
            } else if files.insert(canonical(&c.path)) {
                jobs.push(Job::File(c.path, c.explicit, config));
            }
        }
        if !session.inputs.no_code {
            for path in found.code {
                let config = governing.config(&path)?;
                if config.files.keeps(&path, false) && files.insert(canonical(&path)) {
                    code.push(Job::Code(path, false, config));
                }
            }
        }
        // A handler named on the command line (a pre-commit hook's changed
        // file) re-checks the templates above it that read it.
        let named_code: Vec<&PathBuf> =
            session.inputs.paths.iter().filter(|p| p.is_file() && sqsguard_code::is_code_file(p)).collect();
        let named_real: Vec<PathBuf> = named_code.iter().map(|p| canonical(p)).collect();
        let mut probes = Vec::new();
        if !session.inputs.no_code {
            for code in &named_code {
                for template in crate::owners::candidates_above(code, session.inputs.workspace.as_deref()) {
                    let config = governing.config(&template)?;
                    if !config.files.keeps(&template, false) {
                        continue;
                    }
                    if is_terraform(&template) {
                        let dir = template.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
                        if modules.insert(canonical(&dir)) {
                            probes.push(jobs.len());
                            jobs.push(Job::Module(dir, config));
                        }
                    } else if files.insert(canonical(&template)) {
                        probes.push(jobs.len());
                        jobs.push(Job::File(template, false, config));
                    }
                }
            }
        }
        let none = HashSet::new();
        let nothing = sqsguard_code::KnownQueues::default();
        // The templates' queues, for the code jobs' literals: copied out of
        // each model before it is dropped, and only when there is code.
        let share = !code.is_empty();
        let ran: Vec<(JobResult, Vec<Queue>)> = jobs
            .par_iter()
            .map(|job| {
                let (dir, mut done) = job.run(session, &none, &nothing, true);
                let queues = match (&done.model, share) {
                    (Some(model), true) => model.queues.clone(),
                    _ => Vec::new(),
                };
                if !keep {
                    drop_aside(done.model.take());
                }
                ((dir, done), queues)
            })
            .collect();
        let (mut results, mut shared): (Vec<JobResult>, Vec<Vec<Queue>>) = ran.into_iter().unzip();
        // Of the templates looked at for a named handler, only those that
        // read it stay.
        for &i in probes.iter().rev() {
            let reads = results[i].1.files.iter().any(|f| named_real.contains(&canonical(f)));
            if !reads {
                jobs.remove(i);
                results.remove(i);
                shared.remove(i);
            }
        }
        let handled: HashSet<PathBuf> =
            results.iter().flat_map(|(_, done)| done.files.iter().map(|f| canonical(f))).collect();
        // A module another module calls is its caller's (its queues with the
        // caller's arguments), as in the outcome.
        let called: HashSet<&PathBuf> = results.iter().flat_map(|(_, r)| r.called.iter()).collect();
        let known = sqsguard_code::KnownQueues::of(
            results
                .iter()
                .zip(&shared)
                .filter(|((dir, _), _)| !dir.as_ref().is_some_and(|d| called.contains(d)))
                .flat_map(|(_, queues)| queues.iter()),
        );
        drop(shared);
        results.par_extend(code.par_iter().map(|job| job.run(session, &handled, &known, keep)));
        jobs.extend(code);
        Ok(Run { walked, jobs, results, handled, known })
    }

    /// Lint again, with `session` (its overlay holding the changed texts),
    /// the jobs that read one of `changed` or a file beside one: a
    /// template, or the module of a changed `.tf` or variables file.
    pub(crate) fn relint(&mut self, changed: &[PathBuf], session: &Session) {
        let folder = |p: &Path| match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let folders: HashSet<PathBuf> = changed.iter().map(|p| folder(p)).collect();
        let files: HashSet<&PathBuf> = changed.iter().collect();
        // A variables file named with --var-file is read by every module.
        let every_module = session.inputs.var_files.iter().any(|v| files.contains(v));
        let again: Vec<usize> = (0..self.jobs.len())
            .filter(|&i| match &self.jobs[i] {
                // A Serverless service reads the files it includes too.
                Job::File(path, ..) => {
                    let done = &self.results[i].1;
                    files.contains(path) || done.files.iter().chain(&done.points_into).any(|f| files.contains(f))
                }
                Job::Code(path, ..) => files.contains(path),
                Job::Module(..) => every_module || self.results[i].1.files.iter().any(|f| folders.contains(&folder(f))),
            })
            .collect();
        let (handled, known) = (&self.handled, &self.known);
        let redone: Vec<(usize, (Option<PathBuf>, Done))> =
            again.par_iter().map(|&i| (i, self.jobs[i].run(session, handled, known, false))).collect();
        for (i, result) in redone {
            self.results[i] = result;
        }
    }

    /// Every file the run's jobs read, as given (templates, a module's
    /// files, variables files, handler code, the CDK app's source its
    /// findings point into): what an editor re-checks the run for when one
    /// of them changes.
    pub fn files_read(&self) -> impl Iterator<Item = &PathBuf> {
        self.results.iter().flat_map(|(_, done)| done.files.iter().chain(&done.points_into))
    }

    /// What the run found so far.
    pub(crate) fn outcome(&self, session: &Session) -> Outcome {
        let walked = self.walked.iter().cloned();
        let results = self.results.iter().map(|(dir, done)| (dir.clone(), done.clone()));
        outcome(walked, results, session)
    }

    pub fn into_outcome(self, session: &Session) -> Outcome {
        outcome(self.walked.into_iter(), self.results.into_iter(), session)
    }
}

impl Job {
    /// Its result; `handled`: the code files already read as a template's;
    /// `known`: the queues code's literals may name; `keep`: with the model
    /// (else handed to the pool to free, job by job, so a large run never
    /// holds every model at once).
    fn run(
        &self,
        session: &Session,
        handled: &HashSet<PathBuf>,
        known: &sqsguard_code::KnownQueues,
        keep: bool,
    ) -> (Option<PathBuf>, Done) {
        let (dir, mut done) = self.result(session, handled, known);
        if !keep {
            drop_aside(done.model.take());
        }
        (dir, done)
    }

    fn result(
        &self,
        session: &Session,
        handled: &HashSet<PathBuf>,
        known: &sqsguard_code::KnownQueues,
    ) -> (Option<PathBuf>, Done) {
        let inputs = &session.inputs;
        match self {
            // Keyed by its path: a file a Serverless service includes (its
            // `${file(./resources.yml)}`) was linted with the service.
            Job::File(path, explicit, config) => {
                (path.canonicalize().ok(), lint_file(path, *explicit, session, config))
            }
            Job::Code(path, explicit, config) => {
                let read = (!inputs.no_code).then(|| sqsguard_code::read_loose(path, &inputs.overlay, handled, known));
                match read.flatten() {
                    Some(loaded) => (None, own_only(checked(loaded, config))),
                    // Named, and not read as code: as any other named file.
                    None if *explicit && !handled.contains(&path.canonicalize().unwrap_or_default()) => {
                        (None, lint_file(path, true, session, config))
                    }
                    None => (None, Done::default()),
                }
            }
            Job::Module(dir, config) => (
                dir.canonicalize().ok(),
                checked(with_code(terraform::load_module(dir, &inputs.var_files, &inputs.overlay), session), config),
            ),
        }
    }
}
