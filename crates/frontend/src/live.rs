//! The live front-end: what `sqsguard audit` read from one account and
//! Region, as the shared model, so SQS001-SQS022 fire wherever the data
//! exists and SQS101-SQS104 read the live counters. Queue URLs are the
//! resources, mapping UUIDs for consumers, and subscription or rule ARNs
//! for the producers (SNS subscriptions and EventBridge targets on a queue
//! read). SQS018 has nothing to see here: AWS refused any URL where an ARN
//! belongs when it was created.
//!
//! The data structures here are plain: the audit fills them through the
//! AWS SDK, and tests can fill them by hand.

use std::collections::{BTreeMap, HashMap};

use super::link::Linker;
use super::live_fields::{Attributes, redrive};
use super::live_key;
pub use super::live_key::LiveKey;
use super::loaded::Loaded;
use super::value::{R, RV, Text};
use sqsguard_model::build::Links;
use sqsguard_model::policy::SourceId;
use sqsguard_model::{
    Alarm, AlarmMetric, Attr, Consumer, Dialect, Facts, Field, Function, LiveQueue, Model, Name, Origin, PayloadDecl,
    Producer, Queue, QueuePolicy, Scalar, Service, Target, Value, payload,
};
use sqsguard_source::SourceFile;

/// Everything read in one Region.
#[derive(Debug, Default)]
pub struct Region {
    pub queues: Vec<LiveQueueData>,
    pub mappings: Vec<Mapping>,
    /// Function ARN -> timeout in seconds (`None`: not readable).
    pub timeouts: HashMap<String, Option<i32>>,
    /// Function ARN -> its reserved concurrency (`None`: no reservation);
    /// a function without an entry could not be read.
    pub reserved_concurrency: HashMap<String, Option<i32>>,
    /// SNS subscriptions whose endpoint is a queue read.
    pub subscriptions: Vec<LiveSubscription>,
    /// EventBridge targets that deliver to a queue read.
    pub targets: Vec<LiveTarget>,
    pub alarms: Vec<LiveAlarm>,
    /// `KmsMasterKeyId` -> the key it names, for the queues a producer feeds.
    pub keys: BTreeMap<String, LiveKey>,
    /// Queues or APIs that could not be read.
    pub skipped: Vec<Skipped>,
}

/// Something one operation could not read.
#[derive(Debug, Clone)]
pub struct Skipped {
    /// The operation: `ListEventSourceMappings`, `GetQueueAttributes`, ...
    pub api: &'static str,
    /// What it was reading: the operation, a queue URL, a function ARN.
    pub what: String,
    /// Why, in AWS's words.
    pub why: String,
}

#[derive(Debug, Default)]
pub struct LiveQueueData {
    pub url: String,
    pub attributes: BTreeMap<String, String>,
    pub tags: BTreeMap<String, String>,
    /// (NumberOfEmptyReceives sum, NumberOfMessagesReceived sum, ApproximateAgeOfOldestMessage max).
    pub metrics: (Option<f64>, Option<f64>, Option<f64>),
}

/// An SNS subscription of protocol `sqs` (ListSubscriptions).
#[derive(Debug)]
pub struct LiveSubscription {
    /// `PendingConfirmation` until a cross-account queue's owner confirms.
    pub arn: String,
    pub topic_arn: String,
    /// The queue's ARN.
    pub endpoint: String,
}

/// An EventBridge rule's target (ListTargetsByRule).
#[derive(Debug)]
pub struct LiveTarget {
    pub rule_arn: String,
    pub id: String,
    /// The queue's ARN.
    pub arn: String,
    /// `SqsParameters.MessageGroupId`.
    pub message_group_id: Option<String>,
    /// `DeadLetterConfig.Arn`.
    pub dead_letter_arn: Option<String>,
    pub role_arn: Option<String>,
    /// `RetryPolicy`: MaximumRetryAttempts, MaximumEventAgeInSeconds.
    pub retry: (Option<i64>, Option<i64>),
}

#[derive(Debug)]
pub struct Mapping {
    pub uuid: String,
    pub source_arn: String,
    pub function_arn: Option<String>,
    /// Its settings the API answered, by field (`BatchSize`,
    /// `ScalingConfig.MaximumConcurrency` as `MaximumConcurrency`): a
    /// setting absent here is absent on the mapping.
    pub settings: BTreeMap<Field, Scalar>,
    /// From `State`: `Ok` when it says (Enabled or Enabling: true;
    /// Disabled or Disabling: false), else the state, which says neither
    /// (Creating, Updating, Deleting).
    pub enabled: Result<bool, String>,
}

#[derive(Debug)]
pub struct LiveAlarm {
    pub name: String,
    /// (namespace, metric name, QueueName dimension) of each metric.
    pub metrics: Vec<(Option<String>, Option<String>, Option<String>)>,
    pub comparison: Option<String>,
    pub threshold: Option<f64>,
}

const API: Dialect = Dialect::Api;

/// The model of one Region's reading.
pub fn load(read: &Region, region: &str, lookback_seconds: u64) -> Loaded {
    let mut model = Model { dialect: API, ..Model::default() };
    // What the API returns are ARNs: AWS refuses a URL where one belongs.
    let mut linker = Linker::new(API.name(Field::QueueName), &[]);
    for q in &read.queues {
        linker.add_queue(&q.url, Some(&Text::lit(queue_name(&q.url))));
    }
    let live = |id: &str, account: Option<String>| Origin::live(id, account, Some(region.to_string()));
    let arn = |text: &str| R::new(RV::Str(Text::lit(text)), Default::default());
    for q in &read.queues {
        let origin = live(&q.url, account_of(&q.url));
        let mut queue =
            Queue::read(q.url.clone(), origin.clone(), &Attributes { attributes: &q.attributes, origin: &origin });
        queue.name = Attr::known(Name { text: queue_name(&q.url), suffix_known: true }, origin.clone());
        let text = |k: &str| q.attributes.get(k).map(String::as_str);
        queue.redrive = redrive(text(API.name(Field::RedrivePolicy)), &q.url, &linker, &origin);
        // A customer managed key whose policy was read is one SQS020 judges.
        queue.key = match text("KmsMasterKeyId").filter(|k| !k.is_empty()) {
            Some(k) => Attr::known(live_key::key_ref(&read.keys, k), origin.clone()),
            None => Attr::absent(origin.clone()),
        };
        if let Some(tag) = q.tags.get(payload::TAG) {
            queue.payload = Some(Box::new(PayloadDecl {
                payload: payload::from_tag(Some(tag)),
                origin: origin.clone(),
                source: "tag sqsguard:payload",
            }));
        }
        let count = |k: &str| text(k).and_then(|v| v.parse::<u64>().ok());
        queue.live = Some(Box::new(LiveQueue {
            visible: count("ApproximateNumberOfMessages"),
            in_flight: count("ApproximateNumberOfMessagesNotVisible"),
            empty_receives: q.metrics.0,
            received: q.metrics.1,
            oldest_age_max: q.metrics.2,
            lookback_seconds,
        }));
        let this = model.queues.len();
        model.policies.extend(policy(q, text("Policy"), this, &origin));
        model.queues.push(queue);
    }
    let mut functions: Vec<(&String, Option<i32>)> = read.timeouts.iter().map(|(k, v)| (k, *v)).collect();
    functions.sort();
    let function_index: HashMap<&str, usize> =
        functions.iter().enumerate().map(|(i, (f, _))| (f.as_str(), i)).collect();
    // The account of everything read here: the queues' (a URL names it).
    let account = read.queues.iter().find_map(|q| account_of(&q.url));
    for (arn, timeout) in &functions {
        let origin = live(arn, arn_account(arn).or_else(|| account.clone()));
        let timeout = match timeout {
            Some(t) => Attr::known(i64::from(*t), origin.clone()),
            None => Attr::single(Value::Unknown("function configuration not readable".into()), origin.clone()),
        };
        let reserved_concurrency = match read.reserved_concurrency.get(*arn) {
            Some(Some(r)) => Attr::known(i64::from(*r), origin.clone()),
            Some(None) => Attr::absent(origin.clone()),
            None => Attr::single(Value::Unknown("reserved concurrency not readable".into()), origin.clone()),
        };
        let facts = Facts::new(origin.clone())
            .with(Field::Timeout, timeout)
            .with(Field::ReservedConcurrency, reserved_concurrency);
        model.functions.push(Function::read((*arn).clone(), origin, &facts));
    }
    for m in &read.mappings {
        let origin = live(&m.uuid, arn_account(&m.source_arn).or_else(|| account.clone()));
        let function = match m.function_arn.as_deref().and_then(|a| function_index.get(a)) {
            Some(&i) => Value::Known(Target::Function(i)),
            None => Value::Unknown("function not read".into()),
        };
        let links = Links {
            queue: Attr::single(linker.queue_target(&arn(&m.source_arn)), origin.clone()),
            queue_via: Attr::single(linker.queue_via(&arn(&m.source_arn)), origin.clone()),
            function: Attr::single(function, origin.clone()),
        };
        let consumer = Consumer::read(m.uuid.clone(), origin.clone(), links, &mapping_facts(m, &origin));
        model.consumers.push(consumer);
    }
    producers(read, region, account.as_deref(), &mut model);
    let key_origin = |arn: &str| live(arn, arn_account(arn).or_else(|| account.clone()));
    live_key::load(&read.keys, &key_origin, &mut model);
    for a in &read.alarms {
        model.alarms.push(alarm(a, live(&a.name, account.clone()), &linker));
    }
    Loaded { model, ..Loaded::default() }
}

/// The queue's policy (its `Policy` attribute), when it is JSON; its
/// statements located at the queue, as the API gives no place in it.
fn policy(q: &LiveQueueData, policy: Option<&str>, this: usize, origin: &Origin) -> Option<QueuePolicy> {
    let policy = serde_json::from_str::<serde_json::Value>(policy?).ok()?;
    let arn = |text: &str| R::new(RV::Str(Text::lit(text)), Default::default());
    let file = SourceFile::new(q.url.clone(), String::new());
    let doc = super::convert::json_string(&arn(&policy.to_string()));
    let queue_arn = q.attributes.get("QueueArn").cloned();
    let link = |r: &super::value::R| match (r.literal(), &queue_arn) {
        (Some(text), Some(arn)) if &text == arn => Value::Known(Target::Queue(this)),
        (Some(text), _) => Value::Known(Target::External(text)),
        (None, _) => Value::Unknown("not a literal ARN".into()),
    };
    let (statements, unreadable) = match doc {
        Some(d) => super::policy::statements(&file, &d, &link),
        None => (Vec::new(), Some("the Policy attribute is not JSON".into())),
    };
    let statements = statements.into_iter().map(|mut s| {
        s.origin = origin.clone();
        s
    });
    Some(QueuePolicy {
        resource: q.url.clone(),
        origin: origin.clone(),
        queues: vec![Value::Known(Target::Queue(this))],
        statements: statements.collect(),
        unreadable,
    })
}

/// An alarm (DescribeAlarms) with the metrics it watches, each linked to
/// the queue its QueueName dimension names.
fn alarm(a: &LiveAlarm, origin: Origin, linker: &Linker) -> Alarm {
    let arn = |text: &str| R::new(RV::Str(Text::lit(text)), Default::default());
    let facts = || Facts::new(origin.clone());
    let metrics = a
        .metrics
        .iter()
        .map(|(namespace, name, queue)| {
            let metric = facts().maybe(Field::Namespace, namespace.clone(), origin.clone()).maybe(
                Field::MetricName,
                name.clone(),
                origin.clone(),
            );
            let queue = match queue {
                Some(q) => linker.queue_name_target(&arn(q)),
                None => Value::Absent,
            };
            AlarmMetric::read(|field| metric.value(field), queue)
        })
        .collect();
    let settings = facts().maybe(Field::ComparisonOperator, a.comparison.clone(), origin.clone()).maybe(
        Field::Threshold,
        a.threshold,
        origin.clone(),
    );
    Alarm::read(a.name.clone(), origin, metrics, &settings)
}

/// A mapping's settings (ListEventSourceMappings), as facts located at it.
fn mapping_facts(m: &Mapping, origin: &Origin) -> Facts {
    let enabled = match &m.enabled {
        Ok(on) => Attr::known(*on, origin.clone()),
        Err(state) => Attr::single(Value::Unknown(format!("the mapping is {state}")), origin.clone()),
    };
    let facts = m.settings.iter().fold(Facts::new(origin.clone()), |facts, (field, value)| {
        let at = origin.clone();
        match value.clone() {
            Scalar::Int(n) => facts.known(*field, n, at),
            Scalar::Bool(b) => facts.known(*field, b, at),
            Scalar::Str(s) => facts.known(*field, s, at),
            Scalar::List(l) => facts.known(*field, l, at),
        }
    });
    // The API lists no FunctionResponseTypes when there are none.
    let types = Field::FunctionResponseTypes;
    let facts = match m.settings.contains_key(&types) {
        true => facts,
        false => facts.known(types, Vec::<String>::new(), origin.clone()),
    };
    facts.with(Field::MappingEnabled, enabled)
}

/// The SNS subscriptions and EventBridge targets on the queues read, each
/// linked by ARN to its queue (and an EventBridge dead-letter queue to a
/// queue read, else named as text).
fn producers(read: &Region, region: &str, account: Option<&str>, model: &mut Model) {
    let by_arn: HashMap<&str, usize> = read
        .queues
        .iter()
        .enumerate()
        .filter_map(|(i, q)| q.attributes.get("QueueArn").map(|a| (a.as_str(), i)))
        .collect();
    let origin_of = |id: &str| Origin::live(id, arn_account(id).or(account.map(str::to_string)), Some(region.into()));
    for s in &read.subscriptions {
        let Some(&queue) = by_arn.get(s.endpoint.as_str()) else { continue };
        // Until it is confirmed a subscription has no ARN of its own.
        let resource = if s.arn.starts_with("arn:") { s.arn.clone() } else { format!("{} ({})", s.topic_arn, s.arn) };
        let origin = origin_of(&resource);
        let mut p =
            Producer::new(resource, origin.clone(), Service::Sns, Attr::known(Target::Queue(queue), origin.clone()));
        p.source = Value::Known(SourceId::Text(s.topic_arn.clone()));
        // A FIFO topic's name ends in `.fifo`, and a standard topic's cannot
        // hold a dot.
        p.fifo_source = Attr::known(s.topic_arn.ends_with(".fifo"), origin.clone());
        p.raw_message_delivery = Attr::single(Value::Unknown("GetSubscriptionAttributes is not read".into()), origin);
        model.producers.push(p);
    }
    for t in &read.targets {
        let Some(&queue) = by_arn.get(t.arn.as_str()) else { continue };
        let origin = origin_of(&t.rule_arn);
        let queue = Attr::known(Target::Queue(queue), origin.clone());
        let mut p = Producer::new(t.rule_arn.clone(), origin.clone(), Service::EventBridge, queue);
        p.label = Some(t.id.clone());
        p.source = Value::Known(SourceId::Text(t.rule_arn.clone()));
        if let Some(group) = &t.message_group_id {
            p.message_group_id = Attr::known(group.clone(), origin.clone());
        }
        if let Some(dlq) = &t.dead_letter_arn {
            let target = match by_arn.get(dlq.as_str()) {
                Some(&i) => Target::Queue(i),
                None => Target::External(dlq.clone()),
            };
            p.dead_letter = Attr::known(target, origin);
        }
        p.role = t.role_arn.is_some();
        let known = |v: Option<i64>| {
            v.map_or_else(|| Attr::absent(origin_of(&t.rule_arn)), |v| Attr::known(v, origin_of(&t.rule_arn)))
        };
        (p.maximum_retry_attempts, p.maximum_event_age) = (known(t.retry.0), known(t.retry.1));
        model.producers.push(p);
    }
}

/// The account ID in a queue URL (`https://sqs.r.amazonaws.com/ACCOUNT/name`).
/// The account of a queue URL (`https://sqs.../111111111111/orders`).
pub fn account_of(url: &str) -> Option<String> {
    url.rsplit('/').nth(1).filter(|a| a.len() == 12 && a.chars().all(|c| c.is_ascii_digit())).map(str::to_string)
}

/// The account of an ARN (`arn:aws:sqs:eu-west-1:111111111111:orders`).
fn arn_account(arn: &str) -> Option<String> {
    arn.split(':').nth(4).filter(|a| a.len() == 12 && a.chars().all(|c| c.is_ascii_digit())).map(str::to_string)
}

fn queue_name(url: &str) -> String {
    url.rsplit('/').next().unwrap_or(url).to_string()
}
