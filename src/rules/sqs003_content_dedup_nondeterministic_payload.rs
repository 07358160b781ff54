//! SQS003: content-based deduplication on a FIFO queue whose payload is not
//! deterministic (error), or whose payload is not declared (warning).

use super::{Findings, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Model, Payload, Value};

pub static RULE: Rule = Rule {
    code: "SQS003",
    name: "content-dedup-nondeterministic-payload",
    severity: Severity::Error,
    summary: "FIFO ContentBasedDeduplication with a payload that is not deterministic (or not declared)",
    doc: include_str!("../../rules/SQS003.md"),
    check,
};

fn check(model: &Model, findings: &mut Findings) {
    for queue in &model.queues {
        for fifo in queue.fifo.iter() {
            for cbd in queue.content_based_dedup.iter() {
                let (Some(true), Some(true)) = (fifo.value.known(), cbd.value.known()) else { continue };
                let Some(when) = all_of(&[&fifo.when, &cbd.when]) else { continue };
                match &queue.payload {
                    Some(decl) => {
                        let Value::Known(Payload::NonDeterministic(reasons)) = &decl.payload else { continue };
                        let message = format!(
                            "ContentBasedDeduplication is true but the payload declared in {} is not deterministic ({}): a retried send of the same event gets a new body and a new deduplication id, so duplicates get through{}",
                            decl.source,
                            reasons.join(", "),
                            when
                        );
                        let fix = "set ContentBasedDeduplication to false and send an explicit MessageDeduplicationId built from the event's stable identity (for example \"{sourceId}-{runId}\")".to_string();
                        findings.add_with(&RULE, Severity::Error, &queue.resource, &cbd.origin, message, fix);
                    }
                    None => {
                        let message = format!(
                            "ContentBasedDeduplication is true and no payload is declared, so sqsguard cannot tell whether message bodies are deterministic; a timestamp or UUID in the body defeats deduplication{when}"
                        );
                        let fix = "declare the payload (queue Metadata `sqsguard: {payload: {fields: ...}}` or the tag `sqsguard:payload`), or send an explicit MessageDeduplicationId and set ContentBasedDeduplication to false".to_string();
                        findings.add_with(&RULE, Severity::Warning, &queue.resource, &cbd.origin, message, fix);
                    }
                }
            }
        }
    }
}
