//! One file of a lint: read it with the front-end that knows its kind,
//! and say what became of it (linted, skipped, an SQS000, a note) in a
//! [`Done`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::check::{self, Checked};
use crate::config::Config;
use crate::outcome::Skip;
use crate::session::Session;
use sqsguard_finding::Note;
use sqsguard_frontend::{self as frontend, Broken, Document, Loaded};
use sqsguard_model::{Model, Origin};
use sqsguard_source::display_path;

/// What one job gave.
#[derive(Clone, Default)]
pub(super) struct Done {
    pub(super) checked: Checked,
    /// The display paths of the files linted.
    pub(super) linted: Vec<String>,
    /// Every file read, as given.
    pub(super) files: Vec<PathBuf>,
    /// Files whose change changes where the findings are, though they were
    /// not linted here: a CDK app's source, where the findings of its
    /// synthesized templates point. `--fix` lints the job again when one
    /// is fixed; they are not code the job read (a worker among them is
    /// still read alone).
    pub(super) points_into: Vec<PathBuf>,
    /// The files read and not linted, and why.
    pub(super) skips: Vec<Skip>,
    /// Terraform: the local module folders this module called; Serverless:
    /// the files a service included (canonical).
    pub(super) called: Vec<PathBuf>,
    /// A file named on the command line that may be infrastructure and was
    /// not linted (its note says why).
    pub(super) unlinted: Option<String>,
    /// The keys of the run's Parameter values the files declare.
    pub(super) parameters: Vec<String>,
    /// The model checked (empty for a file that could not be read), kept
    /// only for a run that draws it ([`super::drawn`]).
    pub(super) model: Option<Arc<Model>>,
}

/// Lint the file at `path`, governed by `config`.
pub(super) fn lint_file(path: &Path, explicit: bool, session: &Session, config: &Config) -> Done {
    if sqsguard_source::is_serverless_code(path) {
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
    let loose = explicit && !sqsguard_source::has_template_extension(path);
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
        Err(e) => return Done::skip(path, &format!("it cannot be read: {}", e.message)),
    };
    match frontend::document_in(&file, &session.inputs.stage_for(config), &session.inputs.overlay) {
        Document::Loaded(loaded) => {
            // The model holds what it needs of the text (a large plan's
            // findings locate without it): free it before checking.
            drop(file);
            let inputs = &session.inputs;
            let mut points_into = Vec::new();
            let mut relocate = |findings: &mut Vec<sqsguard_finding::Finding>| {
                let cdk = &inputs.cdk;
                let relocated = sqsguard_cdk::relocate(path, findings, cdk, &inputs.overlay, !inputs.no_cdk_source);
                points_into.clone_from(&relocated.points_into);
                relocated
            };
            let mut done = checked_with(with_code(*loaded, session), config, &mut relocate);
            done.points_into = points_into;
            done
        }
        Document::Broken(b) => broken(b, config),
        Document::Unparsable(e) if loose => {
            if sqsguard_source::looks_like_infrastructure(path, file.text.as_bytes()) {
                skipped(path, &format!("it is not YAML or JSON ({}){NO_TEMPLATE_NAME}", e.message))
            } else {
                Done::skip(path, &format!("it is not YAML or JSON ({})", e.message))
            }
        }
        Document::Other if loose && !is_mapping(&file) => {
            if sqsguard_source::looks_like_infrastructure(path, file.text.as_bytes()) {
                skipped(path, &format!("its text is no YAML or JSON mapping{NO_TEMPLATE_NAME}"))
            } else {
                Done::skip(path, "its text is no YAML or JSON mapping")
            }
        }
        Document::Unparsable(e) if sqsguard_source::looks_like_infrastructure(path, file.text.as_bytes()) => {
            broken(Broken { file, span: e.span, message: e.message }, config)
        }
        Document::Other => match unread_kind(&file, &session.inputs.stage_for(config)) {
            Unread::NotLinted(why) => {
                let mut done = not_linted(path, why);
                if !explicit {
                    done.unlinted = None;
                }
                done
            }
            Unread::Skipped(why) => Done::skip(path, &why),
        },
        Document::Unparsable(e) => {
            Done::skip(path, &format!("it does not parse ({}) and does not look like infrastructure", e.message))
        }
    }
}

/// What became of a YAML or JSON file that no front-end read.
enum Unread {
    /// It may be infrastructure: a note, and a mark against `--fail-on`
    /// when it was named.
    NotLinted(&'static str),
    /// It is not (a workflow, a manifest, another cloud's service): skipped,
    /// the reason shown by `--show-skipped` only.
    Skipped(String),
}

/// Why a file that no front-end read may still be infrastructure, or why
/// it is not. A Serverless Framework service is told by its top-level
/// `service` and `provider` only: the same keys deeper (a workflow step's
/// `with:`, an Ansible task, a policy's condition) make no service.
fn unread_kind(file: &sqsguard_source::SourceFile, stage: &sqsguard_frontend::stage::Stage) -> Unread {
    use sqsguard_frontend::serverless::{Provider, provider_for};
    match parsed(file).as_ref().and_then(|root| provider_for(root, stage)) {
        Some(Provider::Other(name)) => {
            return Unread::Skipped(format!(
                "a Serverless Framework service for provider `{name}`, not `aws`: it deploys no SQS pipeline"
            ));
        }
        Some(Provider::Unwritten) => {
            return Unread::NotLinted(
                "it is a Serverless Framework service whose provider is a variable sqsguard does not resolve, so sqsguard cannot tell what it deploys",
            );
        }
        Some(Provider::Aws) | None => {}
    }
    if sqsguard_source::mentions_cloudformation(file.text.as_bytes()) {
        Unread::NotLinted(
            "it looks like infrastructure (it mentions AWSTemplateFormatVersion, AWS:: or Transform) but is no template, module or plan sqsguard reads",
        )
    } else {
        Unread::Skipped(OTHER.to_string())
    }
}

/// A file that may be infrastructure and was not linted: a note, and when
/// it was named on the command line, a mark against `--fail-on`.
fn not_linted(path: &Path, why: &str) -> Done {
    let note = Note { origin: Origin::path(path), message: format!("not linted: {why}") };
    let checked = Checked { notes: vec![note], ..Checked::default() };
    Done { checked, unlinted: Some(display_path(path)), ..Done::skip(path, why) }
}

/// Why a YAML or JSON file that is no template was skipped.
const OTHER: &str =
    "YAML or JSON, but no CloudFormation or SAM template, Serverless Framework service, Terraform plan or CDK output";

impl Done {
    /// A file read and not linted, and why: nothing else.
    fn skip(path: &Path, why: &str) -> Done {
        Done { skips: vec![Skip { file: display_path(path), why: why.to_string() }], ..Done::default() }
    }
}

/// What the notes of a loosely named file that is no template end with.
const NO_TEMPLATE_NAME: &str = ", and its name is no template's (.yaml, .yml, .json, .template, .tf, .tfvars), so it is taken for another kind of file";

/// A file named on the command line that is no template: a note, counted
/// as skipped, and no mark against `--fail-on`.
fn skipped(path: &Path, why: &str) -> Done {
    let note = Note { origin: Origin::path(path), message: format!("not linted: {why}") };
    Done { checked: Checked { notes: vec![note], ..Checked::default() }, ..Done::skip(path, why) }
}

/// Whether a file that parsed holds a mapping at its top, as every
/// template does (a Markdown file may parse as one long YAML string).
fn is_mapping(file: &sqsguard_source::SourceFile) -> bool {
    parsed(file).is_some_and(|root| root.as_map().is_some())
}

/// The tree of a file that parses.
fn parsed(file: &sqsguard_source::SourceFile) -> Option<sqsguard_syntax::Node> {
    let parsed = if sqsguard_syntax::is_json(&file.path, &file.text) {
        sqsguard_syntax::json::parse(file)
    } else {
        sqsguard_syntax::yaml::parse(file)
    };
    parsed.ok()
}

/// A file that looks like infrastructure and could not be read: linted,
/// with its SQS000.
fn broken(b: Broken, config: &Config) -> Done {
    let loaded = Loaded { files: vec![b.file.path.clone()], broken: vec![b], ..Loaded::default() };
    checked(loaded, config)
}

/// `loaded` with the code of its functions read, unless `--no-code`.
pub(super) fn with_code(mut loaded: Loaded, session: &Session) -> Loaded {
    if !session.inputs.no_code {
        sqsguard_code::read(&mut loaded, &session.inputs.overlay);
    }
    loaded
}

pub(super) fn checked(loaded: Loaded, config: &Config) -> Done {
    checked_with(loaded, config, &mut |_| check::Relocated::default())
}

/// [`checked`], the findings moved by `relocate` before suppressions.
fn checked_with(
    loaded: Loaded,
    config: &Config,
    relocate: &mut dyn FnMut(&mut Vec<sqsguard_finding::Finding>) -> check::Relocated,
) -> Done {
    let linted = loaded.files.iter().map(|p| display_path(p)).collect();
    let files = loaded.files.clone();
    let called = loaded.called.clone();
    let parameters = loaded.parameters.clone();
    let (checked, model) = check::check_keeping(loaded, config, relocate);
    let model = Some(Arc::new(model));
    Done {
        checked,
        linted,
        files,
        points_into: Vec::new(),
        skips: Vec::new(),
        called,
        unlinted: None,
        parameters,
        model,
    }
}

/// Have the pool free a job's model, on whichever of its threads is free
/// soon after: a large one is millions of allocations (90 ms for a 200 MB
/// plan's), which the run no longer waits for (a lint goes on to its
/// report). A run that ends first leaves it to the exit.
pub(super) fn drop_aside(model: Option<Arc<Model>>) {
    if let Some(model) = model {
        rayon::spawn(move || drop(model));
    }
}

/// A code file's own findings and notes: those of the queues its literals
/// name (read by their templates' jobs, and reported there) are dropped.
pub(super) fn own_only(mut done: Done) -> Done {
    if done.model.as_ref().is_none_or(|m| m.queues.is_empty()) {
        return done;
    }
    let own = |origin: &Origin| match origin {
        Origin::File { file, .. } => done.files.contains(&file.path),
        Origin::Live(_) => false,
    };
    let findings = std::mem::take(&mut done.checked.findings);
    let notes = std::mem::take(&mut done.checked.notes);
    let (findings, notes) = (
        findings.into_iter().filter(|f| own(&f.origin)).collect(),
        notes.into_iter().filter(|n| own(&n.origin)).collect(),
    );
    done.checked.findings = findings;
    done.checked.notes = notes;
    done
}
