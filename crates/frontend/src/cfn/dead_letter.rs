//! Dead-letter targets declared anywhere but a queue's own RedrivePolicy:
//! Lambda `DeadLetterConfig`, SAM `DeadLetterQueue`, SNS subscription and
//! SAM SNS event `RedrivePolicy`, EventBridge rule/Scheduler/Pipes
//! `DeadLetterConfig`, and the `OnFailure` destinations of event source
//! mappings, EventInvokeConfig and SAM stream events. Every non-queue
//! resource is searched for these shapes (SAM state machines, Pipes and new
//! services keep adding places).

use super::context::Ctx;
use super::template::Resource;
use crate::dead_letter::{Shape, search};
use sqsguard_model::{DlqRef, Model};

const SHAPES: &[Shape] = &[
    ("DeadLetterConfig", "Arn"),
    ("DeadLetterConfig", "TargetArn"),
    ("DeadLetterQueue", "TargetArn"),
    ("RedrivePolicy", "deadLetterTargetArn"),
    ("OnFailure", "Destination"),
];

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let found = search(&props, SHAPES);
    if found.is_empty() {
        return;
    }
    let target = ctx.attr_of(found.iter().map(|(w, r)| (w.clone(), r)).collect(), |r| ctx.queue_target(r));
    model.dlq_refs.push(DlqRef { target });
}
