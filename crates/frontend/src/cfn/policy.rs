//! AWS::SQS::QueuePolicy (`Queues: [url, ...]`) and
//! AWS::SQS::QueueInlinePolicy (`Queue: url`): the queues a policy applies
//! to and its statements.

use super::context::Ctx;
use super::template::Resource;
use crate::policy::statements;
use sqsguard_model::{Model, QueuePolicy};

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let path: &[&str] = if res.kind == "AWS::SQS::QueueInlinePolicy" { &["Queue"] } else { &["Queues", "*"] };
    let queues = ctx.values_at(&props, path).into_iter().map(|(_, q)| ctx.queue_target(q)).collect();
    let (mut all, mut unreadable) = (Vec::new(), None);
    let documents = ctx.values_at(&props, &["PolicyDocument"]);
    if documents.is_empty() {
        unreadable = Some("it has no PolicyDocument".into());
    }
    for (_, document) in documents {
        let (found, why) = statements(&ctx.file, document, &|r| ctx.queue_target(r));
        all.extend(found);
        unreadable = unreadable.or(why);
    }
    model.policies.push(QueuePolicy {
        resource: res.id.to_string(),
        origin: ctx.origin(res.entry.key_span),
        queues,
        statements: all,
        unreadable,
    });
}
