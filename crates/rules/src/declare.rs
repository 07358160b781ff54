//! How a rule declares itself: [`Rule`], what it reads ([`Kind`],
//! [`Link`]), and the `rule!` macro each rule file opens with.

use super::options::OptionSpec;
use super::{Context, Findings, LiveInput, RuleId};
use sqsguard_finding::{Finding, FindingContext, FindingData, Severity};
use sqsguard_model::Origin;

/// A rule's declaration, in its own file: its code, name, severity,
/// summary, kind and check, then only what differs from [`Rule::DEFAULT`]
/// (`reads`, `needs`, `options`...). Its page is `rules/CODE.md`.
macro_rules! rule {
    (
        code: $code:literal,
        name: $name:literal,
        severity: $severity:ident,
        summary: $summary:expr,
        kind: $kind:ident,
        check: $check:expr
        $(, $field:ident: $value:expr)* $(,)?
    ) => {
        pub static RULE: $crate::Rule = $crate::Rule {
            id: $crate::RuleId { code: $code, name: $name },
            severity: sqsguard_finding::Severity::$severity,
            summary: $summary,
            kind: $crate::Kind::$kind,
            doc: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../rules/", $code, ".md")),
            check: $check,
            $($field: $value,)*
            ..$crate::Rule::DEFAULT
        };
    };
}

/// What a rule reads, which says where its findings come from and which
/// tests and commands run it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Templates, and the same settings read from a live account.
    Template,
    /// Live data only (`sqsguard audit`, `sqsguard drift`), never a file.
    Live,
    /// Handlers and SDK calls: its fixtures are projects of a template and
    /// code (tests/rules/CODE/LANGUAGE), not templates alone.
    Code,
    /// About the run itself (SQS000: a file that could not be read).
    Meta,
}

/// A link of the model a rule follows. Where one is only known at deploy
/// time, the note that says so names the rules that read it: they were not
/// checked there (see `unresolved`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Link {
    /// An event source mapping is an SQS consumer: a mapping whose source
    /// is not known is none.
    Consumer,
    /// A consumer -> the queue it reads.
    ConsumerQueue,
    /// A consumer -> the function it invokes.
    ConsumerFunction,
    /// A producer -> the queue it delivers to.
    ProducerQueue,
    /// A RedrivePolicy -> its dead-letter queue.
    RedriveTarget,
    /// Which queues receive dead letters (a dead-letter target names one).
    DeadLetterTarget,
    /// An alarm -> the queue of its QueueName dimension.
    AlarmQueue,
    /// Whether a consumer's handler returns batch item failures.
    HandlerReports,
}

/// A rule's metadata and check.
pub struct Rule {
    /// Its code and name, which its findings carry.
    pub id: RuleId,
    /// The severity findings get unless the rule says otherwise.
    pub severity: Severity,
    /// One line, for `sqsguard rules` and SARIF short descriptions.
    pub summary: &'static str,
    /// The severity of its milder findings, when it has two (SQS003: an
    /// undeclared payload is a warning).
    pub milder: Option<Severity>,
    /// What it reads: templates, live data, code, or the run itself.
    pub kind: Kind,
    /// The links of the model it follows (and skips where one is unknown).
    pub reads: &'static [Link],
    /// What of a live account it cannot judge without: an audit that failed
    /// to read one of these says the rule was blind there.
    pub needs: &'static [LiveInput],
    /// Of those, the ones whose absence it would report as a problem (a
    /// queue whose alarms were not read looks unalarmed): its findings are
    /// dropped where the read failed.
    pub misled_without: &'static [LiveInput],
    /// What `.sqsguard.yaml` may set for it (`rules: {CODE: {NAME: value}}`).
    pub options: &'static [OptionSpec],
    /// The prose of `rules/CODE.md` (what it checks, why, how to fix).
    pub doc: &'static str,
    pub check: fn(&Context<'_>, &mut Findings),
}

impl Rule {
    /// What a declaration leaves out (`rule!` sets code, name, severity,
    /// summary, kind, check and page over it).
    pub(crate) const DEFAULT: Rule = Rule {
        id: RuleId { code: "", name: "" },
        severity: Severity::Warning,
        summary: "",
        milder: None,
        kind: Kind::Template,
        reads: &[],
        needs: &[],
        misled_without: &[],
        options: &[],
        doc: "",
        check: |_, _| {},
    };

    /// The page `sqsguard explain` prints: the header from this metadata,
    /// then the prose.
    pub fn page(&self) -> String {
        format!("# {} {}\n\nSeverity: {}\n\n{}", self.id.code, self.id.name, self.severity_text(), self.doc)
    }

    /// `warning`, or `error / warning` for a rule with milder findings.
    pub fn severity_text(&self) -> String {
        match self.milder {
            Some(milder) => format!("{} / {}", self.severity.as_str(), milder.as_str()),
            None => self.severity.as_str().to_string(),
        }
    }

    /// A finding of this rule with its default severity.
    pub fn finding(&'static self, resource: &str, origin: &Origin, message: String, fix: String) -> Finding {
        Finding::from(FindingData {
            rule: &self.id,
            severity: self.severity,
            resource: resource.to_string(),
            related: Vec::new(),
            origin: origin.clone(),
            message,
            fix: fix.into(),
            remedy: None,
            autofix: None,
            context: FindingContext::default(),
        })
    }
}
