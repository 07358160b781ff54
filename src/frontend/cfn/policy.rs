//! AWS::SQS::QueuePolicy (`Queues: [url, ...]`) and
//! AWS::SQS::QueueInlinePolicy (`Queue: url`): the queues a policy applies
//! to and its statements.

use super::context::Ctx;
use super::template::Resource;
use crate::frontend::policy::statements;
use crate::model::{Model, QueuePolicy};

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let path: &[&str] = if res.kind == "AWS::SQS::QueueInlinePolicy" { &["Queue"] } else { &["Queues", "*"] };
    let queues = ctx.values_at(&props, path).into_iter().map(|(_, q)| ctx.queue_target(q)).collect();
    let statements =
        ctx.values_at(&props, &["PolicyDocument"]).into_iter().flat_map(|(_, d)| statements(&ctx.file, d)).collect();
    model.policies.push(QueuePolicy {
        resource: res.id.to_string(),
        origin: ctx.origin(res.entry.key_span),
        queues,
        statements,
    });
}
