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

use crate::model::Model;
use crate::source::Source;
use crate::suppress::{Scope, Suppression};
use crate::syntax::Node;

/// The model of the template in `root`, or `None` when it is not a
/// CloudFormation/SAM template.
pub fn load(file: &Source, root: &Node) -> Option<Model> {
    let template = Template::find(root)?;
    let ctx = Ctx::new(file.clone(), &template);
    let mut model = Model::default();
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
        model.suppressions.extend(suppressions(&ctx, res));
    }
    Some(model)
}

/// Metadata `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}` (a bare
/// code string works too).
fn suppressions(ctx: &Ctx<'_, '_>, res: &template::Resource<'_>) -> Vec<Suppression> {
    let Some(items) = res.metadata.and_then(|m| m.get("sqsguard")).and_then(|s| s.get("ignore")).and_then(Node::as_seq)
    else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(|item| {
            let rule = item.get("rule").or(Some(item)).and_then(Node::as_str)?;
            let reason = item.get("reason").and_then(Node::as_str).map(str::trim).filter(|r| !r.is_empty());
            Some(Suppression {
                codes: vec![rule.trim().to_ascii_uppercase()],
                reason: reason.map(str::to_string),
                origin: ctx.origin(item.span),
                scope: Scope::Resource(res.id.to_string()),
            })
        })
        .collect()
}
