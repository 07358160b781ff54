//! The command line (README.md and docs/ are its reference).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::config::{self, Config};
use crate::error::Error;
use crate::finding::{Finding, Severity};
use crate::lint;
use crate::model::Origin;
use crate::outcome::Outcome;
use crate::report::{self, pretty::Style, printable};
use crate::rules;

#[derive(Parser, Debug)]
#[command(name = "sqsguard", version, about = "Keeps AWS SQS pipelines correct", max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check CloudFormation, SAM, Serverless Framework and Terraform (HCL, JSON or plan JSON) against the rule catalog.
    Lint(LintArgs),
    /// Turn a pipeline spec into CloudFormation or Terraform that passes every rule.
    Generate(GenerateArgs),
    /// Check live queues, event source mappings and alarms (read-only).
    Audit(AuditArgs),
    /// Work with reports: `report merge` combines the JSON outputs of audit shards.
    #[command(subcommand)]
    Report(ReportCommand),
    /// List the rule catalog.
    Rules {
        #[arg(long, value_enum, default_value_t = CatalogFormat::Table)]
        format: CatalogFormat,
    },
    /// Print a rule's documentation.
    Explain {
        /// A rule code, such as SQS001.
        code: String,
    },
}

#[derive(Subcommand, Debug)]
enum ReportCommand {
    /// Merge the `--format json` outputs of `audit --shard I/N` runs into one
    /// report, with the exit status the whole audit would have had.
    Merge {
        /// The JSON documents, one per shard.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = Format::Pretty)]
        format: Format,
        #[arg(long, value_enum, default_value_t = FailOn::Warning)]
        fail_on: FailOn,
    },
}

#[derive(clap::Args, Debug)]
struct LintArgs {
    /// Files or folders (folders are walked respecting .gitignore).
    #[arg(default_value = ".")]
    paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Pretty)]
    format: Format,
    /// Exit 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    fail_on: FailOn,
    /// Only these rule codes (or code prefixes), comma-separated.
    #[arg(long, value_delimiter = ',')]
    select: Vec<String>,
    /// Drop these rule codes (or code prefixes), comma-separated.
    #[arg(long, value_delimiter = ',')]
    ignore: Vec<String>,
    /// The config file (default: .sqsguard.yaml in this folder or the nearest above).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Report only findings this baseline does not record.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// Record today's findings in FILE (then `--baseline FILE` fails only on new ones).
    #[arg(long, value_name = "FILE")]
    write_baseline: Option<PathBuf>,
    /// Terraform variable values (repeatable), loaded after terraform.tfvars
    /// and *.auto.tfvars, as `terraform plan -var-file`.
    #[arg(long = "var-file", value_name = "FILE")]
    var_files: Vec<PathBuf>,
    /// Serverless Framework: the stage linted (`${sls:stage}`, `${opt:stage}`, provider.stage).
    #[arg(long, value_name = "NAME")]
    stage: Option<String>,
    /// Serverless Framework: `${param:KEY}` (repeatable).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// CloudFormation/SAM Parameter values, as `sam deploy --parameter-overrides`
    /// takes them (several after the flag, or the flag repeated); they win over --samconfig.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    parameter_overrides: Vec<String>,
    /// The SAM CLI's samconfig.toml (or .yaml): its `parameter_overrides`, as `sam deploy` reads them.
    #[arg(long, value_name = "FILE")]
    samconfig: Option<PathBuf>,
    /// The samconfig environment read (default: `default`).
    #[arg(long, value_name = "ENV", requires = "samconfig")]
    config_env: Option<String>,
    /// Apply every safe fix in place, then report what remains.
    #[arg(long, conflicts_with_all = ["diff", "write_baseline"])]
    fix: bool,
    /// Print the fixes as a unified diff; write nothing (exit 1 when there is one).
    #[arg(long, conflicts_with = "write_baseline")]
    diff: bool,
    /// With --fix or --diff: also the fixes that need a person's decision
    /// (a shared Parameter default, a handler change, a replaced queue).
    #[arg(long)]
    unsafe_fixes: bool,
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// The pipeline spec (YAML; schemas/pipeline.schema.json).
    spec: PathBuf,
    #[arg(long, value_enum)]
    target: GenTarget,
    /// CloudFormation only: YAML or JSON.
    #[arg(long, value_enum, default_value_t = GenFormat::Yaml)]
    format: GenFormat,
    /// A folder to write to, or `-` for standard output.
    #[arg(long, default_value = "-")]
    output: PathBuf,
    /// Replace files that already exist.
    #[arg(long)]
    force: bool,
    /// A folder of templates (`cloudformation.yaml.hbs`, `main.tf.hbs`, ...)
    /// that replace the built-in ones.
    #[arg(long)]
    templates: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct AuditArgs {
    /// Regions to audit (repeatable); default: the credential chain's Region.
    #[arg(long = "region", conflicts_with = "regions")]
    region: Vec<String>,
    /// `all`: every Region enabled in each account (account ListRegions,
    /// else the partition's Regions, noting those not enabled).
    #[arg(long, value_parser = ["all"])]
    regions: Option<String>,
    /// Accounts to audit: IDs separated by commas, or @FILE (one ID a line,
    /// `#` comments). Needs --role-name for accounts other than the caller's.
    #[arg(long, conflicts_with = "organization")]
    accounts: Option<String>,
    /// Every ACTIVE account of the caller's organization (organizations
    /// ListAccounts: the management or a delegated administrator account).
    #[arg(long)]
    organization: bool,
    /// The role assumed in each audited account (arn:aws:iam::ACCOUNT:role/NAME).
    #[arg(long)]
    role_name: Option<String>,
    /// The ExternalId the role's trust policy asks for.
    #[arg(long, requires = "role_name")]
    external_id: Option<String>,
    /// Audit only the I-th of N slices of the sorted (account, Region) pairs.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// How long one account-Region may take before it is listed as unaudited.
    #[arg(long, default_value = "10m")]
    pair_deadline: String,
    /// A named profile of the shared AWS config.
    #[arg(long)]
    profile: Option<String>,
    /// Any SQS-compatible endpoint (AWS_ENDPOINT_URL is honoured too).
    #[arg(long)]
    endpoint_url: Option<String>,
    /// Only queues whose name starts with this.
    #[arg(long)]
    queue_prefix: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Pretty)]
    format: Format,
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    fail_on: FailOn,
    /// CloudWatch window: 30m, 1h, 1d ... (or seconds).
    #[arg(long, default_value = "1h")]
    lookback: String,
    /// Requests in flight at once, over every account and Region.
    #[arg(long, default_value_t = 16)]
    concurrency: usize,
    /// Attempts of one call, the first included (1: no retry).
    #[arg(long, default_value = "8")]
    max_attempts: String,
    /// The most one call may take, retries and the waits between them included.
    #[arg(long, default_value = "30s")]
    retry_budget: String,
    /// The config file (default: .sqsguard.yaml in this folder or the nearest above).
    #[arg(long)]
    config: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GenTarget {
    Cloudformation,
    Terraform,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum GenFormat {
    Yaml,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Pretty,
    Json,
    Sarif,
    Junit,
    Github,
}

impl Format {
    fn reporter(self, unsafe_fixes: bool) -> report::Format {
        match self {
            Format::Pretty => {
                let color = std::io::stdout().is_terminal() && colour_allowed();
                let width = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100);
                report::Format::Pretty(Style { color, width, unsafe_fixes })
            }
            Format::Json => report::Format::Json,
            Format::Sarif => report::Format::Sarif,
            Format::Junit => report::Format::Junit,
            Format::Github => report::Format::Github,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CatalogFormat {
    Table,
    Json,
    Markdown,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}

/// Exit statuses (README.md): 0 clean, 1 findings at or above --fail-on, 2 usage.
const FINDINGS: u8 = 1;

/// Exit status 2: usage, or what had to be read or written could not be.
const TROUBLE: u8 = 2;

/// Why a command stopped before its end.
enum Stop {
    Failed(Error),
    /// Standard output was closed (`| head`): nothing more to say.
    Closed,
}

impl From<Error> for Stop {
    fn from(error: Error) -> Self {
        Stop::Failed(error)
    }
}

pub fn main() -> ExitCode {
    let mut console = Console::default();
    let status = match run(&mut console) {
        Ok(code) => code,
        Err(Stop::Closed) => ExitCode::SUCCESS,
        Err(Stop::Failed(error)) => {
            say(&mut console, &error);
            ExitCode::from(error.exit_code())
        }
    };
    console.status(status)
}

fn run(console: &mut Console) -> Result<ExitCode, Stop> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return Ok(console.clap(&e)),
    };
    match cli.command {
        Command::Lint(args) => run_lint(args, console),
        Command::Generate(args) => run_generate(args, console),
        Command::Audit(args) => run_audit(args, console),
        Command::Report(ReportCommand::Merge { files, format, fail_on }) => run_merge(&files, format, fail_on, console),
        Command::Rules { format } => console.print(&catalog(format)).map(|()| ExitCode::SUCCESS),
        Command::Explain { code } => match rules::by_code(&code) {
            Some(rule) => console.print(&rule.page()).map(|()| ExitCode::SUCCESS),
            None => Err(Error::Usage(format!("no rule {code}; `sqsguard rules` lists them")).into()),
        },
    }
}

/// Standard output and standard error: every word the command line writes
/// goes through here, as in ripgrep. A write never panics (`println!`
/// does): a reader that stopped listening ends that stream quietly (on
/// standard output it ends the run, with exit 0), and any other failure (a
/// full disk, `2>/dev/full`) is remembered and makes the exit status 2, so
/// a run whose words were lost never ends as if they had been read. The
/// streams are locked for each write only, so a thread that must write
/// (a panic message) is never kept waiting.
#[derive(Default)]
struct Console {
    /// Standard error's reader has gone: nothing more is said there.
    err_closed: bool,
    /// A write failed, not on a closed pipe: the run ends with exit 2.
    failed: bool,
}

impl Console {
    /// Write to standard output through a buffer with `write`. A closed
    /// pipe (`sqsguard lint | head`) ends the run quietly; any other
    /// failure is an error, never a silently truncated report.
    fn out(&mut self, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), Stop> {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        match write(&mut out).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(Stop::Closed),
            Err(e) => {
                self.failed = true;
                Err(Stop::Failed(Error::io("standard output", e)))
            }
        }
    }

    /// `text` on standard output, as [`Console::out`] writes.
    fn print(&mut self, text: &str) -> Result<(), Stop> {
        self.out(|out| out.write_all(text.as_bytes()))
    }

    /// `text` on standard error as it is (a progress line redrawn with
    /// `\r`). A failure is remembered for the exit status; the run goes
    /// on (`--fix` still writes its files).
    fn eprint(&mut self, text: &str) {
        if self.err_closed {
            return;
        }
        let mut err = std::io::stderr().lock();
        match err.write_all(text.as_bytes()).and_then(|()| err.flush()) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => self.err_closed = true,
            Err(_) => self.failed = true,
        }
    }

    /// A line on standard error.
    fn eprintln(&mut self, line: impl std::fmt::Display) {
        self.eprint(&format!("{line}\n"));
    }

    /// A command line clap refused, or `--help` and `--version`: its text
    /// on standard error (standard output for help and version), coloured
    /// as the rest of the output is.
    fn clap(&mut self, e: &clap::Error) -> ExitCode {
        let terminal = if e.use_stderr() { std::io::stderr().is_terminal() } else { std::io::stdout().is_terminal() };
        let rendered = e.render();
        let text = if terminal && colour_allowed() { rendered.ansi().to_string() } else { rendered.to_string() };
        if e.use_stderr() {
            self.eprint(&text);
            return ExitCode::from(TROUBLE);
        }
        match self.print(&text) {
            Ok(()) | Err(Stop::Closed) => ExitCode::SUCCESS,
            Err(Stop::Failed(error)) => {
                say(self, &error);
                ExitCode::from(error.exit_code())
            }
        }
    }

    /// The exit status of a run that ended with `status`: 2 instead when
    /// something it had to say could not be written.
    fn status(&self, status: ExitCode) -> ExitCode {
        if self.failed { ExitCode::from(TROUBLE) } else { status }
    }
}

/// NO_COLOR (https://no-color.org) unset or empty.
fn colour_allowed() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A path as the command line's sentences name it: control characters
/// written out, as every text format does.
fn shown(path: &std::path::Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

/// What a config problem is reported as: no rule, a diagnostic of the
/// config.
static INVALID_CONFIG: crate::finding::RuleId = crate::finding::RuleId { code: "config", name: "invalid-config" };

/// An error on stderr: its located diagnostics, then one line.
fn say(console: &mut Console, error: &Error) {
    let findings: Vec<Finding> = match error {
        Error::Invalid { file, problems, .. } => problems
            .iter()
            .map(|(span, message)| Finding {
                rule: &INVALID_CONFIG,
                severity: Severity::Error,
                resource: String::new(),
                related: Vec::new(),
                origin: Origin::file(file, *span),
                message: message.clone(),
                fix: config::HELP.to_string(),
                remedy: None,
                autofix: None,
            })
            .collect(),
        other => other.findings().to_vec(),
    };
    let reports = report::pretty::reports(&findings, stderr_style());
    match error {
        // The generator's diagnostics end with their own sentence (its
        // lines, each written out as the reports are).
        Error::Spec { message, .. } | Error::Refused { message, .. } => {
            let sentence: Vec<_> = message.as_deref().unwrap_or_default().split('\n').map(printable).collect();
            console.eprintln(format!("{reports}{}", sentence.join("\n")).trim_end());
        }
        other => {
            if !findings.is_empty() {
                console.eprintln(reports.trim_end());
            }
            console.eprintln(format_args!("sqsguard: {}", printable(&other.to_string())));
        }
    }
}

fn run_lint(args: LintArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    for selector in args.select.iter().chain(&args.ignore) {
        if !rules::selects_any(selector) {
            return Err(Error::Usage(format!("`{selector}` matches no rule code; `sqsguard rules` lists them")).into());
        }
    }
    for path in &args.paths {
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::Usage(format!("{}: no such file or folder", path.display())).into());
            }
            Err(e) => return Err(Error::io(path, e).into()),
            Ok(_) => {}
        }
    }
    for file in &args.var_files {
        crate::source::open_regular(file).map_err(|e| Error::io(file, e.into()))?;
    }
    let mut config = settings(args.config.as_deref())?;
    // The command line's --select replaces the config's; --ignore adds to it.
    if !args.select.is_empty() {
        config.filter.select = args.select.clone();
    }
    config.filter.ignore.extend(args.ignore.iter().cloned());
    config.var_files = args.var_files.clone();
    let named = std::mem::take(&mut config.stage);
    config.stage = stage(&args)?;
    // The config's `stage:` when the command line names none.
    if config.stage.name.is_none() {
        (config.stage.name, config.stage.named_in) = (named.name, named.named_in);
    }
    let baseline = args.baseline.as_deref().map(crate::baseline::load).transpose()?;
    if args.diff {
        return show_fixes(&args, &config, baseline.as_ref(), console);
    }
    // After --fix, its last lint is what remains (baseline applied), unless
    // that lint was followed by a write.
    let remaining = if args.fix { apply_fixes(&args, &config, baseline.as_ref(), console) } else { None };
    let outcome = match remaining {
        Some(outcome) => outcome,
        None => {
            let mut outcome = lint::lint_paths(&args.paths, &config);
            if let Some(path) = &args.write_baseline {
                let n = crate::baseline::write(path, &outcome)?;
                console.eprintln(format_args!("sqsguard: recorded {n} finding(s) in {}", shown(path)));
                return Ok(ExitCode::SUCCESS);
            }
            if let Some(baseline) = baseline {
                outcome.baselined = Some(baseline.apply(&mut outcome));
            }
            outcome
        }
    };
    console.out(|out| report::write(args.format.reporter(args.unsafe_fixes), &outcome, out))?;
    for given in &outcome.undeclared {
        console.eprintln(format_args!(
            "sqsguard: warning: {}: no linted template declares a parameter {}",
            printable(&given.from),
            printable(&given.key)
        ));
    }
    if outcome.files == 0 {
        console.eprintln(nothing_linted(&args.paths, outcome.skipped, !outcome.notes.is_empty()));
    }
    let status = exit_status(args.fail_on, &outcome);
    // A large run's findings and model are freed by the exit, not one by one.
    std::mem::forget(outcome);
    Ok(status)
}

/// The stage or environment the command line names: `--stage`, `--param`,
/// and the Parameter values of `--samconfig` then `--parameter-overrides`
/// (the last of a key wins, as in `sam deploy`). A value that is no
/// `KEY=VALUE`, or a samconfig that cannot be read, is a usage error.
fn stage(args: &LintArgs) -> Result<config::Stage, Error> {
    use crate::frontend::stage::{key_value, sam_override};
    if args.stage.as_deref().is_some_and(|s| s.trim().is_empty()) {
        return Err(Error::Usage("--stage needs a stage name".into()));
    }
    let mut stage = config::Stage { name: args.stage.clone(), ..config::Stage::default() };
    stage.params =
        args.params.iter().map(|p| key_value(p, "--param")).collect::<Result<_, _>>().map_err(Error::Usage)?;
    if let Some(file) = &args.samconfig {
        let env = args.config_env.as_deref().unwrap_or(config::samconfig::DEFAULT_ENV);
        stage.overrides = config::samconfig::parameter_overrides(file, env)?;
    }
    for arg in &args.parameter_overrides {
        stage.overrides.push(sam_override(arg, "--parameter-overrides").map_err(Error::Usage)?);
    }
    Ok(stage)
}

/// What a lint that read no template, module or plan says on standard
/// error, with the likely reason: an empty report must not pass for a
/// clean one.
fn nothing_linted(paths: &[PathBuf], skipped: usize, noted: bool) -> String {
    let named: Vec<String> = paths.iter().map(|p| shown(p)).collect();
    let under = named.join(", ");
    if noted {
        return format!("sqsguard: nothing linted under {under}: the notes say why");
    }
    match skipped {
        0 => format!(
            "sqsguard: nothing linted: no .yaml, .yml, .json, .template or .tf file under {under} (what .gitignore lists is not walked: name such a file or folder to lint it)"
        ),
        n => format!(
            "sqsguard: nothing linted: of the {n} file(s) read under {under}, none is a template, module or plan sqsguard reads"
        ),
    }
}

/// `--diff`: what `--fix` would write, as a unified diff on standard
/// output, every pass included; nothing written; exit 1 when there is a
/// diff.
fn show_fixes(
    args: &LintArgs,
    config: &Config,
    baseline: Option<&crate::baseline::Baseline>,
    console: &mut Console,
) -> Result<ExitCode, Stop> {
    let fixed = fix_in_memory(args, config, baseline, console);
    console.out(|out| {
        for (path, (file, text, _)) in &fixed.files {
            out.write_all(crate::fix::unified_diff(path, &file.text, text).as_bytes())?;
        }
        Ok(())
    })?;
    console.eprintln(format_args!("sqsguard: {} fix(es) in {} file(s)", fixed.fixes(), fixed.files.len()));
    std::mem::forget(fixed.last);
    Ok(if fixed.files.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(FINDINGS) })
}

/// Every pass of `--fix` in memory, with a line on standard error for
/// each file it did not fix.
fn fix_in_memory(
    args: &LintArgs,
    config: &Config,
    baseline: Option<&crate::baseline::Baseline>,
    console: &mut Console,
) -> crate::fix::Fixed {
    let fixed = crate::fix::passes(&args.paths, config, baseline, args.unsafe_fixes);
    for event in &fixed.events {
        match event {
            crate::fix::Event::Outside(path) => console.eprintln(format_args!(
                "sqsguard: {}: outside the paths being linted (a module followed from them?); not fixed",
                shown(path)
            )),
            crate::fix::Event::Reverted(path, why) => {
                console.eprintln(format_args!("sqsguard: {}: not fixed: {}", shown(path), printable(why)));
            }
        }
    }
    fixed
}

/// `--fix`: every pass computed in memory, then each changed file written
/// once, atomically. A file that cannot be written, or changed on disk
/// meanwhile, is left alone with one line on standard error; the other
/// files are still fixed. The count says what was written. Returns the
/// last lint when it is what is on disk now (what remains, without linting
/// once more), else `None` and the caller lints again.
fn apply_fixes(
    args: &LintArgs,
    config: &Config,
    baseline: Option<&crate::baseline::Baseline>,
    console: &mut Console,
) -> Option<Outcome> {
    let fixed = fix_in_memory(args, config, baseline, console);
    let (mut files, mut fixes) = (0, 0);
    for (path, (file, text, n)) in &fixed.files {
        match crate::fix::write_fixed(path, &file.text, text) {
            Ok(crate::fix::Written::Fixed) => {
                files += 1;
                fixes += n;
            }
            Ok(crate::fix::Written::ChangedMeanwhile) => {
                console.eprintln(format_args!("sqsguard: {}: changed since it was read; not fixed", shown(path)));
            }
            Err(e) => console.eprintln(format_args!("sqsguard: {}; not fixed", printable(&e.to_string()))),
        }
    }
    console.eprintln(format_args!("sqsguard: fixed {fixes} finding(s) in {files} file(s)"));
    if files < fixed.files.len() {
        std::mem::forget(fixed.last);
        return None;
    }
    fixed.last
}

/// The config named with --config, or found upward from the working
/// folder, or the defaults. An unreadable or invalid config is exit 2.
fn settings(named: Option<&std::path::Path>) -> Result<Config, Error> {
    let start = std::env::current_dir().unwrap_or_default();
    settings_from(named, &start)
}

/// The config named with --config, or found upward from `start`.
fn settings_from(named: Option<&std::path::Path>, start: &std::path::Path) -> Result<Config, Error> {
    let path = match named {
        Some(p) => p.to_path_buf(),
        None => match config::discover(start) {
            Some(p) => p,
            None => return Ok(Config::default()),
        },
    };
    config::load(&path)
}

fn exit_status(fail_on: FailOn, outcome: &Outcome) -> ExitCode {
    if outcome.fails(fail_on.threshold()) { ExitCode::from(FINDINGS) } else { ExitCode::SUCCESS }
}

fn run_generate(args: GenerateArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    use crate::generate::{self, Format as F, Request, Target as T};
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
fn run_merge(files: &[PathBuf], format: Format, fail_on: FailOn, console: &mut Console) -> Result<ExitCode, Stop> {
    let outcome = crate::report::merge::merge(files).map_err(|e| Error::Usage(e.to_string()))?;
    console.out(|out| report::write(format.reporter(false), &outcome, out))?;
    Ok(exit_status(fail_on, &outcome))
}

#[cfg(not(feature = "audit"))]
fn run_audit(_: AuditArgs, _: &mut Console) -> Result<ExitCode, Stop> {
    Err(Error::Usage("this build has no live audit; build with `cargo build --release --features audit`".into()).into())
}

#[cfg(feature = "audit")]
fn run_audit(args: AuditArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    let lookback = match crate::syntax::duration::seconds(&args.lookback) {
        Some(s) if s >= 60 => s,
        _ => {
            let message = format!("--lookback {}: use a duration of at least a minute (30m, 1h, 1d)", args.lookback);
            return Err(Error::Usage(message).into());
        }
    };
    let usage = |message: String| -> Stop { Error::Usage(message).into() };
    let accounts = match (&args.accounts, args.organization) {
        (Some(list), _) => crate::audit::Accounts::List(crate::audit::scope::accounts(list).map_err(usage)?),
        (None, true) => crate::audit::Accounts::Organization,
        (None, false) => crate::audit::Accounts::Caller,
    };
    let shard = args.shard.as_deref().map(crate::audit::scope::Shard::parse).transpose().map_err(usage)?;
    let pair_deadline = match crate::syntax::duration::seconds(&args.pair_deadline) {
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
    let retry_budget = match crate::syntax::duration::seconds(&args.retry_budget) {
        Some(s) if s > 0 => std::time::Duration::from_secs(s),
        _ => return Err(usage(format!("--retry-budget {}: use a duration (10s, 30s, 2m)", args.retry_budget))),
    };
    let opts = crate::audit::Options {
        regions: args.region,
        all_regions: args.regions.is_some(),
        accounts,
        role_name: args.role_name,
        external_id: args.external_id,
        shard,
        pair_deadline,
        progress: args.format == Format::Pretty && std::io::stderr().is_terminal(),
        profile: args.profile,
        endpoint_url: args.endpoint_url,
        queue_prefix: args.queue_prefix,
        lookback_seconds: lookback,
        concurrency: args.concurrency,
        connect_timeout: std::time::Duration::from_secs(3),
        max_attempts,
        retry_budget,
        settings: settings(args.config.as_deref())?,
    };
    let audit = crate::audit::run_with_progress(&opts, &mut |line| console.eprint(line))?;
    console.out(|out| report::write(args.format.reporter(false), &audit.outcome, out))?;
    Ok(exit_status(args.fail_on, &audit.outcome))
}

fn stderr_style() -> Style {
    let color = std::io::stderr().is_terminal() && colour_allowed();
    Style {
        color,
        width: std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100),
        unsafe_fixes: false,
    }
}

fn catalog(format: CatalogFormat) -> String {
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
                let live = if r.live_only { " (live)" } else { "" };
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
