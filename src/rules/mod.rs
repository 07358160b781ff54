//! The rule catalog: one rule per file, each explained in `rules/CODE.md`.
//!
//! A rule is plain data ([`Rule`]: code, name, severity, summary, all
//! declared in its own file) plus a check function that reads the [`Model`]
//! through its [`Index`] and reports [`Finding`]s, phrased in the model's
//! [`Dialect`]. The registry [`ALL`] lists them in code order. The codes,
//! names and severities are public interface (rules/*.md).

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use rayon::prelude::*;

pub use crate::finding::RuleId;
use crate::finding::{Applicability, Finding, Remedy, Severity, Want};
use crate::model::{Dialect, Field, Index, Model, Origin, Scalar, When};

mod filter;
mod live_fix;
mod live_input;
mod options;
mod sqs000_unparsable_file;
mod sqs001_visibility_timeout_below_6x;
mod sqs002_visibility_timeout_below_function_timeout;
mod sqs003_content_dedup_nondeterministic_payload;
mod sqs004_missing_dlq;
mod sqs005_missing_batch_item_failures;
mod sqs006_short_polling;
mod sqs007_dlq_retention_too_short;
mod sqs008_max_receive_count_low;
mod sqs009_dlq_type_mismatch;
mod sqs010_fifo_batch_size_too_large;
mod sqs011_batching_window_required;
mod sqs012_attribute_out_of_range;
mod sqs013_fifo_name_mismatch;
mod sqs014_fifo_throughput_scope;
mod sqs015_dlq_without_alarm;
mod sqs016_unencrypted_queue;
mod sqs017_public_queue_policy;
mod sqs018_queue_url_where_arn_expected;
mod sqs019_producer_not_allowed;
mod sqs020_kms_key_blocks_producer;
mod sqs021_producer_incompatible_with_queue_type;
mod sqs022_reserved_concurrency_throttles_consumer;
mod sqs024_stream_parameter_on_sqs_mapping;
mod sqs101_dlq_not_empty;
mod sqs102_oldest_message_too_old;
mod sqs103_consumer_starvation;
mod sqs104_inflight_near_limit;
mod sqs105_live_differs_from_template;
mod sqs201_batch_failures_ignored;
mod sqs202_batch_failures_not_returned;
mod sqs203_invalid_batch_item_failure;
mod sqs204_receive_short_polling;
mod sqs205_fifo_send_missing_ids;
mod sqs206_batch_result_unchecked;
mod unresolved;

pub use filter::Filter;
pub use live_input::LiveInput;
pub use options::{OptionKind, OptionSpec, Options};
pub use sqs000_unparsable_file::{RULE as UNPARSABLE_FILE, finding as unparsable};
pub use sqs012_attribute_out_of_range::notes as unrepresentable_numbers;
pub use sqs105_live_differs_from_template::RULE as LIVE_DIFFERS;
pub use unresolved::notes as unresolved_links;

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
    /// Fires only on live data (`sqsguard audit`), never on files.
    pub live_only: bool,
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
    /// The page `sqsguard explain` prints: the header from this metadata,
    /// then the prose.
    pub fn page(&self) -> String {
        format!("# {} {}\n\nSeverity: {}\n\n{}", self.id.code, self.id.name, self.severity_text(), self.doc)
    }

    /// A code rule (SQS2xx): it reads handlers and SDK calls, so its
    /// fixtures are projects of a template and code (tests/fixtures/code),
    /// not templates alone.
    pub fn is_code_rule(&self) -> bool {
        self.id.code.starts_with("SQS2")
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
        Finding {
            rule: &self.id,
            severity: self.severity,
            resource: resource.to_string(),
            related: Vec::new(),
            origin: origin.clone(),
            message,
            fix,
            remedy: None,
            autofix: None,
        }
    }
}

/// What a rule's check reads.
pub struct Context<'m> {
    pub model: &'m Model,
    pub index: &'m Index<'m>,
    pub options: &'m Options,
}

impl Context<'_> {
    pub fn dialect(&self) -> Dialect {
        self.model.dialect
    }

    /// A field's name as the user wrote it.
    pub fn name(&self, field: Field) -> &'static str {
        self.model.dialect.name(field)
    }

    /// ` (aws ...)`: on a live account, the command that sets `field` to
    /// `value` on `resource`; nothing in a file.
    pub fn run(&self, field: Field, resource: &str, value: &Scalar) -> String {
        live_fix::run(self.dialect(), field, resource, value)
    }
}

/// Every rule, in code order.
pub static ALL: &[&Rule] = &[
    &sqs000_unparsable_file::RULE,
    &sqs001_visibility_timeout_below_6x::RULE,
    &sqs002_visibility_timeout_below_function_timeout::RULE,
    &sqs003_content_dedup_nondeterministic_payload::RULE,
    &sqs004_missing_dlq::RULE,
    &sqs005_missing_batch_item_failures::RULE,
    &sqs006_short_polling::RULE,
    &sqs007_dlq_retention_too_short::RULE,
    &sqs008_max_receive_count_low::RULE,
    &sqs009_dlq_type_mismatch::RULE,
    &sqs010_fifo_batch_size_too_large::RULE,
    &sqs011_batching_window_required::RULE,
    &sqs012_attribute_out_of_range::RULE,
    &sqs013_fifo_name_mismatch::RULE,
    &sqs014_fifo_throughput_scope::RULE,
    &sqs015_dlq_without_alarm::RULE,
    &sqs016_unencrypted_queue::RULE,
    &sqs017_public_queue_policy::RULE,
    &sqs018_queue_url_where_arn_expected::RULE,
    &sqs019_producer_not_allowed::RULE,
    &sqs020_kms_key_blocks_producer::RULE,
    &sqs021_producer_incompatible_with_queue_type::RULE,
    &sqs022_reserved_concurrency_throttles_consumer::RULE,
    &sqs024_stream_parameter_on_sqs_mapping::RULE,
    &sqs101_dlq_not_empty::RULE,
    &sqs102_oldest_message_too_old::RULE,
    &sqs103_consumer_starvation::RULE,
    &sqs104_inflight_near_limit::RULE,
    &sqs105_live_differs_from_template::RULE,
    &sqs201_batch_failures_ignored::RULE,
    &sqs202_batch_failures_not_returned::RULE,
    &sqs203_invalid_batch_item_failure::RULE,
    &sqs204_receive_short_polling::RULE,
    &sqs205_fifo_send_missing_ids::RULE,
    &sqs206_batch_result_unchecked::RULE,
];

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
pub fn selects(selector: &str, code: &str) -> bool {
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
        let Some(given) = &remedy.given else { continue };
        if !finding.message.contains(given.as_ref()) {
            finding.message.push_str(&format!(" ({} from {given})", model.dialect.name(remedy.field)));
        }
    }
}

/// ` (VisibilityTimeout from --stage prod; Timeout from --parameter-overrides
/// Timeout=900)`: which of a finding's values were given for the run and
/// how, or nothing when every one was read from a file.
pub(crate) fn given_words(cx: &Context<'_>, values: &[(Field, Option<&std::sync::Arc<str>>)]) -> String {
    let said: Vec<String> =
        values.iter().filter_map(|(field, given)| given.map(|g| format!("{} from {g}", cx.name(*field)))).collect();
    if said.is_empty() { String::new() } else { format!(" ({})", said.join("; ")) }
}

/// A fix to a queue no one declared (SAM's for an SNS subscription) starts
/// with getting hold of its settings: the finding says how.
fn explain_created(model: &Model, findings: &mut [Finding]) {
    let created: HashMap<&str, &str> =
        model.queues.iter().filter_map(|q| Some((q.resource.as_str(), q.created?))).collect();
    if created.is_empty() {
        return;
    }
    for finding in findings {
        if let Some(how) = created.get(finding.resource.as_str()) {
            finding.fix = format!("{how}; then {}", finding.fix);
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
}

impl Findings {
    /// Add a finding. Alternatives that land on the same spot with the
    /// same words are one finding.
    pub fn push(&mut self, finding: Finding) {
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
        self.out.push(finding);
    }

    pub fn into_vec(self) -> Vec<Finding> {
        self.out
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

/// The conditions under which all of `whens` hold, or `None` if they cannot.
pub(crate) fn all_of(whens: &[&When]) -> Option<When> {
    let mut acc = When::always();
    for w in whens {
        acc = acc.and(w)?;
    }
    Some(acc)
}

/// `field := value` on `resource`, written where `alt` is (or added to the
/// resource when `alt` is absent).
pub(crate) fn set<T>(
    resource: &str,
    field: Field,
    value: Scalar,
    alt: &crate::model::Alt<T>,
    applicability: Applicability,
) -> Remedy {
    Remedy {
        resource: resource.to_string(),
        field,
        want: Want::Value(value),
        at: alt.written_at().clone(),
        absent: matches!(alt.value, crate::model::Value::Absent),
        conditional: !alt.when.is_always(),
        given: alt.given.clone(),
        applicability,
    }
}

/// `1 s`, `150 s`: seconds as messages print them.
pub(crate) fn secs(n: i64) -> String {
    format!("{n} s")
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
        assert_eq!(ALL.len(), 35);
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
