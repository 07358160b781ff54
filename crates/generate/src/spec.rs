//! The pipeline spec: read from its spanned YAML tree, so every problem
//! (schema, semantics, a rule it would break) points at the spec's line.
//!
//! The JSON Schema (`schemas/pipeline.schema.json`) checks the shape first;
//! this module then reads the values, with their spans, into [`Spec`].

use sqsguard_model::Field as Attribute;
use sqsguard_model::field::guidance;
use sqsguard_source::Span;
use sqsguard_syntax::{Entry, Kind, Node, duration};

/// AWS's default for a field the spec leaves out.
fn aws_default(field: Attribute) -> u64 {
    field.default().and_then(|d| u64::try_from(d).ok()).unwrap_or(0)
}

/// A value and where the spec set it (the spec's root for defaults).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct At<T> {
    pub value: T,
    pub span: Span,
    /// False when the value is the default.
    pub explicit: bool,
}

impl<T> At<T> {
    fn default_at(value: T, span: Span) -> Self {
        At { value, span, explicit: false }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Encryption {
    SqsManaged,
    Kms(String),
    /// A customer managed key created with the pipeline.
    NewKey,
}

/// Something that sends to the queue, created with the pipeline.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ProducerKind {
    /// A topic name (created) or the ARN of an existing topic.
    Sns { topic: String, raw: bool },
    /// A new rule on the default bus: its schedule or event pattern (JSON).
    EventBridge { schedule: Option<String>, pattern: Option<serde_json::Value> },
    /// A new bucket's notifications.
    S3 { bucket: String, events: Vec<String> },
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ConsumerKind {
    Lambda,
    Ecs,
    Other,
}

#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub pipeline: At<String>,
    pub fifo: At<bool>,
    pub retention: At<u64>,
    pub delay: At<u64>,
    pub encryption: At<Encryption>,
    pub content_based_deduplication: At<bool>,
    pub high_throughput: At<bool>,
    pub consumer: At<ConsumerKind>,
    pub function_timeout: Option<At<u64>>,
    pub batch_size: At<u64>,
    pub batching_window: At<u64>,
    /// An existing function (name or ARN); `None` emits one.
    pub function: Option<At<String>>,
    pub processing_time_p99: Option<At<u64>>,
    pub payload: Option<Payload>,
    pub max_receive_count: At<u64>,
    pub dlq_retention: At<u64>,
    pub dlq_depth_alarm: At<bool>,
    pub oldest_message_age: Option<At<u64>>,
    pub topic: Option<At<String>>,
    pub tags: Vec<(String, String)>,
    pub producers: Vec<At<ProducerKind>>,
    pub reserved_concurrency: Option<At<u64>>,
}

#[derive(Clone, Debug)]
pub(crate) struct Payload {
    pub span: Span,
    /// `(name, type, deterministic)` in spec order.
    pub fields: Vec<Field>,
    pub key_order_unstable: bool,
    pub dedup_id: Option<At<String>>,
    pub group_id: Option<At<String>>,
}

#[derive(Clone, Debug)]
pub(crate) struct Field {
    pub name: String,
    pub kind: String,
    pub deterministic: bool,
}

/// Field types whose value differs between two sends of one event.
pub(crate) const NON_DETERMINISTIC: &[&str] = &["uuid", "timestamp", "random"];

impl Payload {
    /// Why the payload is not deterministic (empty when it is).
    pub(crate) fn non_deterministic(&self) -> Vec<String> {
        let mut reasons: Vec<String> =
            self.fields.iter().filter(|f| !f.deterministic).map(|f| format!("{} is {}", f.name, f.kind)).collect();
        if self.key_order_unstable {
            reasons.push("key order is unstable".into());
        }
        reasons
    }
}

/// Read a spec the schema already accepted. Errors are (message, span).
pub(crate) fn read(root: &Node) -> Result<Spec, (String, Span)> {
    let whole = root.span;
    let get = |path: &[&str]| -> Option<&Node> {
        let mut n = root;
        for p in path {
            n = n.get(p)?;
        }
        Some(n)
    };
    let string = |path: &[&str]| {
        get(path).and_then(|n| n.as_str().map(|s| At { value: s.to_string(), span: n.span, explicit: true }))
    };
    let boolean = |path: &[&str], default: bool| match get(path) {
        Some(n) => At { value: matches!(n.kind, Kind::Bool(true)), span: n.span, explicit: true },
        None => At::default_at(default, whole),
    };
    let dur = |path: &[&str]| -> Result<Option<At<u64>>, (String, Span)> {
        match get(path) {
            Some(n) => match duration::of_node(n) {
                Some(v) => Ok(Some(At { value: v, span: n.span, explicit: true })),
                None => Err((format!("`{}` is not a duration (use 45, 15s, 5m, 2h or 4d)", path.join(".")), n.span)),
            },
            None => Ok(None),
        }
    };
    let int = |path: &[&str], default: u64| match get(path) {
        Some(n) => At { value: matches_u64(n).unwrap_or(default), span: n.span, explicit: true },
        None => At::default_at(default, whole),
    };

    let pipeline = string(&["pipeline"]).ok_or(("`pipeline` is required".to_string(), whole))?;
    let consumer_node = get(&["consumer", "type"]).ok_or(("`consumer.type` is required".to_string(), whole))?;
    let consumer = At {
        value: match consumer_node.as_str() {
            Some("lambda") => ConsumerKind::Lambda,
            Some("ecs") => ConsumerKind::Ecs,
            _ => ConsumerKind::Other,
        },
        span: consumer_node.span,
        explicit: true,
    };
    let encryption = encryption(get(&["queue", "encryption"]), whole);
    let payload = get(&["payload"]).map(payload);
    let tags = get(&["tags"])
        .and_then(Node::as_map)
        .unwrap_or_default()
        .iter()
        .map(|e| (e.key.clone(), scalar_text(&e.value)))
        .collect();

    let producers =
        get(&["producers"]).and_then(Node::as_seq).unwrap_or_default().iter().filter_map(producer).collect();
    let reserved_concurrency = get(&["consumer", "reserved_concurrency"])
        .and_then(|n| matches_u64(n).map(|v| At { value: v, span: n.span, explicit: true }));

    Ok(Spec {
        producers,
        reserved_concurrency,
        pipeline,
        fifo: boolean(&["queue", "fifo"], false),
        retention: dur(&["queue", "retention"])?
            .unwrap_or(At::default_at(aws_default(Attribute::RetentionPeriod), whole)),
        delay: dur(&["queue", "delay"])?.unwrap_or(At::default_at(0, whole)),
        encryption,
        content_based_deduplication: boolean(&["queue", "content_based_deduplication"], false),
        high_throughput: boolean(&["queue", "high_throughput"], false),
        consumer,
        function_timeout: dur(&["consumer", "function_timeout"])?,
        batch_size: int(&["consumer", "batch_size"], aws_default(Attribute::BatchSize)),
        batching_window: dur(&["consumer", "batching_window"])?.unwrap_or(At::default_at(0, whole)),
        function: string(&["consumer", "function", "name"]),
        processing_time_p99: dur(&["consumer", "processing_time_p99"])?,
        payload,
        max_receive_count: int(&["dlq", "max_receive_count"], guidance::SUGGESTED_MAX_RECEIVE_COUNT as u64),
        dlq_retention: dur(&["dlq", "retention"])?
            .unwrap_or(At::default_at(guidance::MAX_RETENTION_SECONDS as u64, whole)),
        dlq_depth_alarm: boolean(&["alarms", "dlq_depth"], true),
        oldest_message_age: dur(&["alarms", "oldest_message_age"])?,
        topic: string(&["alarms", "topic"]),
        tags,
    })
}

/// `queue.encryption`: a KMS key, a new key, or SQS-managed (the default).
fn encryption(node: Option<&Node>, whole: Span) -> At<Encryption> {
    match node {
        Some(n) => match (n.get("kms").and_then(Node::as_str), n.as_str()) {
            (Some(key), _) => At { value: Encryption::Kms(key.to_string()), span: n.span, explicit: true },
            (None, Some("new-kms-key")) => At { value: Encryption::NewKey, span: n.span, explicit: true },
            (None, _) => At { value: Encryption::SqsManaged, span: n.span, explicit: true },
        },
        None => At::default_at(Encryption::SqsManaged, whole),
    }
}

/// `payload`: its fields, key order, and deduplication and group IDs.
fn payload(p: &Node) -> Payload {
    Payload {
        span: p.span,
        fields: p.get("fields").and_then(Node::as_map).unwrap_or_default().iter().map(payload_field).collect(),
        key_order_unstable: p.get("key_order").and_then(Node::as_str) == Some("unstable"),
        dedup_id: p
            .get("dedup_id")
            .and_then(|n| n.as_str().map(|s| At { value: s.to_string(), span: n.span, explicit: true })),
        group_id: p
            .get("group_id")
            .and_then(|n| n.as_str().map(|s| At { value: s.to_string(), span: n.span, explicit: true })),
    }
}

/// One field of `payload.fields`: a type name, or a map with `type` and
/// `deterministic` (without it, deterministic as its type is).
fn payload_field(e: &Entry) -> Field {
    let (kind, explicit) = match &e.value.kind {
        Kind::String(t) => (t.clone(), None),
        Kind::Map(_) => (
            e.value.get("type").and_then(Node::as_str).unwrap_or("string").to_string(),
            match e.value.get("deterministic").map(|d| &d.kind) {
                Some(Kind::Bool(b)) => Some(*b),
                _ => None,
            },
        ),
        _ => ("string".to_string(), None),
    };
    let deterministic = explicit.unwrap_or(!NON_DETERMINISTIC.contains(&kind.as_str()));
    Field { name: e.key.clone(), kind, deterministic }
}

/// One `producers` entry (the schema has checked its shape).
fn producer(n: &Node) -> Option<At<ProducerKind>> {
    let text = |k: &str| n.get(k).and_then(Node::as_str).map(str::to_string);
    let kind = match n.get("type").and_then(Node::as_str)? {
        "sns" => ProducerKind::Sns {
            topic: text("topic")?,
            raw: !matches!(n.get("raw_message_delivery").map(|r| &r.kind), Some(Kind::Bool(false))),
        },
        "eventbridge" => {
            ProducerKind::EventBridge { schedule: text("schedule"), pattern: n.get("event_pattern").map(to_json) }
        }
        "s3" => ProducerKind::S3 {
            bucket: text("bucket")?,
            events: match n.get("events").and_then(Node::as_seq) {
                Some(list) => list.iter().filter_map(|e| e.as_str().map(str::to_string)).collect(),
                None => vec!["s3:ObjectCreated:*".to_string()],
            },
        },
        _ => return None,
    };
    Some(At { value: kind, span: n.span, explicit: true })
}

/// A spec subtree as JSON (an event pattern, written out as given).
fn to_json(n: &Node) -> serde_json::Value {
    match &n.kind {
        Kind::Map(entries) => {
            serde_json::Value::Object(entries.iter().map(|e| (e.key.clone(), to_json(&e.value))).collect())
        }
        Kind::Seq(items) => serde_json::Value::Array(items.iter().map(to_json).collect()),
        Kind::Bool(b) => serde_json::Value::Bool(*b),
        Kind::Number(s) => s
            .parse::<serde_json::Number>()
            .map_or_else(|_| serde_json::Value::String(s.clone()), serde_json::Value::Number),
        Kind::String(s) => serde_json::Value::String(s.clone()),
        _ => serde_json::Value::Null,
    }
}

fn matches_u64(n: &Node) -> Option<u64> {
    match &n.kind {
        Kind::Number(s) => s.parse().ok(),
        _ => None,
    }
}

fn scalar_text(n: &Node) -> String {
    match &n.kind {
        Kind::String(s) | Kind::Number(s) => s.clone(),
        Kind::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;
    use sqsguard_syntax::yaml;

    #[test]
    fn durations() {
        let f = SourceFile::new("s.yaml", "a: 15s\nb: 5m\nc: 4d\nd: 45\ne: 15 seconds\n".to_string());
        let n = yaml::parse(&f).unwrap();
        let d = |k: &str| duration::of_node(n.get(k).unwrap());
        assert_eq!((d("a"), d("b"), d("c"), d("d"), d("e")), (Some(15), Some(300), Some(345_600), Some(45), None));
    }
}
