//! SQS022: a consumer function with reserved concurrency R whose mapping
//! lets the pollers scale past R (no MaximumConcurrency at or below R).

use super::helpers::{all_of, set};
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::{Alt, Dialect, Field, Origin, Scalar, Target, Value};

rule! {
    code: "SQS022",
    name: "reserved-concurrency-throttles-consumer",
    severity: Warning,
    summary: "Lambda consumer's function has reserved concurrency but its mapping no MaximumConcurrency at or below it",
    kind: Template,
    check: check,
    reads: &[Link::Consumer, Link::ConsumerFunction],
    needs: &[LiveInput::EventSourceMappings, LiveInput::FunctionConcurrency],
}

/// The least `MaximumConcurrency` Lambda accepts.
const LEAST_MAXIMUM_CONCURRENCY: i64 = 2;

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let reserved_name = cx.name(Field::ReservedConcurrency);
    let maximum_name = format!("{}.{}", cx.name(Field::ScalingConfig), cx.name(Field::MaximumConcurrency));
    let maximum_name = match cx.dialect() {
        // The Framework's `sqs` event takes it directly.
        sqsguard_model::Dialect::Serverless => cx.name(Field::MaximumConcurrency).to_string(),
        _ => maximum_name,
    };
    for consumer in &cx.model.consumers {
        for f_alt in consumer.function.iter() {
            let Some(Target::Function(fi)) = f_alt.value.known() else { continue };
            let Some(function) = cx.model.functions.get(*fi) else { continue };
            for r_alt in function.reserved_concurrency.iter() {
                // Absent, unknown, 0 (switched off) or Terraform's -1 (none).
                let Some(&reserved) = r_alt.value.known() else { continue };
                if reserved <= 0 {
                    continue;
                }
                for m_alt in consumer.maximum_concurrency.iter() {
                    let maximum = match &m_alt.value {
                        Value::Known(m) if *m <= reserved => continue,
                        Value::Known(m) => Some(*m),
                        Value::Absent => None,
                        Value::Unknown(_) => continue,
                    };
                    let Some(when) = all_of(&[&f_alt.when, &r_alt.when, &m_alt.when]) else { continue };
                    let scaling = match maximum {
                        Some(m) => format!("{maximum_name} {m}, above it"),
                        None => format!("no {maximum_name}"),
                    };
                    let message = format!(
                        "function {} has {reserved_name} {reserved} and consumer {} has {scaling}: Lambda's pollers scale past {reserved}, the throttled batches return to the queue and count as receives, and healthy messages reach the dead-letter queue after maxReceiveCount{when}",
                        function.resource, consumer.resource
                    );
                    let related = [function.resource.as_str()];
                    let origin = if maximum.is_some() { &m_alt.origin } else { &consumer.origin };
                    if reserved < LEAST_MAXIMUM_CONCURRENCY {
                        let fix = format!(
                            "raise {reserved_name} to at least {LEAST_MAXIMUM_CONCURRENCY} (the least {maximum_name} Lambda accepts){}, then set {maximum_name} to it{}",
                            cx.run(
                                Field::ReservedConcurrency,
                                &function.resource,
                                &Scalar::Int(LEAST_MAXIMUM_CONCURRENCY)
                            ),
                            cx.run(
                                Field::MaximumConcurrency,
                                &consumer.resource,
                                &Scalar::Int(LEAST_MAXIMUM_CONCURRENCY)
                            )
                        );
                        findings.push(RULE.finding(&consumer.resource, origin, message, fix).with_related(&related));
                        continue;
                    }
                    let fix = format!(
                        "set {maximum_name} to {reserved} (at most {reserved_name}){}",
                        cx.run(Field::MaximumConcurrency, &consumer.resource, &Scalar::Int(reserved))
                    );
                    let finding = RULE.finding(&consumer.resource, origin, message, fix).with_related(&related);
                    let finding = match remedy(cx, &consumer.resource, origin, maximum.is_some(), m_alt, reserved) {
                        Some(remedy) => finding.with_remedy(remedy),
                        None => finding,
                    };
                    findings.push(finding);
                }
            }
        }
    }
}

/// The fix of a mapping whose pollers can scale past `reserved`: a value
/// written too high is replaced; a missing one is set inside the mapping's
/// ScalingConfig, created when it is absent (Serverless: the hint only).
fn remedy(
    cx: &Context<'_>,
    consumer: &str,
    origin: &Origin,
    written: bool,
    m_alt: &Alt<i64>,
    reserved: i64,
) -> Option<Remedy> {
    let within =
        matches!(cx.dialect(), Dialect::CloudFormation | Dialect::Terraform) && matches!(origin, Origin::File { .. });
    if written {
        return Some(set(consumer, Field::MaximumConcurrency, Scalar::Int(reserved), m_alt, Applicability::Safe));
    }
    within.then(|| Remedy {
        resource: consumer.to_string(),
        field: Some(Field::MaximumConcurrency),
        ops: vec![Op::SetWithin { map: Field::ScalingConfig, value: Scalar::Int(reserved) }],
        at: origin.clone(),
        absent: true,
        conditional: !m_alt.when.is_always(),
        given: None,
        applicability: Applicability::Safe,
    })
}
