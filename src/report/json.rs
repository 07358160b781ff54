//! `--format json`: one document, exactly the shape of shared/CLI.md.

use serde::Serialize;

use super::{Summary, location};
use crate::outcome::Outcome;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    findings: Vec<JsonFinding<'a>>,
    summary: Summary,
    /// Not findings: things worth knowing (a module that was not analysed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<JsonNote<'a>>,
}

#[derive(Serialize)]
struct JsonNote<'a> {
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonFinding<'a> {
    rule: &'a str,
    name: &'a str,
    severity: &'a str,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    end_line: Option<usize>,
    end_column: Option<usize>,
    resource: &'a str,
    /// Live findings: the account and Region of the resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<&'a str>,
    message: &'a str,
    fix: &'a str,
}

pub fn render(outcome: &Outcome) -> String {
    let findings = outcome
        .findings
        .iter()
        .map(|f| {
            let loc = location(f);
            let (account, region) = match &f.origin {
                crate::model::Origin::Live { account, region, .. } => (account.as_deref(), region.as_deref()),
                crate::model::Origin::File { .. } => (None, None),
            };
            JsonFinding {
                rule: f.code,
                name: f.name,
                severity: f.severity.as_str(),
                file: loc.as_ref().map(|l| l.file.clone()),
                line: loc.as_ref().map(|l| l.line),
                column: loc.as_ref().map(|l| l.column),
                end_line: loc.as_ref().map(|l| l.end_line),
                end_column: loc.as_ref().map(|l| l.end_column),
                resource: &f.resource,
                account,
                region,
                message: &f.message,
                fix: &f.fix,
            }
        })
        .collect();
    let notes = outcome
        .notes
        .iter()
        .map(|n| {
            let loc = n.origin.location();
            JsonNote {
                file: loc.as_ref().map(|l| l.file.clone()),
                line: loc.as_ref().map(|l| l.line),
                column: loc.as_ref().map(|l| l.column),
                message: &n.message,
            }
        })
        .collect();
    let doc = Document { version: 1, findings, summary: Summary::of(outcome), notes };
    let mut out = serde_json::to_string_pretty(&doc).expect("findings serialize");
    out.push('\n');
    out
}
