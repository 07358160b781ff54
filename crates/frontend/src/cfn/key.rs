//! `AWS::KMS::Key` and its `KeyPolicy`, and which key a queue's
//! `KmsMasterKeyId` names: the AWS managed `alias/aws/sqs`, a key of the
//! template (directly, or through an `AWS::KMS::Alias` by reference or by
//! its `alias/...` name), or something else.

use std::collections::HashMap;

use super::context::{Ctx, QUEUE};
use super::resolve::{R, RV};
use super::template::Resource;
use crate::policy::statements;
use sqsguard_model::key::{Key, KeyRef, is_aws_managed};
use sqsguard_model::{Dialect, Field, Model, Value};

const KEY: &str = "AWS::KMS::Key";
const ALIAS: &str = "AWS::KMS::Alias";

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let props = ctx.properties(res);
    let (found, unreadable) = match props.as_ref().and_then(|p| p.entry("KeyPolicy")) {
        // A key policy names no queue: its Resource is the key itself.
        Some((_, policy)) => statements(&ctx.file, policy, &|_| Value::Absent),
        None => (Vec::new(), None),
    };
    model.keys.push(Key {
        resource: res.id.to_string(),
        origin: ctx.origin(res.entry.key_span),
        statements: found,
        unreadable,
    });
}

/// Set each declared queue's `key` from its `KmsMasterKeyId`.
pub(crate) fn link(ctx: &Ctx<'_, '_>, model: &mut Model) {
    let template = ctx.template;
    let mut aliases: HashMap<String, R> = HashMap::new();
    for res in template.resources.iter().filter(|r| r.kind == ALIAS) {
        let Some(props) = ctx.properties(res) else { continue };
        let Some((_, target)) = props.entry("TargetKeyId") else { continue };
        let target = target.clone();
        aliases.insert(format!("ref:{}", res.id), target.clone());
        if let Some(name) = props.entry("AliasName").and_then(|(_, n)| n.literal()) {
            aliases.insert(name, target);
        }
    }
    let queues = template.resources.iter().filter(|r| r.kind == QUEUE);
    for (res, queue) in queues.zip(model.queues.iter_mut()) {
        // Only the one property is resolved again, not the queue's others.
        let name = Dialect::CloudFormation.name(Field::KmsMasterKeyId);
        let Some(written) = res.properties.and_then(|p| p.get(name)) else { continue };
        let value = ctx.resolver.resolve(written);
        queue.key = ctx.attr_of(value.alternatives(), |r| key_ref(ctx, &aliases, r, 0));
    }
}

/// What a `KmsMasterKeyId` value names (an alias is followed once).
fn key_ref(ctx: &Ctx<'_, '_>, aliases: &HashMap<String, R>, r: &R, depth: u8) -> Value<KeyRef> {
    let RV::Str(text) = &r.v else {
        return match &r.v {
            RV::Unknown(why) => Value::Unknown(why.clone()),
            _ => Value::Unknown("not a key id".into()),
        };
    };
    let follow = |target: &R| {
        if depth == 0 { key_ref(ctx, aliases, target, 1) } else { Value::Unknown("an alias of an alias".into()) }
    };
    if let Some((id, _)) = text.reference() {
        return match ctx.template.resource(id).map(|r| r.kind) {
            Some(KEY) => Value::Known(KeyRef::Resource(id.to_string())),
            Some(ALIAS) => {
                aliases.get(&format!("ref:{id}")).map_or(Value::Unknown(format!("alias {id} names no key")), follow)
            }
            _ => Value::Known(KeyRef::Other(text.display())),
        };
    }
    let whole = text.display();
    if text.ends_literal() && is_aws_managed(&whole) {
        return Value::Known(KeyRef::AwsManaged);
    }
    match text.literal() {
        Some(lit) => match aliases.get(&lit) {
            Some(target) => follow(target),
            None => Value::Known(KeyRef::Other(lit)),
        },
        None => Value::Unknown(format!("{whole} is only known at deploy time")),
    }
}
