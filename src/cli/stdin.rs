//! `sqsguard lint -`: one document read from standard input and linted as
//! the file `--stdin-filename` names (its name picks the format and the
//! config, and is the path in findings), for editors and scripts that
//! hold a text not yet saved. The rest of a Terraform module is read from
//! disk around it. `--fix` prints the fixed text on standard output and
//! the report on standard error; `--diff` prints the diff.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::LintArgs;
use super::console::{Console, Stop, exit_status};
use super::lint::{fix_in_memory, fixed_line, report_lint, report_to, session, show_fixes, write_sarif};
use sqsguard_finding::error::Error;
use sqsguard_lint as lint;
use sqsguard_lint::session::{FixMode, Session};
use sqsguard_source::Overlay;

/// The name of the document read from standard input, when PATH is `-`.
/// `-` must be the only PATH and needs `--stdin-filename`; the name alone
/// is a usage error (it names nothing read).
pub(super) fn stdin_name(args: &LintArgs) -> Result<Option<PathBuf>, Error> {
    let dash = args.paths.iter().any(|p| p.as_os_str() == "-");
    match (&args.stdin_filename, dash) {
        (None, false) => Ok(None),
        (Some(_), false) => Err(Error::Usage("--stdin-filename names the document read from `-`: add `-` as the PATH".into())),
        (None, true) => Err(Error::Usage(
            "`-` reads a document from standard input and needs --stdin-filename NAME (its name picks the format and the config, and names it in findings)".into(),
        )),
        (Some(_), true) if args.paths.len() > 1 => {
            Err(Error::Usage("`-` (standard input) must be the only PATH".into()))
        }
        (Some(_), true) if args.write_baseline.is_some() => Err(Error::Usage(
            "--write-baseline records the findings of files on disk, not of standard input (`-`)".into(),
        )),
        (Some(name), true) if name.as_os_str().is_empty() || name.is_dir() => {
            Err(Error::Usage(format!("--stdin-filename {}: not a file name", name.display())))
        }
        (Some(name), true) => Ok(Some(name.clone())),
    }
}

/// Lint (or fix) standard input's text as the file `name`.
pub(super) fn run(args: &LintArgs, name: &Path, console: &mut Console) -> Result<ExitCode, Stop> {
    let mut session = session(args)?;
    let mut text = String::new();
    std::io::stdin().lock().read_to_string(&mut text).map_err(|e| Error::io("standard input", e))?;
    session.inputs.paths = vec![name.to_path_buf()];
    session.inputs.overlay = Overlay::new([(name.to_path_buf(), text.clone())].into_iter().collect());
    match session.fix {
        FixMode::Diff { .. } => show_fixes(&session, console, args.quiet),
        FixMode::Write { .. } => {
            let fixed = fix_in_memory(&session, console)?;
            let own = sqsguard_source::lexical(name);
            let fixed_text =
                fixed.files.iter().find(|(p, _)| sqsguard_source::lexical(p) == own).map(|(_, (_, t, _))| t);
            console.print(fixed_text.unwrap_or(&text))?;
            if !args.quiet {
                let files = usize::from(fixed_text.is_some());
                console.eprintln(fixed_line("fixed", fixed.fixes(), files, fixed.passes));
            }
            // What remains, on standard error: standard output is the text.
            let outcome = match fixed.last {
                Some(outcome) => outcome,
                None => lint::lint(&session_with(&session, name, fixed_text.unwrap_or(&text)))?,
            };
            report_to(args, &outcome, console, true)?;
            if let Some(path) = &args.sarif_file {
                write_sarif(path, &outcome)?;
            }
            Ok(exit_status(args.fail_on, &outcome))
        }
        FixMode::Report => {
            let baseline = session.baseline.take();
            let mut outcome = lint::lint(&session)?;
            if let Some(baseline) = baseline {
                outcome.baselined = Some(baseline.apply(&mut outcome));
            }
            report_lint(args, outcome, console)
        }
    }
}

/// `session` with `text` standing in for `name`.
fn session_with(session: &Session, name: &Path, text: &str) -> Session {
    let mut session = session.clone();
    session.inputs.overlay = Overlay::new([(name.to_path_buf(), text.to_string())].into_iter().collect());
    session
}
