//! The KMS keys of the queues a producer feeds (SQS020), in calls that grow
//! with the distinct keys, not with the queues: DescribeKey once per
//! `KmsMasterKeyId` (an alias name, alias ARN, key ID or key ARN: it tells
//! the key's ARN and whether AWS manages it), then GetKeyPolicy (`default`)
//! once per customer managed key. The AWS managed `alias/aws/sqs` needs
//! neither, and a Region without producers sends neither.
//!
//! A failed call is skipped, with why, as any other read: SQS020 is then
//! blind for the pair (`LiveInput::KeyPolicies`), and the key stays one it
//! does not judge.

use std::collections::{BTreeMap, BTreeSet};

use aws_sdk_kms::types::KeyManagerType;
use tokio::sync::Semaphore;

use super::collect::{Clients, Region, in_pool, service_reason_or, skipped};
use sqsguard_frontend::live::LiveKey;
use sqsguard_model::key::is_aws_managed;

/// The keys of `out`'s fed queues, into `out.keys`.
pub(super) async fn read(c: &Clients, out: &mut Region, pool: &Semaphore) {
    let fed: BTreeSet<&str> = out
        .subscriptions
        .iter()
        .map(|s| s.endpoint.as_str())
        .chain(out.targets.iter().map(|t| t.arn.as_str()))
        .collect();
    let ids: BTreeSet<String> = out
        .queues
        .iter()
        .filter(|q| q.attributes.get("QueueArn").is_some_and(|a| fed.contains(a.as_str())))
        .filter_map(|q| q.attributes.get("KmsMasterKeyId"))
        .filter(|k| !k.is_empty() && !is_aws_managed(k))
        .cloned()
        .collect();
    // Key ARN -> its policy, read once whatever names the key.
    let mut policies: BTreeMap<String, Option<String>> = BTreeMap::new();
    for id in ids {
        let described = match in_pool(pool, c.kms.describe_key().key_id(&id).send()).await {
            Ok(d) => d,
            Err(e) => {
                out.skipped.push(skipped("DescribeKey", id, service_reason_or(&e)));
                continue;
            }
        };
        // Every key has metadata: an answer without it read nothing.
        let Some(meta) = described.key_metadata() else {
            out.skipped.push(skipped("DescribeKey", id, "answered without the key's metadata".into()));
            continue;
        };
        let arn = meta.arn().unwrap_or(meta.key_id()).to_string();
        let aws_managed = meta.key_manager() == Some(&KeyManagerType::Aws);
        let policy = if aws_managed {
            None
        } else if let Some(p) = policies.get(&arn) {
            p.clone()
        } else {
            let p = match in_pool(pool, c.kms.get_key_policy().key_id(&arn).policy_name("default").send()).await {
                // Every customer managed key has its `default` policy.
                Ok(o) if o.policy().is_none() => {
                    out.skipped.push(skipped("GetKeyPolicy", arn.clone(), "answered without the key's policy".into()));
                    None
                }
                Ok(o) => o.policy().map(str::to_string),
                Err(e) => {
                    out.skipped.push(skipped("GetKeyPolicy", arn.clone(), service_reason_or(&e)));
                    None
                }
            };
            policies.insert(arn.clone(), p.clone());
            p
        };
        out.keys.insert(id, LiveKey { arn, aws_managed, policy });
    }
    // In the fixed order collect::region leaves them in.
    out.skipped.sort_by(|a, b| (a.api, &a.what).cmp(&(b.api, &b.what)));
}
