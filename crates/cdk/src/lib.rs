//! CDK apps: findings where the construct is written.
//!
//! A template `cdk synth` wrote belongs to the app whose `cdk.json` sits
//! above its cloud assembly. Each finding on one of its resources (which
//! carries its construct path, `Metadata` `aws:cdk:path`) is moved to the
//! construct that owns the resource in the app's source: the property
//! that sets the offending value, when it is written in the construct's
//! props, else the construct's creation. The template's place is kept as
//! the finding's `synthesized` location. The construct is found from the
//! creation stack the assembly recorded ([`app`]), else by walking the
//! path's ids through the app's source ([`index`], [`locate`]). One not
//! found, or found twice, stays in the template with a note saying why:
//! never a guess.
//!
//! A synthesized template is never fixed: the next `cdk synth` writes it
//! again. Its findings carry no fix, and their hint names the construct's
//! property.

mod app;
mod assets;
mod files;
mod index;
mod locate;
mod lookup;
mod syntax;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use sqsguard_edit::cdk;
use sqsguard_finding::{Finding, Note, Unfixable};
use sqsguard_model::code::Language;
use sqsguard_model::{CdkOwner, Origin, Suppression};
use sqsguard_source::{Overlay, display_path};
use syntax::Syntax;

use app::App;
use locate::{Found, Owner, Source};
use lookup::Lookup;

/// The apps of a run, each read once however many of its templates are
/// linted (they are linted in parallel).
#[derive(Debug, Default)]
pub struct Apps {
    /// Each app's cell is filled by the first of its templates to ask;
    /// the others wait for it rather than read the app again.
    /// An app is read again through another overlay (`--fix`'s next pass
    /// reads the texts the last one fixed).
    read: Mutex<HashMap<PathBuf, Read>>,
}

/// An app's cell, and the overlay it is read through.
type Read = (Overlay, Arc<OnceLock<Located>>);

/// An app, its source files found (each parsed when first needed).
struct Located {
    app: App,
    lookup: Lookup,
    /// Construct paths to classes (`tree.json`): read when a search by
    /// ids needs them.
    classes: OnceLock<Result<HashMap<String, String>, String>>,
    /// The app's files by name, for the handlers of asset folders: read
    /// when one has a finding.
    originals: OnceLock<assets::Originals>,
    /// What was not understood of the app as a whole: said once a run.
    problems: Vec<Note>,
    told: AtomicBool,
    /// The source files whose failure to parse was said.
    told_unparsed: Mutex<std::collections::HashSet<PathBuf>>,
}

impl std::fmt::Debug for Located {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Located").field("app", &self.app.dir).finish_non_exhaustive()
    }
}

use files::source_files;
pub use files::synthesized_templates;

/// The folder of the CDK app whose assembly holds `template`.
pub fn app_dir(template: &Path) -> Option<PathBuf> {
    App::dir_of(template).map(|(dir, _)| dir)
}

/// Whether `template` is one `cdk synth` wrote, in a CDK app's assembly.
pub fn is_synthesized(template: &Path) -> bool {
    template.to_string_lossy().ends_with(".template.json") && App::dir_of(template).is_some()
}

/// Why a synthesized template's finding has no fix.
const NOT_EDITED: Unfixable = Unfixable("a template `cdk synth` wrote is not edited: set the construct's property");

/// Why a construct of a Java or Go app has no fix.
const NOT_WRITTEN_HERE: Unfixable =
    Unfixable("fixes are written in TypeScript, JavaScript and Python apps: set the construct's property by hand");

/// What moving a template's findings gave, beyond the findings.
#[derive(Debug, Default)]
pub struct Relocated {
    /// What could not be followed.
    pub notes: Vec<Note>,
    /// The app's source files read: the findings point into them.
    pub points_into: Vec<PathBuf>,
    /// The suppression comments of the source files findings moved to.
    pub suppressions: Vec<Suppression>,
    /// Where each moved finding's construct is created: (resource, file,
    /// line), the line a suppression comment covers.
    pub declared: Vec<(String, PathBuf, usize)>,
}

/// Move the findings of `template`, a synthesized template, to the
/// constructs of its app's source. A template of no CDK app is left as it
/// is. With `to_source` false (`--no-cdk-source`) they stay in the
/// template, and still carry no fix.
pub fn relocate(
    template: &Path,
    findings: &mut [Finding],
    apps: &Apps,
    overlay: &Overlay,
    to_source: bool,
) -> Relocated {
    let mut out = Relocated::default();
    let Some((dir, assembly)) = App::dir_of(template) else { return out };
    if !to_source {
        for f in findings.iter_mut().filter(|f| f.remedy.is_some() && in_assembly(&f.origin, &assembly)) {
            f.autofix = Some(Err(NOT_EDITED));
        }
        return out;
    }
    let cell = apps.located(dir, assembly.clone(), overlay);
    let Some(located) = cell.get() else { return out };
    let notes = &mut out.notes;
    if !located.told.swap(true, Ordering::Relaxed) {
        notes.extend(located.problems.iter().cloned());
    }
    let traces = app::traces_for(template);
    let classes = || located.classes.get_or_init(|| app::classes(&located.app.assembly)).as_ref().map_err(Clone::clone);
    let source = Source { lookup: &located.lookup, traces: &traces, classes: &classes };
    let mut unfound: HashMap<String, String> = HashMap::new();
    let mut sources = Vec::new();
    for f in findings.iter_mut() {
        // A handler file of the app's own (not an asset's copy) keeps its
        // place and its fix.
        if !in_assembly(&f.origin, &assembly) {
            continue;
        }
        // A handler in an asset folder: the app's file it copies.
        if !is_file(&f.origin, template) {
            let originals = located.originals.get_or_init(|| assets::Originals::of(&located.app.dir, &assembly));
            if originals.move_to_original(f) {
                continue;
            }
        }
        // Never the assembly: the next synth writes it again.
        if f.remedy.is_some() {
            f.autofix = Some(Err(NOT_EDITED));
        }
        let Some(path) = f.context.construct.clone() else { continue };
        if located.app.language.is_err() {
            continue;
        }
        let owner = Owner::of(&path);
        match source.locate(&owner) {
            Found::At(made) => {
                move_to(f, made, source.kind(&owner, made));
                f.context.stale = located.lookup.file(made.at).is_some_and(|file| file.newer);
                out.declared.push((f.resource.clone(), made.file.path.clone(), made.start.line));
                if !sources.iter().any(|s: &sqsguard_source::Source| s.path == made.file.path) {
                    sources.push(made.file.clone());
                }
            }
            Found::No(why) => {
                unfound.entry(path.to_string()).or_insert(why);
            }
        }
    }
    for (path, why) in unfound {
        let message = format!(
            "CDK construct {path} was not located in the app's source ({why}): its findings stay in the synthesized template"
        );
        out.notes.push(Note { origin: Origin::path(template), message });
    }
    out.suppressions = sources.iter().flat_map(sqsguard_frontend::comment::scan).collect();
    if let Ok(mut told) = located.told_unparsed.lock() {
        for (path, why) in located.lookup.unparsed() {
            if told.insert(path.to_path_buf()) {
                let message = format!("CDK app source not read ({why}): constructs it creates are not located");
                out.notes.push(Note { origin: Origin::path(path), message });
            }
        }
    }
    out.points_into = located.lookup.read_files();
    out
}

/// Point `f` at the construct `made`: at the property its fix sets, when
/// the construct's props write it in place, else at the creation; and fix
/// it there when the property is a literal, or absent from props written
/// in place (`sqsguard_edit::cdk`).
fn move_to(f: &mut Finding, made: &index::Made, kind: Option<CdkOwner>) {
    let property = f
        .remedy
        .as_ref()
        .filter(|r| r.resource == f.resource)
        .and_then(|r| r.field)
        .zip(kind)
        .and_then(|(field, kind)| field.cdk(kind))
        .or_else(|| code_property(f, kind));
    let language = Syntax::of_path(&made.file.path);
    let python = language == Some(Syntax::Code(Language::Python));
    let written = property.map(|p| match language {
        Some(Syntax::Code(Language::Python)) => cdk::snake(p),
        // Go's props are structs of exported fields, C#'s properties.
        Some(Syntax::Code(Language::Go) | Syntax::CSharp) => {
            p.get(..1).unwrap_or_default().to_ascii_uppercase() + p.get(1..).unwrap_or_default()
        }
        _ => p.to_string(),
    });
    let at =
        written.as_ref().and_then(|name| made.props.iter().find(|p| &p.name == name)).map_or(made.head, |p| p.span);
    f.context.synthesized = f.origin.location();
    f.origin = Origin::file(&made.file, at);
    if let Some(name) = &written {
        f.fix = Arc::from(format!("{} (in the app's source: the construct's `{name}`)", f.fix));
    }
    if matches!(language, Some(Syntax::Code(Language::Java | Language::Go) | Syntax::CSharp)) {
        f.autofix = f.remedy.as_ref().map(|_| Err(NOT_WRITTEN_HERE));
    } else if let (Some(remedy), Some(kind)) = (f.remedy.as_ref().filter(|r| r.resource == f.resource), kind) {
        let construct = cdk::Construct {
            file: made.file.clone(),
            python,
            props: made.props.clone(),
            close: made.insert.map(|(close, _)| close),
            last: made.insert.and_then(|(_, last)| last),
        };
        f.autofix = Some(cdk::fix(remedy, kind, &construct));
    }
}

impl Apps {
    fn located(&self, dir: PathBuf, assembly: PathBuf, overlay: &Overlay) -> Arc<OnceLock<Located>> {
        let cell = match self.read.lock() {
            Ok(mut map) => {
                let entry = map.entry(dir.clone()).or_insert_with(|| (overlay.clone(), Arc::default()));
                if !entry.0.same_texts(overlay) {
                    *entry = (overlay.clone(), Arc::default());
                }
                Arc::clone(&entry.1)
            }
            // A poisoned lock is a panic elsewhere: read the app alone.
            Err(_) => Arc::default(),
        };
        cell.get_or_init(|| Located::read(App::read(dir, assembly), overlay));
        cell
    }
}

impl Located {
    fn read(app: App, overlay: &Overlay) -> Located {
        let mut problems = Vec::new();
        let at_app = |message: String| Note { origin: Origin::path(&app.dir.join(app::CDK_JSON)), message };
        let lookup = match app.language {
            Ok(language) => {
                let paths = source_files(&app.dir, &app.assembly, language);
                let newest = paths
                    .iter()
                    .filter_map(|p| Some((std::fs::metadata(p).and_then(|m| m.modified()).ok()?, p)))
                    .max_by_key(|(time, _)| *time);
                if let (Some((time, path)), Some(synthesized)) = (newest, app.synthesized)
                    && time > synthesized
                {
                    problems.push(at_app(format!(
                        "the cloud assembly {} is older than the app's source ({}): run `cdk synth` again, its findings may be stale",
                        display_path(&app.assembly),
                        display_path(path)
                    )));
                }
                Lookup::new(&app.dir, paths, language, overlay.clone(), app.synthesized)
            }
            Err(ref why) => {
                problems.push(at_app(format!("{why}: the app's findings stay in its synthesized templates")));
                Lookup::default()
            }
        };
        Located {
            app,
            lookup,
            classes: OnceLock::new(),
            originals: OnceLock::new(),
            problems,
            told: AtomicBool::new(false),
            told_unparsed: Mutex::default(),
        }
    }
}

/// Whether a finding is in the cloud assembly: a template, or the copy
/// of a handler in an asset folder.
fn in_assembly(origin: &Origin, assembly: &Path) -> bool {
    match origin {
        Origin::File { file, .. } => app::within(&file.path, assembly),
        Origin::Live(_) => false,
    }
}

/// Whether a finding is in `path`.
fn is_file(origin: &Origin, path: &Path) -> bool {
    matches!(origin, Origin::File { file, .. } if file.path == path)
}

/// The handler rules (SQS2xx) are about a function's code: the `code`
/// property that gives it, when the finding is in the template (inline
/// code; a handler file keeps its own place).
fn code_property(f: &Finding, kind: Option<CdkOwner>) -> Option<&'static str> {
    (kind == Some(CdkOwner::Function) && f.code().starts_with("SQS2")).then_some("code")
}
