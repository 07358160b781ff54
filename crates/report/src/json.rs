//! `--format json`: one document, in the shape docs/lint.md documents for scripts.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::SerializeSeq;

use super::{Summary, View, location};

use sqsguard_finding::Edit;
use sqsguard_finding::{Applicability, Finding};
use sqsguard_lint::outcome::Outcome;

#[derive(Serialize)]
struct Document<'a> {
    version: u32,
    findings: Findings<'a>,
    summary: Summary,
    /// Not findings: things worth knowing (a module that was not analysed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<JsonNote<'a>>,
    /// `--show-skipped`: the files read and not linted, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    skipped: Option<Vec<JsonSkip<'a>>>,
}

#[derive(Serialize)]
struct JsonSkip<'a> {
    file: &'a str,
    reason: &'a str,
}

#[derive(Serialize)]
struct JsonNote<'a> {
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    /// Audit notes: the account and Region they are about.
    #[serde(skip_serializing_if = "Option::is_none")]
    account: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<&'a str>,
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
    /// Live findings: what people call the resource (`jobs`, `jobs-worker
    /// on jobs`), so a merged report names it as the audit did.
    #[serde(skip_serializing_if = "Option::is_none")]
    resource_name: Option<&'a str>,
    message: Cow<'a, str>,
    fix: Cow<'a, str>,
    /// What `--fix` would change (`--unsafe-fixes` for unsafe ones).
    #[serde(skip_serializing_if = "Option::is_none")]
    edits: Option<Vec<JsonEdit>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    applicability: Option<Applicability>,
    /// A CDK finding moved to its construct: where it is in the
    /// synthesized template.
    #[serde(skip_serializing_if = "Option::is_none")]
    synthesized_at: Option<Place>,
}

/// A file, line and column (1-based).
#[derive(Serialize)]
struct Place {
    file: String,
    line: usize,
    column: usize,
}

/// Replace from `line:column` up to, not including, `end_line:end_column`
/// (equal for an insertion) with `replacement`.
#[derive(Serialize)]
struct JsonEdit {
    file: String,
    line: usize,
    column: usize,
    end_line: usize,
    end_column: usize,
    replacement: String,
}

/// The findings, each turned into its JSON shape as it is written: a run
/// of a hundred thousand findings is never copied whole.
struct Findings<'a>(&'a [Finding]);

impl Serialize for Findings<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for f in self.0 {
            let mut shaped = shape(f);
            if let Some(fix) = f.fix_edits() {
                shaped.applicability = Some(fix.applicability);
                shaped.edits = Some(fix.edits.iter().map(edit).collect());
            }
            seq.serialize_element(&shaped)?;
        }
        seq.end()
    }
}

fn edit(e: &Edit) -> JsonEdit {
    let (start, end) = (e.file.position(e.span.start), e.file.position(e.span.end));
    JsonEdit {
        file: e.file.display_path(),
        line: start.line,
        column: start.column,
        end_line: end.line,
        end_column: end.column,
        replacement: e.replacement.clone(),
    }
}

fn shape(f: &Finding) -> JsonFinding<'_> {
    let loc = location(f);
    let (account, region, resource_name) = match &f.origin {
        sqsguard_model::Origin::Live(live) => (live.account.as_deref(), live.region.as_deref(), live.name.as_deref()),
        sqsguard_model::Origin::File { .. } => (None, None, None),
    };
    JsonFinding {
        rule: f.code(),
        name: f.name(),
        severity: f.severity.as_str(),
        file: loc.as_ref().map(|l| l.file.clone()),
        line: loc.as_ref().map(|l| l.line),
        column: loc.as_ref().map(|l| l.column),
        end_line: loc.as_ref().map(|l| l.end_line),
        end_column: loc.as_ref().map(|l| l.end_column),
        resource: &f.resource,
        account,
        region,
        resource_name,
        message: f.full_message(),
        fix: f.full_fix(),
        edits: None,
        applicability: None,
        synthesized_at: f.context.synthesized.as_ref().map(|at| Place {
            file: at.file.clone(),
            line: at.line,
            column: at.column,
        }),
    }
}

/// The document, written as it is serialized.
pub(crate) fn write(outcome: &Outcome, view: View, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let notes = outcome
        .notes
        .iter()
        .map(|n| {
            let loc = n.origin.location();
            let (account, region) = n.origin.account_region();
            JsonNote {
                file: loc.as_ref().map(|l| l.file.clone()),
                line: loc.as_ref().map(|l| l.line),
                column: loc.as_ref().map(|l| l.column),
                account,
                region,
                message: &n.message,
            }
        })
        .collect();
    let skipped =
        view.show_skipped.then(|| outcome.skips.iter().map(|s| JsonSkip { file: &s.file, reason: &s.why }).collect());
    let findings = Findings(&outcome.findings);
    let doc = Document { version: 1, findings, summary: Summary::of(outcome), notes, skipped };
    super::write_json(out, &doc)
}
