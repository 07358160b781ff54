//! Suppressions: a comment `# sqsguard:ignore SQS004 reason` on a
//! resource's line or the line above it (YAML and HCL, `//` too in HCL),
//! and CloudFormation resource Metadata
//! `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}` (JSON templates
//! have no comments), as the front-ends found them. Codes or rule names
//! (`missing-dlq`) both work.
//!
//! A suppression silences the findings of its rules about the resource it
//! is attached to (the finding's `resource`, or one it is related to: the
//! policy of an SQS017, the consumer of an SQS001), or located on its
//! line. One without a reason still works and gets a note; one that names
//! no rule gets a note; and a rule of it that silences nothing anywhere in
//! the run gets a note, so stale ones are cleaned up.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use sqsguard_finding::{Finding, Note};
use sqsguard_model::{Model, Origin, Scope, Suppression, Written};
use sqsguard_rules::{self as rules, Filter};

/// A suppression read against the rule catalog.
struct Resolved {
    /// Rule codes, upper case; empty when it names no rule.
    codes: Vec<String>,
    reason: Option<String>,
    origin: Origin,
    scope: Scope,
}

fn resolve(s: Suppression) -> Resolved {
    let (codes, reason) = match s.written {
        Written::Comment(body) => parse(&body),
        Written::Listed { rules, reason } => {
            let codes: Option<Vec<String>> = rules.iter().map(|r| code_of(r).map(str::to_string)).collect();
            (codes.unwrap_or_default(), reason)
        }
    };
    Resolved { codes, reason, origin: s.origin, scope: s.scope }
}

/// `SQS004,SQS006 reason` -> (codes, reason); no codes when none parses.
/// A code may be a rule name (`missing-dlq`) and may end in `:`.
fn parse(body: &str) -> (Vec<String>, Option<String>) {
    let mut codes = Vec::new();
    let mut rest = body.trim();
    loop {
        let token_end = rest.find(|c: char| c.is_whitespace() || c == ',').unwrap_or(rest.len());
        let token = &rest[..token_end];
        let Some(code) = code_of(token.strip_suffix(':').unwrap_or(token)) else { break };
        codes.push(code.to_string());
        rest = rest[token_end..].trim_start_matches(|c: char| c.is_whitespace() || c == ',');
        if token.ends_with(':') {
            break;
        }
    }
    // `-- reason`, `: reason` and `reason` all read the same.
    let reason = rest.trim_start_matches(['-', ':', '—']).trim();
    (codes, (!reason.is_empty()).then(|| reason.to_string()))
}

/// The code of a rule named by its code (any case) or its name.
fn code_of(token: &str) -> Option<&'static str> {
    rules::by_code_or_name(token.trim()).map(|r| r.id.code)
}

/// One rule of one suppression: (file, byte offset, code). A module's
/// file is checked once per caller, so staleness is judged over the run.
pub type Key = (PathBuf, usize, String);

/// What is left after suppressions.
#[derive(Debug, Default)]
pub(crate) struct Applied {
    pub findings: Vec<Finding>,
    pub suppressed: usize,
    /// Suppressions without a reason, or naming no rule.
    pub notes: Vec<Note>,
    /// Rules of suppressions that silenced something here.
    pub used: Vec<Key>,
    /// Rules of suppressions that silenced nothing here, with the note to
    /// give when nothing else in the run used them either.
    pub unused: Vec<(Key, Note)>,
}

/// Apply the suppressions the front-end found to `findings` (those of the
/// rules `filter` keeps). `filter` also tells which rules run, so a
/// suppression of a rule switched off is not stale.
/// `declared` adds where resources are written beyond the model's
/// origins: a CDK construct's line in the app's source.
pub(super) fn apply(
    model: &Model,
    findings: Vec<Finding>,
    suppressions: Vec<Suppression>,
    declared: &[(String, PathBuf, usize)],
    filter: &Filter,
) -> Applied {
    let suppressions: Vec<Resolved> = suppressions.into_iter().map(resolve).collect();
    let mut out = Applied::default();
    if suppressions.is_empty() {
        out.findings = findings;
        return out;
    }
    let index = Candidates::new(model, &suppressions, declared);
    let mut used: Vec<Vec<bool>> = suppressions.iter().map(|s| vec![false; s.codes.len()]).collect();
    let mut near = Vec::new();
    for finding in findings {
        // Every suppression that covers the finding counts as used: two
        // comments saying the same are redundant, not stale.
        let mut hit = false;
        index.of(&finding, &mut near);
        for &i in &near {
            if let Some(c) = suppressions[i].codes.iter().position(|c| c == finding.code()) {
                used[i][c] = true;
                hit = true;
            }
        }
        if hit {
            out.suppressed += 1;
        } else {
            out.findings.push(finding);
        }
    }
    for (s, used) in suppressions.iter().zip(used) {
        if s.codes.is_empty() {
            out.notes.push(Note {
                origin: s.origin.clone(),
                message: "sqsguard:ignore names no rule: write `sqsguard:ignore SQS004 reason` (a code or a rule name)"
                    .to_string(),
            });
            continue;
        }
        if used.iter().any(|u| *u) && s.reason.is_none() {
            out.notes.push(Note {
                origin: s.origin.clone(),
                message: format!("sqsguard:ignore {} gives no reason; say why after the code", s.codes.join(", ")),
            });
        }
        for (code, used) in s.codes.iter().zip(used) {
            let key = key(s, code);
            if used {
                out.used.push(key);
            } else if filter.keeps(code) {
                let note = Note {
                    origin: s.origin.clone(),
                    message: format!("sqsguard:ignore {code} silences no finding here; remove it"),
                };
                out.unused.push((key, note));
            }
        }
    }
    out
}

fn key(s: &Resolved, code: &str) -> Key {
    match &s.origin {
        Origin::File { file, span } => (file.path.clone(), span.start, code.to_string()),
        Origin::Live(live) => (PathBuf::from(&live.id), 0, code.to_string()),
    }
}

/// The stale-suppression notes of a run: those no model used.
pub fn stale(used: &[Key], unused: Vec<(Key, Note)>) -> Vec<Note> {
    let used: HashSet<&Key> = used.iter().collect();
    let mut seen = HashSet::new();
    unused.into_iter().filter(|(k, _)| !used.contains(k) && seen.insert(k.clone())).map(|(_, n)| n).collect()
}

/// Which suppressions may cover a finding, looked up instead of scanned:
/// a suppression covers the findings about (or related to) the resource it
/// is attached to, or the resources declared on its line, or located on
/// its line.
struct Candidates<'a> {
    /// Metadata suppressions by the resource they are attached to.
    by_resource: HashMap<&'a str, Vec<usize>>,
    /// Comment suppressions by (file, line).
    by_line: HashMap<(&'a Path, usize), Vec<usize>>,
    /// Where each resource is declared: (file, line).
    declared: HashMap<&'a str, Vec<(&'a Path, usize)>>,
}

impl<'a> Candidates<'a> {
    fn new(model: &'a Model, suppressions: &'a [Resolved], also: &'a [(String, PathBuf, usize)]) -> Self {
        let mut by_resource: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut by_line: HashMap<(&Path, usize), Vec<usize>> = HashMap::new();
        for (i, s) in suppressions.iter().enumerate() {
            match (&s.scope, &s.origin) {
                (Scope::Resource(id), _) => by_resource.entry(id).or_default().push(i),
                (Scope::Line(line), Origin::File { file, .. }) => {
                    by_line.entry((&file.path, *line)).or_default().push(i)
                }
                _ => {}
            }
        }
        let mut declared: HashMap<&str, Vec<(&Path, usize)>> = HashMap::new();
        if !by_line.is_empty() {
            for (resource, origin) in resources(model) {
                if let Origin::File { file, span } = origin {
                    declared.entry(resource).or_default().push((&file.path, file.position(span.start).line));
                }
            }
            for (resource, path, line) in also {
                declared.entry(resource).or_default().push((path, *line));
            }
        }
        Candidates { by_resource, by_line, declared }
    }

    /// The suppressions that cover `finding` (whatever their rules), into
    /// `out`, each once.
    fn of(&self, finding: &Finding, out: &mut Vec<usize>) {
        out.clear();
        let about = std::iter::once(&finding.resource).chain(&finding.related);
        for name in about {
            out.extend(self.by_resource.get(name.as_str()).into_iter().flatten());
            for at in self.declared.get(name.as_str()).into_iter().flatten() {
                out.extend(self.by_line.get(at).into_iter().flatten());
            }
        }
        if let Origin::File { file, span } = &finding.origin
            && !self.by_line.is_empty()
        {
            let at = (file.path.as_path(), file.position(span.start).line);
            out.extend(self.by_line.get(&at).into_iter().flatten());
        }
        out.sort_unstable();
        out.dedup();
    }
}

fn resources(model: &Model) -> impl Iterator<Item = (&String, &Origin)> {
    model
        .queues
        .iter()
        .map(|q| (&q.resource, &q.origin))
        .chain(model.functions.iter().map(|f| (&f.resource, &f.origin)))
        .chain(model.consumers.iter().map(|c| (&c.resource, &c.origin)))
        .chain(model.alarms.iter().map(|a| (&a.resource, &a.origin)))
        .chain(model.policies.iter().map(|p| (&p.resource, &p.origin)))
        .chain(model.producers.iter().map(|p| (&p.resource, &p.origin)))
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn codes_then_the_reason() {
        assert_eq!(parse("SQS004 drained by hand"), (vec!["SQS004".into()], Some("drained by hand".into())));
        assert_eq!(parse("sqs004, SQS006"), (vec!["SQS004".into(), "SQS006".into()], None));
        assert_eq!(parse("everything"), (vec![], Some("everything".into())));
    }

    #[test]
    fn colons_and_rule_names_read_as_codes() {
        let got = parse("SQS004,short-polling: drained by hand");
        assert_eq!(got, (vec!["SQS004".into(), "SQS006".into()], Some("drained by hand".into())));
        assert_eq!(parse("sqs004: reason"), (vec!["SQS004".into()], Some("reason".into())));
    }
}
