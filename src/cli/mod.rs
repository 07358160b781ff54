//! The command line (README.md and docs/ are its reference): arguments
//! ([`args`]) become a command's ready inputs (for `lint`, a
//! [`Session`](sqsguard_lint::session::Session)), the command runs, its report is
//! written through the [`console`], and its outcome is the exit status.

mod args;
mod audit_out;
mod commands;
mod console;
mod drift;
mod formats;
mod graph;
mod lint;
mod stdin;

use std::process::ExitCode;

use clap::Parser;

use args::{Cli, Command, ReportCommand};
use commands::{catalog, explain, run_audit, run_generate, run_merge, schema};
use console::{Console, Stop, say};
use lint::run_lint;

pub fn main() -> ExitCode {
    let mut console = Console::default();
    let status = match run(&mut console) {
        Ok(code) => code,
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
        Command::Lint(args) => match stdin::stdin_name(&args)? {
            Some(name) => stdin::run(&args, &name, console),
            None => run_lint(args, console),
        },
        Command::Generate(args) => run_generate(args, console),
        Command::Audit(args) => run_audit(args, console),
        Command::Drift(args) => drift::run(args, console),
        Command::Graph(args) => graph::run(args, console),
        Command::Report(ReportCommand::Merge { files, format, output, fail_on, require_queues }) => {
            run_merge(&files, (format, output.as_deref()), (fail_on, require_queues), console)
        }
        Command::Rules { format } => console.print(&catalog(format)).map(|()| ExitCode::SUCCESS),
        Command::Server => match sqsguard_server::run() {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(why) => {
                console.eprintln(format_args!("sqsguard server: {why}"));
                Ok(ExitCode::FAILURE)
            }
        },
        Command::Explain { code } => console.print(&explain(&code)?).map(|()| ExitCode::SUCCESS),
        Command::Schema(args) => console.print(schema(args.which)).map(|()| ExitCode::SUCCESS),
    }
}
