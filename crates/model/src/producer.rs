//! What feeds a queue: SNS subscriptions, EventBridge targets, S3 bucket
//! notifications and EventBridge Pipes, each linked to the queue it
//! delivers to, with what the producer rules read. A producer is read here
//! field by field ([`Producer::read`]), whichever front-end parsed it: a
//! new attribute of a producer is a row of the field table, a field below
//! and a line of `read`.

use super::policy::SourceId;
use super::{Attr, Field, Origin, ReadFields, Target, Value, Via};

/// How a front-end reads the fields that name a queue, beside the plain
/// fields of [`ReadFields`]: the queue a field names, linked to the
/// queues the front-end read, and how it names it (its ARN, a URL).
pub trait ReadLinks: ReadFields {
    fn queue(&self, field: Field) -> Attr<Target>;
    fn queue_via(&self, field: Field) -> Attr<Via>;
}

/// The AWS service that delivers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Service {
    Sns,
    EventBridge,
    S3,
    /// EventBridge Pipes deliver with the pipe's role, not a service
    /// principal: no queue policy is needed.
    Pipes,
}

impl Service {
    /// The service principal a queue policy must allow, when it delivers
    /// as itself.
    pub fn principal(self) -> Option<&'static str> {
        match self {
            Service::Sns => Some("sns.amazonaws.com"),
            Service::EventBridge => Some("events.amazonaws.com"),
            Service::S3 => Some("s3.amazonaws.com"),
            Service::Pipes => None,
        }
    }

    /// The field that names the queue it delivers to.
    pub fn queue_field(self) -> Field {
        match self {
            Service::Sns => Field::SubscriptionEndpoint,
            Service::EventBridge => Field::TargetArn,
            Service::S3 => Field::NotificationQueue,
            Service::Pipes => Field::PipeTarget,
        }
    }

    /// How findings name it.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Service::Sns => "SNS subscription",
            Service::EventBridge => "EventBridge target",
            Service::S3 => "S3 bucket notification",
            Service::Pipes => "EventBridge pipe",
        }
    }
}

/// One delivery path into a queue.
#[derive(Clone, Debug)]
pub struct Producer {
    /// The subscription, rule, bucket or pipe (logical ID, address).
    pub resource: String,
    /// Its key or block.
    pub origin: Origin,
    pub service: Service,
    /// The target's Id within a rule (`Targets[].Id`), for messages.
    pub label: Option<String>,
    /// The queue it delivers to, located at the value that names it.
    pub queue: Attr<Target>,
    /// How that value names the queue (its ARN, or a URL where AWS expects
    /// the ARN): SNS subscriptions, EventBridge targets and pipes; absent
    /// for S3 notifications.
    pub queue_via: Attr<Via>,
    /// What `aws:SourceArn` is for its deliveries: the topic, rule, bucket.
    pub source: Value<SourceId>,
    /// SNS: the topic is FIFO (`FifoTopic`; absent: standard).
    pub fifo_source: Attr<bool>,
    /// EventBridge: `SqsParameters.MessageGroupId`.
    pub message_group_id: Attr<String>,
    /// EventBridge: the target's `DeadLetterConfig.Arn`.
    pub dead_letter: Attr<Target>,
    /// SNS: `RawMessageDelivery` (absent: the message in its envelope).
    pub raw_message_delivery: Attr<bool>,
    /// EventBridge: `RetryPolicy.MaximumRetryAttempts` and
    /// `MaximumEventAgeInSeconds` (absent: EventBridge's defaults).
    pub maximum_retry_attempts: Attr<i64>,
    pub maximum_event_age: Attr<i64>,
    /// EventBridge: the target delivers with a role (`RoleArn`), so whether
    /// the queue policy must allow the service is unknown.
    pub role: bool,
    /// Written by a tool that adds the queue policy itself (SAM
    /// `SqsSubscription`, `AWS::Serverless::Connector`, serverless-lift):
    /// which one.
    pub writes_policy: Option<&'static str>,
}

impl Producer {
    /// A producer of `service` with nothing but its queue known.
    pub fn new(resource: impl Into<String>, origin: Origin, service: Service, queue: Attr<Target>) -> Self {
        Producer {
            resource: resource.into(),
            label: None,
            service,
            queue,
            queue_via: Attr::absent(origin.clone()),
            source: Value::Unknown("the producer's ARN was not read".into()),
            fifo_source: Attr::absent(origin.clone()),
            message_group_id: Attr::absent(origin.clone()),
            dead_letter: Attr::absent(origin.clone()),
            raw_message_delivery: Attr::absent(origin.clone()),
            maximum_retry_attempts: Attr::absent(origin.clone()),
            maximum_event_age: Attr::absent(origin.clone()),
            role: false,
            writes_policy: None,
            origin,
        }
    }

    /// A producer of `service` read from `fields` (a subscription, a
    /// rule's target, a bucket's queue configuration, a pipe, each in its
    /// front-end's vocabulary): the queue its queue field names and what
    /// its kind says of its deliveries. What `aws:SourceArn` is for them
    /// (`source`) is the front-end's to say, as are what other resources
    /// tell of it (a topic's `FifoTopic`, a tool that writes the policy).
    pub fn read(
        resource: impl Into<String>,
        origin: Origin,
        service: Service,
        source: Value<SourceId>,
        fields: &impl ReadLinks,
    ) -> Self {
        let queue_field = service.queue_field();
        let mut p = Producer::new(resource, origin, service, fields.queue(queue_field));
        p.source = source;
        match service {
            Service::Sns => {
                p.queue_via = fields.queue_via(queue_field);
                p.raw_message_delivery = fields.boolean(Field::RawMessageDelivery);
            }
            Service::EventBridge | Service::S3 | Service::Pipes => {}
        }
        p
    }

    /// How messages name it: `subscription OrdersToJobs`, `EventBridge
    /// target Nightly (Id jobs)`.
    pub fn name(&self) -> String {
        match &self.label {
            Some(id) => format!("{} {} (Id {id})", self.service.label(), self.resource),
            None => format!("{} {}", self.service.label(), self.resource),
        }
    }
}
