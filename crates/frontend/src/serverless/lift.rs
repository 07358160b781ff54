//! The `serverless-lift` plugin's `queue` construct, modelled from its
//! documented defaults (getlift/lift docs/queue.md), as the Terraform
//! registry modules are: a queue with a dead-letter queue (same type,
//! retention 14 days, `maxRetries` receives, 3 by default), a visibility
//! timeout of 6 x the worker's timeout, a worker function reading it in
//! batches of `batchSize` (1 by default) with `ReportBatchItemFailures`,
//! content-based deduplication on FIFO queues, and an alarm on the
//! dead-letter queue only when `alarm` is set. Resources are named after
//! the construct: `jobs.queue`, `jobs.dlq`, `jobs.worker`.

use super::DEFAULT_TIMEOUT;
use crate::cfn::context::Ctx;
use crate::convert::{to_bool, to_int};
use sqsguard_model::build::Links;
use sqsguard_model::field::guidance;
use sqsguard_model::{
    Alarm, AlarmMetric, Attr, Consumer, Facts, Field, Function, Model, Queue, Redrive, Target, Value, Via,
};
use sqsguard_source::Span;
use sqsguard_syntax::Node;

/// Lift's retries when `maxRetries` is not set.
const DEFAULT_MAX_RETRIES: i64 = 3;
/// Lift's batch size when `batchSize` is not set.
const DEFAULT_BATCH_SIZE: i64 = 1;
/// What Lift's visibility timeout is a multiple of the worker's timeout by.
const VISIBILITY_MULTIPLIER: i64 = 6;

/// Add a `queue` construct to the model.
pub(crate) fn read(
    ctx: &Ctx<'_, '_>,
    name: &str,
    key_span: Span,
    construct: &Node,
    provider: Option<&Node>,
    model: &mut Model,
) {
    let provider_timeout = provider.and_then(|p| p.get("timeout"));
    let at = ctx.origin(key_span);
    let construct_raw = construct;
    let construct = ctx.resolver.resolve(construct);
    let setting = |key: &str| construct.entry(key).map(|(_, v)| v.clone());
    let int = |key: &str, default: i64| match setting(key) {
        Some(v) => Attr::single(to_int(&v), ctx.origin(v.span)),
        None => Attr::known(default, at.clone()),
    };
    let int_opt = |key: &str| match setting(key) {
        Some(v) => Attr::single(to_int(&v), ctx.origin(v.span)),
        None => Attr::absent(at.clone()),
    };
    let fifo = match setting("fifo") {
        Some(v) => Attr::single(to_bool(&v), ctx.origin(v.span)),
        None => Attr::known(false, at.clone()),
    };
    let code = construct_node(construct_raw).and_then(|w| super::code_ref(ctx, provider, w));
    let worker = setting("worker");
    let timeout = match worker.as_ref().and_then(|w| w.entry("timeout").map(|(_, t)| t.clone())) {
        Some(t) => Attr::single(to_int(&t), ctx.origin(t.span)),
        None => match provider_timeout.map(|t| ctx.resolver.resolve(t)) {
            Some(t) => Attr::single(to_int(&t), ctx.origin(t.span)),
            None => Attr::known(DEFAULT_TIMEOUT, at.clone()),
        },
    };

    let (queue_index, dlq_index) = (model.queues.len(), model.queues.len() + 1);
    let mut queue = Queue::new(format!("{name}.queue"), at.clone());
    queue.fifo = fifo.clone();
    queue.visibility_timeout = times(&timeout, VISIBILITY_MULTIPLIER);
    queue.delay_seconds = match setting("delay") {
        Some(v) => Attr::single(to_int(&v), ctx.origin(v.span)),
        None => Attr::absent(at.clone()),
    };
    // Lift turns content-based deduplication on for FIFO queues.
    queue.content_based_dedup = fifo.clone();
    queue.redrive = Attr::known(
        Redrive {
            target: Attr::known(Target::Queue(dlq_index), at.clone()),
            target_via: Attr::known(Via::Arn, at.clone()),
            max_receive_count: int("maxRetries", DEFAULT_MAX_RETRIES),
        },
        at.clone(),
    );
    let mut dlq = Queue::new(format!("{name}.dlq"), at.clone());
    dlq.fifo = fifo;
    dlq.retention_period = Attr::known(guidance::MAX_RETENTION_SECONDS, at.clone());
    model.queues.push(queue);
    model.queues.push(dlq);

    let function_index = model.functions.len();
    let reserved_concurrency =
        match worker.as_ref().and_then(|w| w.entry("reservedConcurrency").map(|(_, r)| r.clone())) {
            Some(r) => Attr::single(to_int(&r), ctx.origin(r.span)),
            None => Attr::absent(at.clone()),
        };
    let worker_at =
        Facts::new(at.clone()).with(Field::Timeout, timeout).with(Field::ReservedConcurrency, reserved_concurrency);
    let mut function = Function::read(format!("{name}.worker"), at.clone(), &worker_at);
    function.code = code;
    model.functions.push(function);
    let mapping = Facts::new(at.clone())
        .with(Field::BatchSize, int("batchSize", DEFAULT_BATCH_SIZE))
        .with(Field::BatchingWindow, int("maxBatchingWindow", 0))
        .known(Field::FunctionResponseTypes, vec![REPORT_FAILURES.to_string()], at.clone())
        .with(Field::MaximumConcurrency, int_opt("maxConcurrency"));
    let links = Links {
        queue: Attr::known(Target::Queue(queue_index), at.clone()),
        queue_via: Attr::known(Via::Arn, at.clone()),
        function: Attr::known(Target::Function(function_index), at.clone()),
    };
    model.consumers.push(Consumer::read(format!("{name}.worker"), at.clone(), links, &mapping));
    if setting("alarm").is_some() {
        let metric = AlarmMetric::sqs("ApproximateNumberOfMessagesVisible", Target::Queue(dlq_index));
        let above = Facts::new(at.clone())
            .known(Field::ComparisonOperator, "GreaterThanThreshold".to_string(), at.clone())
            .known(Field::Threshold, 0.0, at.clone());
        model.alarms.push(Alarm::read(format!("{name}.alarm"), at, vec![metric], &above));
    }
}

/// What Lift's worker reports.
const REPORT_FAILURES: &str = "ReportBatchItemFailures";

/// The construct's `worker`, which is a function of the service (its
/// `handler`, `runtime` and `environment`).
fn construct_node(construct: &Node) -> Option<&Node> {
    construct.get("worker")
}

/// `attr` times `k`, where it is known.
fn times(attr: &Attr<i64>, k: i64) -> Attr<i64> {
    let mut out = attr.clone();
    for alt in &mut out.alts {
        if let Value::Known(v) = alt.value {
            alt.value = Value::Known(v.saturating_mul(k));
        }
    }
    out
}
