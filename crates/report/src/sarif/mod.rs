//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning.
//!
//! One run: the driver lists every rule of the catalog (with its page from
//! `rules/` as help), each finding is a result located in its file (live
//! findings have only a logical location: the queue or consumer by name,
//! its URL or mapping UUID as the fully qualified name),
//! and notes become tool execution notifications. A finding `--fix` can
//! fix carries the edits as SARIF `fixes`, so editors and review bots can
//! offer them.
//!
//! The types ([`shape`]) are the subset of the SARIF object model this
//! reporter writes, as plain serde structs; field names follow the spec
//! (camelCase).

use std::collections::BTreeMap;

mod shape;

use super::text::live_subject;
use super::{Gaps, Location as Span, Summary, location};
use shape::{
    ArtifactChange, ArtifactContent, ArtifactLocation, Configuration, Driver, Help, Invocation, Location, Log,
    LogicalLocation, Notification, PhysicalLocation, Region, RelatedLocation, Replacement, ReportingDescriptor, Run,
    RunProperties, SarifFix, SarifResult, Text, Tool,
};
use sqsguard_finding::Fix;
use sqsguard_finding::{Applicability, Finding, Severity};
use sqsguard_lint::fingerprint::{Identity, normalize_path};
use sqsguard_lint::outcome::Outcome;
use sqsguard_model::Origin;
use sqsguard_rules::{self as rules, Rule};

/// Where sqsguard lives (Cargo.toml `repository`); the rule pages are
/// `rules/CODE.md` under it.
pub const REPOSITORY_URL: &str = env!("CARGO_PKG_REPOSITORY");

/// The key of our fingerprint in `partialFingerprints`. Bump the version
/// if [`Identity`] ever changes, so code scanning does not match old alerts
/// against new fingerprints of another kind.
pub(crate) const FINGERPRINT_KEY: &str = "sqsguard/v1";

/// The OASIS SARIF 2.1.0 schema (errata 01, the final one).
const SCHEMA_URI: &str = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// The base ID relative artifact URIs are resolved against: the checkout.
const SRCROOT: &str = "%SRCROOT%";

/// The page of a rule in the repository.
pub fn rule_help_uri(code: &str) -> String {
    format!("{REPOSITORY_URL}/blob/main/rules/{code}.md")
}

/// A note's place in its file, if it has one, as notification locations.
fn note_locations(note: &sqsguard_finding::Note) -> Vec<Location> {
    note.origin
        .location()
        .map(|l| Location { physical_location: Some(physical(&l)), logical_locations: Vec::new() })
        .into_iter()
        .collect()
}

pub(crate) fn write(outcome: &Outcome, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let mut notifications: Vec<Notification> = outcome
        .notes
        .iter()
        .map(|n| Notification {
            level: "note",
            message: Text { text: n.message.clone() },
            locations: note_locations(n),
        })
        .collect();
    // A run that left something out did not succeed, whatever it found:
    // an error notification for each pair not audited in full and each
    // file named but not linted, so code scanning never shows it clean.
    let gaps = Gaps::of(outcome);
    for (_, sentence) in &gaps.unaudited {
        notifications.push(Notification {
            level: "error",
            message: Text { text: sentence.clone() },
            locations: Vec::new(),
        });
    }
    for (file, sentence, note) in &gaps.unlinted {
        // The file, at its note's place (its start).
        let start = || {
            let l = Span { file: file.to_string(), line: 1, column: 1, end_line: 1, end_column: 1 };
            vec![Location { physical_location: Some(physical(&l)), logical_locations: Vec::new() }]
        };
        let locations = note.map(note_locations).filter(|l| !l.is_empty()).unwrap_or_else(start);
        notifications.push(Notification { level: "error", message: Text { text: sentence.clone() }, locations });
    }
    let run = Run {
        tool: Tool {
            driver: Driver {
                name: "sqsguard",
                version: env!("CARGO_PKG_VERSION"),
                information_uri: REPOSITORY_URL,
                rules: rules::ALL.iter().map(|r| descriptor(r)).collect(),
            },
        },
        invocations: vec![Invocation {
            execution_successful: gaps.is_empty(),
            tool_execution_notifications: notifications,
        }],
        column_kind: "unicodeCodePoints",
        results: { outcome.findings.iter().map(result).collect() },
        properties: RunProperties { summary: Summary::of(outcome) },
    };
    let log = Log { schema: SCHEMA_URI, version: "2.1.0", runs: vec![run] };
    super::write_json(out, &log)
}

fn descriptor(rule: &Rule) -> ReportingDescriptor {
    ReportingDescriptor {
        id: rule.id.code,
        name: rule.id.name,
        short_description: Text { text: rule.summary.to_string() },
        full_description: Text { text: section(rule.doc, "What it checks").unwrap_or(rule.summary).to_string() },
        help: Help { text: rule.page(), markdown: rule.page() },
        help_uri: rule_help_uri(rule.id.code),
        default_configuration: Configuration { level: level(rule.severity) },
    }
}

/// The text of a `## heading` section of a rule page, trimmed.
fn section<'a>(doc: &'a str, heading: &str) -> Option<&'a str> {
    let marker = format!("\n## {heading}\n");
    let start = match doc.strip_prefix(&marker[1..]) {
        Some(_) => marker.len() - 1,
        None => doc.find(&marker)? + marker.len(),
    };
    let rest = &doc[start..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    Some(rest[..end].trim()).filter(|s| !s.is_empty())
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

fn result(f: &Finding) -> SarifResult {
    let mut properties = BTreeMap::new();
    let location = match &f.origin {
        Origin::File { .. } => Location {
            physical_location: location(f).map(|l| physical(&l)),
            logical_locations: vec![LogicalLocation {
                name: f.resource.clone(),
                fully_qualified_name: None,
                kind: "resource",
            }],
        },
        Origin::Live(live) => {
            properties.extend(live.account.clone().map(|a| ("account", a)));
            properties.extend(live.region.clone().map(|r| ("region", r)));
            let resource = if f.resource.is_empty() { &live.id } else { &f.resource };
            // By name (`jobs`, `jobs-worker on jobs`), as the text formats
            // say it; the URL or UUID as the fully qualified name.
            let name = live.name.clone().unwrap_or_else(|| short_name(resource).to_string());
            Location {
                physical_location: None,
                logical_locations: vec![LogicalLocation {
                    name,
                    fully_qualified_name: Some(resource.clone()),
                    kind: "resource",
                }],
            }
        }
    };
    SarifResult {
        rule_id: f.code(),
        rule_index: rules::ALL.iter().position(|r| r.id.code == f.code()),
        level: level(f.severity),
        // A live finding has no file to point at: the queue or consumer
        // is named in the text unless the message names it.
        message: Text {
            text: match live_subject(f) {
                Some(subject) => format!("{} ({subject})\nfix: {}", f.full_message(), f.full_fix()),
                None => format!("{}\nfix: {}", f.full_message(), f.full_fix()),
            },
        },
        locations: vec![location],
        related_locations: f
            .context
            .synthesized
            .iter()
            .map(|at| RelatedLocation {
                id: 0,
                physical_location: physical(at),
                message: Text { text: "the resource in the synthesized template".into() },
            })
            .collect(),
        partial_fingerprints: BTreeMap::from([(FINGERPRINT_KEY, Identity::of(f).hash())]),
        fixes: f.fix_edits().map(|fix| sarif_fix(f, fix)).into_iter().collect(),
        properties,
    }
}

/// A finding's fix as SARIF: one artifact change per file it edits.
fn sarif_fix(f: &Finding, fix: &Fix) -> SarifFix {
    let mut changes: Vec<ArtifactChange> = Vec::new();
    for edit in &fix.edits {
        let (start, end) = (edit.file.position(edit.span.start), edit.file.position(edit.span.end));
        let replacement = Replacement {
            deleted_region: Region {
                start_line: start.line,
                start_column: start.column,
                end_line: end.line,
                end_column: end.column,
            },
            inserted_content: ArtifactContent { text: edit.replacement.clone() },
        };
        let location = artifact(&edit.file.display_path());
        match changes.iter_mut().find(|c| c.artifact_location.uri == location.uri) {
            Some(change) => change.replacements.push(replacement),
            None => changes.push(ArtifactChange { artifact_location: location, replacements: vec![replacement] }),
        }
    }
    let (applicability, how) = match fix.applicability {
        Applicability::Safe => ("safe", "sqsguard lint --fix"),
        Applicability::Unsafe => ("unsafe", "sqsguard lint --fix --unsafe-fixes"),
    };
    SarifFix {
        description: Text { text: format!("{} ({how})", f.full_fix()) },
        artifact_changes: changes,
        properties: BTreeMap::from([("applicability", applicability)]),
    }
}

/// The last part of a queue URL or ARN (`.../123456789012/orders` ->
/// `orders`); a mapping UUID stays whole.
fn short_name(id: &str) -> &str {
    id.rsplit(['/', ':']).find(|s| !s.is_empty()).unwrap_or(id)
}

fn physical(l: &Span) -> PhysicalLocation {
    let start_line = l.line.max(1);
    let start_column = l.column.max(1);
    let end_line = l.end_line.max(start_line);
    // Inclusive end column + 1; never before the start on a one-line region.
    let mut end_column = l.end_column + 1;
    if end_line == start_line {
        end_column = end_column.max(start_column + 1);
    }
    PhysicalLocation {
        artifact_location: artifact(&l.file),
        region: Region { start_line, start_column, end_line, end_column },
    }
}

/// A file path as an artifact location: a relative path is a relative URI
/// reference resolved against `%SRCROOT%` (the checkout, for code
/// scanning); an absolute one is a `file:` URI.
fn artifact(path: &str) -> ArtifactLocation {
    let path = normalize_path(path);
    let bytes = path.as_bytes();
    if path.starts_with('/') {
        return ArtifactLocation { uri: format!("file://{}", encode(&path)), uri_base_id: None };
    }
    // A Windows drive path, `C:/x.yaml`.
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' && bytes.get(2).is_none_or(|&b| b == b'/')
    {
        return ArtifactLocation { uri: format!("file:///{}:{}", &path[..1], encode(&path[2..])), uri_base_id: None };
    }
    ArtifactLocation { uri: encode(&path), uri_base_id: Some(SRCROOT) }
}

/// Percent-encode what may not stand in a URI path. `:` is encoded too, so
/// a relative path like `a:b.yaml` is not read as a URI scheme.
fn encode(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        let keep = b.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=@".contains(&b);
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_relative_uris_under_srcroot() {
        let a = artifact("./examples//my stack/q%1.yaml");
        assert_eq!(a.uri, "examples/my%20stack/q%251.yaml");
        assert_eq!(a.uri_base_id, Some(SRCROOT));
        assert_eq!(artifact("a:b/ü.tf").uri, "a%3Ab/%C3%BC.tf");
    }

    #[test]
    fn absolute_paths_are_file_uris() {
        let a = artifact("/srv/repo/main.tf");
        assert_eq!(a.uri, "file:///srv/repo/main.tf");
        assert_eq!(a.uri_base_id, None);
        assert_eq!(artifact("C:/repo/x.yaml").uri, "file:///C:/repo/x.yaml");
    }

    #[test]
    fn end_column_becomes_exclusive() {
        let l = Span { file: "t.yaml".into(), line: 3, column: 5, end_line: 3, end_column: 6 };
        let r = physical(&l).region;
        assert_eq!((r.start_line, r.start_column, r.end_line, r.end_column), (3, 5, 3, 7));
        // A region that spans lines keeps its end column + 1, even when it
        // is left of the start column.
        let l = Span { file: "t.yaml".into(), line: 3, column: 5, end_line: 4, end_column: 1 };
        assert_eq!(physical(&l).region.end_column, 2);
    }

    #[test]
    fn full_description_is_the_what_it_checks_section() {
        let rule = rules::by_code("SQS008").unwrap();
        let text = section(rule.doc, "What it checks").unwrap();
        assert!(!text.is_empty());
        assert!(!text.contains("## "), "{text}");
        assert!(rule.doc.contains(text));
        assert_eq!(section("# X\n\n## Other\n\nbody\n", "What it checks"), None);
    }

    #[test]
    fn live_resources_are_named_by_their_last_part() {
        assert_eq!(short_name("https://sqs.eu-west-1.amazonaws.com/123456789012/orders.fifo"), "orders.fifo");
        assert_eq!(short_name("arn:aws:sqs:eu-west-1:123456789012:orders"), "orders");
        assert_eq!(short_name("2f1b8c1e-1f6a-4c8e-9d1b-6a1c3c6d7e8f"), "2f1b8c1e-1f6a-4c8e-9d1b-6a1c3c6d7e8f");
    }
}
