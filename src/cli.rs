//! The command line (shared/CLI.md is the contract).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::finding::Severity;
use crate::lint::{self, Filter};
use crate::report::{self, pretty::Style};
use crate::rules;

#[derive(Parser, Debug)]
#[command(name = "sqsguard", version, about = "Keeps AWS SQS pipelines correct", max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check CloudFormation and SAM templates (YAML or JSON) against the rule catalog.
    Lint(LintArgs),
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
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Pretty,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum CatalogFormat {
    Table,
    Json,
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

/// Exit statuses (CLI.md): 0 clean, 1 findings at or above --fail-on, 2 usage.
const FINDINGS: u8 = 1;
const USAGE: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { USAGE } else { 0 });
        }
    };
    match cli.command {
        Command::Lint(args) => run_lint(args),
        Command::Rules { format } => {
            print(&catalog(format));
            ExitCode::SUCCESS
        }
        Command::Explain { code } => match rules::by_code(&code) {
            Some(rule) => {
                print(rule.doc);
                ExitCode::SUCCESS
            }
            None => {
                eprintln!("sqsguard: no rule {code}; `sqsguard rules` lists them");
                ExitCode::from(USAGE)
            }
        },
    }
}

fn run_lint(args: LintArgs) -> ExitCode {
    for selector in args.select.iter().chain(&args.ignore) {
        let known = rules::ALL
            .iter()
            .any(|r| r.code.len() >= selector.len() && r.code[..selector.len()].eq_ignore_ascii_case(selector));
        if selector.is_empty() || !known {
            eprintln!("sqsguard: `{selector}` matches no rule code; `sqsguard rules` lists them");
            return ExitCode::from(USAGE);
        }
    }
    for path in &args.paths {
        if std::fs::symlink_metadata(path).is_err() {
            eprintln!("sqsguard: {}: no such file or folder", path.display());
            return ExitCode::from(USAGE);
        }
    }
    let filter = Filter { select: args.select, ignore: args.ignore };
    let outcome = lint::lint_paths(&args.paths, &filter);
    let text = match args.format {
        Format::Json => report::json::render(&outcome),
        Format::Pretty => {
            let stdout = std::io::stdout();
            let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
            let width = std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(100);
            report::pretty::render(&outcome, Style { color, width })
        }
    };
    print(&text);
    let failing = args.fail_on.threshold().is_some_and(|t| outcome.findings.iter().any(|f| f.severity >= t));
    if failing { ExitCode::from(FINDINGS) } else { ExitCode::SUCCESS }
}

fn catalog(format: CatalogFormat) -> String {
    match format {
        CatalogFormat::Json => {
            let rows: Vec<_> = rules::ALL
                .iter()
                .map(|r| serde_json::json!({"code": r.code, "name": r.name, "severity": r.severity, "summary": r.summary}))
                .collect();
            serde_json::to_string_pretty(&rows).expect("catalog serializes") + "\n"
        }
        CatalogFormat::Table => {
            let mut out = String::new();
            for r in rules::ALL {
                out.push_str(&format!("{}  {:<42} {:<8} {}\n", r.code, r.name, r.severity.as_str(), r.summary));
            }
            out
        }
    }
}

/// Write to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}
