//! AWS::SQS::Queue into a model [`Queue`].

use super::context::Ctx;
use super::payload;
use super::resolve::{R, RV};
use super::template::Resource;
use crate::extract::convert::{json_string, to_bool, to_int, to_name, to_string};
use crate::model::{Alt, Attr, Queue, Redrive, Value};

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>) -> Queue {
    let props = ctx.properties(res);
    let props = props.as_ref();
    let at = res.entry.key_span;
    Queue {
        resource: res.id.to_string(),
        origin: ctx.origin(at),
        name: ctx.attr(props, "QueueName", at, to_name),
        fifo: ctx.attr(props, "FifoQueue", at, to_bool),
        content_based_dedup: ctx.attr(props, "ContentBasedDeduplication", at, to_bool),
        visibility_timeout: ctx.attr(props, "VisibilityTimeout", at, to_int),
        receive_wait_time: ctx.attr(props, "ReceiveMessageWaitTimeSeconds", at, to_int),
        retention_period: ctx.attr(props, "MessageRetentionPeriod", at, to_int),
        delay_seconds: ctx.attr(props, "DelaySeconds", at, to_int),
        sse_enabled: ctx.attr(props, "SqsManagedSseEnabled", at, to_bool),
        kms_key: ctx.attr(props, "KmsMasterKeyId", at, to_string),
        fifo_throughput_limit: ctx.attr(props, "FifoThroughputLimit", at, to_string),
        deduplication_scope: ctx.attr(props, "DeduplicationScope", at, to_string),
        redrive: redrive(ctx, props, at),
        payload: payload::declared(ctx, res, props),
    }
}

/// RedrivePolicy, written as a map or as a JSON string.
fn redrive(ctx: &Ctx<'_, '_>, props: Option<&R>, at: crate::source::Span) -> Attr<Redrive> {
    let raw = ctx.attr(props, "RedrivePolicy", at, |r| Value::Known(r.clone()));
    let alts = raw
        .alts
        .into_iter()
        .map(|alt| {
            let value = match alt.value {
                Value::Known(r) => {
                    let map = match &r.v {
                        RV::Map(_) | RV::If { .. } => Some(r.clone()),
                        _ => json_string(&r),
                    };
                    match map {
                        Some(map) => Value::Known(Redrive {
                            target: ctx.attr(Some(&map), "deadLetterTargetArn", map.span, |v| ctx.queue_target(v)),
                            max_receive_count: ctx.attr(Some(&map), "maxReceiveCount", map.span, to_int),
                        }),
                        None => Value::Unknown("RedrivePolicy is only known at deploy time".into()),
                    }
                }
                Value::Unknown(why) => Value::Unknown(why),
                Value::Absent => Value::Absent,
            };
            Alt { value, origin: alt.origin, when: alt.when }
        })
        .collect();
    Attr { alts }
}
