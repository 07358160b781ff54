//! AWS::Lambda::Function and AWS::Serverless::Function: the function and
//! (SAM) its `Events: {Type: SQS}` consumers.

use super::context::{Ctx, SAM_FUNCTION};
use super::resolve::{R, RV};
use super::template::Resource;
use crate::frontend::convert::{to_int, to_string_list};
use crate::model::{Attr, Consumer, Field, Function, Model, Target};

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, index: usize, model: &mut Model) {
    let props = ctx.properties(res);
    let props = props.as_ref();
    let at = res.entry.key_span;
    let sam = res.kind == SAM_FUNCTION;
    let mut timeout = ctx.attr(props, Field::Timeout, at, to_int);
    if sam && !timeout.is_set_somewhere() {
        // SAM Globals.Function.Timeout applies to functions that don't set one.
        let globals = ctx.template.globals.and_then(|g| g.get("Function")).map(|f| ctx.resolver.resolve(f));
        if let Some(g) = globals.as_ref().filter(|g| g.entry("Timeout").is_some()) {
            timeout = ctx.attr(Some(g), Field::Timeout, at, to_int);
        }
    }
    model.functions.push(Function { resource: res.id.to_string(), origin: ctx.origin(at), timeout });
    if sam && let Some(props) = props {
        events(ctx, res, index, props, model);
    }
}

/// SAM `Events` of `Type: SQS` are consumers (dead-letter targets of other
/// events are found by `dead_letter`).
fn events(ctx: &Ctx<'_, '_>, res: &Resource<'_>, index: usize, props: &R, model: &mut Model) {
    let Some((_, events)) = props.entry("Events") else { return };
    let RV::Map(entries) = &events.v else { return };
    for (_, key_span, event) in entries {
        let kind = event.entry("Type").and_then(|(_, t)| t.literal());
        let event_props = event.entry("Properties").map(|(_, p)| p);
        if kind.as_deref() != Some("SQS") {
            continue;
        }
        let at = *key_span;
        let origin = ctx.origin(at);
        model.consumers.push(Consumer {
            resource: res.id.to_string(),
            origin: origin.clone(),
            queue: ctx.attr_named(event_props, "Queue", at, |r| ctx.queue_target(r)),
            function: Attr::known(Target::Function(index), origin),
            batch_size: ctx.attr(event_props, Field::BatchSize, at, to_int),
            batching_window: ctx.attr(event_props, Field::BatchingWindow, at, to_int),
            response_types: ctx.attr(event_props, Field::FunctionResponseTypes, at, to_string_list),
        });
    }
}
