//! AWS::SQS::Queue into a model [`Queue`].

use super::context::Ctx;
use super::payload;
use super::template::Resource;
use crate::extract::convert::{to_bool, to_int, to_name, to_string};
use crate::model::Queue;

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
        redrive: crate::extract::redrive(&ctx.file, props, "RedrivePolicy", at, |v| ctx.queue_target(v)),
        payload: payload::declared(ctx, res, props),
        live: None,
    }
}
