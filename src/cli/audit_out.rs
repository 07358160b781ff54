//! Where `audit` and `report merge` write their report, in an
//! [`AuditFormat`]: to standard output, or with `--output FILE` to that
//! file, written whole or not at all, as `graph --output` does.

use std::path::Path;

use super::console::{Console, Stop, shown};
use super::formats::AuditFormat;
use sqsguard_finding::error::Error;
use sqsguard_lint::outcome::Outcome;
use sqsguard_report as report;

/// What the page is made from besides the outcome.
pub(super) enum Source<'a> {
    /// A live audit's models, one per account-Region read.
    #[cfg_attr(not(feature = "audit"), allow(dead_code))]
    Live(&'a [sqsguard_model::Model]),
    /// The JSON reports merged, by name.
    Reports(&'a [std::path::PathBuf]),
}

/// Write the report of `outcome` in `format`, to `output` or standard output.
pub(super) fn write(
    format: AuditFormat,
    outcome: &Outcome,
    source: Source<'_>,
    output: Option<&Path>,
    console: &mut Console,
) -> Result<(), Stop> {
    let text = match format {
        AuditFormat::Text(text) => Some(text),
        AuditFormat::Html => None,
    };
    let bytes = match (text, output) {
        (Some(text), None) => {
            return console.out(|out| report::write(text.reporter(report::View::default()), outcome, out));
        }
        (Some(text), Some(_)) => {
            // A file gets no terminal colours.
            let reporter = match text.reporter(report::View::default()) {
                report::Format::Pretty(style) => {
                    report::Format::Pretty(report::pretty::Style { color: false, ..style })
                }
                report::Format::Concise(style) => {
                    report::Format::Concise(report::pretty::Style { color: false, ..style })
                }
                other => other,
            };
            report::render(reporter, outcome).into_bytes()
        }
        (None, _) => page(outcome, source).map_err(Error::Usage)?.into_bytes(),
    };
    match output {
        Some(path) => {
            sqsguard_source::write_named(path, &bytes).map_err(|e| Error::io(path, e))?;
            console.eprintln(format_args!("wrote {}", shown(path)));
            Ok(())
        }
        None => console.out(|out| out.write_all(&bytes)),
    }
}

fn page(outcome: &Outcome, source: Source<'_>) -> Result<String, String> {
    match source {
        Source::Live(models) => report::html::live(outcome, models),
        Source::Reports(files) => {
            // The merged outcome as its JSON document, which the graph of
            // a report is drawn from.
            let json = report::render(report::Format::Json(report::View::default()), outcome);
            let doc: serde_json::Value = serde_json::from_str(&json).unwrap_or_default();
            let names: Vec<String> = files.iter().map(|f| shown(f)).collect();
            let source = match names.as_slice() {
                [one] => format!("the JSON report {one}"),
                many => format!("the JSON reports {}", many.join(", ")),
            };
            report::html::of_report(outcome, &doc, &source)
        }
    }
}
