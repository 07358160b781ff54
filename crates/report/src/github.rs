//! `--format github`: for each finding its concise line (the job log
//! shows the findings as text, to read and to search) and a GitHub Actions
//! workflow command (`::error file=...,line=...::message`), so a workflow
//! step shows it as an annotation on the pull request; an error annotation
//! for each account-Region not audited in full and each file named and not
//! linted; then the summary line in plain text.

use super::text::{View, summary_line};
use super::{Gaps, Location, Summary, location, printable};
use sqsguard_finding::{Finding, Severity};
use sqsguard_lint::outcome::Outcome;

pub(crate) fn render(outcome: &Outcome, view: View) -> String {
    let mut out = String::new();
    for f in &outcome.findings {
        out.push_str(&super::concise::line(f, view.marked(f)));
        out.push('\n');
        out.push_str(&finding_command(f));
        out.push('\n');
    }
    for note in &outcome.notes {
        let mut props = Vec::new();
        if let Some(l) = note.origin.location() {
            props.extend(position(&l));
        }
        props.push(("title", "sqsguard note".to_string()));
        out.push_str(&command("notice", &props, &note.message));
        out.push('\n');
    }
    // What the run left out fails it: an error annotation each, so the
    // workflow's summary never shows an incomplete run as clean.
    let gaps = Gaps::of(outcome);
    for (gap, sentence) in &gaps.unaudited {
        let title = if gap.partial { "sqsguard: read in part" } else { "sqsguard: not audited" };
        out.push_str(&command("error", &[("title", title.to_string())], sentence));
        out.push('\n');
    }
    for (file, sentence, _) in &gaps.unlinted {
        let props =
            [("file", sqsguard_lint::fingerprint::normalize_path(file)), ("title", "sqsguard: not linted".to_string())];
        out.push_str(&command("error", &props, sentence));
        out.push('\n');
    }
    out.push_str(&summary_line(&Summary::of(outcome)));
    out.push('\n');
    out
}

fn finding_command(f: &Finding) -> String {
    let name = match f.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    };
    let mut props = Vec::new();
    if let Some(l) = location(f) {
        props.extend(position(&l));
    }
    props.push(("title", format!("{} {}", f.code(), f.name())));
    // A live finding has no file: its account and Region, and the queue
    // (or consumer) by name; the URL or UUID is for programs (JSON).
    let message = format!("{}\nfix: {}", super::text::live_message(f), f.full_fix());
    command(name, &props, &message)
}

/// `file`, `line`, `col`, `endLine`, `endColumn`. GitHub takes columns
/// only for an annotation on a single line, so a region over several lines
/// gives lines only.
fn position(l: &Location) -> Vec<(&'static str, String)> {
    // GitHub matches `infra/q.yaml` to the pull request's files, not `./infra/q.yaml`.
    let mut props = vec![("file", sqsguard_lint::fingerprint::normalize_path(&l.file)), ("line", l.line.to_string())];
    if l.end_line == l.line {
        props.push(("col", l.column.to_string()));
        props.push(("endLine", l.end_line.to_string()));
        props.push(("endColumn", l.end_column.to_string()));
    } else {
        props.push(("endLine", l.end_line.to_string()));
    }
    props
}

/// `::name key=value,key=value::message`, escaped as the runner expects.
fn command(name: &str, props: &[(&str, String)], message: &str) -> String {
    let props: Vec<String> = props.iter().map(|(k, v)| format!("{k}={}", escape_property(v))).collect();
    let sep = if props.is_empty() { "" } else { " " };
    format!("::{name}{sep}{}::{}", props.join(","), escape_data(message))
}

/// The message of a workflow command: `%`, CR and LF are encoded as the
/// runner expects, then any other control character is written out
/// ([`printable`]) so none reaches the log raw.
pub(crate) fn escape_data(s: &str) -> String {
    printable(&s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")).into_owned()
}

/// A property value: as data, and `:` and `,` too, which would end it.
pub(crate) fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_finding::FindingData;
    use sqsguard_model::Origin;
    use sqsguard_source::{SourceFile, Span};

    fn finding(severity: Severity, message: &str) -> Finding {
        let file = SourceFile::new("dir,x/a:b.yaml", "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n".to_string());
        let at = file.text.find("AWS").unwrap();
        Finding::from(FindingData {
            rule: &sqsguard_rules::by_code("SQS004").unwrap().id,
            severity,
            resource: "Q".to_string(),
            related: Vec::new(),
            origin: Origin::file(&file, Span::new(at, at + 3)),
            message: message.to_string(),
            fix: "add a RedrivePolicy".into(),
            remedy: None,
            autofix: None,
            context: sqsguard_finding::FindingContext::default(),
        })
    }

    #[test]
    fn data_and_properties_are_escaped() {
        assert_eq!(escape_data("100% done, a:b\r\nnext"), "100%25 done, a:b%0D%0Anext");
        assert_eq!(escape_property("100% done, a:b\r\nnext"), "100%25 done%2C a%3Ab%0D%0Anext");
        // Escaping `%` first: an already-escaped-looking text stays literal.
        assert_eq!(escape_data("%0A"), "%250A");
    }

    #[test]
    fn a_finding_is_one_escaped_command_line() {
        let line = finding_command(&finding(Severity::Warning, "50% of 10, ratio 1:2\nsecond line"));
        assert_eq!(
            line,
            "::warning file=dir%2Cx/a%3Ab.yaml,line=3,col=11,endLine=3,endColumn=13,title=SQS004 missing-dlq\
             ::50%25 of 10, ratio 1:2%0Asecond line%0Afix: add a RedrivePolicy"
        );
        assert!(!line.contains('\n'));
        assert!(finding_command(&finding(Severity::Error, "m")).starts_with("::error file="));
        assert!(finding_command(&finding(Severity::Info, "m")).starts_with("::notice file="));
    }

    #[test]
    fn a_live_finding_has_no_file_and_names_its_resource() {
        let mut f = finding(Severity::Error, "3 messages");
        f.origin = Origin::live(
            "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs-dlq",
            Some("123456789012".into()),
            Some("eu-west-1".into()),
        );
        f.resource = "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs-dlq".into();
        f.related = Vec::new();
        f.rule = &sqsguard_rules::by_code("SQS101").unwrap().id;
        assert_eq!(
            finding_command(&f),
            "::error title=SQS101 dlq-not-empty::123456789012/eu-west-1: 3 messages (jobs-dlq)%0Afix: add a RedrivePolicy"
        );
    }

    #[test]
    fn a_region_over_several_lines_has_no_columns() {
        let l = Location { file: "a.tf".into(), line: 2, column: 3, end_line: 5, end_column: 1 };
        let props = position(&l);
        assert_eq!(props.iter().map(|(k, _)| *k).collect::<Vec<_>>(), ["file", "line", "endLine"]);
    }
}
