//! Standard output and standard error, what an error says there, the
//! config a command reads, and the exit statuses.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use super::args::FailOn;
use super::formats::{colour, width};
use sqsguard_finding::error::Error;
use sqsguard_finding::{Finding, FindingContext, FindingData, Severity};
use sqsguard_lint::config::{self, Config};
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::Origin;
use sqsguard_report::{self as report, pretty::Style, printable};

/// Exit statuses (docs/lint.md): 0 clean, 1 findings at or above --fail-on, 2 usage.
pub(super) const FINDINGS: u8 = 1;

/// Exit status 2: usage, or what had to be read or written could not be.
pub(super) const TROUBLE: u8 = 2;

/// Why a command stopped before its end.
pub(super) enum Stop {
    Failed(Error),
}

impl From<Error> for Stop {
    fn from(error: Error) -> Self {
        Stop::Failed(error)
    }
}

/// Standard output and standard error: every word the command line writes
/// goes through here, as in ripgrep. A write never panics (`println!`
/// does): a reader that stopped listening ends that stream quietly, and
/// the run goes on to the exit status it would have had (`sqsguard lint |
/// head -1` still exits 1 on findings, as a CI step piping to `head`
/// expects), and any other failure (a
/// full disk, `2>/dev/full`) is remembered and makes the exit status 2, so
/// a run whose words were lost never ends as if they had been read. The
/// streams are locked for each write only, so a thread that must write
/// (a panic message) is never kept waiting.
#[derive(Default)]
pub(super) struct Console {
    /// Standard output's reader has gone: nothing more is written there.
    out_closed: bool,
    /// Standard error's reader has gone: nothing more is said there.
    err_closed: bool,
    /// A write failed, not on a closed pipe: the run ends with exit 2.
    failed: bool,
}

impl Console {
    /// Write to standard output through a buffer with `write`. A closed
    /// pipe (`sqsguard lint | head`) closes standard output quietly and
    /// the run goes on to its own exit status; any other failure is an
    /// error, never a silently truncated report.
    pub(super) fn out(&mut self, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), Stop> {
        if self.out_closed {
            return Ok(());
        }
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        match write(&mut out).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.out_closed = true;
                Ok(())
            }
            Err(e) => {
                self.failed = true;
                Err(Stop::Failed(Error::io("standard output", e)))
            }
        }
    }

    /// Write to standard error through a buffer with `write`, as
    /// [`Console::eprint`] does: a failure is remembered for the exit
    /// status, and the run goes on.
    pub(super) fn err_out(&mut self, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> Result<(), Stop> {
        let mut text = Vec::new();
        // Writing to memory cannot fail.
        let _ = write(&mut text);
        self.eprint(&String::from_utf8_lossy(&text));
        Ok(())
    }

    /// `text` on standard output, as [`Console::out`] writes.
    pub(super) fn print(&mut self, text: &str) -> Result<(), Stop> {
        self.out(|out| out.write_all(text.as_bytes()))
    }

    /// `text` on standard error as it is (a progress line redrawn with
    /// `\r`). A failure is remembered for the exit status; the run goes
    /// on (`--fix` still writes its files).
    pub(super) fn eprint(&mut self, text: &str) {
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
    pub(super) fn eprintln(&mut self, line: impl std::fmt::Display) {
        self.eprint(&format!("{line}\n"));
    }

    /// A command line clap refused, or `--help` and `--version`: its text
    /// on standard error (standard output for help and version), coloured
    /// as the rest of the output is.
    pub(super) fn clap(&mut self, e: &clap::Error) -> ExitCode {
        let terminal = if e.use_stderr() { std::io::stderr().is_terminal() } else { std::io::stdout().is_terminal() };
        let rendered = e.render();
        let text = if colour(terminal) { rendered.ansi().to_string() } else { rendered.to_string() };
        if e.use_stderr() {
            self.eprint(&text);
            return ExitCode::from(TROUBLE);
        }
        match self.print(&text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(Stop::Failed(error)) => {
                say(self, &error);
                ExitCode::from(error.exit_code())
            }
        }
    }

    /// The exit status of a run that ended with `status`: 2 instead when
    /// something it had to say could not be written.
    pub(super) fn status(&self, status: ExitCode) -> ExitCode {
        if self.failed { ExitCode::from(TROUBLE) } else { status }
    }
}

/// A path as the command line's sentences name it: control characters
/// written out, as every text format does.
pub(super) fn shown(path: &std::path::Path) -> String {
    printable(&path.display().to_string()).into_owned()
}

/// What a config problem is reported as: no rule, a diagnostic of the
/// config.
pub(super) static INVALID_CONFIG: sqsguard_finding::RuleId =
    sqsguard_finding::RuleId { code: "config", name: "invalid-config" };

/// An error on stderr: its located diagnostics, then one line.
pub(super) fn say(console: &mut Console, error: &Error) {
    let findings: Vec<Finding> = match error {
        Error::Invalid { file, problems, .. } => problems
            .iter()
            .map(|(span, message)| {
                Finding::from(FindingData {
                    rule: &INVALID_CONFIG,
                    severity: Severity::Error,
                    resource: String::new(),
                    related: Vec::new(),
                    origin: Origin::file(file, *span),
                    message: message.clone(),
                    fix: config::HELP.into(),
                    remedy: None,
                    autofix: None,
                    context: FindingContext::default(),
                })
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

pub(super) fn stderr_style() -> Style {
    Style { color: colour(std::io::stderr().is_terminal()), width: width(), ..Style::default() }
}

/// The config named with --config, or found upward from the working
/// folder, or the defaults. An unreadable or invalid config is exit 2.
/// (The audit's: lint finds each file's own.)
#[cfg(feature = "audit")]
pub(super) fn settings(named: Option<&std::path::Path>) -> Result<Config, Error> {
    let start = std::env::current_dir().unwrap_or_default();
    settings_from(named, &start)
}

/// The config named with --config, or found upward from `start`.
pub(super) fn settings_from(named: Option<&std::path::Path>, start: &std::path::Path) -> Result<Config, Error> {
    let path = match named {
        Some(p) => p.to_path_buf(),
        None => match config::discover(start) {
            Some(p) => p,
            None => return Ok(Config::default()),
        },
    };
    config::load(&path)
}

pub(super) fn exit_status(fail_on: FailOn, outcome: &Outcome) -> ExitCode {
    if outcome.fails(fail_on.threshold()) { ExitCode::from(FINDINGS) } else { ExitCode::SUCCESS }
}
