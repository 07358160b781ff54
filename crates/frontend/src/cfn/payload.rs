//! Payload declarations for SQS003 in a template: queue Metadata
//! `sqsguard: {payload: ...}` / `sqsguard: {payload-schema: PATH}`, or the
//! tag `sqsguard:payload` (parsed by [`sqsguard_model::payload`]).

use super::context::Ctx;
use super::resolve::R;
use super::template::Resource;
use sqsguard_model::{PayloadDecl, Value, payload};

pub(crate) fn declared(ctx: &Ctx<'_, '_>, res: &Resource<'_>, props: Option<&R>) -> Option<PayloadDecl> {
    if let Some(meta) = res.metadata.and_then(|m| m.get("sqsguard")) {
        if let Some(meta_payload) = meta.get("payload") {
            return Some(PayloadDecl {
                payload: Value::Known(payload::from_fields(meta_payload)),
                origin: ctx.origin(meta_payload.span),
                source: "Metadata sqsguard.payload",
            });
        }
        if let Some(path) = meta.get("payload-schema") {
            return Some(PayloadDecl {
                payload: payload::from_schema_file(&ctx.file.path, path),
                origin: ctx.origin(path.span),
                source: "Metadata sqsguard.payload-schema",
            });
        }
    }
    let tags = props.map(|p| ctx.values_at(p, &["Tags", "*"])).unwrap_or_default();
    for (_, tag) in tags {
        let key = tag.entry("Key").and_then(|(_, k)| k.literal());
        if key.as_deref() != Some(payload::TAG) {
            continue;
        }
        let Some((_, value)) = tag.entry("Value") else { continue };
        return Some(PayloadDecl {
            payload: payload::from_tag(value.literal().as_deref()),
            origin: ctx.origin(value.span),
            source: "tag sqsguard:payload",
        });
    }
    None
}
