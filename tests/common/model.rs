//! A hand-built [`Model`], to run a rule on exactly the resources a test
//! names, without a front-end: a front-end bug and a rule bug then fail
//! different tests.
//!
//! Each resource method adds a resource; the setters after it set that
//! resource's attributes (a queue's after `queue`, a function's after
//! `function`, a mapping's after `mapping`). An attribute not set is absent,
//! so AWS's default applies. References name resources added before.
//!
//! ```ignore
//! let model = ModelBuilder::new().queue("Q").visibility(30).function("F").timeout(60).mapping("M", "Q", "F").build();
//! ```

#![allow(dead_code)]

use sqsguard::model::build::Links;
use sqsguard::model::key::{Key, KeyRef};
use sqsguard::model::policy::{Actions, Condition, Principal, SourceId};
use sqsguard::model::{
    Alarm, AlarmMetric, Attr, Consumer, Facts, Function, Model, Name, Origin, Payload, PayloadDecl, Queue, QueuePolicy,
    Redrive, Statement, Target, Value, Via, When,
};
use sqsguard::model::{Producer, Service};
use sqsguard::source::{Source, SourceFile, Span};

/// What the setters apply to.
#[derive(Clone, Copy)]
enum Last {
    None,
    Queue,
    Function,
    Consumer,
}

pub struct ModelBuilder {
    model: Model,
    file: Source,
    last: Last,
}

impl Default for ModelBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ModelBuilder {
    pub fn new() -> Self {
        ModelBuilder { model: Model::default(), file: SourceFile::new("model.yaml", String::new()), last: Last::None }
    }

    pub fn build(self) -> Model {
        self.model
    }

    fn origin(&self) -> Origin {
        Origin::file(&self.file, Span::default())
    }

    fn known<T>(&self, value: T) -> Attr<T> {
        Attr::known(value, self.origin())
    }

    fn queue_index(&self, name: &str) -> usize {
        self.model.queues.iter().position(|q| q.resource == name).unwrap_or_else(|| panic!("no queue {name} yet"))
    }

    fn last_queue(&mut self) -> &mut Queue {
        assert!(matches!(self.last, Last::Queue), "a queue setter after something else");
        self.model.queues.last_mut().unwrap()
    }

    fn last_consumer(&mut self) -> &mut Consumer {
        assert!(matches!(self.last, Last::Consumer), "a mapping setter after something else");
        self.model.consumers.last_mut().unwrap()
    }

    /// A queue with every attribute absent.
    pub fn queue(mut self, resource: &str) -> Self {
        self.model.queues.push(Queue::new(resource, self.origin()));
        self.last = Last::Queue;
        self
    }

    pub fn visibility(mut self, seconds: i64) -> Self {
        let attr = self.known(seconds);
        self.last_queue().visibility_timeout = attr;
        self
    }

    /// A VisibilityTimeout only deployment knows.
    pub fn visibility_unknown(mut self) -> Self {
        let attr = Attr::single(Value::Unknown("a parameter".into()), self.origin());
        self.last_queue().visibility_timeout = attr;
        self
    }

    pub fn wait_time(mut self, seconds: i64) -> Self {
        let attr = self.known(seconds);
        self.last_queue().receive_wait_time = attr;
        self
    }

    pub fn retention(mut self, seconds: i64) -> Self {
        let attr = self.known(seconds);
        self.last_queue().retention_period = attr;
        self
    }

    pub fn delay(mut self, seconds: i64) -> Self {
        let attr = self.known(seconds);
        self.last_queue().delay_seconds = attr;
        self
    }

    pub fn fifo(mut self, fifo: bool) -> Self {
        let attr = self.known(fifo);
        self.last_queue().fifo = attr;
        self
    }

    pub fn content_dedup(mut self, on: bool) -> Self {
        let attr = self.known(on);
        self.last_queue().content_based_dedup = attr;
        self
    }

    /// The queue's payload declaration: deterministic, or not for `reasons`.
    pub fn payload(mut self, nondeterministic: &[&str]) -> Self {
        let payload = if nondeterministic.is_empty() {
            Payload::Deterministic
        } else {
            Payload::NonDeterministic(nondeterministic.iter().map(|r| r.to_string()).collect())
        };
        let decl = PayloadDecl { payload: Value::Known(payload), origin: self.origin(), source: "the test" };
        self.last_queue().payload = Some(Box::new(decl));
        self
    }

    /// An explicit QueueName, written out in full.
    pub fn named(mut self, name: &str) -> Self {
        let attr = self.known(Name { text: name.to_string(), suffix_known: true });
        self.last_queue().name = attr;
        self
    }

    pub fn sse(mut self, on: bool) -> Self {
        let attr = self.known(on);
        self.last_queue().sse_enabled = attr;
        self
    }

    pub fn kms_key(mut self, key: &str) -> Self {
        let attr = self.known(key.to_string());
        self.last_queue().kms_key = attr;
        self
    }

    pub fn throughput_limit(mut self, limit: &str) -> Self {
        let attr = self.known(limit.to_string());
        self.last_queue().fifo_throughput_limit = attr;
        self
    }

    pub fn dedup_scope(mut self, scope: &str) -> Self {
        let attr = self.known(scope.to_string());
        self.last_queue().deduplication_scope = attr;
        self
    }

    /// A RedrivePolicy to the queue `dlq` (added before) by its ARN.
    pub fn redrive(self, dlq: &str, max_receive_count: i64) -> Self {
        self.redrive_via(dlq, max_receive_count, Via::Arn)
    }

    /// A RedrivePolicy to the queue `dlq` that names it by a reference to
    /// its URL (`attribute`: `Ref`, `QueueUrl`, `id`, `url`).
    pub fn redrive_by_url(self, dlq: &str, max_receive_count: i64, attribute: &str) -> Self {
        let queue = self.queue_index(dlq);
        self.redrive_via(dlq, max_receive_count, Via::UrlReference { queue, attribute: attribute.to_string() })
    }

    fn redrive_via(mut self, dlq: &str, max_receive_count: i64, via: Via) -> Self {
        let target = self.known(Target::Queue(self.queue_index(dlq)));
        let redrive = Redrive { target, target_via: self.known(via), max_receive_count: self.known(max_receive_count) };
        let attr = self.known(redrive);
        self.last_queue().redrive = attr;
        self
    }

    /// A function with Lambda's default timeout.
    pub fn function(mut self, resource: &str) -> Self {
        let function = Function::new(resource, self.origin());
        self.model.functions.push(function);
        self.last = Last::Function;
        self
    }

    pub fn reserved_concurrency(mut self, n: i64) -> Self {
        assert!(matches!(self.last, Last::Function), "reserved concurrency after something other than a function");
        let attr = self.known(n);
        self.model.functions.last_mut().unwrap().reserved_concurrency = attr;
        self
    }

    pub fn timeout(mut self, seconds: i64) -> Self {
        assert!(matches!(self.last, Last::Function), "timeout after something other than a function");
        let attr = self.known(seconds);
        self.model.functions.last_mut().unwrap().timeout = attr;
        self
    }

    /// An event source mapping of `queue` to `function` (both added
    /// before), naming the queue by its ARN, every setting absent.
    pub fn mapping(mut self, resource: &str, queue: &str, function: &str) -> Self {
        let queue = Target::Queue(self.queue_index(queue));
        let function = self
            .model
            .functions
            .iter()
            .position(|f| f.resource == function)
            .unwrap_or_else(|| panic!("no function {function} yet"));
        let links = Links {
            queue: self.known(queue),
            queue_via: self.known(Via::Arn),
            function: self.known(Target::Function(function)),
        };
        let consumer = Consumer::read(resource, self.origin(), links, &Facts::new(self.origin()));
        self.model.consumers.push(consumer);
        self.last = Last::Consumer;
        self
    }

    pub fn batch_size(mut self, size: i64) -> Self {
        let attr = self.known(size);
        self.last_consumer().batch_size = attr;
        self
    }

    pub fn maximum_concurrency(mut self, n: i64) -> Self {
        let attr = self.known(n);
        self.last_consumer().maximum_concurrency = attr;
        self
    }

    pub fn window(mut self, seconds: i64) -> Self {
        let attr = self.known(seconds);
        self.last_consumer().batching_window = attr;
        self
    }

    /// FunctionResponseTypes [ReportBatchItemFailures].
    pub fn reports_failures(mut self) -> Self {
        let attr = self.known(vec!["ReportBatchItemFailures".to_string()]);
        self.last_consumer().response_types = attr;
        self
    }

    /// The mapping names its queue by a reference to its URL.
    pub fn source_by_url(mut self, attribute: &str) -> Self {
        let Some(Target::Queue(queue)) = self.last_consumer().queue.alts[0].value.known().cloned() else {
            panic!("the mapping reads no queue")
        };
        let attr = self.known(Via::UrlReference { queue, attribute: attribute.to_string() });
        self.last_consumer().queue_via = attr;
        self
    }

    /// A CloudWatch alarm on the queue's ApproximateNumberOfMessagesVisible
    /// `comparison` `threshold` (`GreaterThanThreshold`, 0: the first
    /// message).
    pub fn depth_alarm(mut self, resource: &str, queue: &str, comparison: &str, threshold: f64) -> Self {
        let metric = AlarmMetric::sqs("ApproximateNumberOfMessagesVisible", Target::Queue(self.queue_index(queue)));
        let above = (self.known(comparison.to_string()), self.known(threshold));
        let alarm = Alarm::new(resource, self.origin(), vec![metric], above);
        self.model.alarms.push(alarm);
        self.last = Last::None;
        self
    }

    /// A queue policy on `queue` with one Allow statement, to everyone
    /// (`Principal: "*"`) when `public`, with a Condition when `condition`.
    pub fn policy(mut self, resource: &str, queue: &str, public: bool, condition: bool) -> Self {
        let statement = Statement {
            origin: self.origin(),
            when: When::always(),
            allow: Value::Known(true),
            public_principal: Value::Known(public),
            has_condition: condition,
            principals: Value::Known(vec![if public { Principal::Anyone } else { Principal::Other }]),
            actions: Value::Known(Actions { not: false, patterns: vec!["sqs:*".into()] }),
            resources: Value::Absent,
            conditions: if condition {
                vec![Condition {
                    key: "aws:sourceaccount".into(),
                    values: vec![Value::Known(SourceId::Text("123456789012".into()))],
                }]
            } else {
                Vec::new()
            },
        };
        let policy = QueuePolicy {
            resource: resource.to_string(),
            origin: self.origin(),
            queues: vec![Value::Known(Target::Queue(self.queue_index(queue)))],
            statements: vec![statement],
            unreadable: None,
        };
        self.model.policies.push(policy);
        self.last = Last::None;
        self
    }

    /// A producer of `service` from the source resource `source` (a topic,
    /// a rule, a bucket) delivering to `queue`.
    pub fn producer(mut self, resource: &str, service: Service, source: &str, queue: &str) -> Self {
        let target = self.known(Target::Queue(self.queue_index(queue)));
        let mut p = Producer::new(resource, self.origin(), service, target);
        p.source = Value::Known(SourceId::Resource(source.to_string()));
        self.model.producers.push(p);
        self.last = Last::None;
        self
    }

    /// The last producer's topic is FIFO (or standard).
    pub fn fifo_topic(mut self, fifo: bool) -> Self {
        let attr = self.known(fifo);
        self.model.producers.last_mut().unwrap().fifo_source = attr;
        self
    }

    /// The last producer (an EventBridge target) sets a message group id.
    pub fn message_group(mut self, id: &str) -> Self {
        let attr = self.known(id.to_string());
        self.model.producers.last_mut().unwrap().message_group_id = attr;
        self
    }

    /// A queue policy on `queue` with one Allow of `actions` to the service
    /// `principal`, with `aws:SourceArn` = the resource `source` when given.
    pub fn service_policy(
        mut self,
        resource: &str,
        queue: &str,
        principal: &str,
        actions: &[&str],
        source: Option<&str>,
    ) -> Self {
        let statement = self.statement(principal, actions, source);
        let policy = QueuePolicy {
            resource: resource.to_string(),
            origin: self.origin(),
            queues: vec![Value::Known(Target::Queue(self.queue_index(queue)))],
            statements: vec![statement],
            unreadable: None,
        };
        self.model.policies.push(policy);
        self.last = Last::None;
        self
    }

    fn statement(&self, principal: &str, actions: &[&str], source: Option<&str>) -> Statement {
        Statement {
            origin: self.origin(),
            when: When::always(),
            allow: Value::Known(true),
            public_principal: Value::Known(principal == "*"),
            has_condition: source.is_some(),
            principals: Value::Known(vec![if principal == "*" {
                Principal::Anyone
            } else {
                Principal::Service(principal.to_string())
            }]),
            actions: Value::Known(Actions { not: false, patterns: actions.iter().map(|a| a.to_lowercase()).collect() }),
            resources: Value::Absent,
            conditions: source
                .map(|s| Condition {
                    key: "aws:sourcearn".into(),
                    values: vec![Value::Known(SourceId::Resource(s.to_string()))],
                })
                .into_iter()
                .collect(),
        }
    }

    /// The last queue is encrypted with `key`: the AWS managed key, or the
    /// customer managed key `K` added with [`ModelBuilder::key`].
    pub fn encrypted_with(mut self, key: KeyRef) -> Self {
        let attr = self.known(key);
        self.last_queue().key = attr;
        self
    }

    /// A customer managed key whose policy allows `principal` the `actions`.
    pub fn key(mut self, resource: &str, principal: &str, actions: &[&str]) -> Self {
        let statement = self.statement(principal, actions, None);
        self.model.keys.push(Key {
            resource: resource.to_string(),
            origin: self.origin(),
            statements: vec![statement],
            unreadable: None,
        });
        self.last = Last::None;
        self
    }
}
