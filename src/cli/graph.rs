//! `graph`: lint what the paths name, keeping each model with its
//! findings, and draw them; or draw an audit's JSON report (named with
//! `--from-audit`, or as the one PATH). Exit 0 unless the command line is
//! wrong (2): the findings are in the picture, not the status.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::{GraphArgs, GraphFormat};
use super::console::{Console, Stop, shown};
use sqsguard_finding::error::Error;
use sqsguard_lint::graph::{self, Graph, Piece};

pub(super) fn run(args: GraphArgs, console: &mut Console) -> Result<ExitCode, Stop> {
    let graph = match audit_report(&args)? {
        Some((doc, path)) => graph::audit::from_report(&doc, &shown(&path)).map_err(Error::Usage)?,
        None => from_lint(&args, console)?,
    };
    for note in &graph.notes {
        console.eprintln(format_args!("note: {note}"));
    }
    let text = match args.format {
        GraphFormat::Mermaid => {
            let text = graph::mermaid::render(&graph);
            if let Some(why) = graph::mermaid::too_large(&graph, &text) {
                console.eprintln(format_args!("note: {why}"));
            }
            text
        }
        GraphFormat::Dot => graph::dot::render(&graph),
        GraphFormat::Json => graph::json::render(&graph),
    };
    match &args.output {
        Some(path) => {
            sqsguard_source::write_named(path, text.as_bytes()).map_err(|e| Error::io(path, e))?;
            console.eprintln(format_args!("wrote {}", shown(path)));
        }
        None => console.print(&text)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The audit report to draw: `--from-audit FILE`, or the one PATH when it
/// is a JSON file that is an audit's report.
fn audit_report(args: &GraphArgs) -> Result<Option<(serde_json::Value, PathBuf)>, Error> {
    let read = |path: &Path| -> Result<serde_json::Value, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        serde_json::from_str(&text)
            .map_err(|e| Error::Usage(format!("{}: not an audit's JSON report: {e}", shown(path))))
    };
    if let Some(path) = &args.from_audit {
        let doc = read(path)?;
        if !graph::audit::is_report(&doc) {
            return Err(Error::Usage(format!(
                "{}: not a `sqsguard audit --format json` report (it has no findings and summary.api_calls)",
                shown(path)
            )));
        }
        return Ok(Some((doc, path.clone())));
    }
    if let [path] = args.paths.as_slice()
        && path.is_file()
        && path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
        && let Ok(doc) = read(path)
        && graph::audit::is_report(&doc)
    {
        return Ok(Some((doc, path.clone())));
    }
    Ok(None)
}

/// The graph of what a lint of the paths checked; its notes (a file not
/// linted, a link not resolved) are said on standard error.
fn from_lint(args: &GraphArgs, console: &mut Console) -> Result<Graph, Error> {
    // The paths and inputs named, every rule.
    let session = super::lint::reading(&args.paths, &args.input, &sqsguard_rules::Filter::default())?;
    let (drawn, outcome) = sqsguard_lint::drawn(&session)?;
    for note in &outcome.notes {
        match note.origin.location() {
            Some(l) if !l.file.is_empty() => console.eprintln(format_args!("note: {}: {}", l.file, note.message)),
            _ => console.eprintln(format_args!("note: {}", note.message)),
        }
    }
    if outcome.files == 0 {
        console.eprintln(format_args!("note: nothing was read to draw: no template, module, plan or SQS code"));
    }
    let pieces: Vec<Piece<'_>> =
        drawn.iter().map(|d| Piece { scope: &d.scope, model: &d.model, findings: &d.findings }).collect();
    Ok(graph::from_models(&pieces))
}
