//! `sqsguard audit`: the same rules on live queues, read-only, through the
//! AWS SDK for Rust (feature `audit`).
//!
//! `collect` makes the calls (and no more than needed), `calls` counts and
//! records them, and this module turns what was read into the shared
//! [`Model`] — queue URLs as resources, mapping UUIDs for consumers — so
//! SQS001-SQS017 fire wherever the data exists, with SQS101-SQS104 on the
//! live counters.

pub mod calls;
pub mod collect;

use std::sync::Arc;
use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};

use crate::extract::link::Linker;
use crate::extract::value::{R, RV, Text};
use crate::finding::Note;
use crate::lint::Outcome;
use crate::model::{
    Alarm, AlarmMetric, Attr, Consumer, ConsumerKind, Function, LiveQueue, Model, Origin, Payload, PayloadDecl, Queue,
    QueuePolicy, Redrive, Target, Value,
};

pub struct Options {
    /// Regions to audit; empty: the one the credential chain gives.
    pub regions: Vec<String>,
    pub profile: Option<String>,
    pub endpoint_url: Option<String>,
    pub queue_prefix: Option<String>,
    pub lookback_seconds: u64,
    pub concurrency: usize,
    pub connect_timeout: Duration,
    /// `.sqsguard.yaml`: rule options, severities, payload declarations.
    pub settings: crate::config::Config,
}

/// What an audit found, and the operations it sent.
pub struct Audit {
    pub outcome: Outcome,
    pub calls: Arc<calls::CallLog>,
}

/// Run the audit. `Err` is one line for the user: AWS cannot be reached,
/// or there are no credentials or no Region.
pub fn run(opts: &Options) -> Result<Audit, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(audit(opts))
}

async fn audit(opts: &Options) -> Result<Audit, String> {
    let log = Arc::new(calls::CallLog::default());
    let mut outcome = Outcome::default();
    let mut regions = opts.regions.clone();
    if regions.is_empty() {
        let base = loader(opts, None).load().await;
        match base.region() {
            Some(r) => regions.push(r.to_string()),
            None => return Err("no AWS Region: pass --region or set AWS_REGION".into()),
        }
    }
    for region in &regions {
        let config = loader(opts, Some(region)).load().await;
        let counter = calls::Counter(log.clone());
        let clients = collect::Clients {
            sqs: aws_sdk_sqs::Client::from_conf(
                aws_sdk_sqs::config::Builder::from(&config).interceptor(counter.clone()).build(),
            ),
            lambda: aws_sdk_lambda::Client::from_conf(
                aws_sdk_lambda::config::Builder::from(&config).interceptor(counter.clone()).build(),
            ),
            cloudwatch: aws_sdk_cloudwatch::Client::from_conf(
                aws_sdk_cloudwatch::config::Builder::from(&config).interceptor(counter).build(),
            ),
        };
        let read =
            collect::region(&clients, opts.queue_prefix.as_deref(), opts.lookback_seconds, opts.concurrency).await?;
        outcome.files += read.queues.len();
        outcome.skipped += read.skipped.len();
        for (what, why) in &read.skipped {
            outcome.notes.push(Note {
                origin: Origin::Live { id: what.clone(), account: None, region: Some(region.clone()) },
                message: format!("skipped {what}: {why}"),
            });
        }
        let model = model(&read, region, opts.lookback_seconds);
        let checked = crate::check::model(model, &opts.settings, &[]);
        outcome.findings.extend(checked.findings);
        outcome.notes.extend(checked.notes);
        outcome.notes.extend(crate::suppress::stale(&checked.used, checked.unused));
        outcome.suppressed += checked.suppressed;
    }
    crate::lint::finish(&mut outcome, &opts.settings);
    outcome.api_calls = Some(log.count());
    Ok(Audit { outcome, calls: log })
}

fn loader(opts: &Options, region: Option<&str>) -> aws_config::ConfigLoader {
    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .retry_config(RetryConfig::adaptive().with_max_attempts(4))
        .timeout_config(
            TimeoutConfig::builder()
                .connect_timeout(opts.connect_timeout)
                .operation_attempt_timeout(Duration::from_secs(20))
                .operation_timeout(Duration::from_secs(60))
                .build(),
        );
    if let Some(r) = region {
        loader = loader.region(Region::new(r.to_string()));
    }
    if let Some(p) = &opts.profile {
        loader = loader.profile_name(p);
    }
    if let Some(url) = &opts.endpoint_url {
        loader = loader.endpoint_url(url);
    }
    loader
}

/// What was read, as the shared model.
pub fn model(read: &collect::Region, region: &str, lookback_seconds: u64) -> Model {
    let mut model = Model::default();
    let mut linker = Linker::new("QueueName");
    for q in &read.queues {
        linker.add_queue(&q.url, Some(&Text::lit(queue_name(&q.url))));
    }
    let account =
        |url: &str| url.rsplit('/').nth(1).filter(|a| a.chars().all(|c| c.is_ascii_digit())).map(str::to_string);
    for q in &read.queues {
        let origin = Origin::Live { id: q.url.clone(), account: account(&q.url), region: Some(region.to_string()) };
        let mut queue = Queue::new(q.url.clone(), origin.clone());
        let text = |k: &str| q.attributes.get(k).map(String::as_str);
        let attr_int = |k: &str| match text(k).map(str::parse::<i64>) {
            Some(Ok(v)) => Attr::known(v, origin.clone()),
            Some(Err(_)) => Attr::single(Value::Unknown(format!("{k} is not a number")), origin.clone()),
            None => Attr::absent(origin.clone()),
        };
        let attr_bool = |k: &str| match text(k) {
            Some(v) => Attr::known(v == "true", origin.clone()),
            None => Attr::absent(origin.clone()),
        };
        let attr_str = |k: &str| match text(k).filter(|v| !v.is_empty()) {
            Some(v) => Attr::known(v.to_string(), origin.clone()),
            None => Attr::absent(origin.clone()),
        };
        queue.name = Attr::known(crate::model::Name { text: queue_name(&q.url), suffix_known: true }, origin.clone());
        queue.fifo = attr_bool("FifoQueue");
        queue.content_based_dedup = attr_bool("ContentBasedDeduplication");
        queue.visibility_timeout = attr_int("VisibilityTimeout");
        queue.receive_wait_time = attr_int("ReceiveMessageWaitTimeSeconds");
        queue.retention_period = attr_int("MessageRetentionPeriod");
        queue.delay_seconds = attr_int("DelaySeconds");
        queue.sse_enabled = attr_bool("SqsManagedSseEnabled");
        queue.kms_key = attr_str("KmsMasterKeyId");
        queue.fifo_throughput_limit = attr_str("FifoThroughputLimit");
        queue.deduplication_scope = attr_str("DeduplicationScope");
        if let Some(policy) = text("RedrivePolicy").and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok()) {
            let target = match policy.get("deadLetterTargetArn").and_then(|t| t.as_str()) {
                Some(arn) => linker.queue_target(&R::new(RV::Str(Text::lit(arn)), Default::default())),
                None => Value::Absent,
            };
            let count =
                match policy.get("maxReceiveCount").and_then(|c| c.as_i64().or_else(|| c.as_str()?.parse().ok())) {
                    Some(n) => Value::Known(n),
                    None => Value::Unknown("maxReceiveCount not readable".into()),
                };
            queue.redrive = Attr::known(
                Redrive {
                    target: Attr::single(target, origin.clone()),
                    max_receive_count: Attr::single(count, origin.clone()),
                },
                origin.clone(),
            );
        }
        if let Some(tag) = q.tags.get("sqsguard:payload") {
            let payload = match tag.as_str() {
                "deterministic" => Value::Known(Payload::Deterministic),
                "non-deterministic" => Value::Known(Payload::NonDeterministic(vec!["tagged non-deterministic".into()])),
                _ => Value::Unknown("tag sqsguard:payload is neither deterministic nor non-deterministic".into()),
            };
            queue.payload = Some(PayloadDecl { payload, origin: origin.clone(), source: "tag sqsguard:payload" });
        }
        let count = |k: &str| text(k).and_then(|v| v.parse::<u64>().ok());
        queue.live = Some(LiveQueue {
            visible: count("ApproximateNumberOfMessages"),
            in_flight: count("ApproximateNumberOfMessagesNotVisible"),
            delayed: count("ApproximateNumberOfMessagesDelayed"),
            empty_receives: q.metrics.0,
            received: q.metrics.1,
            oldest_age_max: q.metrics.2,
            lookback_seconds,
        });
        if let Some(policy) = text("Policy").and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok()) {
            let file = crate::source::SourceFile::new(q.url.clone(), String::new());
            let doc = crate::extract::convert::json_string(&R::new(
                RV::Str(Text::lit(policy.to_string())),
                Default::default(),
            ));
            let statements = doc.map(|d| crate::extract::policy::statements(&file, &d)).unwrap_or_default();
            let statements = statements.into_iter().map(|mut s| {
                s.origin = origin.clone();
                s
            });
            model.policies.push(QueuePolicy {
                resource: q.url.clone(),
                origin: origin.clone(),
                queues: vec![Value::Known(Target::Queue(model.queues.len()))],
                statements: statements.collect(),
            });
        }
        model.queues.push(queue);
    }
    let mut functions: Vec<(&String, Option<i32>)> = read.timeouts.iter().map(|(k, v)| (k, *v)).collect();
    functions.sort();
    for (arn, timeout) in &functions {
        let origin = Origin::Live { id: (*arn).clone(), account: None, region: Some(region.to_string()) };
        model.functions.push(Function {
            resource: (*arn).clone(),
            origin: origin.clone(),
            name: Attr::known((*arn).clone(), origin.clone()),
            timeout: match timeout {
                Some(t) => Attr::known(i64::from(*t), origin),
                None => Attr::single(Value::Unknown("function configuration not readable".into()), origin),
            },
        });
    }
    for m in &read.mappings {
        let origin = Origin::Live { id: m.uuid.clone(), account: None, region: Some(region.to_string()) };
        let function = match m.function_arn.as_ref().and_then(|a| functions.iter().position(|(f, _)| *f == a)) {
            Some(i) => Value::Known(Target::Function(i)),
            None => Value::Unknown("function not read".into()),
        };
        let int = |v: Option<i32>| match v {
            Some(v) => Attr::known(i64::from(v), origin.clone()),
            None => Attr::absent(origin.clone()),
        };
        model.consumers.push(Consumer {
            resource: m.uuid.clone(),
            origin: origin.clone(),
            kind: ConsumerKind::EventSourceMapping,
            queue: Attr::single(
                linker.queue_target(&R::new(RV::Str(Text::lit(&m.source_arn)), Default::default())),
                origin.clone(),
            ),
            function: Attr::single(function, origin.clone()),
            batch_size: int(m.batch_size),
            batching_window: int(m.batching_window),
            response_types: Attr::known(m.response_types.clone(), origin.clone()),
            enabled: Attr::known(m.enabled, origin.clone()),
        });
    }
    for a in &read.alarms {
        let origin = Origin::Live { id: a.name.clone(), account: None, region: Some(region.to_string()) };
        let known = |v: &Option<String>| match v {
            Some(s) => Value::Known(s.clone()),
            None => Value::Absent,
        };
        model.alarms.push(Alarm {
            resource: a.name.clone(),
            origin: origin.clone(),
            metrics: a
                .metrics
                .iter()
                .map(|(ns, name, queue)| AlarmMetric {
                    namespace: known(ns),
                    metric_name: known(name),
                    queue: match queue {
                        Some(q) => linker.queue_name_target(&R::new(RV::Str(Text::lit(q)), Default::default())),
                        None => Value::Absent,
                    },
                })
                .collect(),
            comparison: match &a.comparison {
                Some(c) => Attr::known(c.clone(), origin.clone()),
                None => Attr::absent(origin.clone()),
            },
            threshold: match a.threshold {
                Some(t) => Attr::known(t, origin.clone()),
                None => Attr::absent(origin),
            },
        });
    }
    model
}

fn queue_name(url: &str) -> String {
    url.rsplit('/').next().unwrap_or(url).to_string()
}
