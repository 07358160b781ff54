//! The live front-end: what `sqsguard audit` read from one account and
//! Region, as the shared model, so SQS001-SQS017 fire wherever the data
//! exists and SQS101-SQS104 read the live counters. Queue URLs are the
//! resources, and mapping UUIDs for consumers. SQS018 has nothing to see
//! here: AWS refused any URL where an ARN belongs when it was created.
//!
//! The data structures here are plain: the audit fills them through the
//! AWS SDK, and tests can fill them by hand.

use std::collections::{BTreeMap, HashMap};

use super::Loaded;
use super::link::Linker;
use super::value::{R, RV, Text};
use crate::model::{
    Alarm, AlarmMetric, Attr, Consumer, Dialect, Field, Function, LiveQueue, Model, Name, Origin, PayloadDecl, Queue,
    QueuePolicy, ReadFields, Redrive, Target, Value, payload,
};
use crate::source::SourceFile;

/// Everything read in one Region.
#[derive(Debug, Default)]
pub struct Region {
    pub queues: Vec<LiveQueueData>,
    pub mappings: Vec<Mapping>,
    /// Function ARN -> timeout in seconds (`None`: not readable).
    pub timeouts: HashMap<String, Option<i32>>,
    pub alarms: Vec<LiveAlarm>,
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

#[derive(Debug)]
pub struct Mapping {
    pub uuid: String,
    pub source_arn: String,
    pub function_arn: Option<String>,
    pub batch_size: Option<i32>,
    pub batching_window: Option<i32>,
    pub response_types: Vec<String>,
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
        let mut queue = Queue::read(q.url.clone(), origin.clone(), &Attributes { data: q, origin: &origin });
        queue.name = Attr::known(Name { text: queue_name(&q.url), suffix_known: true }, origin.clone());
        let text = |k: &str| q.attributes.get(k).map(String::as_str);
        if let Some(policy) =
            text(API.name(Field::RedrivePolicy)).and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok())
        {
            let (target, target_via) = match policy.get(API.name(Field::DeadLetterTarget)).and_then(|t| t.as_str()) {
                Some(target) => (linker.queue_target(&arn(target)), linker.queue_via(&arn(target))),
                None => (Value::Absent, Value::Absent),
            };
            let count = policy.get(API.name(Field::MaxReceiveCount));
            let count = match count.and_then(|c| c.as_i64().or_else(|| c.as_str()?.parse().ok())) {
                Some(n) => Value::Known(n),
                None => Value::Unknown("maxReceiveCount not readable".into()),
            };
            queue.redrive = Attr::known(
                Redrive {
                    target: Attr::single(target, origin.clone()),
                    target_via: Attr::single(target_via, origin.clone()),
                    max_receive_count: Attr::single(count, origin.clone()),
                },
                origin.clone(),
            );
        }
        if let Some(tag) = q.tags.get(payload::TAG) {
            queue.payload = Some(PayloadDecl {
                payload: payload::from_tag(Some(tag)),
                origin: origin.clone(),
                source: "tag sqsguard:payload",
            });
        }
        let count = |k: &str| text(k).and_then(|v| v.parse::<u64>().ok());
        queue.live = Some(LiveQueue {
            visible: count("ApproximateNumberOfMessages"),
            in_flight: count("ApproximateNumberOfMessagesNotVisible"),
            empty_receives: q.metrics.0,
            received: q.metrics.1,
            oldest_age_max: q.metrics.2,
            lookback_seconds,
        });
        if let Some(policy) = text("Policy").and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok()) {
            let file = SourceFile::new(q.url.clone(), String::new());
            let doc = super::convert::json_string(&arn(&policy.to_string()));
            let this = model.queues.len();
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
            model.policies.push(QueuePolicy {
                resource: q.url.clone(),
                origin: origin.clone(),
                queues: vec![Value::Known(Target::Queue(this))],
                statements: statements.collect(),
                unreadable,
            });
        }
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
        model.functions.push(Function {
            resource: (*arn).clone(),
            origin: origin.clone(),
            timeout: match timeout {
                Some(t) => Attr::known(i64::from(*t), origin.clone()),
                None => Attr::single(Value::Unknown("function configuration not readable".into()), origin.clone()),
            },
            // GetFunctionConcurrency is not read: unknown, never a finding.
            reserved_concurrency: Attr::single(Value::Unknown("reserved concurrency not read".into()), origin),
        });
    }
    for m in &read.mappings {
        let origin = live(&m.uuid, arn_account(&m.source_arn).or_else(|| account.clone()));
        let function = match m.function_arn.as_deref().and_then(|a| function_index.get(a)) {
            Some(&i) => Value::Known(Target::Function(i)),
            None => Value::Unknown("function not read".into()),
        };
        let int = |v: Option<i32>| match v {
            Some(v) => Attr::known(i64::from(v), origin.clone()),
            None => Attr::absent(origin.clone()),
        };
        model.consumers.push(Consumer {
            resource: m.uuid.clone(),
            origin: origin.clone(),
            queue: Attr::single(linker.queue_target(&arn(&m.source_arn)), origin.clone()),
            queue_via: Attr::single(linker.queue_via(&arn(&m.source_arn)), origin.clone()),
            function: Attr::single(function, origin.clone()),
            batch_size: int(m.batch_size),
            batching_window: int(m.batching_window),
            response_types: Attr::known(m.response_types.clone(), origin.clone()),
            maximum_concurrency: Attr::single(Value::Unknown("scaling config not read".into()), origin.clone()),
        });
    }
    for a in &read.alarms {
        let origin = live(&a.name, account.clone());
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
                        Some(q) => linker.queue_name_target(&arn(q)),
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
    Loaded { model, ..Loaded::default() }
}

/// A queue's attributes (GetQueueAttributes), read by their API names.
struct Attributes<'a> {
    data: &'a LiveQueueData,
    origin: &'a Origin,
}

impl Attributes<'_> {
    fn get(&self, field: Field) -> Option<&str> {
        self.data.attributes.get(API.name(field)).map(String::as_str)
    }
}

impl ReadFields for Attributes<'_> {
    fn int(&self, field: Field) -> Attr<i64> {
        match self.get(field).map(str::parse::<i64>) {
            Some(Ok(v)) => Attr::known(v, self.origin.clone()),
            Some(Err(_)) => {
                Attr::single(Value::Unknown(format!("{} is not a number", API.name(field))), self.origin.clone())
            }
            None => Attr::absent(self.origin.clone()),
        }
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        match self.get(field) {
            Some(v) => Attr::known(v == "true", self.origin.clone()),
            None => Attr::absent(self.origin.clone()),
        }
    }

    fn text(&self, field: Field) -> Attr<String> {
        match self.get(field).filter(|v| !v.is_empty()) {
            Some(v) => Attr::known(v.to_string(), self.origin.clone()),
            None => Attr::absent(self.origin.clone()),
        }
    }

    /// The queue's name is the end of its URL (set by [`load`]).
    fn name(&self, _: Field) -> Attr<Name> {
        Attr::absent(self.origin.clone())
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
