//! Baselines: `--write-baseline FILE` records today's findings,
//! `--baseline FILE` reports only the others. Findings are matched by
//! fingerprint (rule, file, resource, message without numbers; see
//! `crate::fingerprint`), so moving or reformatting code keeps them
//! baselined; each recorded finding absorbs one finding.
//!
//! Paths: a recorded file is relative to the baseline file's folder
//! (`services/a/template.yaml`, `../shared/q.yaml`), and so is the file
//! its fingerprint is made of, so a baseline matches whichever folder
//! sqsguard runs from and however the paths are typed. Documents of
//! version 2 are written so. Version 1 documents recorded paths relative
//! to the folder sqsguard ran in; they are read as relative to the
//! baseline's folder, which is what they were when written from that
//! folder (as the docs showed: `--write-baseline .sqsguard-baseline.json`
//! at the repository's root). One written from elsewhere absorbs nothing:
//! delete it and write it again.
//!
//! Stale entries: after a lint, a recorded finding that absorbed none is
//! stale when the run looked where it was: its rule is one the command
//! line's `--select` and `--ignore` keep, and its file was linted or lies
//! under a path the run was given (the file was deleted, or is excluded
//! now). They are one note ("2 stale baseline entries") and
//! `summary.stale_baseline`. `--write-baseline` over an existing baseline
//! drops them, records the run's findings, and keeps the entries the run
//! did not look at (another project's files, rules left out with
//! `--select`): a lint of one project of a monorepo rewrites that
//! project's part only.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fingerprint::{Identity, absolute, relative_to};
use crate::outcome::Outcome;
use sqsguard_finding::error::Error;
use sqsguard_finding::{Finding, Note};
use sqsguard_model::Origin;
use sqsguard_rules::Filter;

const VERSION: u32 = 2;

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Document {
    version: u32,
    findings: Vec<Entry>,
}

/// One recorded finding; all but the fingerprint are there for people
/// reviewing the file (and the file and rule say whether it is stale).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    fingerprint: String,
    rule: String,
    file: String,
    resource: String,
    message: String,
}

/// Where a run looked: which recorded findings it would have met.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The paths linted, as given.
    pub paths: Vec<PathBuf>,
    /// The command line's `--select` and `--ignore`.
    pub rules: Filter,
}

/// A baseline read, and the scope of the run it is applied to.
#[derive(Clone, Debug)]
pub struct Baseline {
    /// The file, as given.
    path: PathBuf,
    /// Its folder, canonical: what the recorded paths are relative to.
    folder: PathBuf,
    entries: Vec<Entry>,
    /// How many findings each fingerprint absorbs.
    counts: HashMap<String, usize>,
    scope: Scope,
}

/// What `write` did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// The run's findings, recorded.
    pub recorded: usize,
    /// Entries of the baseline before kept: the run did not look there.
    pub kept: usize,
    /// Stale entries of the baseline before, dropped.
    pub dropped: usize,
}

/// Write the findings of `outcome`, a run over `scope`, to `path`
/// (atomically), with what an existing baseline there records outside
/// the scope.
pub fn write(path: &Path, outcome: &Outcome, scope: &Scope) -> Result<Written, Error> {
    let folder = folder_of(path)?;
    let mut files = Files::new(&folder);
    let mut findings: Vec<Entry> = outcome
        .findings
        .iter()
        .map(|f| {
            let id = files.identity(f);
            Entry {
                fingerprint: id.hash(),
                rule: id.rule,
                file: id.file,
                resource: id.resource,
                message: f.full_message().into_owned(),
            }
        })
        .collect();
    let mut written = Written { recorded: findings.len(), kept: 0, dropped: 0 };
    if let Some(before) = previous(path)? {
        let looked = Looked::new(outcome, scope, &folder);
        let mut recorded: HashMap<String, usize> = HashMap::new();
        for entry in &findings {
            *recorded.entry(entry.fingerprint.clone()).or_insert(0) += 1;
        }
        for entry in before.findings {
            if !looked.at(&entry, &scope.rules, &folder) {
                written.kept += 1;
                findings.push(entry);
            } else if let Some(n) = recorded.get_mut(&entry.fingerprint).filter(|n| **n > 0) {
                *n -= 1;
            } else {
                written.dropped += 1;
            }
        }
    }
    findings.sort_by(|a, b| {
        (&a.file, &a.resource, &a.rule, &a.fingerprint).cmp(&(&b.file, &b.resource, &b.rule, &b.fingerprint))
    });
    let text = serde_json::to_string_pretty(&Document { version: VERSION, findings })
        .map_err(|e| Error::io(path, e.into()))?
        + "\n";
    sqsguard_source::write_named(path, text.as_bytes()).map_err(|e| Error::io(path, e))?;
    Ok(written)
}

/// Read a baseline, for a run over `scope`; the error is one line naming
/// the file and the problem.
pub fn load(path: &Path, scope: &Scope) -> Result<Baseline, Error> {
    let text = sqsguard_source::read_named(path).map_err(|e| Error::io(path, e))?;
    let doc = parse(path, &text)?;
    let mut counts = HashMap::new();
    for entry in &doc.findings {
        *counts.entry(entry.fingerprint.clone()).or_insert(0) += 1;
    }
    let (folder, entries) = (folder_of(path)?, doc.findings);
    Ok(Baseline { path: path.to_path_buf(), folder, entries, counts, scope: scope.clone() })
}

/// The baseline at `path` before it is written again; `None` when there
/// is none yet (or an empty file, as a new temporary file is).
fn previous(path: &Path) -> Result<Option<Document>, Error> {
    match sqsguard_source::read_named(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => parse(path, &text).map(Some),
    }
}

fn parse(path: &Path, text: &str) -> Result<Document, Error> {
    let unusable = |message: String| Error::Unusable { path: path.to_path_buf(), message };
    let doc: Document = serde_json::from_str(text)
        .map_err(|e| unusable(format!("line {}, column {}: not a sqsguard baseline: {e}", e.line(), e.column())))?;
    // Version 1 is read as version 2 (the module's doc says how).
    if doc.version != VERSION && doc.version != 1 {
        return Err(unusable(format!("baseline version {} is not {VERSION} (nor 1)", doc.version)));
    }
    Ok(doc)
}

/// The baseline file's folder, canonical.
fn folder_of(path: &Path) -> Result<PathBuf, Error> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    dir.canonicalize().map_err(|e| Error::io(dir, e))
}

impl Baseline {
    /// Drop the findings the baseline records; returns how many it
    /// dropped. The stale entries are counted in `outcome` and said in a
    /// note.
    pub fn apply(mut self, outcome: &mut Outcome) -> usize {
        let before = outcome.findings.len();
        let mut files = Files::new(&self.folder);
        outcome.findings.retain(|f| match self.counts.get_mut(&files.identity(f).hash()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        });
        let stale = self.stale(outcome);
        outcome.stale_baseline = Some(stale);
        if stale > 0 {
            let message = if stale == 1 {
                "1 stale baseline entry: the finding it records is gone (--write-baseline drops it)".to_string()
            } else {
                format!(
                    "{stale} stale baseline entries: the findings they record are gone (--write-baseline drops them)"
                )
            };
            outcome.notes.push(Note { origin: Origin::path(&self.path), message });
        }
        before - outcome.findings.len()
    }

    /// The entries left unmatched where the run looked.
    fn stale(&mut self, outcome: &Outcome) -> usize {
        if self.counts.values().all(|n| *n == 0) {
            return 0;
        }
        let looked = Looked::new(outcome, &self.scope, &self.folder);
        let mut stale = 0;
        for entry in &self.entries {
            if let Some(n) = self.counts.get_mut(&entry.fingerprint).filter(|n| **n > 0) {
                *n -= 1;
                stale += usize::from(looked.at(entry, &self.scope.rules, &self.folder));
            }
        }
        stale
    }
}

/// Findings' files relative to a baseline's folder, each file's worked
/// out once (a large plan has a hundred thousand findings in one file).
struct Files<'a> {
    folder: &'a Path,
    known: HashMap<PathBuf, String>,
}

impl<'a> Files<'a> {
    fn new(folder: &'a Path) -> Self {
        Files { folder, known: HashMap::new() }
    }

    /// The finding's identity, its file relative to the baseline's folder.
    fn identity(&mut self, f: &Finding) -> Identity {
        let file = match crate::fingerprint::identity_path(f) {
            Some(path) => {
                let folder = self.folder;
                self.known.entry(path.clone()).or_insert_with(|| relative_to(&path, folder)).clone()
            }
            None => String::new(),
        };
        Identity::with_file(f, file)
    }
}

/// Where a run looked, as a baseline's entries say where they are.
struct Looked {
    /// The files linted, relative to the baseline's folder.
    linted: HashSet<String>,
    /// The paths given, absolute (canonical when they are on disk).
    under: Vec<PathBuf>,
}

impl Looked {
    fn new(outcome: &Outcome, scope: &Scope, folder: &Path) -> Self {
        let linted = outcome.linted.iter().map(|p| relative_to(Path::new(p), folder)).collect();
        let under = scope.paths.iter().map(|p| absolute(p)).collect();
        Looked { linted, under }
    }

    /// Whether the run would have met the entry's finding.
    fn at(&self, entry: &Entry, rules: &Filter, folder: &Path) -> bool {
        if !rules.keeps(&entry.rule) || entry.file.is_empty() {
            return false;
        }
        let place = sqsguard_source::lexical(&folder.join(&entry.file));
        self.linted.contains(&entry.file) || self.under.iter().any(|p| place.starts_with(p))
    }
}
