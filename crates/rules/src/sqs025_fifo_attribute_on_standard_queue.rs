//! SQS025: a standard queue that sets a FIFO-only attribute to a FIFO
//! value (ContentBasedDeduplication true, DeduplicationScope messageGroup,
//! FifoThroughputLimit perMessageGroupId), which SQS refuses.

use std::sync::Arc;

use super::helpers::{all_of, given_words};
use super::{Context, Findings, LiveInput};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::{Alt, Field, Origin, Queue, Scalar, When};

rule! {
    code: "SQS025",
    name: "fifo-attribute-on-standard-queue",
    severity: Error,
    summary: "Standard queue sets a FIFO-only attribute (content-based deduplication, high throughput FIFO)",
    kind: Template,
    check: check,
    needs: &[LiveInput::QueueAttributes],
}

/// A FIFO-only attribute set to its FIFO value: where it is written, the
/// value as the message shows it, and the branch it holds in.
struct Set<'q> {
    field: Field,
    shown: &'static str,
    origin: &'q Origin,
    /// Where the fix removes it: where the value is written.
    written: &'q Origin,
    when: &'q When,
    given: Option<&'q Arc<str>>,
}

/// The FIFO-only attributes of `queue` set to a FIFO value, per alternative.
fn fifo_only(queue: &Queue) -> Vec<Set<'_>> {
    fn text<'q>(
        out: &mut Vec<Set<'q>>,
        field: Field,
        fifo_value: &'static str,
        alts: impl Iterator<Item = &'q Alt<String>>,
    ) {
        for alt in alts.filter(|a| a.value.known().map(String::as_str) == Some(fifo_value)) {
            out.push(Set {
                field,
                shown: fifo_value,
                origin: &alt.origin,
                written: alt.written_at(),
                when: &alt.when,
                given: alt.given.as_ref(),
            });
        }
    }
    let mut out = Vec::new();
    for alt in queue.content_based_dedup.iter().filter(|a| a.value.known() == Some(&true)) {
        let given = alt.given.as_ref();
        out.push(Set {
            field: Field::ContentBasedDedup,
            shown: "true",
            origin: &alt.origin,
            written: alt.written_at(),
            when: &alt.when,
            given,
        });
    }
    text(&mut out, Field::DeduplicationScope, "messageGroup", queue.deduplication_scope.iter());
    text(&mut out, Field::FifoThroughputLimit, "perMessageGroupId", queue.fifo_throughput_limit.iter());
    out
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for queue in &cx.model.queues {
        let set = fifo_only(queue);
        if set.is_empty() {
            continue;
        }
        // Standard: FifoQueue false, or absent (AWS's default). Unknown is
        // neither, so nothing is said of it.
        for fifo in queue.fifo.iter().filter(|f| f.value.or_aws_default(Field::FifoQueue) == Some(false)) {
            for s in &set {
                let Some(when) = all_of(&[&fifo.when, s.when]) else { continue };
                let name = cx.name(s.field);
                let given = given_words(cx, &[(Field::FifoQueue, fifo.given.as_ref()), (s.field, s.given)]);
                let message = format!(
                    "standard queue {} sets {name} {}, which only FIFO queues take: SQS refuses the attribute, so the queue cannot be created{given}{when}",
                    queue.resource, s.shown
                );
                let fix = format!(
                    "remove {name}, or, if a FIFO queue was meant, set {} (its name then ends in \".fifo\")",
                    cx.dialect().assign(Field::FifoQueue, &Scalar::Bool(true))
                );
                // The attribute goes: unsafe, since the author may have
                // meant a FIFO queue. Only a literal written in the queue
                // (the writer refuses a reference, a value given for the
                // run or one branch of a condition, with its reason).
                let remedy = Remedy {
                    resource: queue.resource.clone(),
                    field: Some(s.field),
                    ops: vec![Op::Remove],
                    at: s.written.clone(),
                    absent: false,
                    conditional: !s.when.is_always(),
                    given: s.given.cloned(),
                    applicability: Applicability::Unsafe,
                };
                findings.push(RULE.finding(&queue.resource, s.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
