//! The server's state: the open documents, the checks they make and what
//! those found, and the diagnostics published from them.
//!
//! A check is keyed by its unit: a Terraform module's folder (every `.tf`
//! of it is one module) or any other document's path. A change to a
//! document checks its unit again, and every unit whose last check read
//! the document (a template reads its handler; a handler's check reads
//! the templates above it that name it). Checks run on a small pool; each
//! carries a generation, and one that a newer change of its unit has
//! overtaken is skipped if it has not started and dropped if it has: the
//! latest change wins. A file's diagnostics are those of every unit's
//! last check located in it, published whenever they change (and for an
//! open document at each new version).

use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Message, Notification};
use lsp_types::{Diagnostic, PublishDiagnosticsParams};

mod published;
mod synthesized;

use published::Published;

use super::check::{Checked, check, problem_diagnostics};
use super::documents::{Documents, Encoding};
use super::settings::{Configs, Settings, is_config, session};
use sqsguard_lint::config::Config;
use sqsguard_lint::session::{FixMode, Session};

/// A check's result, back on the main loop.
pub(super) struct Done {
    key: PathBuf,
    generation: u64,
    checked: Result<Checked, String>,
}

/// One unit and its last check.
struct Unit {
    /// The document it is checked as (for a module, one of its `.tf`).
    path: PathBuf,
    generation: u64,
    /// A check of it is scheduled and has not come back.
    pending: bool,
    checked: Option<Checked>,
}

pub(super) struct Workspace {
    pub(super) sender: Sender<Message>,
    pub(super) encoding: Encoding,
    pub(super) root: Option<PathBuf>,
    pub(super) settings: Settings,
    pub(super) docs: Documents,
    configs: Configs,
    units: HashMap<PathBuf, Unit>,
    /// The latest generation of each unit, read by the checks themselves.
    latest: Arc<Mutex<HashMap<PathBuf, u64>>>,
    generation: u64,
    pool: rayon::ThreadPool,
    done: (Sender<Done>, Receiver<Done>),
    /// What was last published for each file: at which version, and a
    /// fingerprint of the diagnostics rather than a copy (a 10 MB
    /// template's 55,200 diagnostics were held twice).
    published: HashMap<PathBuf, Published>,
    /// The parses of files the checks read, kept while their texts do not
    /// change: a module's unchanged files are not parsed at each keystroke.
    memo: Arc<sqsguard_source::Memo>,
    /// Checks have freed memory since it was last given back.
    freed: bool,
}

/// The unit a document belongs to.
fn key_of(path: &Path) -> PathBuf {
    if sqsguard_lint::is_terraform(path) {
        return path.parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    }
    path.to_path_buf()
}

impl Workspace {
    pub(super) fn new(
        sender: Sender<Message>,
        encoding: Encoding,
        root: Option<PathBuf>,
        settings: Settings,
    ) -> Result<Self, String> {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("sqsguard-check-{i}"))
            .build()
            .map_err(|e| format!("cannot start the threads that check documents: {e}"))?;
        Ok(Workspace {
            sender,
            encoding,
            root,
            settings,
            docs: Documents::default(),
            configs: Configs::default(),
            units: HashMap::new(),
            latest: Arc::default(),
            generation: 0,
            pool,
            done: crossbeam_channel::unbounded(),
            published: HashMap::new(),
            memo: Arc::default(),
            freed: false,
        })
    }

    pub(super) fn results(&self) -> &Receiver<Done> {
        &self.done.1
    }

    /// A document was opened or changed (its text is in `docs` already).
    pub(super) fn changed(&mut self, path: &Path) {
        if is_config(path) {
            return self.config_changed();
        }
        let mut keys = vec![self.unit_of(path)];
        keys.extend(self.readers_of(path));
        self.schedule(keys);
    }

    /// A document was closed (and is gone from `docs`).
    pub(super) fn closed(&mut self, path: &Path) {
        if is_config(path) {
            self.config_changed();
            return self.publish([path.to_path_buf()]);
        }
        let key = key_of(path);
        let other = self.docs.paths().find(|p| key_of(p) == key).cloned();
        match other {
            Some(other) => {
                if let Some(unit) = self.units.get_mut(&key) {
                    unit.path = other;
                }
            }
            // A synthesized template stays checked, from disk: its
            // findings are on the app's source.
            None if sqsguard_cdk::is_synthesized(path) => {}
            None => {
                if let Some(unit) = self.units.remove(&key) {
                    self.latest_mut().remove(&key);
                    let files: Vec<PathBuf> = unit.checked.iter().flat_map(|c| c.files().cloned()).collect();
                    self.publish(files.into_iter().chain([path.to_path_buf()]));
                }
            }
        }
        // What read its unsaved text reads the file on disk now.
        let readers = self.readers_of(path);
        self.schedule(readers);
    }

    /// A `.sqsguard.yaml` changed, or the settings: every unit again.
    pub(super) fn config_changed(&mut self) {
        let shown: Vec<PathBuf> = self.configs.problems().map(|p| p.path.clone()).collect();
        self.configs.clear();
        self.recheck_all();
        let now: Vec<PathBuf> = self.configs.problems().map(|p| p.path.clone()).collect();
        self.publish(shown.into_iter().chain(now));
    }

    pub(super) fn recheck_all(&mut self) {
        let keys: Vec<PathBuf> = self.units.keys().cloned().collect();
        self.schedule(keys);
    }

    /// The units whose last check read `path`.
    fn readers_of(&self, path: &Path) -> Vec<PathBuf> {
        let path = sqsguard_source::lexical(path);
        self.units
            .iter()
            .filter(|(_, u)| u.checked.as_ref().is_some_and(|c| c.read.contains(&path)))
            .map(|(k, _)| k.clone())
            .collect()
    }

    fn latest_mut(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, u64>> {
        self.latest.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The session that checks the document at `path`.
    pub(super) fn session_of(&mut self, path: &Path, fix: FixMode) -> Session {
        let overlay = self.docs.overlay().with_memo(Arc::clone(&self.memo));
        let config = self.configs.of(path, &overlay).as_ref().cloned().unwrap_or_else(|_| Config::default());
        session(path, &config, &self.settings, self.root.as_deref(), overlay, fix)
    }

    /// Check these units (each once) on the pool.
    fn schedule(&mut self, mut keys: Vec<PathBuf>) {
        keys.sort();
        keys.dedup();
        for key in keys {
            let Some(path) = self.units.get(&key).map(|u| u.path.clone()) else { continue };
            // A file gone from disk that is not open: nothing to check
            // (an open one is checked from its text, saved or not).
            if !path.exists() && self.docs.get(&path).is_none() {
                continue;
            }
            self.generation += 1;
            let generation = self.generation;
            if let Some(unit) = self.units.get_mut(&key) {
                unit.generation = generation;
                unit.pending = true;
            }
            self.latest_mut().insert(key.clone(), generation);
            let session = self.session_of(&path, FixMode::Report);
            let versions = self.docs.versions();
            let encoding = self.encoding;
            let latest = Arc::clone(&self.latest);
            let sender = self.done.0.clone();
            self.pool.spawn(move || {
                let current = |key: &PathBuf| {
                    latest.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(key) == Some(&generation)
                };
                if !current(&key) {
                    return;
                }
                let checked = std::panic::catch_unwind(AssertUnwindSafe(|| check(&session, versions, encoding)))
                    .map_err(|panic| panic_message(&panic));
                if current(&key) {
                    let _ = sender.send(Done { key, generation, checked });
                }
            });
        }
    }

    /// A check finished: keep it if it is still the latest of its unit,
    /// and publish what changed.
    pub(super) fn finished(&mut self, done: Done) {
        let Some(unit) = self.units.get_mut(&done.key) else { return };
        if unit.generation != done.generation {
            return;
        }
        unit.pending = false;
        match done.checked {
            Ok(checked) => {
                let mut files: HashSet<PathBuf> = unit.checked.iter().flat_map(|c| c.files().cloned()).collect();
                files.extend(checked.files().cloned());
                files.insert(sqsguard_source::lexical(&unit.path));
                // Published with the versions this check read: a stale one
                // shows as stale, never as the latest.
                let versions = checked.versions.clone();
                // The last check's findings and their trees are freed on
                // the pool, not on the loop that answers the editor.
                if let Some(old) = unit.checked.replace(checked) {
                    self.pool.spawn(move || drop(old));
                }
                self.publish_as_of(files, &versions);
                self.freed = true;
            }
            Err(why) => {
                // What waited for this check is published without it.
                let files: Vec<PathBuf> = unit.checked.iter().flat_map(|c| c.files().cloned()).collect();
                let message = format!("sqsguard: checking {} failed: {why}", unit.path.display());
                self.notify::<lsp_types::notification::ShowMessage>(lsp_types::ShowMessageParams {
                    typ: lsp_types::MessageType::ERROR,
                    message,
                });
                self.publish(files);
            }
        }
    }

    /// Every unit's last check whose findings hold for the document's
    /// current version (what code actions may edit).
    pub(super) fn checks_of<'a>(&'a self, path: &'a Path) -> impl Iterator<Item = &'a Checked> + 'a {
        let version = self.docs.get(path).map(|d| d.version);
        self.units.values().filter_map(|u| u.checked.as_ref()).filter(move |c| c.versions.get(path).copied() == version)
    }

    /// Publish the diagnostics of these files where they changed.
    fn publish(&mut self, files: impl IntoIterator<Item = PathBuf>) {
        let versions = self.docs.versions();
        self.publish_as_of(files, &versions);
    }

    /// Publish the diagnostics of these files where they changed, each
    /// open one as of its version in `versions`: from the checks that read
    /// that version only, and not while another check that reads the file
    /// is on its way (its findings would be missing, or of another
    /// version). That check publishes the file when it comes back.
    fn publish_as_of(&mut self, files: impl IntoIterator<Item = PathBuf>, versions: &HashMap<PathBuf, i32>) {
        let files: HashSet<PathBuf> = files.into_iter().collect();
        for file in files {
            let version = self.docs.get(&file).and(versions.get(&file).copied());
            let last = self.published.get(&file).copied();
            if last.is_some_and(|p| p.version.is_some() && version.is_some() && p.version > version)
                || self.awaited(&file)
            {
                continue;
            }
            let diagnostics = self.diagnostics_of(&file, version);
            let now = Published::of(version, &diagnostics);
            let unchanged = match last {
                Some(last) => last == now,
                None => diagnostics.is_empty() && version.is_none(),
            };
            if unchanged {
                continue;
            }
            // An open document by the URI the editor spelled it with.
            let Some(uri) = self.docs.uri_of(&file) else { continue };
            if diagnostics.is_empty() && version.is_none() {
                self.published.remove(&file);
            } else {
                self.published.insert(file.clone(), now);
            }
            self.notify::<lsp_types::notification::PublishDiagnostics>(PublishDiagnosticsParams {
                uri,
                diagnostics,
                version,
            });
        }
    }

    /// Whether a check on its way read `file` last time.
    fn awaited(&self, file: &Path) -> bool {
        self.units.values().any(|u| u.pending && u.checked.as_ref().is_some_and(|c| c.files().any(|f| f == file)))
    }

    /// What the last checks of every unit that read `file` at `version`
    /// (`None`: from disk) say about it, each once.
    fn diagnostics_of(&self, file: &Path, version: Option<i32>) -> Vec<Diagnostic> {
        let encoding = self.encoding;
        let mut out: Vec<Diagnostic> = Vec::new();
        let checks = self.units.values().filter_map(|u| u.checked.as_ref());
        for checked in checks.filter(|c| c.versions.get(file).copied() == version) {
            out.extend(checked.diagnostics.get(file).into_iter().flatten().cloned());
        }
        if is_config(file) {
            for problem in self.configs.problems().filter(|p| p.path == file) {
                out.extend(problem_diagnostics(&problem.error, encoding));
            }
        }
        out.sort_by(|a, b| order(a).cmp(&order(b)));
        out.dedup_by(|a, b| order(a) == order(b));
        out
    }

    pub(super) fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        let _ = self.sender.send(Message::Notification(Notification::new(N::METHOD.to_string(), params)));
    }

    /// Whether memory was freed since it was last given back, and no
    /// check is on its way: what the loop asks when the editor is quiet.
    pub(super) fn may_give_back(&self) -> bool {
        self.freed && !self.units.values().any(|u| u.pending)
    }

    /// Give the memory the checks freed back to the system, on every
    /// thread of the pool. Each check's trees are made on one thread and
    /// freed on another; mimalloc keeps such blocks until their thread
    /// collects them, and a server typed into all day would hold tens of
    /// megabytes it no longer uses. Collecting costs a few milliseconds,
    /// so it waits for a pause in the typing rather than delaying the next
    /// check.
    pub(super) fn give_back(&mut self) {
        self.freed = false;
        self.pool.spawn_broadcast(|_| {
            // SAFETY: mi_collect frees only blocks no one holds any more.
            unsafe { libmimalloc_sys::mi_collect(true) }
        });
    }

    /// Run `job` on the check pool.
    pub(super) fn spawn(&self, job: impl FnOnce() + Send + 'static) {
        self.pool.spawn(job);
    }
}

/// The order diagnostics are published in, and what makes two the same.
fn order(d: &Diagnostic) -> (lsp_types::Position, lsp_types::Position, Option<&str>, &str) {
    let code = match &d.code {
        Some(lsp_types::NumberOrString::String(code)) => Some(code.as_str()),
        _ => None,
    };
    (d.range.start, d.range.end, code, d.message.as_str())
}

/// What a panic said.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "an internal error".to_string())
}
