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
    pub(crate) fn queue_field(self) -> Field {
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
            Service::EventBridge => {
                p.queue_via = fields.queue_via(queue_field);
                p.label = match fields.text(Field::TargetId).alts.as_slice() {
                    [one] => one.value.known().cloned(),
                    _ => None,
                };
                p.message_group_id = fields.text(Field::MessageGroupId);
                p.dead_letter = fields.queue(Field::TargetDeadLetter);
                p.role = fields.text(Field::RoleArn).alts.iter().any(|a| !matches!(a.value, Value::Absent));
                p.maximum_retry_attempts = fields.int(Field::MaximumRetryAttempts);
                p.maximum_event_age = fields.int(Field::MaximumEventAge);
            }
            // S3 names the queue by its ARN alone; a pipe's message group
            // is two maps deep, read by its front-end.
            Service::S3 => {}
            Service::Pipes => p.queue_via = fields.queue_via(queue_field),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Facts;
    use sqsguard_source::{SourceFile, Span};

    fn at(n: usize) -> Origin {
        Origin::file(&SourceFile::new("p.yaml", "x".repeat(10)), Span::new(n, n + 1))
    }

    /// Facts, with the queue field naming queue 0 as its ARN.
    struct Linked(Facts);

    impl ReadFields for Linked {
        fn int(&self, field: Field) -> Attr<i64> {
            self.0.int(field)
        }
        fn boolean(&self, field: Field) -> Attr<bool> {
            self.0.boolean(field)
        }
        fn text(&self, field: Field) -> Attr<String> {
            self.0.text(field)
        }
        fn name(&self, field: Field) -> Attr<crate::Name> {
            self.0.name(field)
        }
        fn list(&self, field: Field) -> Attr<Vec<String>> {
            self.0.list(field)
        }
        fn number(&self, field: Field) -> Attr<f64> {
            self.0.number(field)
        }
        fn block(&self, field: Field) -> Attr<bool> {
            self.0.block(field)
        }
    }

    impl ReadLinks for Linked {
        fn queue(&self, field: Field) -> Attr<Target> {
            match field {
                Field::TargetArn | Field::SubscriptionEndpoint | Field::NotificationQueue | Field::PipeTarget => {
                    Attr::known(Target::Queue(0), at(2))
                }
                _ => Attr::absent(at(0)),
            }
        }
        fn queue_via(&self, field: Field) -> Attr<Via> {
            self.queue(field).alts.first().map_or(Attr::absent(at(0)), |_| Attr::known(Via::Arn, at(2)))
        }
    }

    fn read(service: Service, facts: Facts) -> Producer {
        Producer::read("P", at(0), service, Value::Unknown("not read".into()), &Linked(facts))
    }

    #[test]
    fn an_eventbridge_target_is_read_by_its_fields() {
        let facts = Facts::new(at(0))
            .known(Field::TargetId, "jobs".to_string(), at(3))
            .known(Field::MaximumRetryAttempts, 4i64, at(4))
            .known(Field::MessageGroupId, "g".to_string(), at(5));
        let p = read(Service::EventBridge, facts);
        assert!(p.queue.any_known(|t| *t == Target::Queue(0)));
        assert!(p.queue_via.any_known(|v| *v == Via::Arn));
        assert_eq!(p.name(), "EventBridge target P (Id jobs)");
        assert!(p.maximum_retry_attempts.any_known(|n| *n == 4));
        assert!(matches!(p.maximum_event_age.alts[0].value, Value::Absent));
        assert!(p.message_group_id.any_known(|g| g == "g"));
        assert!(!p.role, "no RoleArn, no role");
        let with_role = Facts::new(at(0)).known(Field::RoleArn, "arn:aws:iam::1:role/r".to_string(), at(6));
        assert!(read(Service::EventBridge, with_role).role);
    }

    #[test]
    fn each_kind_reads_only_what_it_has() {
        let facts = || {
            Facts::new(at(0)).known(Field::RawMessageDelivery, true, at(3)).known(
                Field::TargetId,
                "t".to_string(),
                at(4),
            )
        };
        let sns = read(Service::Sns, facts());
        assert!(sns.raw_message_delivery.any_known(|r| *r));
        assert_eq!(sns.label, None, "a subscription has no target Id");
        let s3 = read(Service::S3, facts());
        assert!(s3.queue.any_known(|t| *t == Target::Queue(0)));
        assert!(matches!(s3.queue_via.alts[0].value, Value::Absent), "S3 names a queue by its ARN alone");
        assert!(matches!(s3.raw_message_delivery.alts[0].value, Value::Absent));
        assert!(read(Service::Pipes, facts()).queue_via.any_known(|v| *v == Via::Arn));
    }
}
