//! `sqsguard lint`: the session its arguments make, `--fix` and `--diff`,
//! the report and the exit status.

use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{InputArgs, LintArgs};
use super::console::{Console, FINDINGS, Stop, exit_status, shown};
use super::formats::Format;
use sqsguard_finding::error::Error;
use sqsguard_lint as lint;
use sqsguard_lint::config;
use sqsguard_lint::outcome::Outcome;
use sqsguard_lint::session::{FixMode, Inputs, Session};
use sqsguard_report::text::plural;
use sqsguard_report::{self as report, printable};
use sqsguard_rules as rules;

pub(super) fn run_lint(args: LintArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    let mut session = session(&args)?;
    match session.fix {
        FixMode::Diff { .. } => return show_fixes(&session, console, args.quiet),
        FixMode::Write { .. } => {
            // After --fix, its last lint is what remains (baseline
            // applied), unless that lint was followed by a write.
            if let Some(outcome) = apply_fixes(&session, console, args.quiet)? {
                return report_lint(&args, outcome, console);
            }
        }
        FixMode::Report => {}
    }
    let baseline = session.baseline.take();
    let mut outcome = lint::lint(&session)?;
    if let Some(path) = &args.write_baseline {
        let written = sqsguard_lint::baseline::write(path, &outcome, &scope(&args))?;
        if !args.quiet {
            let entries = |n: usize, kind: &str| plural(n, &format!("{kind}entry"), &format!("{kind}entries"));
            let mut also = String::new();
            if written.kept > 0 {
                also.push_str(&format!("; kept {} of files or rules this run did not lint", entries(written.kept, "")));
            }
            if written.dropped > 0 {
                also.push_str(&format!("; dropped {}", entries(written.dropped, "stale ")));
            }
            let recorded = plural(written.recorded, "finding", "findings");
            console.eprintln(format_args!("sqsguard: recorded {recorded} in {}{also}", shown(path)));
        }
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(baseline) = baseline {
        outcome.baselined = Some(baseline.apply(&mut outcome));
    }
    report_lint(&args, outcome, console)
}

/// The session of a `lint`: what it reads ([`reading`]), the baseline
/// read and the fix mode. Anything wrong is a usage error, before
/// anything is linted.
pub(super) fn session(args: &LintArgs) -> Result<Session, Error> {
    if args.statistics && !matches!(args.format, Format::Pretty | Format::Concise | Format::Json) {
        return Err(Error::Usage(
            "--statistics prints a table (pretty, concise) or JSON, not --format sarif, junit or github".into(),
        ));
    }
    let mut session = reading(&args.paths, &args.input, &scope(args).rules)?;
    session.baseline = args.baseline.as_deref().map(|b| sqsguard_lint::baseline::load(b, &scope(args))).transpose()?;
    let unsafe_fixes = args.unsafe_fixes;
    session.fix = if args.diff {
        FixMode::Diff { unsafe_fixes }
    } else if args.fix {
        FixMode::Write { unsafe_fixes }
    } else {
        FixMode::Report
    };
    Ok(session)
}

/// The session that reads `paths` with `input`, under `filter` (the
/// command line's `--select`/`--ignore`): every selector selects a rule,
/// every path and variables file exists, the config `--config` names is
/// read (else each file's nearest is, as the lint meets it), the stage
/// resolved. What `lint` and `graph` share.
pub(super) fn reading(paths: &[PathBuf], input: &InputArgs, filter: &rules::Filter) -> Result<Session, Error> {
    for selector in filter.select.iter().chain(&filter.ignore) {
        if !rules::selects_any(selector) {
            return Err(Error::Usage(format!("`{selector}` matches no rule code; `sqsguard rules` lists them")));
        }
    }
    // `-` is standard input.
    for path in paths.iter().filter(|p| p.as_os_str() != "-") {
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::Usage(format!("{}: no such file or folder", path.display())));
            }
            Err(e) => return Err(Error::io(path, e)),
            Ok(_) => {}
        }
    }
    for file in &input.var_files {
        sqsguard_source::open_regular(file).map_err(|e| Error::io(file, e.into()))?;
    }
    // The command line's --select replaces a config's; --ignore adds to it.
    let (config, nearest) = match &input.config {
        Some(file) => (config::load(file)?.overridden(filter), None),
        None => (config::Config::default(), Some(filter.clone())),
    };
    // Without --stage, each config's `stage:` (`Inputs::stage_for`).
    let stage = stage(input)?;
    let inputs = Inputs {
        paths: paths.to_vec(),
        var_files: input.var_files.clone(),
        stage,
        no_code: input.no_code,
        no_cdk_source: input.no_cdk_source,
        ..Inputs::default()
    };
    Ok(Session { config, nearest, inputs, ..Session::default() })
}

/// Where a lint looks: what a baseline's stale entries are counted in.
fn scope(args: &LintArgs) -> sqsguard_lint::baseline::Scope {
    let rules = sqsguard_rules::Filter { select: args.select.clone(), ignore: args.ignore.clone() };
    sqsguard_lint::baseline::Scope { paths: args.paths.clone(), rules }
}

/// The report of a lint, what standard error adds to it, and the exit
/// status.
pub(super) fn report_lint(args: &LintArgs, outcome: Outcome, console: &mut Console) -> Result<ExitCode, Stop> {
    report_to(args, &outcome, console, false)?;
    if let Some(path) = &args.sarif_file {
        write_sarif(path, &outcome)?;
    }
    let status = exit_status(args.fail_on, &outcome);
    if !args.quiet {
        say_aside(args, &outcome, console);
    }
    // A large run's findings and model are freed by the exit, not one by one.
    std::mem::forget(outcome);
    Ok(status)
}

/// What the command line's options make of the text formats.
pub(super) fn view(args: &LintArgs) -> report::View {
    report::View { quiet: args.quiet, show_skipped: args.show_skipped, unsafe_fixes: args.unsafe_fixes }
}

/// The report in `--format`, or `--statistics`, on standard output (on
/// standard error when `--fix` of `-` prints the fixed text there).
pub(super) fn report_to(args: &LintArgs, outcome: &Outcome, console: &mut Console, stderr: bool) -> Result<(), Stop> {
    let view = view(args);
    let format = args.format.reporter(view);
    let write = |out: &mut dyn std::io::Write| match (args.statistics, args.format) {
        (true, Format::Json) => report::statistics::write_json(outcome, view, out),
        (true, _) => out.write_all(report::statistics::render(outcome, view).as_bytes()),
        (false, _) => report::write(format, outcome, out),
    };
    if stderr { console.err_out(write) } else { console.out(write) }
}

/// `--sarif-file`: the report as SARIF, written atomically beside what
/// `--format` printed.
pub(super) fn write_sarif(path: &std::path::Path, outcome: &Outcome) -> Result<(), Error> {
    let mut sarif = Vec::new();
    report::write(report::Format::Sarif, outcome, &mut sarif).map_err(|e| Error::io(path, e))?;
    sqsguard_source::write_named(path, &sarif).map_err(|e| Error::io(path, e))
}

/// What standard error adds to a report: Parameter values no template
/// declares, and why nothing was linted.
fn say_aside(args: &LintArgs, outcome: &Outcome, console: &mut Console) {
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
}

/// The stage or environment the command line names: `--stage`, `--param`,
/// and the Parameter values of `--samconfig` then `--parameter-overrides`
/// (the last of a key wins, as in `sam deploy`). A value that is no
/// `KEY=VALUE`, or a samconfig that cannot be read, is a usage error.
pub(super) fn stage(args: &InputArgs) -> Result<config::Stage, Error> {
    use sqsguard_frontend::stage::{key_value, sam_override};
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
            "sqsguard: nothing linted: of the {} read under {under}, none is a template, module or plan sqsguard reads (--show-skipped says why each was skipped)",
            plural(n, "file", "files")
        ),
    }
}

/// `--diff`: what `--fix` would write, as a unified diff on standard
/// output, every pass included; nothing written; exit 1 when there is a
/// diff.
pub(super) fn show_fixes(session: &Session, console: &mut Console, quiet: bool) -> Result<ExitCode, Stop> {
    let fixed = fix_in_memory(session, console)?;
    console.out(|out| {
        for (path, (file, text, _)) in &fixed.files {
            out.write_all(sqsguard_lint::fix::unified_diff(path, &file.text, text).as_bytes())?;
        }
        Ok(())
    })?;
    if !quiet {
        console.eprintln(fixed_line("the diff fixes", fixed.fixes(), fixed.files.len(), fixed.passes));
    }
    std::mem::forget(fixed.last);
    Ok(if fixed.files.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(FINDINGS) })
}

/// Every pass of `--fix` in memory, with a line on standard error for
/// each file it did not fix.
pub(super) fn fix_in_memory(session: &Session, console: &mut Console) -> Result<sqsguard_lint::fix::Fixed, Error> {
    let fixed = sqsguard_lint::fix::passes(session)?;
    for event in &fixed.events {
        match event {
            sqsguard_lint::fix::Event::Refused(path, why) => {
                console.eprintln(format_args!("sqsguard: {}: {why}", shown(path)));
            }
            sqsguard_lint::fix::Event::Reverted(path, why) => {
                console.eprintln(format_args!("sqsguard: {}: not fixed: {}", shown(path), printable(why)));
            }
        }
    }
    Ok(fixed)
}

/// `sqsguard: fixed 7 findings in 2 files`, and when it took more than
/// one pass, why more findings may be fixed than the report marked `[*]`:
/// fixing some made others fixable, found by linting the fixed text again.
pub(super) fn fixed_line(verb: &str, fixes: usize, files: usize, passes: usize) -> String {
    let passes =
        if passes > 1 { format!(" (in {passes} passes: the first fixes made others fixable)") } else { String::new() };
    format!("sqsguard: {verb} {} in {}{passes}", plural(fixes, "finding", "findings"), plural(files, "file", "files"))
}

/// `--fix`: every pass computed in memory, then each changed file written
/// once, atomically. A file that cannot be written, or changed on disk
/// meanwhile, is left alone with one line on standard error; the other
/// files are still fixed. The count says what was written. Returns the
/// last lint when it is what is on disk now (what remains, without linting
/// once more), else `None` and the caller lints again. A config that
/// cannot be used is the error, before anything is written.
pub(super) fn apply_fixes(session: &Session, console: &mut Console, quiet: bool) -> Result<Option<Outcome>, Error> {
    let fixed = fix_in_memory(session, console)?;
    let (mut files, mut fixes) = (0, 0);
    for (path, (file, text, n)) in &fixed.files {
        match sqsguard_lint::fix::write_fixed(path, &file.text, text) {
            Ok(sqsguard_lint::fix::Written::Fixed) => {
                files += 1;
                fixes += n;
            }
            Ok(sqsguard_lint::fix::Written::ChangedMeanwhile) => {
                console.eprintln(format_args!("sqsguard: {}: changed since it was read; not fixed", shown(path)));
            }
            Err(e) => console.eprintln(format_args!("sqsguard: {}; not fixed", printable(&e.to_string()))),
        }
    }
    if !quiet {
        console.eprintln(fixed_line("fixed", fixes, files, fixed.passes));
    }
    if files < fixed.files.len() {
        std::mem::forget(fixed.last);
        return Ok(None);
    }
    Ok(fixed.last)
}
