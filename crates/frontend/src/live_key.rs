//! The customer managed keys the live audit read (DescribeKey,
//! GetKeyPolicy) for the queues a producer feeds, as the model's keys:
//! SQS020 judges their key policies as it does those of the files.

use std::collections::BTreeSet;

use super::convert::json_string;
use super::policy::statements;
use super::value::{R, RV, Text};
use sqsguard_model::key::{self, Key, KeyRef};
use sqsguard_model::{Model, Origin, Value};
use sqsguard_source::SourceFile;

/// A key a queue's `KmsMasterKeyId` names, as DescribeKey described it.
#[derive(Debug, Clone)]
pub struct LiveKey {
    /// The key's ARN.
    pub arn: String,
    /// `KeyManager` is `AWS`: an AWS managed key, whose policy no one can
    /// change.
    pub aws_managed: bool,
    /// The `default` key policy (GetKeyPolicy) of a customer managed key;
    /// `None` when it was not read.
    pub policy: Option<String>,
}

/// What a queue's `KmsMasterKeyId` (`id`) is, by the keys read (`keys`,
/// keyed by the `KmsMasterKeyId` that named them): a key whose policy was
/// not read stays `Other`, which SQS020 does not judge.
pub(crate) fn key_ref(keys: &std::collections::BTreeMap<String, LiveKey>, id: &str) -> KeyRef {
    if key::is_aws_managed(id) {
        return KeyRef::AwsManaged;
    }
    match keys.get(id) {
        Some(k) if k.aws_managed => KeyRef::AwsManaged,
        Some(k) if k.policy.is_some() => KeyRef::Resource(k.arn.clone()),
        _ => KeyRef::Other(id.to_string()),
    }
}

/// The customer managed keys whose policy was read, once per key ARN (an
/// alias and the key ID may name the same key), into `model.keys`.
pub(crate) fn load(
    keys: &std::collections::BTreeMap<String, LiveKey>,
    origin_of: &dyn Fn(&str) -> Origin,
    model: &mut Model,
) {
    let mut seen = BTreeSet::new();
    for k in keys.values().filter(|k| !k.aws_managed) {
        let Some(policy) = k.policy.as_deref() else { continue };
        if !seen.insert(k.arn.as_str()) {
            continue;
        }
        let origin = origin_of(&k.arn);
        let file = SourceFile::new(k.arn.clone(), String::new());
        let doc = serde_json::from_str::<serde_json::Value>(policy)
            .ok()
            .and_then(|p| json_string(&R::new(RV::Str(Text::lit(p.to_string())), Default::default())));
        let (found, unreadable) = match doc {
            // A key policy's Resource is the key itself ("*"): no queue.
            Some(d) => statements(&file, &d, &|_| Value::Absent),
            None => (Vec::new(), Some("the key policy is not JSON".into())),
        };
        let found = found
            .into_iter()
            .map(|mut s| {
                s.origin = origin.clone();
                s
            })
            .collect();
        model.keys.push(Key { resource: k.arn.clone(), origin, statements: found, unreadable });
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    const ARN: &str = "arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab";

    fn key(arn: &str, aws_managed: bool, policy: Option<&str>) -> LiveKey {
        LiveKey { arn: arn.into(), aws_managed, policy: policy.map(str::to_string) }
    }

    #[test]
    fn a_key_is_judged_only_when_its_policy_was_read_and_once_whatever_names_it() {
        let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"Service":"sns.amazonaws.com"},"Action":"kms:Decrypt","Resource":"*"}]}"#;
        let keys: BTreeMap<String, LiveKey> = [
            ("alias/jobs".to_string(), key(ARN, false, Some(policy))),
            ("1234abcd-12ab-34cd-56ef-1234567890ab".to_string(), key(ARN, false, Some(policy))),
            ("alias/denied".to_string(), key("arn:aws:kms:eu-west-1:111111111111:key/other", false, None)),
            ("alias/aws-owned".to_string(), key("arn:aws:kms:eu-west-1:111111111111:key/aws", true, None)),
            ("alias/broken".to_string(), key("arn:aws:kms:eu-west-1:111111111111:key/broken", false, Some("{"))),
        ]
        .into_iter()
        .collect();
        assert_eq!(key_ref(&keys, "alias/jobs"), KeyRef::Resource(ARN.into()));
        assert_eq!(key_ref(&keys, "alias/denied"), KeyRef::Other("alias/denied".into()));
        assert_eq!(key_ref(&keys, "alias/aws-owned"), KeyRef::AwsManaged);
        assert_eq!(key_ref(&keys, "alias/aws/sqs"), KeyRef::AwsManaged);
        assert_eq!(key_ref(&keys, "alias/unread"), KeyRef::Other("alias/unread".into()));

        let mut model = Model::default();
        load(&keys, &|arn: &str| Origin::live(arn, None, None), &mut model);
        let loaded: Vec<(&str, usize, bool)> =
            model.keys.iter().map(|k| (k.resource.as_str(), k.statements.len(), k.unreadable.is_some())).collect();
        assert_eq!(
            loaded,
            vec![(ARN, 1, false), ("arn:aws:kms:eu-west-1:111111111111:key/broken", 0, true)],
            "one key for its alias and its ID, none for a policy not read or an AWS managed key"
        );
    }
}
