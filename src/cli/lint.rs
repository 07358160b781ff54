//! `sqsguard lint`: the session its arguments make, `--fix` and `--diff`,
//! the report and the exit status.

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::LintArgs;
use super::console::{Console, FINDINGS, Stop, exit_status, shown};
use crate::config;
use crate::error::Error;
use crate::lint;
use crate::outcome::Outcome;
use crate::report::{self, printable};
use crate::rules;
use crate::session::{FixMode, Inputs, Session};

pub(super) fn run_lint(args: LintArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    let mut session = session(&args)?;
    match session.fix {
        FixMode::Diff { .. } => return show_fixes(&session, console),
        FixMode::Write { .. } => {
            // After --fix, its last lint is what remains (baseline
            // applied), unless that lint was followed by a write.
            if let Some(outcome) = apply_fixes(&session, console)? {
                return report_lint(&args, outcome, console);
            }
        }
        FixMode::Report => {}
    }
    let baseline = session.baseline.take();
    let mut outcome = lint::lint(&session)?;
    if let Some(path) = &args.write_baseline {
        let written = crate::baseline::write(path, &outcome, &scope(&args))?;
        let entries = |n: usize, kind: &str| format!("{n} {kind}{}", if n == 1 { "entry" } else { "entries" });
        let mut also = String::new();
        if written.kept > 0 {
            also.push_str(&format!("; kept {} of files or rules this run did not lint", entries(written.kept, "")));
        }
        if written.dropped > 0 {
            also.push_str(&format!("; dropped {}", entries(written.dropped, "stale ")));
        }
        console.eprintln(format_args!("sqsguard: recorded {} finding(s) in {}{also}", written.recorded, shown(path)));
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(baseline) = baseline {
        outcome.baselined = Some(baseline.apply(&mut outcome));
    }
    report_lint(&args, outcome, console)
}

/// The session of a `lint`: its arguments checked (every selector selects
/// a rule, every path and variables file exists), the config `--config`
/// names read (else each file's nearest is, as the lint meets it), the
/// command line's `--select`/`--ignore` and stage to apply over it, the
/// baseline read. Anything wrong is a usage error, before anything is
/// linted.
pub(super) fn session(args: &LintArgs) -> Result<Session, Error> {
    for selector in args.select.iter().chain(&args.ignore) {
        if !rules::selects_any(selector) {
            return Err(Error::Usage(format!("`{selector}` matches no rule code; `sqsguard rules` lists them")));
        }
    }
    for path in &args.paths {
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::Usage(format!("{}: no such file or folder", path.display())));
            }
            Err(e) => return Err(Error::io(path, e)),
            Ok(_) => {}
        }
    }
    for file in &args.var_files {
        crate::source::open_regular(file).map_err(|e| Error::io(file, e.into()))?;
    }
    // The command line's --select replaces a config's; --ignore adds to it.
    let overrides = scope(args).rules;
    let (config, nearest) = match &args.config {
        Some(file) => (config::load(file)?.overridden(&overrides), None),
        None => (config::Config::default(), Some(overrides)),
    };
    // Without --stage, each config's `stage:` (`Inputs::stage_for`).
    let stage = stage(args)?;
    let inputs = Inputs {
        paths: args.paths.clone(),
        var_files: args.var_files.clone(),
        stage,
        no_code: args.no_code,
        ..Inputs::default()
    };
    let baseline = args.baseline.as_deref().map(|b| crate::baseline::load(b, &scope(args))).transpose()?;
    let unsafe_fixes = args.unsafe_fixes;
    let fix = if args.diff {
        FixMode::Diff { unsafe_fixes }
    } else if args.fix {
        FixMode::Write { unsafe_fixes }
    } else {
        FixMode::Report
    };
    Ok(Session { config, nearest, inputs, baseline, fix })
}

/// Where a lint looks: what a baseline's stale entries are counted in.
fn scope(args: &LintArgs) -> crate::baseline::Scope {
    let rules = crate::rules::Filter { select: args.select.clone(), ignore: args.ignore.clone() };
    crate::baseline::Scope { paths: args.paths.clone(), rules }
}

/// The report of a lint, what standard error adds to it, and the exit
/// status.
pub(super) fn report_lint(args: &LintArgs, outcome: Outcome, console: &mut Console) -> Result<ExitCode, Stop> {
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
pub(super) fn stage(args: &LintArgs) -> Result<config::Stage, Error> {
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
pub(super) fn nothing_linted(paths: &[PathBuf], skipped: usize, noted: bool) -> String {
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
pub(super) fn show_fixes(session: &Session, console: &mut Console) -> Result<ExitCode, Stop> {
    let fixed = fix_in_memory(session, console)?;
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
pub(super) fn fix_in_memory(session: &Session, console: &mut Console) -> Result<crate::fix::Fixed, Error> {
    let fixed = crate::fix::passes(session)?;
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
    Ok(fixed)
}

/// `--fix`: every pass computed in memory, then each changed file written
/// once, atomically. A file that cannot be written, or changed on disk
/// meanwhile, is left alone with one line on standard error; the other
/// files are still fixed. The count says what was written. Returns the
/// last lint when it is what is on disk now (what remains, without linting
/// once more), else `None` and the caller lints again. A config that
/// cannot be used is the error, before anything is written.
pub(super) fn apply_fixes(session: &Session, console: &mut Console) -> Result<Option<Outcome>, Error> {
    let fixed = fix_in_memory(session, console)?;
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
        return Ok(None);
    }
    Ok(fixed.last)
}
