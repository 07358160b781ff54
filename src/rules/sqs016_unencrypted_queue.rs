//! SQS016: server-side encryption explicitly switched off.

use super::{Findings, Options, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Field, Model, Value};

pub static RULE: Rule = Rule {
    code: "SQS016",
    name: "unencrypted-queue",
    severity: Severity::Warning,
    summary: "Queue has SqsManagedSseEnabled false and no KmsMasterKeyId",
    live_only: false,
    doc: include_str!("../../rules/SQS016.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let d = model.dialect;
    for queue in &model.queues {
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
                    d.name(Field::SqsManagedSse),
                    d.name(Field::KmsMasterKeyId)
                );
                let fix = format!(
                    "remove {} (SSE-SQS is the default) or set {}",
                    d.assign(Field::SqsManagedSse, "false"),
                    d.name(Field::KmsMasterKeyId)
                );
                findings.add(&RULE, &queue.resource, &sse.origin, message, fix);
            }
        }
    }
}
