//! SQS012: an SQS or event source mapping attribute outside what AWS accepts.
//!
//! A number no attribute can hold (`1e400`, `.inf`, `.nan`, 20 digits) is
//! outside every range AWS has: an SQS012 where this rule checks a range,
//! a note on the other numbers the model reads (a function's timeout, an
//! alarm's threshold), so it is never just unknown.

use super::helpers::set;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, Note};
use sqsguard_model::{Alt, Attr, Dialect, Field, Model, Origin, Scalar};

rule! {
    code: "SQS012",
    name: "attribute-out-of-range",
    severity: Error,
    summary: "An SQS queue or event source mapping attribute is outside the range AWS accepts",
    kind: Template,
    check: check,
    reads: &[Link::Consumer],
    needs: &[LiveInput::EventSourceMappings],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for queue in &cx.model.queues {
        let r = &queue.resource;
        in_range(cx, findings, r, Field::VisibilityTimeout, &queue.visibility_timeout);
        in_range(cx, findings, r, Field::ReceiveWaitTime, &queue.receive_wait_time);
        in_range(cx, findings, r, Field::RetentionPeriod, &queue.retention_period);
        in_range(cx, findings, r, Field::DelaySeconds, &queue.delay_seconds);
        for redrive in queue.redrive.iter() {
            if let Some(policy) = redrive.value.known() {
                in_range(cx, findings, r, Field::MaxReceiveCount, &policy.max_receive_count);
            }
        }
    }
    for consumer in &cx.model.consumers {
        let r = &consumer.resource;
        in_range(cx, findings, r, Field::BatchSize, &consumer.batch_size);
        in_range(cx, findings, r, Field::BatchingWindow, &consumer.batching_window);
    }
}

fn in_range(cx: &Context<'_>, findings: &mut Findings, resource: &str, field: Field, attr: &Attr<i64>) {
    let Some(range) = field.range() else { return };
    let attribute = cx.name(field);
    for alt in attr.iter() {
        if let Some(number) = alt.value.unrepresentable() {
            let written = as_written(alt, number);
            let message = format!(
                "{attribute} {written} is outside {}..{}, the range AWS accepts (it is infinite, not a number, or too large for any AWS attribute), so the deployment fails{}",
                range.start(),
                range.end(),
                alt.when
            );
            let fix = format!("set {attribute} between {} and {}", range.start(), range.end());
            let mut finding = RULE.finding(resource, &alt.origin, message, fix);
            // The bound on the side the number lies; `.nan` has no side.
            let bound = match number.trim_start_matches('+') {
                w if w.to_ascii_lowercase().contains("nan") => None,
                w if w.starts_with('-') => Some(*range.start()),
                _ => Some(*range.end()),
            };
            if let Some(bound) = bound {
                finding = finding.with_remedy(set(resource, field, Scalar::Int(bound), alt, Applicability::Unsafe));
            }
            findings.push(finding);
            continue;
        }
        let Some(&v) = alt.value.known() else { continue };
        if range.contains(&v) {
            continue;
        }
        let message = format!(
            "{attribute} {v} is outside {}..{}, the range AWS accepts, so the deployment fails{}",
            range.start(),
            range.end(),
            alt.when
        );
        let fix = format!("set {attribute} between {} and {}", range.start(), range.end());
        let clamped = Scalar::Int(v.clamp(*range.start(), *range.end()));
        let remedy = set(resource, field, clamped, alt, Applicability::Unsafe);
        findings.push(RULE.finding(resource, &alt.origin, message, fix).with_remedy(remedy));
    }
}

/// The number as the file writes it where the value is written (20
/// digits, not the double they round to), else as the model has it.
fn as_written<T>(alt: &Alt<T>, number: &str) -> String {
    let Origin::File { file, span } = alt.written_at() else { return number.to_string() };
    let text = file.text.get(span.start..span.end).unwrap_or_default().trim();
    let numeric = !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if numeric { text.to_string() } else { number.to_string() }
}

/// Notes for the numbers the model reads that no range of this rule
/// covers, where one is written that no attribute can hold: the rules that
/// read them take them as unknown, and the user is told why.
pub fn notes(model: &Model) -> Vec<Note> {
    let mut out = Vec::new();
    let timeout = model.dialect.name(Field::Timeout);
    for function in &model.functions {
        for alt in function.timeout.iter() {
            if let Some(number) = alt.value.unrepresentable() {
                let written = as_written(alt, number);
                out.push(Note {
                    origin: alt.origin.clone(),
                    message: format!(
                        "{}: {timeout} {written} is not a number Lambda can take, so the deployment fails; the rules that compare timeouts take it as unknown",
                        function.resource
                    ),
                });
            }
        }
    }
    let threshold = if model.dialect == Dialect::Terraform { "threshold" } else { "Threshold" };
    for alarm in &model.alarms {
        for alt in alarm.threshold.iter() {
            if let Some(number) = alt.value.unrepresentable() {
                let written = as_written(alt, number);
                out.push(Note {
                    origin: alt.origin.clone(),
                    message: format!(
                        "{}: {threshold} {written} is not a number CloudWatch can take, so the deployment fails; the rules that read alarms take it as unknown",
                        alarm.resource
                    ),
                });
            }
        }
    }
    out
}
