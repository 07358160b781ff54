//! SQS007: a standard queue's DLQ keeps messages no longer than the source.

use super::helpers::{all_of, secs, set};
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::Applicability;
use sqsguard_model::field::guidance;
use sqsguard_model::module;
use sqsguard_model::{Field, Origin, Queue, Scalar};

rule! {
    code: "SQS007",
    name: "dlq-retention-too-short",
    severity: Warning,
    summary: "Dead-letter queue retention is not longer than the source queue's",
    kind: Template,
    check: check,
    reads: &[Link::RedriveTarget],
    needs: &[LiveInput::QueueAttributes],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for link in cx.index.dlq_links() {
        let (source, dlq) = (link.source, link.dlq);
        for fifo in source.fifo.iter() {
            // FIFO sources reset the enqueue timestamp on redrive.
            if fifo.value.or_aws_default(Field::FifoQueue) != Some(false) {
                continue;
            }
            for src_ret in source.retention_period.iter() {
                for dlq_ret in dlq.retention_period.iter() {
                    let Some(when) = all_of(&[&link.when, &fifo.when, &src_ret.when, &dlq_ret.when]) else { continue };
                    let (Some(s), Some(d)) = (
                        src_ret.value.or_aws_default(Field::RetentionPeriod),
                        dlq_ret.value.or_aws_default(Field::RetentionPeriod),
                    ) else {
                        continue;
                    };
                    if d > s {
                        continue;
                    }
                    let message = format!(
                        "dead-letter queue {} keeps messages {} and source queue {} keeps them {}: SQS keeps the original enqueue timestamp on redrive, so a message that reaches the DLQ late expires almost at once{}",
                        dlq.resource,
                        secs(d),
                        source.resource,
                        secs(s),
                        when
                    );
                    let max = guidance::MAX_RETENTION_SECONDS;
                    // One value both queues read (a Parameter, a variable,
                    // the SQS module's DLQ falling back to its queue's
                    // input): changing it changes the source too, so the
                    // DLQ would still keep messages no longer.
                    let shared = src_ret.written_at().is_same_place(dlq_ret.written_at())
                        || same_expression(&src_ret.origin, &dlq_ret.origin);
                    let finding = if s < max {
                        let fix = longer(cx, dlq, s, shared);
                        let finding = RULE.finding(&source.resource, &link.target.origin, message, fix);
                        if shared {
                            finding
                        } else {
                            // The fix is on the dead-letter queue; the finding names the source.
                            let want = Scalar::Int(max);
                            let remedy = set(&dlq.resource, Field::RetentionPeriod, want, dlq_ret, Applicability::Safe);
                            finding.with_remedy(remedy)
                        }
                    } else {
                        // No DLQ can keep messages longer than the maximum:
                        // only the source can change, which is a decision.
                        let fix = format!(
                            "the source already keeps messages the maximum {} days, so no dead-letter queue can keep them longer: shorten the source's {} (4 days is SQS's default) and keep the DLQ's at {} days",
                            max / 86_400,
                            cx.name(Field::RetentionPeriod),
                            max / 86_400
                        );
                        RULE.finding(&source.resource, &link.target.origin, message, fix)
                    };
                    findings.push(finding);
                }
            }
        }
    }
}

/// Whether two values are the same expression of one file that is no
/// literal (`!Ref Retention` in both queues): they read one Parameter,
/// mapping or condition, which a fix of one would change for both.
fn same_expression(a: &Origin, b: &Origin) -> bool {
    let (Origin::File { file: fa, span: sa }, Origin::File { file: fb, span: sb }) = (a, b) else { return false };
    if fa.path != fb.path || sa == sb {
        return false;
    }
    match (fa.text.get(sa.start..sa.end), fb.text.get(sb.start..sb.end)) {
        (Some(x), Some(y)) => {
            let x = x.trim();
            x == y.trim() && !x.is_empty() && x.trim_matches(|c| c == '"' || c == '\'').parse::<f64>().is_err()
        }
        _ => false,
    }
}

/// How to make the dead-letter queue keep messages longer than the
/// source's `s`: where its retention is set, and, when the value is the
/// source's own, that the DLQ needs one of its own.
fn longer(cx: &Context<'_>, dlq: &Queue, s: i64, shared: bool) -> String {
    let max = guidance::MAX_RETENTION_SECONDS;
    let days = max / 86_400;
    let field = cx.name(Field::RetentionPeriod);
    match &dlq.module {
        Some(m) if m.source.is_registry(module::SQS) => {
            let fallback = if m.inputs.is_empty() || !shared {
                String::new()
            } else {
                format!(" (without it the module gives the dead-letter queue the queue's {field})")
            };
            format!(
                "set {}{field} = {max} in {} ({days} days, the maximum), longer than the source's {}{fallback}",
                m.inputs,
                m.call,
                secs(s)
            )
        }
        _ if shared => format!(
            "the DLQ's {field} is the source's own value (one Parameter, variable or input both read): give the DLQ a {field} of its own, longer than the source's {} (the maximum, {max} s = {days} days, is usual)",
            secs(s)
        ),
        _ => format!(
            "set the DLQ's {field} longer than the source's {} (the maximum, {max} s = {days} days, is usual){}",
            secs(s),
            cx.run(Field::RetentionPeriod, &dlq.resource, &sqsguard_model::Scalar::Int(max))
        ),
    }
}
