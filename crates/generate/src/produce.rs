//! The producers a spec names, planned: each resource's names in both
//! targets, the service principal the queue policy (and a new key's
//! policy) must allow, and the source ARN that scopes the statement.

use serde::Serialize;

use super::spec::{ProducerKind, Spec};
use sqsguard_model::Service;

#[derive(Clone, Debug, Serialize)]
pub(crate) struct Producer {
    /// `sns`, `eventbridge` or `s3`, with one flag per kind for the templates.
    pub kind: &'static str,
    /// How comments name it: `SNS`, `EventBridge`, `S3`.
    pub label: &'static str,
    pub sns: bool,
    pub eventbridge: bool,
    pub s3: bool,
    /// CloudFormation logical ID (`Topic`, `Topic2`, `Rule`, `Bucket`).
    pub logical: String,
    /// Terraform name (`topic`, `topic_2`, ...).
    pub ident: String,
    /// The service principal the queue policy allows.
    pub principal: &'static str,
    /// The queue policy statement's Sid.
    pub sid: String,
    /// SNS: the topic the output creates (its name), or an existing one's ARN.
    pub topic_name: Option<String>,
    pub topic_arn: Option<String>,
    pub raw_message_delivery: bool,
    /// EventBridge: the rule's schedule, or its event pattern as JSON.
    pub schedule: Option<String>,
    pub event_pattern: Option<serde_json::Value>,
    /// EventBridge on a FIFO queue: the target's MessageGroupId.
    pub group_id: Option<String>,
    /// S3: the new bucket and the events it notifies.
    pub bucket: Option<String>,
    pub events: Vec<String>,
    /// The bucket's ARN as a `!Sub` string (a reference would make the
    /// bucket and the queue policy it waits for a cycle).
    pub bucket_arn_sub: Option<String>,
}

impl Producer {
    pub(crate) fn service(&self) -> Service {
        match self.kind {
            "sns" => Service::Sns,
            "eventbridge" => Service::EventBridge,
            _ => Service::S3,
        }
    }
}

/// The producers of `spec`, for a pipeline named `name`.
pub(crate) fn plan(spec: &Spec, name: &str) -> Vec<Producer> {
    let fifo = spec.fifo.value;
    let mut counts = [0usize; 3];
    spec.producers
        .iter()
        .map(|p| {
            let (kind, stem, service, slot) = match &p.value {
                ProducerKind::Sns { .. } => ("sns", "Topic", Service::Sns, 0),
                ProducerKind::EventBridge { .. } => ("eventbridge", "Rule", Service::EventBridge, 1),
                ProducerKind::S3 { .. } => ("s3", "Bucket", Service::S3, 2),
            };
            counts[slot] += 1;
            let n = counts[slot];
            let logical = if n == 1 { stem.to_string() } else { format!("{stem}{n}") };
            let ident = if n == 1 { stem.to_ascii_lowercase() } else { format!("{}_{n}", stem.to_ascii_lowercase()) };
            let mut out = Producer {
                kind,
                label: match kind {
                    "sns" => "SNS",
                    "eventbridge" => "EventBridge",
                    _ => "S3",
                },
                sns: kind == "sns",
                eventbridge: kind == "eventbridge",
                s3: kind == "s3",
                sid: format!("Allow{logical}"),
                logical,
                ident,
                principal: service.principal().unwrap_or_default(),
                topic_name: None,
                topic_arn: None,
                raw_message_delivery: false,
                schedule: None,
                event_pattern: None,
                group_id: None,
                bucket: None,
                events: Vec::new(),
                bucket_arn_sub: None,
            };
            match &p.value {
                ProducerKind::Sns { topic, raw } => {
                    out.raw_message_delivery = *raw;
                    if topic.starts_with("arn:") {
                        out.topic_arn = Some(topic.clone());
                    } else {
                        let base = topic.strip_suffix(".fifo").unwrap_or(topic);
                        out.topic_name = Some(if fifo { format!("{base}.fifo") } else { base.to_string() });
                    }
                }
                ProducerKind::EventBridge { schedule, pattern } => {
                    out.schedule = schedule.clone();
                    out.event_pattern = pattern.clone();
                    // One group: the rule's events in the order it sends them.
                    out.group_id = fifo.then(|| name.to_string());
                }
                ProducerKind::S3 { bucket, events } => {
                    out.bucket_arn_sub = Some(format!("arn:${{AWS::Partition}}:s3:::{bucket}"));
                    out.bucket = Some(bucket.clone());
                    out.events = events.clone();
                }
            }
            out
        })
        .collect()
}
