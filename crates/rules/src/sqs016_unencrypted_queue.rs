//! SQS016: server-side encryption explicitly switched off.

use super::helpers::{all_of, set};
use super::{Context, Findings};
use sqsguard_finding::Applicability;
use sqsguard_model::{Field, Scalar, Value};

rule! {
    code: "SQS016",
    name: "unencrypted-queue",
    severity: Warning,
    summary: "Queue has SqsManagedSseEnabled false and no KmsMasterKeyId",
    kind: Template,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for queue in &cx.model.queues {
        for sse in queue.sse_enabled.iter() {
            if sse.value.known() != Some(&false) {
                continue;
            }
            for kms in queue.kms_key.iter() {
                if !matches!(kms.value, Value::Absent) {
                    continue;
                }
                let Some(when) = all_of(&[&sse.when, &kms.when]) else { continue };
                let message = format!(
                    "queue {} has {} false and no {}: messages are stored unencrypted{when}",
                    queue.resource,
                    cx.name(Field::SqsManagedSse),
                    cx.name(Field::KmsMasterKeyId)
                );
                let fix = match cx.dialect() {
                    // A live queue has no line to remove: the call that sets it.
                    sqsguard_model::Dialect::Api => format!(
                        "set {0} to true or set {1} (aws sqs set-queue-attributes --queue-url {2} --attributes {0}=true)",
                        cx.name(Field::SqsManagedSse),
                        cx.name(Field::KmsMasterKeyId),
                        queue.resource
                    ),
                    _ => format!(
                        "remove {} (SSE-SQS is the default) or set {}",
                        cx.dialect().assign(Field::SqsManagedSse, &Scalar::Bool(false)),
                        cx.name(Field::KmsMasterKeyId)
                    ),
                };
                let remedy = set(&queue.resource, Field::SqsManagedSse, Scalar::Bool(true), sse, Applicability::Safe);
                findings.push(RULE.finding(&queue.resource, &sse.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
