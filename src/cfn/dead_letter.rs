//! Dead-letter targets declared anywhere but a queue's own RedrivePolicy:
//! Lambda `DeadLetterConfig`, SAM `DeadLetterQueue`, SNS subscription and
//! SAM SNS event `RedrivePolicy`, EventBridge rule/Scheduler/Pipes
//! `DeadLetterConfig`, and the `OnFailure` destinations of event source
//! mappings, EventInvokeConfig and SAM stream events.
//!
//! Rather than list every resource type (SAM state machines, Pipes and new
//! services keep adding them), the properties of every non-queue resource
//! are searched for these shapes, however deep they sit.

use super::context::{Ctx, json_string};
use super::resolve::{R, RV};
use super::template::Resource;
use crate::model::{DlqKind, DlqRef, Model, When};

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let mut found = Vec::new();
    search(&props, When::always(), &mut found, 0);
    if found.is_empty() {
        return;
    }
    let kind = match res.kind {
        "AWS::Lambda::Function" => DlqKind::LambdaDeadLetterConfig,
        "AWS::Serverless::Function" | "AWS::Serverless::StateMachine" => DlqKind::SamDeadLetterQueue,
        "AWS::SNS::Subscription" => DlqKind::SnsSubscription,
        "AWS::Events::Rule" | "AWS::Scheduler::Schedule" | "AWS::Pipes::Pipe" => DlqKind::EventBridgeTarget,
        "AWS::Lambda::EventSourceMapping" => DlqKind::EventSourceMappingOnFailure,
        _ => DlqKind::Other,
    };
    let target = ctx.attr_of(found.iter().map(|(w, r)| (w.clone(), r)).collect(), |r| ctx.queue_target(r));
    model.dlq_refs.push(DlqRef { resource: res.id.to_string(), kind, target });
}

/// (key holding the target's parent, key of the target inside it)
const SHAPES: &[(&str, &str)] = &[
    ("DeadLetterConfig", "Arn"),
    ("DeadLetterConfig", "TargetArn"),
    ("DeadLetterQueue", "TargetArn"),
    ("RedrivePolicy", "deadLetterTargetArn"),
    ("OnFailure", "Destination"),
];

fn search(r: &R, when: When, out: &mut Vec<(When, R)>, depth: usize) {
    if depth > crate::syntax::MAX_DEPTH {
        return;
    }
    for (w, v) in r.alternatives() {
        let Some(when) = when.and(&w) else { continue };
        match &v.v {
            RV::Map(entries) => {
                for (key, _, child) in entries {
                    for (_, inner) in SHAPES.iter().filter(|(parent, _)| parent == key) {
                        for (w2, holder) in child.alternatives() {
                            let Some(when) = when.and(&w2) else { continue };
                            let holder = match &holder.v {
                                RV::Str(_) => json_string(holder),
                                _ => Some(holder.clone()),
                            };
                            if let Some(target) = holder.as_ref().and_then(|h| h.entry(inner)) {
                                for (w3, t) in target.1.alternatives() {
                                    if let Some(when) = when.and(&w3) {
                                        out.push((when, t.clone()));
                                    }
                                }
                            }
                        }
                    }
                    search(child, when.clone(), out, depth + 1);
                }
            }
            RV::List(items) => {
                for item in items {
                    search(item, when.clone(), out, depth + 1);
                }
            }
            _ => {}
        }
    }
}
