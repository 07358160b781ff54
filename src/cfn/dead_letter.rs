//! Dead-letter targets declared by other services: an SNS subscription's
//! RedrivePolicy, EventBridge rule and Scheduler targets, Lambda
//! EventInvokeConfig on-failure destinations.

use super::context::{Ctx, json_string};
use super::resolve::RV;
use super::template::Resource;
use crate::model::{DlqKind, DlqRef, Model};

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let (kind, path): (DlqKind, &[&str]) = match res.kind {
        "AWS::SNS::Subscription" => (DlqKind::SnsSubscription, &["RedrivePolicy"]),
        "AWS::Events::Rule" => (DlqKind::EventBridgeTarget, &["Targets", "*", "DeadLetterConfig", "Arn"]),
        "AWS::Scheduler::Schedule" => (DlqKind::EventBridgeTarget, &["Target", "DeadLetterConfig", "Arn"]),
        "AWS::Lambda::EventInvokeConfig" => (DlqKind::Other, &["DestinationConfig", "OnFailure", "Destination"]),
        _ => return,
    };
    let Some(props) = ctx.properties(res) else { return };
    let mut found = ctx.values_at(&props, path);
    let parsed;
    if kind == DlqKind::SnsSubscription {
        // RedrivePolicy is a map or a JSON string holding deadLetterTargetArn.
        let Some((when, policy)) = found.pop() else { return };
        parsed = match &policy.v {
            RV::Str(_) => json_string(policy),
            _ => Some(policy.clone()),
        };
        let Some(policy) = parsed.as_ref() else { return };
        found = ctx
            .values_at(policy, &["deadLetterTargetArn"])
            .into_iter()
            .filter_map(|(w, r)| Some((when.and(&w)?, r)))
            .collect();
    }
    if found.is_empty() {
        return;
    }
    let target = ctx.attr_of(found, |r| ctx.queue_target(r));
    model.dlq_refs.push(DlqRef { resource: res.id.to_string(), kind, target });
}
