//! The rule catalog: one rule per file, each documented in `rules/CODE.md`.
//!
//! A rule is plain data ([`Rule`]) plus a check function over the
//! [`Model`]; the registry [`ALL`] lists them in code order. The codes,
//! names and severities are public contract (`shared/RULES.md`).

use crate::finding::{Finding, Severity};
use crate::model::{Alt, Attr, Consumer, Model, Origin, Queue, QueueIdx, Target, When};

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
mod sqs101_dlq_not_empty;
mod sqs102_oldest_message_too_old;
mod sqs103_consumer_starvation;
mod sqs104_inflight_near_limit;

pub use options::Options;
pub use sqs000_unparsable_file::RULE as UNPARSABLE_FILE;

/// A rule's metadata and check.
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    /// The severity findings get unless the rule says otherwise.
    pub severity: Severity,
    /// One line, for `sqsguard rules` and SARIF short descriptions.
    pub summary: &'static str,
    /// Fires only on live data (`sqsguard audit`), never on files.
    pub live_only: bool,
    /// The full page from `rules/CODE.md`.
    pub doc: &'static str,
    pub check: fn(&Model, &Options, &mut Findings),
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
    &sqs101_dlq_not_empty::RULE,
    &sqs102_oldest_message_too_old::RULE,
    &sqs103_consumer_starvation::RULE,
    &sqs104_inflight_near_limit::RULE,
];

/// The rule with this code, if any.
pub fn by_code(code: &str) -> Option<&'static Rule> {
    ALL.iter().copied().find(|r| r.code.eq_ignore_ascii_case(code))
}

/// The rule with this code (any case) or kebab-case name, as suppressions
/// may name it.
pub fn by_code_or_name(token: &str) -> Option<&'static Rule> {
    by_code(token).or_else(|| ALL.iter().copied().find(|r| r.name == token))
}

/// Whether `selector`, a code or code prefix in any case (`SQS00`), selects
/// `code`: what --select, --ignore and the config's lists mean.
pub fn selects(selector: &str, code: &str) -> bool {
    !selector.is_empty() && code.len() >= selector.len() && code[..selector.len()].eq_ignore_ascii_case(selector)
}

/// Whether `selector` selects any rule of the catalog.
pub fn selects_any(selector: &str) -> bool {
    ALL.iter().any(|r| selects(selector, r.code))
}

/// Run every rule over a model.
pub fn check(model: &Model, options: &Options) -> Vec<Finding> {
    let mut findings = Findings::default();
    for rule in ALL {
        (rule.check)(model, options, &mut findings);
    }
    findings.into_vec()
}

/// Where rules put what they find.
#[derive(Default)]
pub struct Findings {
    out: Vec<Finding>,
}

impl Findings {
    pub fn add(&mut self, rule: &Rule, resource: &str, origin: &Origin, message: String, fix: String) {
        self.add_with(rule, rule.severity, resource, origin, message, fix);
    }

    pub fn add_with(
        &mut self,
        rule: &Rule,
        severity: Severity,
        resource: &str,
        origin: &Origin,
        message: String,
        fix: String,
    ) {
        self.push(rule, severity, resource, &[], origin, message, fix);
    }

    /// A finding that is also about `related` resources (see [`Finding::related`]).
    pub fn add_related(
        &mut self,
        rule: &Rule,
        resource: &str,
        related: &[&str],
        origin: &Origin,
        message: String,
        fix: String,
    ) {
        self.push(rule, rule.severity, resource, related, origin, message, fix);
    }

    #[allow(clippy::too_many_arguments)]
    fn push(
        &mut self,
        rule: &Rule,
        severity: Severity,
        resource: &str,
        related: &[&str],
        origin: &Origin,
        message: String,
        fix: String,
    ) {
        let finding = Finding {
            code: rule.code,
            name: rule.name,
            severity,
            resource: resource.to_string(),
            related: related.iter().map(|r| r.to_string()).collect(),
            origin: origin.clone(),
            message,
            fix,
        };
        // Alternatives that land on the same spot with the same words are one finding.
        if !self.out.iter().any(|f| same(f, &finding)) {
            self.out.push(finding);
        }
    }

    pub fn into_vec(self) -> Vec<Finding> {
        self.out
    }
}

fn same(a: &Finding, b: &Finding) -> bool {
    a.code == b.code
        && a.resource == b.resource
        && a.message == b.message
        && match (&a.origin, &b.origin) {
            (Origin::File { span: x, file: fx }, Origin::File { span: y, file: fy }) => x == y && fx.path == fy.path,
            (Origin::Live { id: x, .. }, Origin::Live { id: y, .. }) => x == y,
            _ => false,
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

/// The alternatives of a link that name a queue in the model.
pub(crate) fn queue_alts(attr: &Attr<Target>) -> impl Iterator<Item = (QueueIdx, &Alt<Target>)> {
    attr.iter().filter_map(|a| match a.value.known() {
        Some(Target::Queue(q)) => Some((*q, a)),
        _ => None,
    })
}

/// A consumer and a queue of the model it reads.
pub(crate) struct ConsumerRead<'m> {
    pub consumer: &'m Consumer,
    pub queue: &'m Queue,
    /// When the consumer reads this queue.
    pub when: When,
}

/// Every (consumer, queue) pair a rule about consumers looks at.
pub(crate) fn consumer_reads(model: &Model) -> impl Iterator<Item = ConsumerRead<'_>> {
    model.consumers.iter().flat_map(move |consumer| {
        queue_alts(&consumer.queue).map(move |(qi, alt)| ConsumerRead {
            consumer,
            queue: &model.queues[qi],
            when: alt.when.clone(),
        })
    })
}

/// A RedrivePolicy from a source queue to a dead-letter queue of the model.
pub(crate) struct DlqLink<'m> {
    pub source: &'m Queue,
    pub dlq: &'m Queue,
    /// The deadLetterTargetArn value (where findings about the link point).
    pub target: &'m Alt<Target>,
    pub when: When,
}

/// Every source -> DLQ link through a RedrivePolicy.
pub(crate) fn dlq_links(model: &Model) -> Vec<DlqLink<'_>> {
    let mut out = Vec::new();
    for source in &model.queues {
        for redrive in source.redrive.iter() {
            let Some(policy) = redrive.value.known() else { continue };
            for (di, target) in queue_alts(&policy.target) {
                if let Some(when) = redrive.when.and(&target.when) {
                    out.push(DlqLink { source, dlq: &model.queues[di], target, when });
                }
            }
        }
    }
    out
}

/// `1 s`, `150 s`: seconds as messages print them.
pub(crate) fn secs(n: i64) -> String {
    format!("{n} s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_in_code_order_with_unique_codes_and_names() {
        for pair in ALL.windows(2) {
            assert!(pair[0].code < pair[1].code, "{} before {}", pair[0].code, pair[1].code);
            assert_ne!(pair[0].name, pair[1].name);
        }
        assert_eq!(ALL.len(), 22);
    }

    #[test]
    fn every_rule_page_starts_with_its_code_and_name() {
        for rule in ALL {
            let first = rule.doc.lines().next().unwrap_or_default();
            assert_eq!(first, format!("# {} {}", rule.code, rule.name), "rules/{}.md", rule.code);
            let severity = format!("Severity: {}", rule.severity.as_str());
            assert!(rule.doc.contains(&severity) || rule.code == "SQS003", "rules/{}.md lacks `{severity}`", rule.code);
        }
    }
}
