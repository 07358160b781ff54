//! The files a handler's code spans: the handler's file, the modules it
//! imports (Python `from pkg.mod import f`, `import pkg.mod as m`,
//! relative imports; JavaScript and TypeScript `import`, `require` and
//! re-exports), a Go package's files, a Java class's superclasses. Names
//! are looked up across them as the language binds them; each file is
//! parsed once per run (the units are shared by every handler of a
//! template), and at most [`MAX_FILES`] are opened for one handler.
//!
//! Only code of the repository is followed: a package (`boto3`,
//! `@middy/core`, `node_modules`) or a path that leaves the repository is
//! not read, and a name bound to it stays unresolved.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::lang::Language;
pub(super) use super::resolve::strip_dot;
use super::resolve::{base_class, node_candidates, python_candidates};
use super::unit::{Binding, Unit};
use sqsguard_source::{Overlay, Source};

/// The most files one handler's code is read from.
pub(crate) const MAX_FILES: usize = 200;

/// The most syntax nodes of all the files of one handler's code: each
/// file is bounded ([`super::unit::MAX_NODES`]), and so is their sum.
pub(crate) const MAX_UNIT_NODES: usize = 1_000_000;

/// How deep a chain of imports and re-exports is followed.
const MAX_DEPTH: usize = 16;

/// Every file parsed in a run, or why it was not.
pub(crate) type Units = HashMap<PathBuf, Result<Unit, String>>;

/// A definition: its file and its place in that file's `defs`.
pub(crate) type DefAt = (PathBuf, usize);

/// The files of one handler's code, as names are looked up in them.
pub(crate) struct Program<'a> {
    pub units: &'a mut Units,
    overlay: &'a Overlay,
    /// The repository: nothing outside it is read.
    root: &'a Path,
    /// The code's folder (SAM `CodeUri`, an archive's `source_dir`): where
    /// Python's absolute imports start.
    base: PathBuf,
    /// Files whose names are all visible to each other: a Go package, a
    /// Java class and its superclasses.
    family: Vec<PathBuf>,
    /// The files opened for this handler.
    opened: HashSet<PathBuf>,
    /// Set when [`MAX_FILES`] or [`MAX_UNIT_NODES`] was reached: what it
    /// left unread.
    pub capped: bool,
    /// The syntax nodes of the files opened for this handler, and which
    /// files they are.
    nodes: usize,
    counted: HashSet<PathBuf>,
    /// Modules already resolved, by the folder they are written in: a
    /// name looked up for every call asks again.
    resolved: HashMap<(PathBuf, String), Option<PathBuf>>,
    /// No file is opened that is not in `units` already (one file read
    /// alone).
    closed: bool,
}

impl<'a> Program<'a> {
    pub(crate) fn new(units: &'a mut Units, overlay: &'a Overlay, root: &'a Path, base: PathBuf) -> Self {
        Program {
            units,
            overlay,
            root,
            base,
            family: Vec::new(),
            opened: HashSet::new(),
            capped: false,
            nodes: 0,
            counted: HashSet::new(),
            resolved: HashMap::new(),
            closed: false,
        }
    }

    /// The files already in `units`, and no other.
    pub(crate) fn closed(units: &'a mut Units, overlay: &'a Overlay, root: &'a Path) -> Self {
        Program { closed: true, ..Program::new(units, overlay, root, PathBuf::new()) }
    }

    /// The unit of `file`, parsed.
    /// The files opened for this handler.
    pub(crate) fn opened(&self) -> impl Iterator<Item = &PathBuf> {
        self.opened.iter()
    }

    pub(crate) fn unit(&self, file: &Path) -> Option<&Unit> {
        self.units.get(file).and_then(|u| u.as_ref().ok())
    }

    /// Parse `file` (once per run) as `language`; why not, when it cannot be.
    pub(crate) fn load(&mut self, file: &Path, language: Language) -> Result<(), String> {
        if self.closed && !self.units.contains_key(file) {
            return Err(format!("{} is not read", super::shown(file)));
        }
        if !self.opened.contains(file) {
            if self.opened.len() >= MAX_FILES {
                self.capped = true;
                return Err(format!("more than {MAX_FILES} files are imported"));
            }
            self.opened.insert(file.to_path_buf());
        }
        let overlay = self.overlay;
        let unit = self.units.entry(file.to_path_buf()).or_insert_with(|| parse_file(file, language, overlay));
        let unit = unit.as_ref().map_err(Clone::clone)?;
        let nodes = unit.tree.root_node().descendant_count();
        if !self.counted.contains(file) {
            if self.nodes + nodes > MAX_UNIT_NODES && !self.counted.is_empty() {
                self.capped = true;
                return Err(format!("the files it imports have more than {MAX_UNIT_NODES} syntax nodes"));
            }
            self.nodes += nodes;
            self.counted.insert(file.to_path_buf());
        }
        Ok(())
    }

    /// Load a file a name may come from; silent when it cannot be.
    fn load_quiet(&mut self, file: &Path) -> bool {
        let Some(language) = Language::of_path(file) else { return false };
        self.load(file, language).is_ok()
    }

    /// A Go handler's package: the `.go` files (tests aside) of the folder
    /// of `file` that name its package.
    pub(crate) fn go_package(&mut self, file: &Path) {
        let folder = file.parent().unwrap_or(Path::new("")).to_path_buf();
        let package = self.unit(file).and_then(|u| u.package.clone());
        let mut files: Vec<PathBuf> =
            std::fs::read_dir(if folder.as_os_str().is_empty() { Path::new(".") } else { &folder })
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|x| x == "go") && !p.to_string_lossy().ends_with("_test.go"));
        files.sort();
        let files: Vec<PathBuf> =
            files.into_iter().map(|p| if folder.as_os_str().is_empty() { strip_dot(&p) } else { p }).collect();
        let mut family = vec![file.to_path_buf()];
        for f in files.into_iter().filter(|f| f != file) {
            if self.load_quiet(&f) && self.unit(&f).and_then(|u| u.package.clone()) == package {
                family.push(f);
            }
        }
        self.family = family;
    }

    /// A Java handler's class and the classes it extends, in the folder of
    /// `file` (its package).
    pub(crate) fn java_chain(&mut self, file: &Path) {
        let mut chain = vec![file.to_path_buf()];
        let mut at = file.to_path_buf();
        while chain.len() < MAX_DEPTH {
            let Some(base) = self
                .unit(&at)
                .and_then(|u| u.imports.iter().find(|i| i.binding == Binding::Every).map(|i| base_class(&i.source)))
            else {
                break;
            };
            let next = at.with_file_name(format!("{base}.java"));
            if chain.contains(&next)
                || !next.is_file()
                || sqsguard_source::repository::inside(&next, self.root).is_err()
            {
                break;
            }
            if !self.load_quiet(&next) {
                break;
            }
            chain.push(next.clone());
            at = next;
        }
        self.family = chain;
    }

    /// The definitions `name` means in `file`: its own functions, those of
    /// its family, what it imports under that name (followed to the file
    /// that defines it), what it re-exports whole; its own other bindings
    /// last. With `called`, also a function of a module it imports whole
    /// (`m.f()` calls `f` of `m`).
    pub(crate) fn lookup(&mut self, file: &Path, name: &str, called: bool) -> Vec<DefAt> {
        self.lookup_at(file, name, called, 0)
    }

    fn lookup_at(&mut self, file: &Path, name: &str, called: bool, depth: usize) -> Vec<DefAt> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let Some(unit) = self.unit(file) else { return Vec::new() };
        let own = |functions: bool| -> Vec<DefAt> {
            unit.defs
                .iter()
                .enumerate()
                .filter(|(_, d)| d.name == name && d.is_function == functions)
                .map(|(i, _)| (file.to_path_buf(), i))
                .collect()
        };
        let (functions, others) = (own(true), own(false));
        let in_family = self.family.iter().any(|f| f == file);
        if !functions.is_empty() && !in_family {
            return functions;
        }
        let imports = unit.imports.clone();
        let language = unit.language;
        if in_family {
            // A Java method may be declared abstract in the base and
            // written in the subclass: both are the family's.
            let mut found = functions;
            for member in self.family.clone().iter().filter(|f| *f != file) {
                if let Some(u) = self.unit(member) {
                    found.extend(
                        u.defs.iter().enumerate().filter(|(_, d)| d.name == name).map(|(i, _)| (member.clone(), i)),
                    );
                }
            }
            if !found.is_empty() {
                return found;
            }
        }
        for import in &imports {
            if let Binding::Name { name: imported, local } = &import.binding
                && local == name
            {
                let Some(target) = self.resolve(file, &import.source, language) else { continue };
                // `from . import mod`: a module, not a name of one.
                let found = self.lookup_at(&target, imported, false, depth + 1);
                if !found.is_empty() {
                    return found;
                }
            }
        }
        if !others.is_empty() {
            return others;
        }
        let mut found = Vec::new();
        for import in &imports {
            let every = import.binding == Binding::Every && language != Language::Java;
            let whole = called && matches!(import.binding, Binding::Module(_));
            // `from pkg import mod` then `mod.f()`.
            let module_named = match &import.binding {
                Binding::Name { name: imported, .. } if called && language == Language::Python => self
                    .resolve(file, &format!("{}.{imported}", import.source.trim_end_matches('.')), language)
                    .or_else(|| {
                        import
                            .source
                            .chars()
                            .all(|c| c == '.')
                            .then(|| self.resolve(file, &format!("{}{imported}", import.source), language))
                            .flatten()
                    }),
                _ => None,
            };
            if let Some(target) = module_named {
                found.extend(self.lookup_at(&target, name, false, depth + 1));
                continue;
            }
            if !(every || whole) {
                continue;
            }
            let Some(target) = self.resolve(file, &import.source, language) else { continue };
            found.extend(self.lookup_at(&target, name, false, depth + 1));
            if every && !found.is_empty() {
                break;
            }
        }
        found
    }

    /// The file a module written in `file` is, when it is code of the
    /// repository that can be read.
    pub(super) fn resolve(&mut self, file: &Path, module: &str, language: Language) -> Option<PathBuf> {
        let dir = file.parent().unwrap_or(Path::new(""));
        let key = (dir.to_path_buf(), module.to_string());
        if let Some(known) = self.resolved.get(&key) {
            return known.clone();
        }
        let found = self.resolve_new(dir, module, language);
        self.resolved.insert(key, found.clone());
        found
    }

    fn resolve_new(&mut self, dir: &Path, module: &str, language: Language) -> Option<PathBuf> {
        let candidates = match language {
            Language::Python => python_candidates(dir, &self.base, module),
            Language::JavaScript | Language::TypeScript | Language::Tsx => node_candidates(dir, module),
            Language::Go | Language::Java => Vec::new(),
        };
        let found = candidates.into_iter().find(|c| c.is_file())?;
        if found.components().any(|c| c.as_os_str() == "node_modules") {
            return None;
        }
        let found = sqsguard_source::repository::inside(&found, self.root).ok()?;
        let found = strip_dot(&found);
        self.load_quiet(&found).then_some(found)
    }
}

/// Read and parse one code file; why not, when it cannot be.
pub(crate) fn parse_file(path: &Path, language: Language, overlay: &Overlay) -> Result<Unit, String> {
    let source: Source =
        overlay.read(path).map_err(|e| format!("{} cannot be read: {}", super::shown(path), e.message))?;
    Unit::parse_kept(&source, language, overlay).map_err(|e| {
        let at = source.position(e.span.start);
        format!("{}:{}:{} was not parsed: {}", super::shown(path), at.line, at.column, e.why)
    })
}

/// Write `files` (path, text) under `root`, for tests.
#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test's files are written or it fails
pub(super) fn write_files(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::write_files as write;

    #[test]
    fn python_names_are_followed_into_the_package() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write(
            &root,
            &[
                ("src/app.py", "from orders.reply import respond\nimport orders.util as u\nfrom . import helpers\n"),
                ("src/orders/__init__.py", ""),
                ("src/orders/reply.py", "from .shape import respond\n"),
                ("src/orders/shape.py", "def respond(failed):\n    return {}\n"),
                ("src/orders/util.py", "def tidy():\n    pass\n"),
                ("src/helpers.py", "def log():\n    pass\n"),
            ],
        );
        let overlay = Overlay::default();
        let mut units = Units::new();
        let mut program = Program::new(&mut units, &overlay, &root, root.join("src"));
        let app = root.join("src/app.py");
        program.load(&app, Language::Python).unwrap();
        let found = program.lookup(&app, "respond", true);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].0.ends_with("orders/shape.py"), "{found:?}");
        assert!(program.lookup(&app, "tidy", true)[0].0.ends_with("orders/util.py"));
        assert!(program.lookup(&app, "log", true)[0].0.ends_with("src/helpers.py"));
        assert!(program.lookup(&app, "tidy", false).is_empty(), "only a call reaches into a module");
    }

    #[test]
    fn javascript_re_exports_and_requires_are_followed() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write(
            &root,
            &[
                ("index.js", "export { handler } from './handler.js';\nexport * from './more';\n"),
                (
                    "handler.ts",
                    "import { respond as reply } from './lib/respond';\nexport const handler = async (e: any) => reply();\n",
                ),
                ("lib/respond.ts", "export function respond() { return {}; }\n"),
                ("more.js", "const m = require('./cjs');\nconst { f } = require('./cjs');\nexports.g = () => m.h();\n"),
                ("cjs.js", "exports.h = function h() {};\nfunction f() {}\nmodule.exports.f = f;\n"),
            ],
        );
        let overlay = Overlay::default();
        let mut units = Units::new();
        let mut program = Program::new(&mut units, &overlay, &root, root.clone());
        let index = root.join("index.js");
        program.load(&index, Language::JavaScript).unwrap();
        let handler = program.lookup(&index, "handler", false);
        assert!(handler.len() == 1 && handler[0].0.ends_with("handler.ts"), "{handler:?}");
        let ts = root.join("handler.ts");
        assert!(program.lookup(&ts, "reply", true)[0].0.ends_with("lib/respond.ts"));
        let g = program.lookup(&index, "g", false);
        assert!(g[0].0.ends_with("more.js"), "{g:?}");
        let more = root.join("more.js");
        assert!(program.lookup(&more, "h", true)[0].0.ends_with("cjs.js"));
        assert!(program.lookup(&more, "f", true).iter().any(|(p, _)| p.ends_with("cjs.js")));
    }
}
