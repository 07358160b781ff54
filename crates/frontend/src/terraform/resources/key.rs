//! KMS keys in Terraform: `aws_kms_key` with its `policy` (or an
//! `aws_kms_key_policy` naming it), `aws_kms_alias`, and which key a
//! queue's `kms_master_key_id` names (SQS020): a key directly
//! (`aws_kms_key.k.arn`, `.id`, `.key_id`), through an alias (by reference
//! or by its `alias/...` name), the AWS managed `alias/aws/sqs`, or
//! something else.

use std::collections::HashMap;

use super::Resource;
use crate::policy::statements;
use crate::value::{R, RV};
use sqsguard_model::key::{Key, KeyRef, is_aws_managed};
use sqsguard_model::{Model, Origin, Value};

pub(crate) const KEY: &str = "aws_kms_key";
pub(crate) const KEY_POLICY: &str = "aws_kms_key_policy";
pub(crate) const ALIAS: &str = "aws_kms_alias";

/// A resource's address without its instance key.
fn base(address: &str) -> &str {
    address.split('[').next().unwrap_or(address)
}

/// The resource a value refers to, when it is one reference.
fn referenced(r: &R) -> Option<&str> {
    r.text().and_then(|t| t.reference()).map(|(resource, _)| base(resource))
}

/// What a `kms_master_key_id` value names, before aliases are followed.
pub(crate) fn key_ref(r: &R) -> Value<KeyRef> {
    let RV::Str(text) = &r.v else {
        return match &r.v {
            RV::Unknown(why) => Value::Unknown(why.clone()),
            _ => Value::Unknown("not a key id".into()),
        };
    };
    if let Some(resource) = referenced(r) {
        let kind = resource.rsplit('.').nth(1).unwrap_or_default();
        return Value::Known(match kind {
            KEY | ALIAS => KeyRef::Resource(resource.to_string()),
            _ => KeyRef::Other(text.display()),
        });
    }
    let whole = text.display();
    if text.ends_literal() && is_aws_managed(&whole) {
        return Value::Known(KeyRef::AwsManaged);
    }
    match text.literal() {
        Some(lit) => Value::Known(KeyRef::Other(lit)),
        None => Value::Unknown(format!("{whole} is only known at deploy time")),
    }
}

/// The keys of `resources` into the model, and each queue's key reference
/// followed through the aliases to the key it names.
pub(crate) fn read<'r>(resources: impl Iterator<Item = &'r Resource>, model: &mut Model) {
    let (mut keys, mut policies, mut aliases) = (Vec::new(), Vec::new(), HashMap::new());
    for r in resources {
        match r.kind.as_str() {
            KEY => keys.push(r),
            KEY_POLICY => policies.push(r),
            ALIAS => {
                let Some(target) = r.props.entry("target_key_id").and_then(|(_, t)| referenced(t)) else { continue };
                aliases.insert(base(&r.address).to_string(), target.to_string());
                if let Some(name) = r.props.entry("name").and_then(|(_, n)| n.literal()) {
                    aliases.insert(name, target.to_string());
                }
            }
            _ => {}
        }
    }
    if keys.is_empty() && aliases.is_empty() {
        return;
    }
    let mut by_address: HashMap<String, usize> = HashMap::new();
    for r in keys {
        let (found, unreadable) = match r.props.entry("policy") {
            Some((_, p)) => statements(&r.source, p, &|_| Value::Absent),
            None => (Vec::new(), None),
        };
        by_address.insert(base(&r.address).to_string(), model.keys.len());
        let origin = Origin::file(&r.source, r.header);
        model.keys.push(Key { resource: base(&r.address).to_string(), origin, statements: found, unreadable });
    }
    // An aws_kms_key_policy replaces the key's policy.
    for r in policies {
        let Some(key) = r.props.entry("key_id").and_then(|(_, k)| referenced(k)) else { continue };
        let Some(&i) = by_address.get(key) else { continue };
        let Some((_, p)) = r.props.entry("policy") else { continue };
        let (found, unreadable) = statements(&r.source, p, &|_| Value::Absent);
        if let Some(k) = model.keys.get_mut(i) {
            k.statements = found;
            k.unreadable = unreadable;
        }
    }
    for queue in &mut model.queues {
        for alt in &mut queue.key.alts {
            let next = match &alt.value {
                Value::Known(KeyRef::Resource(a)) if !by_address.contains_key(a) => aliases.get(a),
                Value::Known(KeyRef::Other(name)) => aliases.get(name),
                _ => None,
            };
            if let Some(key) = next {
                alt.value = Value::Known(KeyRef::Resource(key.clone()));
            }
        }
    }
}
