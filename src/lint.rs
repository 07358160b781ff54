//! `sqsguard lint`: which files to read, which front-end reads each, and
//! one [`Outcome`] from all of them, in parallel across files. A file that
//! cannot be read or parsed becomes an SQS000 finding when it looks like
//! infrastructure, and never stops the others.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::check::{self, Checked, Key};
use crate::config::Config;
use crate::discover;
use crate::finding::Note;
use crate::frontend::{self, Broken, Document, Loaded, terraform};
use crate::model::Origin;
use crate::outcome::Outcome;
use crate::session::Session;
use crate::source::display_path;

/// A unit of work: one template (named on the command line or not), or
/// one folder of `.tf` files (a module is linted whole even when only one
/// of its files was named).
enum Job {
    File(PathBuf, bool),
    Module(PathBuf),
}

/// What one job gave.
#[derive(Clone, Default)]
struct Done {
    checked: Checked,
    /// The display paths of the files linted.
    linted: Vec<String>,
    /// Every file read, as given.
    files: Vec<PathBuf>,
    skipped: usize,
    /// Terraform: the local module folders this module called (canonical).
    called: Vec<PathBuf>,
    /// A file named on the command line that may be infrastructure and was
    /// not linted (its note says why).
    unlinted: Option<String>,
    /// The keys of the run's Parameter values the files declare.
    parameters: Vec<String>,
}

/// Lint what `session` names.
pub fn lint(session: &Session) -> Outcome {
    Run::new(session).into_outcome(session)
}

/// Lint `paths` with `config` and nothing else given.
pub fn lint_paths(paths: &[PathBuf], config: &Config) -> Outcome {
    lint(&Session::of(paths, config))
}

/// A lint kept job by job, so that `--fix` lints again only the jobs that
/// read a file it changed.
pub struct Run {
    /// What the walk could not enter: notes, and the named paths among them.
    walked: Vec<(Note, Option<String>)>,
    jobs: Vec<Job>,
    /// Each job's result, and for a module its folder (canonical).
    results: Vec<(Option<PathBuf>, Done)>,
}

impl Run {
    /// Every job of the session's paths, linted.
    pub fn new(session: &Session) -> Run {
        let config = &session.config;
        let mut jobs = Vec::new();
        // What is linted already, by canonical path: a file (or a module's
        // folder) reached through a symlink and again directly is linted
        // once, under the path met first.
        let mut modules = HashSet::new();
        let mut files = HashSet::new();
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
        for c in found.candidates {
            if !config.files.keeps(&c.path, c.explicit) {
                continue;
            }
            if is_terraform(&c.path) && c.path.is_file() {
                // `main.tf` (named, or found under `.`) is in `.`, not in "".
                let dir = c.path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
                // The unit is the folder: two folders that share a symlinked
                // file are two modules.
                if modules.insert(canonical(&dir)) {
                    jobs.push(Job::Module(dir));
                }
            } else if files.insert(canonical(&c.path)) {
                jobs.push(Job::File(c.path, c.explicit));
            }
        }
        // A handler named on the command line (a pre-commit hook's changed
        // file) re-checks the templates above it that read it.
        let named_code: Vec<&PathBuf> =
            session.inputs.paths.iter().filter(|p| p.is_file() && crate::owners::is_code(p)).collect();
        let named_real: Vec<PathBuf> = named_code.iter().map(|p| canonical(p)).collect();
        let mut probes = Vec::new();
        if !session.inputs.no_code {
            for code in &named_code {
                for template in crate::owners::candidates_above(code) {
                    if !config.files.keeps(&template, false) {
                        continue;
                    }
                    if is_terraform(&template) {
                        let dir = template.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
                        if modules.insert(canonical(&dir)) {
                            probes.push(jobs.len());
                            jobs.push(Job::Module(dir));
                        }
                    } else if files.insert(canonical(&template)) {
                        probes.push(jobs.len());
                        jobs.push(Job::File(template, false));
                    }
                }
            }
        }
        let mut results: Vec<(Option<PathBuf>, Done)> = jobs.par_iter().map(|job| job.run(session)).collect();
        // Of the templates looked at for a named handler, only those that
        // read it stay.
        for &i in probes.iter().rev() {
            let reads = results[i].1.files.iter().any(|f| named_real.contains(&canonical(f)));
            if !reads {
                jobs.remove(i);
                results.remove(i);
            }
        }
        Run { walked, jobs, results }
    }

    /// Lint again, with `session` (its overlay holding the changed texts),
    /// the jobs that read one of `changed` or a file beside one: a
    /// template, or the module of a changed `.tf` or variables file.
    pub fn relint(&mut self, changed: &[PathBuf], session: &Session) {
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
                Job::File(path, _) => files.contains(path),
                Job::Module(_) => every_module || self.results[i].1.files.iter().any(|f| folders.contains(&folder(f))),
            })
            .collect();
        let redone: Vec<(usize, (Option<PathBuf>, Done))> =
            again.par_iter().map(|&i| (i, self.jobs[i].run(session))).collect();
        for (i, result) in redone {
            self.results[i] = result;
        }
    }

    /// What the run found so far.
    pub fn outcome(&self, session: &Session) -> Outcome {
        let walked = self.walked.iter().cloned();
        let results = self.results.iter().map(|(dir, done)| (dir.clone(), done.clone()));
        outcome(walked, results, session)
    }

    pub fn into_outcome(self, session: &Session) -> Outcome {
        outcome(self.walked.into_iter(), self.results.into_iter(), session)
    }
}

impl Job {
    fn run(&self, session: &Session) -> (Option<PathBuf>, Done) {
        let inputs = &session.inputs;
        match self {
            Job::File(path, explicit) => (None, lint_file(path, *explicit, session)),
            Job::Module(dir) => (
                dir.canonicalize().ok(),
                checked(
                    with_code(terraform::load_module(dir, &inputs.var_files, &inputs.overlay), session),
                    &session.config,
                ),
            ),
        }
    }
}

/// The outcome of the jobs' results.
fn outcome(
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
    // on its own (its variables would mostly be unknown).
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
        outcome.skipped += done.skipped;
        outcome.unlinted.extend(done.unlinted);
        outcome.linted.extend(done.linted);
        outcome.notes.extend(done.checked.notes);
        outcome.suppressed += done.checked.suppressed;
        outcome.findings.extend(done.checked.findings);
        used.extend(done.checked.used);
        unused.extend(done.checked.unused);
    }
    outcome.notes.extend(check::stale(&used, unused));
    outcome.linted.sort();
    outcome.finish();
    outcome
}

/// A `.tf` or `.tf.json` file, or a variables file (`.tfvars`,
/// `.tfvars.json`): either makes its folder's module load, so a pre-commit
/// hook that passes only a changed tfvars file still checks the values it
/// sets.
fn is_terraform(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    [".tf", ".tf.json", ".tfvars", ".tfvars.json"].iter().any(|ext| name.ends_with(ext))
}

fn lint_file(path: &Path, explicit: bool, session: &Session) -> Done {
    let config = &session.config;
    if crate::source::is_serverless_code(path) {
        let mut done = not_linted(
            path,
            "a Serverless Framework service written as code is not read: sqsguard reads serverless.yml, .yaml and .json",
        );
        if !explicit {
            done.unlinted = None;
        }
        return done;
    }
    // Named on the command line with a name no template has (`README.md`,
    // `pom.xml`, `stack.cfn`): linted when it is a template, skipped with a
    // note when it is no YAML or JSON at all, never an SQS000.
    let loose = explicit && !crate::source::has_template_extension(path);
    let file = match session.inputs.overlay.read(path) {
        Ok(file) => file,
        // A FIFO, socket or device: refused unopened, and no template.
        Err(e) if e.not_a_file => {
            let mut done = not_linted(path, &e.message);
            if !explicit {
                done.unlinted = None;
            }
            return done;
        }
        Err(e) if loose && (e.not_text || e.too_large) => {
            return skipped(path, &format!("{}{NO_TEMPLATE_NAME}", e.message));
        }
        Err(e) if e.infrastructure => return broken(Broken { file: e.file, span: e.span, message: e.message }, config),
        // Named on the command line, it may be anything: say it was not read.
        Err(e) if explicit => return not_linted(path, &format!("it cannot be read: {}", e.message)),
        // Found in a folder with a template's name, too large to tell: a note.
        Err(e) if e.too_large => {
            let mut done = not_linted(path, &e.message);
            done.unlinted = None;
            return done;
        }
        Err(_) => return Done { skipped: 1, ..Done::default() },
    };
    match frontend::document(&file, &session.inputs.stage) {
        Document::Loaded(loaded) => {
            // The model holds what it needs of the text (a large plan's
            // findings locate without it): free it before checking.
            drop(file);
            checked(with_code(*loaded, session), config)
        }
        Document::Broken(b) => broken(b, config),
        Document::Unparsable(e) if loose => {
            if crate::source::looks_like_infrastructure(path, file.text.as_bytes()) {
                skipped(path, &format!("it is not YAML or JSON ({}){NO_TEMPLATE_NAME}", e.message))
            } else {
                Done { skipped: 1, ..Done::default() }
            }
        }
        Document::Other if loose && !is_mapping(&file) => {
            if crate::source::looks_like_infrastructure(path, file.text.as_bytes()) {
                skipped(path, &format!("its text is no YAML or JSON mapping{NO_TEMPLATE_NAME}"))
            } else {
                Done { skipped: 1, ..Done::default() }
            }
        }
        Document::Unparsable(e) if crate::source::looks_like_infrastructure(path, file.text.as_bytes()) => {
            broken(Broken { file, span: e.span, message: e.message }, config)
        }
        Document::Other => match unread_kind(path, &file.text) {
            Some(why) => {
                let mut done = not_linted(path, why);
                if !explicit {
                    done.unlinted = None;
                }
                done
            }
            None => Done { skipped: 1, ..Done::default() },
        },
        Document::Unparsable(_) => Done { skipped: 1, ..Done::default() },
    }
}

/// Why a file that no front-end read may still be infrastructure, or
/// `None` when it is not (a workflow, a manifest).
fn unread_kind(path: &Path, text: &str) -> Option<&'static str> {
    if !crate::source::looks_like_infrastructure(path, text.as_bytes()) {
        return None;
    }
    let has = |needle: &str| text.contains(needle);
    Some(if has("service:") && has("provider:") || has("\"service\"") && has("\"provider\"") {
        "it looks like a Serverless Framework service, but its provider is not `aws` (or not written out), so sqsguard cannot tell what it deploys"
    } else {
        "it looks like infrastructure (it mentions AWSTemplateFormatVersion, AWS:: or Transform) but is no template, module or plan sqsguard reads"
    })
}

/// A file that may be infrastructure and was not linted: a note, and when
/// it was named on the command line, a mark against `--fail-on`.
fn not_linted(path: &Path, why: &str) -> Done {
    let note = Note { origin: Origin::path(path), message: format!("not linted: {why}") };
    let checked = Checked { notes: vec![note], ..Checked::default() };
    Done { checked, skipped: 1, unlinted: Some(display_path(path)), ..Done::default() }
}

/// What the notes of a loosely named file that is no template end with.
const NO_TEMPLATE_NAME: &str = ", and its name is no template's (.yaml, .yml, .json, .template, .tf, .tfvars), so it is taken for another kind of file";

/// A file named on the command line that is no template: a note, counted
/// as skipped, and no mark against `--fail-on`.
fn skipped(path: &Path, why: &str) -> Done {
    let note = Note { origin: Origin::path(path), message: format!("not linted: {why}") };
    Done { checked: Checked { notes: vec![note], ..Checked::default() }, skipped: 1, ..Done::default() }
}

/// Whether a file that parsed holds a mapping at its top, as every
/// template does (a Markdown file may parse as one long YAML string).
fn is_mapping(file: &crate::source::SourceFile) -> bool {
    let parsed = if crate::syntax::is_json(&file.path, &file.text) {
        crate::syntax::json::parse(file)
    } else {
        crate::syntax::yaml::parse(file)
    };
    parsed.is_ok_and(|root| root.as_map().is_some())
}

/// A file that looks like infrastructure and could not be read: linted,
/// with its SQS000.
fn broken(b: Broken, config: &Config) -> Done {
    let loaded = Loaded { files: vec![b.file.path.clone()], broken: vec![b], ..Loaded::default() };
    checked(loaded, config)
}

/// `loaded` with the code of its functions read, unless `--no-code`.
fn with_code(mut loaded: Loaded, session: &Session) -> Loaded {
    if !session.inputs.no_code {
        frontend::code::read(&mut loaded, &session.inputs.overlay);
    }
    loaded
}

fn checked(loaded: Loaded, config: &Config) -> Done {
    let linted = loaded.files.iter().map(|p| display_path(p)).collect();
    let files = loaded.files.clone();
    let called = loaded.called.clone();
    let parameters = loaded.parameters.clone();
    Done { checked: check::check(loaded, config), linted, files, skipped: 0, called, unlinted: None, parameters }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_files_are_terraform() {
        assert!(is_terraform(Path::new("x/terraform.tfvars")));
        assert!(is_terraform(Path::new("x/prod.tfvars.json")));
        assert!(is_terraform(Path::new("main.TF")));
        assert!(!is_terraform(Path::new("plan.json")));
    }
}
