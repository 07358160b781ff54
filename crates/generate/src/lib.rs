//! `sqsguard generate`: a pipeline spec in, CloudFormation or Terraform
//! out, correct by construction.
//!
//! 1. `spec`: the YAML spec, validated against `schemas/pipeline.schema.json`
//!    (errors point at the spec's line, exit 2);
//! 2. `plan`: every value computed with its reason;
//! 3. `refuse`: the rules run on the model of what the plan emits, located
//!    in the spec; a finding there refuses the spec with that rule's code
//!    and words, at the spec's line (exit 1);
//! 4. `render`: laid out through the handlebars templates;
//! 5. the output is parsed back and linted with the same rules as
//!    `sqsguard lint`; any finding aborts (a bug, or a broken --templates);
//! 6. files are written atomically, never over existing ones without --force
//!    (or printed, by the command line).

pub(crate) mod literal;
pub(crate) mod plan;
pub(crate) mod produce;
pub(crate) mod refuse;
pub(crate) mod render;
pub(crate) mod spec;

use std::path::{Path, PathBuf};

use sqsguard_finding::error::Error;
use sqsguard_finding::{Finding, FindingContext, FindingData, Severity};
use sqsguard_frontend::{self as frontend, Document, terraform};
use sqsguard_lint::check;
use sqsguard_lint::config::Config;
use sqsguard_model::{Dialect, Field, Origin};
use sqsguard_source::{Source, SourceFile, Span};

pub const SCHEMA: &str = include_str!("../../../schemas/pipeline.schema.json");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    CloudFormation,
    Terraform,
}

impl Target {
    /// The vocabulary of its files, which refusals speak too.
    pub(crate) fn dialect(self) -> Dialect {
        match self {
            Target::CloudFormation => Dialect::CloudFormation,
            Target::Terraform => Dialect::Terraform,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Json,
}

pub struct Request<'a> {
    pub spec: &'a Path,
    pub target: Target,
    pub format: Format,
    pub templates: Option<&'a Path>,
    /// The settings of the `.sqsguard.yaml` that applies where the output
    /// goes: the output must pass `lint` there.
    pub config: &'a Config,
}

/// The generated files, in order.
pub fn generate(req: &Request<'_>) -> Result<Vec<render::Output>, Error> {
    let file = sqsguard_source::read(req.spec)
        .map_err(|e| Error::Unusable { path: req.spec.to_path_buf(), message: e.message })?;
    let root = sqsguard_syntax::yaml::parse(&file)
        .map_err(|e| located(&file, vec![(e.span, e.message, "fix the YAML".into())]))?;
    validate_schema(&file, &root)?;
    let spec = spec::read(&root).map_err(|(m, s)| located(&file, vec![(s, m, String::new())]))?;
    let problems = spec_problems(&spec);
    if !problems.is_empty() {
        return Err(located(&file, problems));
    }
    let plan = plan::plan(&spec, &req.config.options);
    let refusals = refuse::refusals(&spec, &plan, &file, req.config, req.target.dialect());
    if !refusals.is_empty() {
        return Err(Error::Refused {
            findings: refusals,
            message: Some("refused: the spec would break these rules, so nothing was written".into()),
        });
    }

    let hb = render::registry(req.templates).map_err(Error::Usage)?;
    let outputs: Vec<render::Output> = match req.target {
        Target::CloudFormation => {
            let yaml = render::render(&hb, "cloudformation.yaml", &plan).map_err(Error::Usage)?;
            let (text, ext) = match req.format {
                Format::Yaml => (yaml, "yaml"),
                Format::Json => (render::cloudformation_json(&yaml).map_err(said_refused)?, "json"),
            };
            vec![render::Output { name: format!("{}.{ext}", plan.pipeline), text }]
        }
        Target::Terraform => ["main.tf", "variables.tf", "outputs.tf"]
            .iter()
            .map(|t| render::render(&hb, t, &plan).map(|text| render::Output { name: t.to_string(), text }))
            .collect::<Result<_, _>>()
            .map_err(Error::Usage)?,
    };
    self_check(&outputs, req)?;
    Ok(outputs)
}

/// A refusal that is one sentence.
fn said_refused(message: String) -> Error {
    Error::Refused { findings: Vec::new(), message: Some(message) }
}

/// Lint what was generated with the rules `lint` uses, and the settings of
/// the project it goes to: the generator promises output that passes them.
fn self_check(outputs: &[render::Output], req: &Request<'_>) -> Result<(), Error> {
    let sources: Vec<Source> =
        outputs.iter().map(|o| SourceFile::new(PathBuf::from(&o.name), o.text.clone())).collect();
    let loaded = match req.target {
        Target::CloudFormation => match frontend::document(&sources[0], &frontend::stage::Stage::default()) {
            Document::Loaded(loaded) => *loaded,
            Document::Other | Document::Unparsable(_) | Document::Broken(_) => {
                return Err(said_refused(format!(
                    "the generated {} does not parse as a CloudFormation template (check --templates)",
                    outputs[0].name
                )));
            }
        },
        Target::Terraform => terraform::load_sources(sources),
    };
    let findings = check::check(loaded, req.config).findings;
    if findings.is_empty() {
        return Ok(());
    }
    Err(Error::Refused {
        findings,
        message: Some(
            "the generated output does not pass sqsguard's own rules, so nothing was written (a bug in sqsguard, or in the --templates used)".into(),
        ),
    })
}

/// The outputs as one text for standard output: each file under a
/// `# ---- name ----` line when there are several.
pub fn concatenated(outputs: &[render::Output]) -> String {
    let mut out = String::new();
    for (i, o) in outputs.iter().enumerate() {
        if outputs.len() > 1 {
            out.push_str(&format!("{}# ---- {} ----\n", if i > 0 { "\n" } else { "" }, o.name));
        }
        out.push_str(&o.text);
    }
    out
}

/// Write the outputs to `dir`, each file atomically, none over an existing
/// file unless `force`.
pub fn write(outputs: &[render::Output], dir: &Path, force: bool) -> Result<Vec<PathBuf>, Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let paths: Vec<PathBuf> = outputs.iter().map(|o| dir.join(&o.name)).collect();
    let existing: Vec<String> = paths.iter().filter(|p| p.exists()).map(|p| p.display().to_string()).collect();
    if !existing.is_empty() && !force {
        return Err(Error::Usage(format!("would overwrite {} (use --force to replace)", existing.join(", "))));
    }
    for (o, path) in outputs.iter().zip(&paths) {
        sqsguard_source::write_named(path, o.text.as_bytes()).map_err(|e| Error::io(path, e))?;
    }
    Ok(paths)
}

fn validate_schema(file: &Source, root: &sqsguard_syntax::Node) -> Result<(), Error> {
    let problems: Vec<_> = sqsguard_syntax::schema::validate(SCHEMA, root, "the spec")
        .into_iter()
        .map(|(span, message)| {
            (
                span,
                message,
                "`sqsguard schema pipeline` prints every key a spec takes, with what each means".to_string(),
            )
        })
        .collect();
    if problems.is_empty() { Ok(()) } else { Err(located(file, problems)) }
}

/// Settings the schema cannot express but that make no pipeline.
fn spec_problems(spec: &spec::Spec) -> Vec<(Span, String, String)> {
    let mut out = Vec::new();
    if !spec.fifo.value {
        for (what, at) in [
            ("content_based_deduplication", &spec.content_based_deduplication),
            ("high_throughput", &spec.high_throughput),
        ] {
            if at.value {
                out.push((
                    at.span,
                    format!("queue.{what} needs a FIFO queue"),
                    "set queue.fifo: true, or remove it".into(),
                ));
            }
        }
    }
    if spec.consumer.value == spec::ConsumerKind::Lambda && spec.function.is_none() && spec.pipeline.value.len() > 55 {
        out.push((
            spec.pipeline.span,
            format!(
                "the emitted function would be named {}-consumer, longer than the 64 characters Lambda allows",
                spec.pipeline.value
            ),
            "shorten pipeline to 55 characters, or name an existing function in consumer.function".into(),
        ));
    }
    for (what, at, field) in [
        ("consumer.function_timeout", spec.function_timeout.as_ref(), Field::Timeout),
        ("consumer.batching_window", Some(&spec.batching_window), Field::BatchingWindow),
    ] {
        let (Some(at), Some(range)) = (at, field.range()) else { continue };
        if !i64::try_from(at.value).is_ok_and(|v| range.contains(&v)) {
            let message = format!("{what} {} s: Lambda allows {} to {} s", at.value, range.start(), range.end());
            out.push((at.span, message, String::new()));
        }
    }
    if spec.fifo.value && spec.batching_window.value > 0 {
        let w = &spec.batching_window;
        out.push((
            w.span,
            "consumer.batching_window: Lambda does not batch by time on FIFO queues".into(),
            "remove it".into(),
        ));
    }
    if spec.fifo.value {
        let payload = spec.payload.as_ref();
        if payload.and_then(|p| p.group_id.as_ref()).is_none() {
            let span = payload.map_or(spec.fifo.span, |p| p.span);
            out.push((
                span,
                "a FIFO queue needs payload.group_id: the MessageGroupId format producers send".into(),
                "add payload.group_id, for example \"{customerId}\"".into(),
            ));
        }
        if !spec.content_based_deduplication.value && payload.and_then(|p| p.dedup_id.as_ref()).is_none() {
            let span = payload.map_or(spec.fifo.span, |p| p.span);
            out.push((span, "a FIFO queue without content-based deduplication needs payload.dedup_id: the MessageDeduplicationId format producers send".into(), "add payload.dedup_id built from fields that identify the event, for example \"{orderId}-{version}\"".into()));
        }
    }
    out
}

/// What a spec problem is reported as: no rule, a diagnostic of the spec.
static INVALID_SPEC: sqsguard_finding::RuleId = sqsguard_finding::RuleId { code: "spec", name: "invalid-spec" };

/// Problems with the spec, located in it.
fn located(file: &Source, problems: Vec<(Span, String, String)>) -> Error {
    let findings = problems
        .into_iter()
        .map(|(span, message, fix)| {
            Finding::from(FindingData {
                rule: &INVALID_SPEC,
                severity: Severity::Error,
                resource: String::new(),
                related: Vec::new(),
                origin: Origin::file(file, span),
                message,
                fix: fix.into(),
                remedy: None,
                autofix: None,
                context: FindingContext::default(),
            })
        })
        .collect();
    Error::Spec { findings, message: None }
}
