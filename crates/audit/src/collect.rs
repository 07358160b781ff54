//! The AWS calls, and no more than needed: ListQueues (paginated),
//! GetQueueAttributes(All) once per queue with bounded concurrency,
//! ListQueueTags only where SQS003 needs a payload declaration,
//! ListEventSourceMappings once per Region (keeping the mappings of the
//! queues in scope), GetFunctionConfiguration once per distinct function,
//! GetFunctionConcurrency once per distinct function, CloudWatch
//! GetMetricData batched (500 queries a call) and DescribeAlarms once per
//! Region (paginated). What feeds the queues is read after, by `producers`,
//! and the keys of the queues fed, by `keys`.

use std::sync::Arc;

use aws_sdk_cloudwatch::primitives::DateTime;
use aws_sdk_cloudwatch::types::{Dimension, Metric, MetricDataQuery, MetricStat, StatusCode};
use aws_sdk_sqs::error::ProvideErrorMetadata;
use aws_sdk_sqs::types::QueueAttributeName;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use tokio::sync::Semaphore;

pub use sqsguard_frontend::live::{LiveAlarm, LiveQueueData, Region, Skipped};

pub(crate) struct Clients {
    pub sqs: aws_sdk_sqs::Client,
    pub lambda: aws_sdk_lambda::Client,
    pub cloudwatch: aws_sdk_cloudwatch::Client,
    pub sns: aws_sdk_sns::Client,
    pub eventbridge: aws_sdk_eventbridge::Client,
    pub kms: aws_sdk_kms::Client,
}

/// A failure that stops the whole audit (no endpoint, no credentials).
pub(crate) fn fatal(e: impl std::error::Error + 'static) -> String {
    chain(&e)
}

/// An error and its causes on one line (`dispatch failure: io error: ...`),
/// without the debug dump DisplayErrorContext appends.
fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut parts = vec![e.to_string()];
    let mut cause = e.source();
    while let Some(c) = cause {
        let text = c.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        cause = c.source();
    }
    parts.join(": ").replace('\n', " ")
}

/// Why a Region could not be read at all.
#[derive(Debug)]
pub(crate) enum Unread {
    /// AWS cannot be reached, or the credentials are not accepted by the
    /// client (no endpoint, no credentials): the same for every pair.
    Unreachable(String),
    /// The service refused ListQueues (AccessDenied, a Region not enabled).
    Refused(String),
}

/// What GetQueueAttributes(All) returns for every queue.
const EVERY_QUEUE_HAS: &[&str] = &["QueueArn", "VisibilityTimeout"];

pub(super) fn skipped(api: &'static str, what: impl Into<String>, why: String) -> Skipped {
    Skipped { api, what: what.into(), why }
}

/// Read one Region; `semaphore` bounds the queue reads of every Region
/// read at once.
pub(crate) async fn region(
    c: &Clients,
    prefix: Option<&str>,
    lookback_seconds: u64,
    semaphore: Arc<Semaphore>,
) -> Result<Region, Unread> {
    let mut out = Region::default();
    queues(c, prefix, &semaphore, &mut out).await?;
    consumers(c, prefix, &mut out, &semaphore).await;
    metrics(c, &mut out, lookback_seconds, &semaphore).await;
    alarms(c, &mut out, &semaphore).await;
    // In a fixed order whatever order the reads finished in.
    out.skipped.sort_by(|a, b| (a.api, &a.what).cmp(&(b.api, &b.what)));
    Ok(out)
}

/// The queues in scope with their attributes, in ListQueues' order, and
/// their tags where a payload declaration matters.
async fn queues(c: &Clients, prefix: Option<&str>, pool: &Arc<Semaphore>, out: &mut Region) -> Result<(), Unread> {
    let mut urls = Vec::new();
    let mut pages =
        c.sqs.list_queues().set_queue_name_prefix(prefix.map(str::to_string)).max_results(1000).into_paginator().send();
    while let Some(page) = in_pool(pool, pages.next()).await {
        match page {
            Ok(page) => urls.extend(page.queue_urls().iter().cloned()),
            Err(e) if e.as_service_error().is_some() => return Err(Unread::Refused(service_reason_or(&e))),
            Err(e) => return Err(Unread::Unreachable(fatal(e))),
        }
    }

    let mut tasks = tokio::task::JoinSet::new();
    // Task -> its queue, for a task that ends without an answer.
    let mut urls_of = std::collections::HashMap::new();
    for (i, url) in urls.into_iter().enumerate() {
        let sqs = c.sqs.clone();
        let permit = pool.clone();
        let task_url = url.clone();
        let task = tasks.spawn(async move {
            let _permit = permit.acquire_owned().await;
            let result =
                sqs.get_queue_attributes().queue_url(&url).attribute_names(QueueAttributeName::All).send().await;
            (i, url, result)
        });
        urls_of.insert(task.id(), task_url);
    }
    let mut read = Vec::new();
    while let Some(joined) = tasks.join_next_with_id().await {
        let (i, url, result) = match joined {
            Ok((_, answer)) => answer,
            // Never silently one queue fewer: it is skipped, with why.
            Err(e) => {
                let url = urls_of.remove(&e.id()).unwrap_or_default();
                out.skipped.push(skipped("GetQueueAttributes", url, format!("the read ended without an answer ({e})")));
                continue;
            }
        };
        match result {
            Ok(o) => {
                let attributes: std::collections::BTreeMap<String, String> =
                    o.attributes().into_iter().flatten().map(|(k, v)| (k.as_str().to_string(), v.clone())).collect();
                // All was asked, and every queue has these: an answer
                // without them read nothing, it is not an empty queue.
                let missing: Vec<&str> =
                    EVERY_QUEUE_HAS.iter().copied().filter(|a| !attributes.contains_key(*a)).collect();
                if missing.is_empty() {
                    read.push((i, LiveQueueData { url, attributes, ..Default::default() }));
                } else {
                    let why = format!("answered without the queue's attributes ({} missing)", missing.join(", "));
                    out.skipped.push(skipped("GetQueueAttributes", url, why));
                }
            }
            // Deleted between ListQueues and now: nothing to say.
            Err(e) if e.code().is_some_and(|c| c.contains("NonExistentQueue") || c.contains("QueueDoesNotExist")) => {}
            Err(e) => out.skipped.push(skipped("GetQueueAttributes", url, service_reason_or(&e))),
        }
    }
    read.sort_by_key(|(i, _)| *i);
    out.queues = read.into_iter().map(|(_, q)| q).collect();

    // Tags only where a payload declaration matters (FIFO with
    // content-based deduplication): one call for those queues alone.
    for q in &mut out.queues {
        let wants = q.attributes.get("FifoQueue").is_some_and(|v| v == "true")
            && q.attributes.get("ContentBasedDeduplication").is_some_and(|v| v == "true");
        if !wants {
            continue;
        }
        match in_pool(pool, c.sqs.list_queue_tags().queue_url(&q.url).send()).await {
            Ok(o) => q.tags = o.tags().into_iter().flatten().map(|(k, v)| (k.clone(), v.clone())).collect(),
            Err(e) => out.skipped.push(skipped("ListQueueTags", q.url.clone(), service_reason_or(&e))),
        }
    }
    Ok(())
}

/// The event source mappings on the queues in scope, and the timeout and
/// reserved concurrency of each function they invoke.
async fn consumers(c: &Clients, prefix: Option<&str>, out: &mut Region, pool: &Semaphore) {
    let mut mappings = c.lambda.list_event_source_mappings().into_paginator().items().send();
    while let Some(item) = in_pool(pool, mappings.next()).await {
        match item {
            Ok(m) => {
                let Some(source) = m.event_source_arn().filter(|a| a.contains(":sqs:")) else { continue };
                // A mapping belongs to the queue its source ARN names: with
                // --queue-prefix, one on a queue outside it is not audited
                // (nor its function read), as that queue is not.
                if prefix.is_some_and(|p| !queue_of_arn(source).starts_with(p)) {
                    continue;
                }
                out.mappings.push(super::mapping::read(&m, source));
            }
            Err(e) => {
                out.skipped.push(skipped("ListEventSourceMappings", "ListEventSourceMappings", service_reason_or(&e)));
                break;
            }
        }
    }
    let functions: std::collections::BTreeSet<String> =
        out.mappings.iter().filter_map(|m| m.function_arn.clone()).collect();
    for arn in functions {
        let timeout = match in_pool(pool, c.lambda.get_function_configuration().function_name(&arn).send()).await {
            // Every function has a timeout: an answer without one read nothing.
            Ok(f) if f.timeout().is_none() => {
                let why = "answered without the function's configuration (Timeout missing)".to_string();
                out.skipped.push(skipped("GetFunctionConfiguration", arn.clone(), why));
                None
            }
            Ok(f) => f.timeout(),
            Err(e) => {
                out.skipped.push(skipped("GetFunctionConfiguration", arn.clone(), service_reason_or(&e)));
                None
            }
        };
        match in_pool(pool, c.lambda.get_function_concurrency().function_name(&arn).send()).await {
            Ok(r) => {
                out.reserved_concurrency.insert(arn.clone(), r.reserved_concurrent_executions());
            }
            Err(e) => out.skipped.push(skipped("GetFunctionConcurrency", arn.clone(), service_reason_or(&e))),
        }
        out.timeouts.insert(arn, timeout);
    }
}

/// The CloudWatch alarms of the Region, each with the metrics it watches.
async fn alarms(c: &Clients, out: &mut Region, pool: &Semaphore) {
    let mut pages = c.cloudwatch.describe_alarms().into_paginator().send();
    while let Some(page) = in_pool(pool, pages.next()).await {
        match page {
            Ok(page) => {
                for a in page.metric_alarms() {
                    let mut metrics = Vec::new();
                    let queue_of = |dims: &[Dimension]| {
                        dims.iter().find(|d| d.name() == Some("QueueName")).and_then(|d| d.value().map(str::to_string))
                    };
                    if a.metric_name().is_some() {
                        metrics.push((
                            a.namespace().map(str::to_string),
                            a.metric_name().map(str::to_string),
                            queue_of(a.dimensions()),
                        ));
                    }
                    for q in a.metrics() {
                        if let Some(m) = q.metric_stat().and_then(|s| s.metric()) {
                            metrics.push((
                                m.namespace().map(str::to_string),
                                m.metric_name().map(str::to_string),
                                queue_of(m.dimensions()),
                            ));
                        }
                    }
                    out.alarms.push(LiveAlarm {
                        name: a.alarm_name().unwrap_or_default().to_string(),
                        metrics,
                        comparison: a.comparison_operator().map(|c| c.as_str().to_string()),
                        threshold: a.threshold(),
                    });
                }
            }
            Err(e) => {
                out.skipped.push(skipped("DescribeAlarms", "DescribeAlarms", service_reason_or(&e)));
                break;
            }
        }
    }
}

/// The queue name an SQS ARN ends with (`arn:aws:sqs:REGION:ACCOUNT:NAME`).
fn queue_of_arn(arn: &str) -> &str {
    arn.rsplit(':').next().unwrap_or(arn)
}

/// Three statistics per queue over the lookback, 500 queries a call.
async fn metrics(c: &Clients, out: &mut Region, lookback_seconds: u64, pool: &Semaphore) {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    // Whole minutes, so the single period covers the window exactly.
    let period = lookback_seconds.max(60) / 60 * 60;
    // End a minute ahead: a datapoint from this very second must count.
    let (start, end) = (DateTime::from_secs((now + 60 - period) as i64), DateTime::from_secs((now + 60) as i64));
    let mut queries = Vec::new();
    for (i, q) in out.queues.iter().enumerate() {
        let name = q.url.rsplit('/').next().unwrap_or_default().to_string();
        for (suffix, metric, stat) in [
            ("e", "NumberOfEmptyReceives", "Sum"),
            ("r", "NumberOfMessagesReceived", "Sum"),
            ("a", "ApproximateAgeOfOldestMessage", "Maximum"),
        ] {
            let dim = Dimension::builder().name("QueueName").value(&name).build();
            let m = Metric::builder().namespace("AWS/SQS").metric_name(metric).dimensions(dim).build();
            let stat = MetricStat::builder().metric(m).period(period as i32).stat(stat).build();
            queries.push(
                MetricDataQuery::builder().id(format!("q{i}{suffix}")).metric_stat(stat).return_data(true).build(),
            );
        }
    }
    for chunk in queries.chunks(500) {
        let mut token = None;
        loop {
            let request = c
                .cloudwatch
                .get_metric_data()
                .set_metric_data_queries(Some(chunk.to_vec()))
                .start_time(start)
                .end_time(end)
                .set_next_token(token.clone())
                .send();
            let result = in_pool(pool, request).await;
            let page = match result {
                Ok(page) => page,
                Err(e) => {
                    out.skipped.push(skipped("GetMetricData", "GetMetricData", service_reason_or(&e)));
                    return;
                }
            };
            for r in page.metric_data_results() {
                // `q{index}{kind}`, as the queries were named above.
                let Some(rest) = r.id().and_then(|id| id.strip_prefix('q')).filter(|r| r.len() >= 2) else { continue };
                let (index, kind) = rest.split_at(rest.len() - 1);
                let Some(q) = index.parse::<usize>().ok().and_then(|i| out.queues.get_mut(i)) else { continue };
                // A query CloudWatch could not answer leaves its value
                // unknown, and says so.
                if let Some(status @ (StatusCode::Forbidden | StatusCode::InternalError)) = r.status_code() {
                    let why = r.messages().iter().filter_map(|m| m.value()).collect::<Vec<_>>().join("; ");
                    let reason = format!(
                        "{}{}",
                        status.as_str(),
                        if why.is_empty() { String::new() } else { format!(": {why}") }
                    );
                    if !out.skipped.iter().any(|s| s.api == "GetMetricData" && s.what == q.url) {
                        out.skipped.push(skipped("GetMetricData", q.url.clone(), reason));
                    }
                    continue;
                }
                let values = r.values();
                match kind {
                    "e" => q.metrics.0 = Some(values.iter().sum()),
                    "r" => q.metrics.1 = Some(values.iter().sum()),
                    _ => q.metrics.2 = values.iter().copied().reduce(f64::max),
                }
            }
            token = page.next_token().map(str::to_string);
            if token.is_none() {
                break;
            }
        }
    }
    // CloudWatch answers every query asked, with no values when there were
    // none: a queue whose sums are not in the answer was not read.
    // (The queues already said, looked up once: thousands of queues of a
    // throttled account must not be compared with every skip.)
    let said: std::collections::HashSet<&str> =
        out.skipped.iter().filter(|s| s.api == "GetMetricData").map(|s| s.what.as_str()).collect();
    let unanswered: Vec<Skipped> = out
        .queues
        .iter()
        .filter(|q| !said.contains(q.url.as_str()) && (q.metrics.0.is_none() || q.metrics.1.is_none()))
        .map(|q| skipped("GetMetricData", q.url.clone(), "answered without the queue's metrics".to_string()))
        .collect();
    out.skipped.extend(unanswered);
}

/// `request`, sent while holding a place in the audit's pool (one
/// `--concurrency` for every request of every pair). Held only while it
/// is in flight, never while waiting on other tasks: with one place the
/// queue reads still take turns.
pub(super) async fn in_pool<T>(pool: &Semaphore, request: impl std::future::Future<Output = T>) -> T {
    let _place = pool.acquire().await;
    request.await
}

fn service_reason<E: ProvideErrorMetadata>(e: &E) -> String {
    match (e.code(), e.message()) {
        (Some(code), Some(message)) => format!("{code}: {message}"),
        (Some(code), None) => code.to_string(),
        _ => "the service refused the call".to_string(),
    }
}

/// A refusal in AWS's words (`AccessDenied: ...`), or its HTTP status when
/// the body could not be read; a failure to reach AWS as [`fatal`] words it.
pub(crate) fn service_reason_or<E>(e: &aws_sdk_sqs::error::SdkError<E, HttpResponse>) -> String
where
    E: ProvideErrorMetadata + std::error::Error + 'static,
{
    if e.as_service_error().is_none() {
        return fatal_ref(e);
    }
    match (e.code(), e.raw_response()) {
        // An error body the SDK could not read still has its HTTP status.
        (None, Some(raw)) => format!("HTTP {} ({})", raw.status().as_u16(), status_words(raw.status().as_u16())),
        _ => service_reason(e),
    }
}

fn status_words(status: u16) -> &'static str {
    match status {
        401 | 403 => "AccessDenied",
        404 => "not found",
        429 => "throttled",
        500..=599 => "server error",
        _ => "refused",
    }
}

fn fatal_ref(e: &(dyn std::error::Error + 'static)) -> String {
    chain(e)
}
