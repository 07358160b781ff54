//! `generate`, `audit`, `report merge`, `rules`, `explain` and `schema`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{AuditArgs, CatalogFormat, FailOn, GenFormat, GenTarget, GenerateArgs, SchemaOf};
use super::audit_out::Source;
use super::console::{Console, Stop, exit_status, settings_from, shown};
use super::formats::AuditFormat;
use sqsguard_finding::error::Error;
use sqsguard_rules as rules;

pub(super) fn run_generate(args: GenerateArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    use sqsguard_generate::{self as generate, Format as F, Request, Target as T};
    let output = (args.output.as_os_str() != "-").then_some(args.output.as_path());
    // The output must pass `lint` where it goes: the config that applies
    // there (the output folder's nearest existing ancestor, else here).
    let start = match output {
        Some(dir) => dir.ancestors().find(|d| d.is_dir()).map(std::path::Path::to_path_buf).unwrap_or_default(),
        None => std::env::current_dir().unwrap_or_default(),
    };
    let start = if start.as_os_str().is_empty() { std::path::PathBuf::from(".") } else { start };
    let config = settings_from(None, &start)?;
    let req = Request {
        spec: &args.spec,
        target: match args.target {
            GenTarget::Cloudformation => T::CloudFormation,
            GenTarget::Terraform => T::Terraform,
        },
        format: match args.format {
            GenFormat::Yaml => F::Yaml,
            GenFormat::Json => F::Json,
        },
        templates: args.templates.as_deref(),
        config: &config,
    };
    let outputs = generate::generate(&req)?;
    match output {
        Some(dir) => {
            for p in generate::write(&outputs, dir, args.force)? {
                console.eprintln(format_args!("wrote {}", shown(&p)));
            }
        }
        None => console.print(&generate::concatenated(&outputs))?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `report merge`: the shards' documents as one audit.
pub(super) fn run_merge(
    files: &[PathBuf],
    (format, output): (AuditFormat, Option<&std::path::Path>),
    (fail_on, require_queues): (FailOn, bool),
    console: &mut Console,
) -> Result<ExitCode, Stop> {
    let outcome = sqsguard_report::merge::merge(files).map_err(|e| Error::Usage(e.to_string()))?;
    super::audit_out::write(format, &outcome, Source::Reports(files), output, console)?;
    Ok(audit_status(fail_on, require_queues, &outcome, console))
}

/// An audit's exit status: `--fail-on`'s, and 1 when `--require-queues`
/// finds no queue read (said on standard error: the report alone looks clean).
fn audit_status(
    fail_on: FailOn,
    require_queues: bool,
    outcome: &sqsguard_lint::outcome::Outcome,
    console: &mut Console,
) -> ExitCode {
    if require_queues && outcome.files == 0 {
        console.eprintln(format_args!("sqsguard: no queues found, and --require-queues asks for at least one"));
        return ExitCode::from(1);
    }
    exit_status(fail_on, outcome)
}

/// `explain`: the page of the rule named by its code or its name, in any
/// case; anything else is a usage error that says what is near.
pub(super) fn explain(wanted: &str) -> Result<String, Error> {
    let wanted = wanted.trim();
    let found =
        rules::ALL.iter().find(|r| r.id.code.eq_ignore_ascii_case(wanted) || r.id.name.eq_ignore_ascii_case(wanted));
    match found {
        Some(rule) => Ok(rule.page()),
        None => {
            let words = rules::ALL.iter().flat_map(|r| [r.id.code, r.id.name]);
            let near =
                sqsguard_syntax::suggest::did_you_mean(wanted, words).map(|d| format!(": {d}")).unwrap_or_default();
            Err(Error::Usage(format!(
                "no rule is called `{wanted}`{near} (`sqsguard rules` lists every code and name)"
            )))
        }
    }
}

/// `schema`: the JSON Schema sqsguard itself validates the file with.
pub(super) fn schema(which: SchemaOf) -> &'static str {
    match which {
        SchemaOf::Config => sqsguard_lint::config::SCHEMA,
        SchemaOf::Pipeline => sqsguard_generate::SCHEMA,
    }
}

pub(super) fn catalog(format: CatalogFormat) -> String {
    match format {
        CatalogFormat::Json => {
            let rows: Vec<_> = rules::ALL
                .iter()
                .map(|r| serde_json::json!({"code": r.id.code, "name": r.id.name, "severity": r.severity, "summary": r.summary}))
                .collect();
            format!("{:#}\n", serde_json::Value::Array(rows))
        }
        CatalogFormat::Table => {
            let mut out = String::new();
            for r in rules::ALL {
                out.push_str(&format!("{}  {:<42} {:<8} {}\n", r.id.code, r.id.name, r.severity.as_str(), r.summary));
            }
            out
        }
        // The README's table (a test keeps the two the same).
        CatalogFormat::Markdown => {
            let mut out = String::from("| code | name | severity |\n|---|---|---|\n");
            for r in rules::ALL {
                let live = if r.kind == sqsguard_rules::Kind::Live { " (live)" } else { "" };
                out.push_str(&format!(
                    "| [{code}](rules/{code}.md) | {}{live} | {} |\n",
                    r.id.name,
                    r.severity_text(),
                    code = r.id.code
                ));
            }
            out
        }
    }
}

#[cfg(not(feature = "audit"))]
pub(super) fn run_audit(_: AuditArgs, _: &mut Console) -> Result<ExitCode, Stop> {
    Err(Error::Usage("this build has no live audit; build with `cargo build --release --features audit`".into()).into())
}

#[cfg(feature = "audit")]
pub(super) fn run_audit(args: AuditArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    use super::console::settings;
    use std::io::IsTerminal;
    let lookback = match sqsguard_syntax::duration::seconds(&args.lookback) {
        Some(s) if s >= 60 => s,
        _ => {
            let message = format!("--lookback {}: use a duration of at least a minute (30m, 1h, 1d)", args.lookback);
            return Err(Error::Usage(message).into());
        }
    };
    let usage = |message: String| -> Stop { Error::Usage(message).into() };
    let accounts = match (&args.accounts, args.organization) {
        (Some(list), _) => sqsguard_audit::Accounts::List(sqsguard_audit::scope::accounts(list).map_err(usage)?),
        (None, true) => sqsguard_audit::Accounts::Organization,
        (None, false) => sqsguard_audit::Accounts::Caller,
    };
    let shard = args.shard.as_deref().map(sqsguard_audit::scope::Shard::parse).transpose().map_err(usage)?;
    let pair_deadline = match sqsguard_syntax::duration::seconds(&args.pair_deadline) {
        Some(s) if s > 0 => std::time::Duration::from_secs(s),
        _ => return Err(usage(format!("--pair-deadline {}: use a duration (90s, 10m, 1h)", args.pair_deadline))),
    };
    if args.concurrency == 0 {
        return Err(usage("--concurrency 0: at least one request must be in flight".into()));
    }
    let max_attempts = match args.max_attempts.trim().parse::<u32>() {
        Ok(n @ 1..=20) => n,
        _ => return Err(usage(format!("--max-attempts {}: use a number from 1 to 20", args.max_attempts))),
    };
    let retry_budget = match sqsguard_syntax::duration::seconds(&args.retry_budget) {
        Some(s) if s > 0 => std::time::Duration::from_secs(s),
        _ => return Err(usage(format!("--retry-budget {}: use a duration (10s, 30s, 2m)", args.retry_budget))),
    };
    let opts = sqsguard_audit::Options {
        regions: args.region,
        all_regions: args.regions.is_some(),
        accounts,
        role_name: args.role_name,
        external_id: args.external_id,
        shard,
        pair_deadline,
        // Standard error only, whatever goes to standard output.
        progress: std::io::stderr().is_terminal(),
        progress_after: std::time::Duration::from_secs(2),
        profile: args.profile,
        endpoint_url: args.endpoint_url,
        queue_prefix: args.queue_prefix,
        lookback_seconds: lookback,
        concurrency: args.concurrency,
        connect_timeout: std::time::Duration::from_secs(3),
        max_attempts,
        retry_budget,
        settings: settings(args.config.as_deref())?,
        // The page lists every queue read, and draws their links.
        keep_models: args.format == AuditFormat::Html,
    };
    let audit = sqsguard_audit::run_with_progress(&opts, &mut |line| console.eprint(line))?;
    let source = Source::Live(&audit.models);
    super::audit_out::write(args.format, &audit.outcome, source, args.output.as_deref(), console)?;
    Ok(audit_status(args.fail_on, args.require_queues, &audit.outcome, console))
}
