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
    if !matches!(cli.command, Command::Server) {
        give_back_at_once();
    }
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

/// Have the allocator give freed memory back to the system at once, for a
/// command that runs once. mimalloc (src/main.rs) keeps freed pages for a
/// second before it gives them back, which is the whole run of most
/// commands: a run's peak was then the sum of what each of its phases
/// held, not the largest of them. A 200 MB Terraform plan is read in
/// phases (its text, then the resources, then the rules' findings), and
/// peaked at 2.0 x its size with the second's delay (benches/plan.sh). The
/// editor server keeps the delay, and gives memory back when the editor is
/// quiet (`sqsguard_server`): it frees and allocates a template's trees on
/// every keystroke, and giving them back each time would cost it time.
/// A wait of 10 ms made that plan's run 7 % faster (fewer pages given back
/// and faulted in again), and put its peak at 1.50 x with outliers above:
/// the memory bound is kept (docs/speed.md, "Nearer the 1.2 s").
fn give_back_at_once() {
    // SAFETY: sets one of mimalloc's options, which it reads when it next
    // decides whether to give pages back; no memory of ours is touched.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
}

/// mimalloc 3's `mi_option_purge_delay`, which libmimalloc-sys does not
/// name (the test below holds it to its default of 1,000 ms).
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_is_mimallocs_option_15() {
        // SAFETY: reads mimalloc's version and one option's value.
        let (version, delay) =
            unsafe { (libmimalloc_sys::mi_version(), libmimalloc_sys::mi_option_get(super::PURGE_DELAY)) };
        assert_eq!(version / 10_000, 3, "mimalloc {version}: check the option's number");
        // Unless MIMALLOC_PURGE_DELAY says otherwise, as it may.
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(delay, 1000);
        }
    }
}
