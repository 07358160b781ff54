//! SQS020: a KMS-encrypted queue fed by SNS, EventBridge or S3 whose key
//! does not let that service use it: the AWS managed `alias/aws/sqs`, or a
//! customer managed key whose policy lacks the service principal.

use std::collections::HashMap;

use super::helpers::all_of;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_model::key::{AWS_MANAGED_ALIAS, Key, KeyRef};
use sqsguard_model::policy::{Delivery, Verdict};
use sqsguard_model::{Field, Value};

rule! {
    code: "SQS020",
    name: "kms-key-blocks-producer",
    severity: Error,
    summary: "KMS key of a queue fed by SNS, EventBridge or S3 does not let that service use it",
    kind: Template,
    check: check,
    reads: &[Link::ProducerQueue],
    needs: &[
        LiveInput::QueueAttributes,
        LiveInput::Subscriptions,
        LiveInput::EventBridgeTargets,
        LiveInput::KeyPolicies,
    ],
}

/// What a service needs of the key to send to an encrypted queue.
const ACTIONS: [&str; 2] = ["kms:generatedatakey", "kms:decrypt"];

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let keys: HashMap<&str, &Key> = cx.model.keys.iter().map(|k| (k.resource.as_str(), k)).collect();
    let key_name = cx.name(Field::KmsMasterKeyId);
    for feed in cx.index.feeds() {
        let p = feed.producer;
        let Some(principal) = p.service.principal() else { continue };
        let Some(queue) = cx.model.queues.get(feed.queue) else { continue };
        for alt in queue.key.iter() {
            let Value::Known(key) = &alt.value else { continue };
            let Some(when) = all_of(&[&feed.target.when, &alt.when]) else { continue };
            let problem = match key {
                KeyRef::AwsManaged => format!(
                    "its {key_name} is the AWS managed key {AWS_MANAGED_ALIAS}, whose key policy cannot be changed to let {principal} use it"
                ),
                KeyRef::Resource(id) => {
                    let Some(key) = keys.get(id.as_str()) else { continue };
                    let missing = missing(key, principal, &p.source);
                    if missing.is_empty() {
                        continue;
                    }
                    let policy = if key.statements.is_empty() { "the default key policy" } else { "the key policy" };
                    format!("{policy} of key {} does not allow {principal} {}", key.resource, missing.join(" or "))
                }
                KeyRef::Other(_) => continue,
            };
            let message = format!(
                "{} delivers to queue {}, which is encrypted with KMS, but {problem}: every delivery fails{when}",
                p.name(),
                queue.resource
            );
            let fix = match key {
                KeyRef::AwsManaged => format!(
                    "encrypt the queue with a customer managed key whose policy allows {principal} kms:GenerateDataKey* and kms:Decrypt (or use SSE-SQS)"
                ),
                _ => format!(
                    "add a key policy statement: Effect Allow, Principal {{Service: {principal}}}, Action [kms:GenerateDataKey*, kms:Decrypt], Resource \"*\"{}",
                    // A live key: its policy is set whole.
                    match (cx.dialect(), &key) {
                        (sqsguard_model::Dialect::Api, KeyRef::Resource(id)) => format!(
                            " (aws kms put-key-policy --key-id {id} --policy-name default --policy file://<the whole policy, with it>.json)"
                        ),
                        _ => String::new(),
                    }
                ),
            };
            let mut related = vec![p.resource.as_str()];
            if let KeyRef::Resource(id) = key {
                related.push(id.as_str());
            }
            findings.push(RULE.finding(&queue.resource, &alt.origin, message, fix).with_related(&related));
        }
    }
}

/// The actions the key policy does not allow the service (unknown ones
/// are not missing).
fn missing(key: &Key, principal: &str, source: &Value<sqsguard_model::policy::SourceId>) -> Vec<&'static str> {
    if key.unreadable.is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for action in ACTIONS {
        let delivery = Delivery { principal, source, queue: None, queue_name: None, action };
        let mut v = Verdict::NotAllowed;
        for s in &key.statements {
            v = v.or(s.grants(&delivery));
        }
        if v == Verdict::NotAllowed {
            out.push(match action {
                "kms:decrypt" => "kms:Decrypt",
                _ => "kms:GenerateDataKey*",
            });
        }
    }
    out
}
