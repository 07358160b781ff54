//! SQS003: content-based deduplication on a FIFO queue whose payload is not
//! deterministic (error), or whose payload is not declared (warning).

use super::{Findings, Options, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Dialect, Field, Model, Payload, Value};

pub static RULE: Rule = Rule {
    code: "SQS003",
    name: "content-dedup-nondeterministic-payload",
    severity: Severity::Error,
    summary: "FIFO ContentBasedDeduplication with a payload that is not deterministic (or not declared)",
    live_only: false,
    doc: include_str!("../../rules/SQS003.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    let d = model.dialect;
    let cbd_name = d.name(Field::ContentBasedDedup);
    for queue in &model.queues {
        for fifo in queue.fifo.iter() {
            for cbd in queue.content_based_dedup.iter() {
                let (Some(true), Some(true)) = (fifo.value.known(), cbd.value.known()) else { continue };
                let Some(when) = all_of(&[&fifo.when, &cbd.when]) else { continue };
                match &queue.payload {
                    Some(decl) => {
                        let Value::Known(Payload::NonDeterministic(reasons)) = &decl.payload else { continue };
                        let message = format!(
                            "{cbd_name} is true but the payload declared in {} is not deterministic ({}): a retried send of the same event gets a new body and a new deduplication id, so duplicates get through{}",
                            decl.source,
                            reasons.join(", "),
                            when
                        );
                        let fix = format!(
                            "set {cbd_name} to false and send an explicit MessageDeduplicationId built from the event's stable identity (for example \"{{sourceId}}-{{runId}}\")"
                        );
                        findings.add_with(&RULE, Severity::Error, &queue.resource, &cbd.origin, message, fix);
                    }
                    None => {
                        let message = format!(
                            "{cbd_name} is true and no payload is declared, so sqsguard cannot tell whether message bodies are deterministic; a timestamp or UUID in the body defeats deduplication{when}"
                        );
                        let declare = match d {
                            Dialect::CloudFormation => {
                                "queue Metadata `sqsguard: {payload: {fields: ...}}` or the tag `sqsguard:payload`"
                            }
                            Dialect::Terraform => "the tag `\"sqsguard:payload\" = \"deterministic\"` once it is true",
                        };
                        let fix = format!(
                            "declare the payload ({declare}), or send an explicit MessageDeduplicationId and set {cbd_name} to false"
                        );
                        findings.add_with(&RULE, Severity::Warning, &queue.resource, &cbd.origin, message, fix);
                    }
                }
            }
        }
    }
}
