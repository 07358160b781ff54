//! The rule catalog: one rule per file, each explained in `rules/CODE.md`.
//!
//! A rule is plain data ([`Rule`]: code, name, severity, summary, all
//! declared in its own file) plus a check function that reads the [`Model`]
//! through its [`Index`] and reports [`Finding`]s, phrased in the model's
//! [`Dialect`]. The registry [`ALL`] lists them in code order; build.rs
//! writes it from the files `sqsNNN_*.rs`, so no list is kept by hand. The codes,
//! names and severities are public interface (rules/*.md).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rayon::prelude::*;

pub use sqsguard_finding::RuleId;
use sqsguard_finding::{Finding, Given};
use sqsguard_model::{Dialect, Field, Index, Model, Origin, Scalar};

#[macro_use]
mod declare;
mod filter;
pub(crate) mod helpers;
mod live_fix;
mod live_input;
#[macro_use]
mod options;
mod unresolved;

pub use declare::{Kind, Link, Rule};
pub use filter::Filter;
pub use live_input::LiveInput;
pub use options::{OptionKind, OptionSpec, OptionValue, Options, RuleOptions};
pub use sqs000_unparsable_file::{RULE as UNPARSABLE_FILE, finding as unparsable};
pub use sqs001_visibility_timeout_below_6x::VisibilityOptions;
pub use sqs012_attribute_out_of_range::notes as unrepresentable_numbers;
pub use sqs105_live_differs_from_template::RULE as LIVE_DIFFERS;
pub use unresolved::notes as unresolved_links;

/// What a rule's check reads.
pub struct Context<'m> {
    pub model: &'m Model,
    pub index: &'m Index<'m>,
    pub options: &'m Options,
}

impl Context<'_> {
    pub(crate) fn dialect(&self) -> Dialect {
        self.model.dialect
    }

    /// A field's name as the user wrote it.
    pub(crate) fn name(&self, field: Field) -> &'static str {
        self.model.dialect.name(field)
    }

    /// ` (aws ...)`: on a live account, the command that sets `field` to
    /// `value` on `resource`; nothing in a file.
    pub(crate) fn run(&self, field: Field, resource: &str, value: &Scalar) -> String {
        live_fix::run(self.dialect(), field, resource, value)
    }
}

// The rules' modules and `ALL`, every rule in code order, written by
// build.rs from the files `sqsNNN_*.rs` of this folder.
include!(concat!(env!("OUT_DIR"), "/catalog.rs"));

/// The rule with this code, if any.
pub fn by_code(code: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.id.code.eq_ignore_ascii_case(code))
}

/// The rule with this code (any case) or kebab-case name, as suppressions
/// may name it.
pub fn by_code_or_name(token: &str) -> Option<&'static Rule> {
    by_code(token).or_else(|| ALL.iter().copied().find(|r| r.id.name == token))
}

/// Whether `selector`, a code or code prefix in any case (`SQS00`), selects
/// `code`: what --select, --ignore and the config's lists mean.
pub(crate) fn selects(selector: &str, code: &str) -> bool {
    !selector.is_empty() && code.len() >= selector.len() && code[..selector.len()].eq_ignore_ascii_case(selector)
}

/// Whether `selector` selects any rule of the catalog.
pub fn selects_any(selector: &str) -> bool {
    ALL.iter().any(|r| selects(selector, r.id.code))
}

/// Run every rule over a model (in parallel: each rule only reads it),
/// findings in rule order.
pub fn check(model: &Model, options: &Options) -> Vec<Finding> {
    let index = Index::new(model);
    let cx = Context { model, index: &index, options };
    let per_rule: Vec<Vec<Finding>> = ALL
        .par_iter()
        .map(|rule| {
            let mut findings = Findings::default();
            (rule.check)(&cx, &mut findings);
            findings.into_vec()
        })
        .collect();
    // Into the first rule's findings, each other rule's freed once moved:
    // a plan of 100,000 queues has as many findings.
    let total = per_rule.iter().map(Vec::len).sum::<usize>();
    let mut rules = per_rule.into_iter();
    let mut out = rules.next().unwrap_or_default();
    out.reserve_exact(total - out.len());
    for findings in rules {
        out.extend(findings);
    }
    explain_created(model, &mut out);
    say_given(model, &mut out);
    out
}

/// A finding whose value was given for the run (`--parameter-overrides`,
/// `--stage`, `--param`) says so, unless its message already does: the
/// file alone does not explain it.
fn say_given(model: &Model, findings: &mut [Finding]) {
    for finding in findings {
        let Some(remedy) = &finding.remedy else { continue };
        let (Some(given), Some(field)) = (&remedy.given, remedy.field) else { continue };
        if !finding.message.contains(given.as_ref()) {
            finding.context.given = Some(Given { field: model.dialect.name(field), from: given.clone() });
        }
    }
}

/// A fix to a queue no one declared (SAM's for an SNS subscription) starts
/// with getting hold of its settings: the finding says how.
fn explain_created(model: &Model, findings: &mut [Finding]) {
    let created: HashMap<&str, &'static str> =
        model.queues.iter().filter_map(|q| Some((q.resource.as_str(), q.created?))).collect();
    if created.is_empty() {
        return;
    }
    for finding in findings {
        if let Some(&how) = created.get(finding.resource.as_str()) {
            finding.context.created_by = Some(how);
        }
    }
}

/// Where a rule puts what it finds.
#[derive(Default)]
pub struct Findings {
    out: Vec<Finding>,
    /// The first finding by a hash of what makes two the same, to tell a
    /// repeat; `collided` holds the others whose hash was taken.
    seen: HashMap<u64, usize>,
    collided: Vec<(u64, usize)>,
    /// The fixes said so far, each kept once: a rule that finds the same
    /// thing on 30,000 queues of a plan says the same fix 30,000 times.
    fixes: HashSet<Arc<str>>,
}

impl Findings {
    /// Add a finding. Alternatives that land on the same spot with the
    /// same words are one finding.
    pub(crate) fn push(&mut self, mut finding: Finding) {
        let mut h = std::hash::DefaultHasher::new();
        identity(&finding).hash(&mut h);
        let hash = h.finish();
        let same = |i: usize| self.out.get(i).is_some_and(|f| identity(f) == identity(&finding));
        match self.seen.get(&hash) {
            None => {
                self.seen.insert(hash, self.out.len());
            }
            Some(&first) => {
                if same(first) || self.collided.iter().any(|&(h, i)| h == hash && same(i)) {
                    return;
                }
                self.collided.push((hash, self.out.len()));
            }
        }
        tighten(&mut finding.message);
        match self.fixes.get(&finding.fix) {
            Some(said) => finding.fix = said.clone(),
            None => {
                self.fixes.insert(finding.fix.clone());
            }
        }
        self.out.push(finding);
    }

    pub fn into_vec(self) -> Vec<Finding> {
        self.out
    }
}

/// `text` in a block of its own length. `format!` sizes its buffer at
/// twice its literal words, and a finding's message lives until the
/// report: a plan of 30,000 queues has 120,000 findings. `shrink_to_fit`
/// would not do: mimalloc keeps a block shrunk by less than half in place.
fn tighten(text: &mut String) {
    if text.capacity() > text.len() {
        *text = text.as_str().to_owned();
    }
}

/// What makes two findings of a rule the same: the resource, the words
/// and the spot.
fn identity(f: &Finding) -> (&str, &str, &std::path::Path, usize, usize, &str) {
    match &f.origin {
        Origin::File { file, span } => (&f.resource, &f.message, &file.path, span.start, span.end, ""),
        Origin::Live(live) => (&f.resource, &f.message, std::path::Path::new(""), 0, 0, &live.id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_misled_without_a_read_needs_it() {
        for rule in ALL.iter() {
            for input in rule.misled_without {
                assert!(rule.needs.contains(input), "{}: misled without {input:?} it does not need", rule.id.code);
            }
        }
    }

    #[test]
    fn registry_is_in_code_order_with_unique_codes_and_names() {
        for pair in ALL.windows(2) {
            assert!(pair[0].id.code < pair[1].id.code, "{} before {}", pair[0].id.code, pair[1].id.code);
            assert_ne!(pair[0].id.name, pair[1].id.name);
        }
    }

    /// Each file `sqsNNN_*.rs` of this folder declares rule SQSNNN, once:
    /// build.rs orders the catalog by file name.
    #[test]
    fn each_rule_file_declares_the_rule_of_its_name() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("sqs") && n.ends_with(".rs"))
            .map(|n| n[..6].to_uppercase())
            .collect();
        files.sort();
        let codes: Vec<&str> = ALL.iter().map(|r| r.id.code).collect();
        assert_eq!(files, codes);
        assert!(codes.contains(&"SQS001") && codes.contains(&"SQS206"), "{codes:?}");
    }

    /// What rules share is in `helpers`: a rule file names no other rule
    /// file. (No front-end either, which the compiler sees to: this crate
    /// does not depend on `sqsguard-frontend`; what a rule needs of one is
    /// in the model.)
    #[test]
    fn a_rule_file_imports_no_other_rule() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.starts_with("sqs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for banned in ["super::sqs", "rules::sqs"] {
                assert!(!text.contains(banned), "{name} names {banned}");
            }
            read += 1;
        }
        assert_eq!(read, ALL.len());
    }

    #[test]
    fn a_kept_finding_holds_its_words_in_blocks_of_their_length() {
        let file = sqsguard_source::SourceFile::new("t.yaml", "Resources: {}".to_string());
        let origin = Origin::file(&file, sqsguard_source::Span::new(0, 9));
        let mut message = String::with_capacity(400);
        message.push_str("queue q: a message");
        let mut findings = Findings::default();
        findings.push(ALL[0].finding("q", &origin, message, "set VisibilityTimeout to 180".to_string()));
        let kept = findings.into_vec();
        let [kept] = kept.as_slice() else { panic!("{} findings", kept.len()) };
        assert_eq!((kept.message.as_str(), kept.message.capacity()), ("queue q: a message", 18));
    }

    #[test]
    fn the_findings_of_a_rule_that_say_the_same_fix_share_its_words() {
        let file = sqsguard_source::SourceFile::new("t.yaml", "Resources: {}".to_string());
        let origin = Origin::file(&file, sqsguard_source::Span::new(0, 9));
        let mut findings = Findings::default();
        for (queue, fix) in [("a", "set it to 180"), ("b", "set it to 180"), ("c", "set it to 60")] {
            findings.push(ALL[0].finding(queue, &origin, format!("queue {queue}"), fix.to_string()));
        }
        let [a, b, c] = findings.into_vec().try_into().unwrap_or_else(|v: Vec<_>| panic!("{} findings", v.len()));
        assert!(Arc::ptr_eq(&a.fix, &b.fix));
        assert_eq!((&*b.fix, &*c.fix), ("set it to 180", "set it to 60"));
    }

    #[test]
    fn rule_pages_hold_prose_and_leave_the_header_to_the_code() {
        for rule in ALL {
            let first = rule.doc.lines().next().unwrap_or_default();
            assert_eq!(first, "## What it checks", "rules/{}.md starts with its prose", rule.id.code);
            assert!(!rule.doc.contains("\nSeverity:"), "rules/{}.md repeats the severity", rule.id.code);
            assert!(rule.page().starts_with(&format!("# {} {}\n", rule.id.code, rule.id.name)));
        }
    }
}
