//! The CloudFormation and SAM front-end: a spanned tree in, a [`Model`] out.
//!
//! `template` finds the sections, `resolve` evaluates intrinsics, `context`
//! links references and converts values, and one file per resource family
//! (`queue`, `function`, `mapping`, `alarm`, `policy`, `dead_letter`)
//! fills the model.

mod alarm;
mod context;
mod dead_letter;
mod function;
mod mapping;
pub(crate) mod payload;
mod policy;
mod queue;
pub mod resolve;
pub mod template;

use context::{Ctx, FUNCTION, QUEUE, SAM_FUNCTION};
use template::Template;

use super::Loaded;
use crate::model::{Model, Scope, Suppression, Written};
use crate::source::Source;
use crate::syntax::Node;

/// The template in `root`, or `None` when it is not a CloudFormation/SAM
/// template.
pub fn load(file: &Source, root: &Node) -> Option<Loaded> {
    let template = Template::find(root)?;
    let ctx = Ctx::new(file.clone(), &template);
    let mut model = Model::default();
    let mut declared = Vec::new();
    let mut function_index = 0;
    for res in &template.resources {
        match res.kind {
            QUEUE => model.queues.push(queue::read(&ctx, res)),
            FUNCTION | SAM_FUNCTION => {
                function::read(&ctx, res, function_index, &mut model);
                function_index += 1;
            }
            "AWS::Lambda::EventSourceMapping" => mapping::read(&ctx, res, &mut model),
            "AWS::CloudWatch::Alarm" => alarm::read(&ctx, res, &mut model),
            "AWS::SQS::QueuePolicy" | "AWS::SQS::QueueInlinePolicy" => policy::read(&ctx, res, &mut model),
            _ => {}
        }
        if res.kind != QUEUE {
            dead_letter::read(&ctx, res, &mut model);
        }
        declared.extend(suppressions(&ctx, res));
    }
    Some(super::loaded_from(file, model, declared))
}

/// Metadata `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}`. A single
/// entry without the list, a bare code or rule name, and `rule` as a list
/// or a comma-separated string work too; `check` gives anything else a
/// note (a suppression naming no rule), never silence.
fn suppressions(ctx: &Ctx<'_, '_>, res: &template::Resource<'_>) -> Vec<Suppression> {
    let Some(ignore) = res.metadata.and_then(|m| m.get("sqsguard")).and_then(|s| s.get("ignore")) else {
        return Vec::new();
    };
    let items: Vec<&Node> = match ignore.as_seq() {
        Some(items) => items.iter().collect(),
        None => vec![ignore],
    };
    items
        .into_iter()
        .map(|item| {
            let rule = if item.as_map().is_some() { item.get("rule") } else { Some(item) };
            let rules: Vec<String> = match rule {
                Some(n) => match n.as_seq() {
                    Some(list) => list.iter().map(|n| n.as_str().unwrap_or_default().trim().to_string()).collect(),
                    None => n.as_str().unwrap_or_default().split(',').map(|r| r.trim().to_string()).collect(),
                },
                None => Vec::new(),
            };
            let reason = item.get("reason").and_then(Node::as_str).map(str::trim).filter(|r| !r.is_empty());
            Suppression {
                written: Written::Listed { rules, reason: reason.map(str::to_string) },
                origin: ctx.origin(item.span),
                scope: Scope::Resource(res.id.to_string()),
            }
        })
        .collect()
}
