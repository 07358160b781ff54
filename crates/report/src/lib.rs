//! Reporters: the same findings printed for people (`pretty`), one line
//! each for terminals, problem matchers and grep (`concise`), for
//! programs (`json`), for code scanning (`sarif`), for test dashboards
//! (`junit`) and for GitHub Actions logs (`github`); an audit's also as
//! one page for people to forward (`html`).

pub(crate) mod concise;
mod excerpt;
pub(crate) mod github;
pub mod html;
pub(crate) mod json;
pub(crate) mod junit;
pub mod merge;
pub mod pretty;
pub mod sarif;
pub mod statistics;
pub mod text;

pub use text::View;

use std::borrow::Cow;

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

use sqsguard_finding::{Finding, Severity};
use sqsguard_lint::outcome::Outcome;
pub use sqsguard_source::Location;

/// An output format of `lint` and `audit`.
#[derive(Clone, Copy, Debug)]
pub enum Format {
    Pretty(pretty::Style),
    /// One line per finding.
    Concise(pretty::Style),
    /// `--show-skipped` adds the skipped files to the document.
    Json(View),
    Sarif,
    Junit,
    Github(View),
}

/// Write the whole output of a run, in `format`.
pub fn write(format: Format, outcome: &Outcome, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let text = match format {
        Format::Json(view) => return json::write(outcome, view, out),
        Format::Sarif => return sarif::write(outcome, out),
        Format::Junit => return junit::write(outcome, out),
        Format::Pretty(style) => pretty::render(outcome, style),
        Format::Concise(style) => concise::render(outcome, style.view),
        Format::Github(view) => github::render(outcome, view),
    };
    out.write_all(text.as_bytes())
}

/// The whole output of a run, in `format`, as text.
pub fn render(format: Format, outcome: &Outcome) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail; serialization of our own types neither.
    let _ = write(format, outcome, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// The totals every format ends with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub(crate) struct Summary {
    pub files: usize,
    pub skipped: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub suppressed: usize,
    /// With `--baseline`: findings the baseline absorbed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselined: Option<usize>,
    /// With `--baseline`: its entries the run looked for and did not find.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stale_baseline: Option<usize>,
    /// Audit only: AWS operations sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_calls: Option<usize>,
    /// Audit only: the (account, Region) pairs it set out to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account_regions: Option<usize>,
    /// Files named on the command line that may be infrastructure and were
    /// not linted (they fail the run).
    #[serde(skip_serializing_if = "is_zero")]
    pub not_linted: usize,
    /// Audit only: operations sent with each account's credentials.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub api_calls_by_account: std::collections::BTreeMap<String, usize>,
    /// Audit only: pairs not read, or read in part (they fail the run).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unaudited: Vec<sqsguard_lint::outcome::Unaudited>,
    /// Audit only, with `--shard`: the slice this report is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<sqsguard_lint::outcome::ShardOf>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Summary {
    pub(crate) fn of(outcome: &Outcome) -> Self {
        let count = |s: Severity| outcome.findings.iter().filter(|f| f.severity == s).count();
        Summary {
            files: outcome.files,
            skipped: outcome.skipped,
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            suppressed: outcome.suppressed,
            baselined: outcome.baselined,
            stale_baseline: outcome.stale_baseline,
            api_calls: outcome.api_calls,
            account_regions: outcome.account_regions,
            not_linted: outcome.unlinted.len(),
            api_calls_by_account: outcome.api_calls_by_account.clone(),
            unaudited: outcome.unaudited.clone(),
            shard: outcome.shard.clone(),
        }
    }
}

/// `text` as the text formats print it: every control character but tab
/// (the rest of C0, line breaks included, DEL and C1) written as `\u{1b}`,
/// so a file name, a message or an AWS reason cannot move the cursor,
/// colour a CI log, forge a line of it or a workflow command. JSON and
/// SARIF need none of this: serde escapes control characters.
pub fn printable(text: &str) -> Cow<'_, str> {
    let control = |c: char| c != '\t' && c.is_control();
    if !text.contains(control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if control(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `value` as pretty JSON (`--format json` and `sarif`). serde escapes C0
/// controls (`\u001b`); DEL and C1 (U+009B is a terminal's CSI too) are
/// escaped the same way here, so the document holds the same strings and
/// no control character reaches a log that shows it.
pub(crate) fn write_json<T: Serialize>(out: &mut dyn std::io::Write, value: &T) -> std::io::Result<()> {
    // The serializer writes a few bytes at a time (a key, a quote, an
    // indent): into a buffer of its own they are copies, where each was a
    // call through `out`'s vtable (a tenth of a large report's time).
    let mut buffered = std::io::BufWriter::with_capacity(1 << 16, out);
    let mut serializer = serde_json::Serializer::with_formatter(&mut buffered, Escaping(PrettyFormatter::new()));
    value.serialize(&mut serializer).map_err(std::io::Error::from)?;
    std::io::Write::write_all(&mut buffered, b"\n")?;
    std::io::Write::flush(&mut buffered)
}

/// serde_json's pretty layout, with DEL and C1 written as `\u00XX`.
struct Escaping(PrettyFormatter<'static>);

impl Formatter for Escaping {
    fn write_string_fragment<W: ?Sized + std::io::Write>(&mut self, w: &mut W, fragment: &str) -> std::io::Result<()> {
        // serde has escaped C0 already: what is left is DEL (0x7f) and C1
        // (U+0080 to U+009F, 0xc2 0x80 to 0xc2 0x9f in UTF-8), found by
        // their bytes rather than by decoding every character.
        let bytes = fragment.as_bytes();
        let (mut written, mut from) = (0, 0);
        while let Some(at) = memchr::memchr2(0x7f, 0xc2, &bytes[from..]).map(|i| from + i) {
            let (code, len) = match (bytes[at], bytes.get(at + 1)) {
                (0x7f, _) => (0x7f, 1),
                (_, Some(&second @ 0x80..=0x9f)) => (second, 2),
                _ => {
                    from = at + 1;
                    continue;
                }
            };
            w.write_all(&bytes[written..at])?;
            write!(w, "\\u{code:04x}")?;
            written = at + len;
            from = written;
        }
        w.write_all(&bytes[written..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// What an incomplete run leaves out, one sentence each, for the formats
/// that must say so as a failure (SARIF, JUnit, GitHub): every
/// (account, Region) pair not read or read in part, then every file named
/// on the command line that was not linted.
pub(crate) struct Gaps<'a> {
    pub unaudited: Vec<(&'a sqsguard_lint::outcome::Unaudited, String)>,
    /// The file's display path, the sentence, and the note that says why
    /// (its place).
    pub unlinted: Vec<(&'a str, String, Option<&'a sqsguard_finding::Note>)>,
}

impl<'a> Gaps<'a> {
    pub(crate) fn of(outcome: &'a Outcome) -> Self {
        let unaudited = outcome.unaudited.iter().map(|gap| (gap, format!("unaudited: {gap}"))).collect();
        let unlinted = outcome
            .unlinted
            .iter()
            .map(|file| {
                let note = outcome.notes.iter().find(|n| {
                    n.origin.location().is_some_and(|l| l.file == *file) && n.message.starts_with("not linted")
                });
                let why = note.map(|n| n.message.trim_start_matches("not linted").trim_start_matches(": "));
                let sentence = match why {
                    Some(why) if !why.is_empty() => format!("{file}: named on the command line and not linted: {why}"),
                    _ => format!("{file}: named on the command line and not linted"),
                };
                (file.as_str(), sentence, note)
            })
            .collect();
        Gaps { unaudited, unlinted }
    }

    /// Nothing left out: the run did all it was asked.
    pub(crate) fn is_empty(&self) -> bool {
        self.unaudited.is_empty() && self.unlinted.is_empty()
    }
}

/// Where a finding points, 1-based, end inclusive; `None` for a live one.
pub fn location(f: &Finding) -> Option<Location> {
    f.origin.location()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_finding::{FindingContext, FindingData, Given};
    use sqsguard_model::Origin;
    use sqsguard_source::{SourceFile, Span};

    const GIVEN: &str = "(VisibilityTimeout from --stage prod)";
    const CONSTRUCT: &str = "(CDK construct App/Stack/Jobs)";
    const CREATED: &str = "declare the queue yourself";

    /// A finding with every part of a context, in a run of its own.
    fn with_context() -> Outcome {
        let text = "Resources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 10\n";
        let file = SourceFile::new("template.yaml", text.to_string());
        let at = text.find("10").unwrap();
        let finding = Finding::from(FindingData {
            rule: &sqsguard_rules::by_code("SQS001").unwrap().id,
            severity: Severity::Warning,
            resource: "Jobs".to_string(),
            related: Vec::new(),
            origin: Origin::file(&file, Span::new(at, at + 2)),
            message: "the rule words".to_string(),
            fix: "the rule fix".into(),
            remedy: None,
            autofix: None,
            context: FindingContext {
                given: Some(Given { field: "VisibilityTimeout", from: "--stage prod".into() }),
                created_by: Some(CREATED),
                construct: Some("App/Stack/Jobs".into()),
                synthesized: None,
                stale: false,
            },
        });
        Outcome { files: 1, findings: vec![finding], ..Outcome::default() }
    }

    /// The rule's words then its given value then its construct, each as
    /// many times as the format says the message; how to get hold of the
    /// queue once, before the rule's fix.
    fn once_in_order(format: &str, out: &str, messages: usize) {
        for part in ["the rule words", GIVEN, CONSTRUCT] {
            assert_eq!(out.matches(part).count(), messages, "{format}: {part:?} {messages} times in\n{out}");
        }
        for part in [CREATED, "the rule fix"] {
            assert_eq!(out.matches(part).count(), 1, "{format}: {part:?} once in\n{out}");
        }
        let message = format!("the rule words {GIVEN} {CONSTRUCT}");
        assert!(out.contains(&message), "{format}: {message:?} in\n{out}");
        let fix = format!("{CREATED}; then the rule fix");
        assert!(out.contains(&fix), "{format}: {fix:?} in\n{out}");
    }

    #[test]
    fn json_escapes_exactly_the_control_characters() {
        // Every character of one or two bytes in UTF-8 (so every neighbour
        // of 0x7f and 0xc2: U+00A0 is 0xc2 0xa0) and a few longer ones,
        // against the definition, `char::is_control`.
        let chars = (0..0x800u32).chain([0x2028, 0xfeff, 0x1f600]).filter_map(char::from_u32);
        for c in chars {
            let text = format!("a{c}b{c}");
            let mut out = Vec::new();
            write_json(&mut out, &text).unwrap();
            let out = String::from_utf8(out).unwrap();
            let out = out.strip_suffix('\n').unwrap();
            assert_eq!(serde_json::from_str::<String>(out).unwrap(), text, "{c:?}");
            // (A quote or a backslash is escaped by one of itself.)
            if c != '"' && c != '\\' {
                assert_eq!(out.contains(c), !c.is_control(), "{c:?} in {out:?}");
            }
        }
    }

    #[test]
    fn json_composes_the_message_and_the_fix_from_the_context() {
        let out = render(Format::Json(View::default()), &with_context());
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        let finding = &doc["findings"][0];
        assert_eq!(finding["message"], format!("the rule words {GIVEN} {CONSTRUCT}"));
        assert_eq!(finding["fix"], format!("{CREATED}; then the rule fix"));
        once_in_order("json", &out, 1);
    }

    #[test]
    fn pretty_composes_the_message_and_the_fix_from_the_context() {
        let style = pretty::Style { color: false, width: 200, view: View::default() };
        once_in_order("pretty", &render(Format::Pretty(style), &with_context()), 1);
    }

    #[test]
    fn every_text_format_says_each_part_once() {
        let outcome = with_context();
        once_in_order("sarif", &render(Format::Sarif, &outcome), 1);
        // The failure's message, and its text with the fix.
        once_in_order("junit", &render(Format::Junit, &outcome), 2);
        // The log's line, and the annotation with the fix.
        once_in_order("github", &render(Format::Github(View::default()), &outcome), 2);
        // One line per finding, without the fix.
        let style = pretty::Style { color: false, width: 200, view: View::default() };
        let concise = render(Format::Concise(style), &outcome);
        assert_eq!(concise.matches(&format!("the rule words {GIVEN} {CONSTRUCT} (Jobs)")).count(), 1, "{concise}");
        assert!(!concise.contains(CREATED), "{concise}");
    }

    #[test]
    fn without_context_the_rule_words_are_all() {
        let mut outcome = with_context();
        outcome.findings[0].context = FindingContext::default();
        let out = render(Format::Json(View::default()), &outcome);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(doc["findings"][0]["message"], "the rule words");
        assert_eq!(doc["findings"][0]["fix"], "the rule fix");
    }
}
