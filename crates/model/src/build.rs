//! The one way the model's resources are built, whoever builds them: a
//! template front-end reads a resource's settings field by field from
//! what it parsed ([`ReadFields`], each in its own vocabulary), and the
//! live front-end, the generator's refusals and the tests give plain facts
//! ([`Facts`]), each value with its [`Origin`]. Either way a setting is
//! read here, once, by its [`Field`]: a new attribute of a queue, a
//! mapping, a function or an alarm is a row of the field table, a field of
//! the model and a line of its `read` below, and every front-end reads it.

use std::collections::BTreeMap;

use super::{
    Alarm, AlarmMetric, Attr, Consumer, Field, Function, Name, Origin, Queue, StreamParameters, Target, Value, Via,
};

/// How a front-end reads the fields of the table from what it parsed, each
/// in its own vocabulary. A field the table places inside another
/// ([`Field::within`]) is read inside it where the vocabulary nests it.
pub trait ReadFields {
    fn int(&self, field: Field) -> Attr<i64>;
    fn boolean(&self, field: Field) -> Attr<bool>;
    fn text(&self, field: Field) -> Attr<String>;
    fn name(&self, field: Field) -> Attr<Name>;
    fn list(&self, field: Field) -> Attr<Vec<String>>;
    /// A number that need not be whole (an alarm's threshold).
    fn number(&self, field: Field) -> Attr<f64>;
    /// A map (or Terraform block) field: known true when it holds
    /// anything, absent when it is empty or not written.
    fn block(&self, field: Field) -> Attr<bool>;
}

impl Field {
    /// The field whose map holds this one (a column of the field table,
    /// kept here for the table's length), in the dialects that nest it
    /// (CloudFormation, Terraform, the API; a Serverless event is flat).
    pub fn within(self) -> Option<Field> {
        match self {
            Field::DeadLetterTarget | Field::MaxReceiveCount => Some(Field::RedrivePolicy),
            Field::MaximumConcurrency => Some(Field::ScalingConfig),
            Field::MessageGroupId => Some(Field::SqsParameters),
            Field::MaximumRetryAttempts | Field::MaximumEventAge => Some(Field::RetryPolicy),
            Field::TargetDeadLetter => Some(Field::TargetDeadLetterConfig),
            _ => None,
        }
    }
}

/// One plain fact: an attribute of a known type.
#[derive(Clone, Debug)]
pub enum Fact {
    Int(Attr<i64>),
    Bool(Attr<bool>),
    Text(Attr<String>),
    Name(Attr<Name>),
    List(Attr<Vec<String>>),
    Number(Attr<f64>),
}

macro_rules! fact_from {
    ($($t:ty => $v:ident),*) => {$(
        impl From<Attr<$t>> for Fact {
            fn from(attr: Attr<$t>) -> Self {
                Fact::$v(attr)
            }
        }
    )*};
}
fact_from!(i64 => Int, bool => Bool, String => Text, Name => Name, Vec<String> => List, f64 => Number);

/// Settings given as plain facts, each with its origin; a field not given
/// is absent, located at the resource.
#[derive(Clone, Debug)]
pub struct Facts {
    at: Origin,
    facts: BTreeMap<Field, Fact>,
}

impl Facts {
    /// No fact yet: every field absent, located at `at`.
    pub fn new(at: Origin) -> Self {
        Facts { at, facts: BTreeMap::new() }
    }

    /// `field` is `fact`.
    pub fn with(mut self, field: Field, fact: impl Into<Fact>) -> Self {
        self.facts.insert(field, fact.into());
        self
    }

    /// `field` is the known `value`, written at `origin`.
    pub fn known<T>(self, field: Field, value: T, origin: Origin) -> Self
    where
        Attr<T>: Into<Fact>,
    {
        self.with(field, Attr::known(value, origin))
    }

    /// `field` is `value` where given, else absent.
    pub fn maybe<T>(self, field: Field, value: Option<T>, origin: Origin) -> Self
    where
        Attr<T>: Into<Fact>,
    {
        match value {
            Some(v) => self.known(field, v, origin),
            None => self,
        }
    }

    fn get<T>(&self, field: Field, pick: impl Fn(&Fact) -> Option<&Attr<T>>) -> Attr<T>
    where
        T: Clone,
    {
        match self.facts.get(&field) {
            Some(fact) => match pick(fact) {
                Some(attr) => attr.clone(),
                // A fact of another type than the model's field: not
                // understood, so never a finding.
                None => Attr::single(Value::Unknown(format!("{field:?} is not of its type")), self.at.clone()),
            },
            None => Attr::absent(self.at.clone()),
        }
    }
}

impl ReadFields for Facts {
    fn int(&self, field: Field) -> Attr<i64> {
        self.get(field, |f| if let Fact::Int(a) = f { Some(a) } else { None })
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        self.get(field, |f| if let Fact::Bool(a) = f { Some(a) } else { None })
    }

    fn text(&self, field: Field) -> Attr<String> {
        self.get(field, |f| if let Fact::Text(a) = f { Some(a) } else { None })
    }

    fn name(&self, field: Field) -> Attr<Name> {
        self.get(field, |f| if let Fact::Name(a) = f { Some(a) } else { None })
    }

    fn list(&self, field: Field) -> Attr<Vec<String>> {
        self.get(field, |f| if let Fact::List(a) = f { Some(a) } else { None })
    }

    fn number(&self, field: Field) -> Attr<f64> {
        self.get(field, |f| if let Fact::Number(a) = f { Some(a) } else { None })
    }

    fn block(&self, field: Field) -> Attr<bool> {
        self.boolean(field)
    }
}

impl Queue {
    /// A queue's settings, read field by field; its RedrivePolicy and
    /// payload declaration are absent, for the front-end to set.
    pub fn read(resource: impl Into<String>, origin: Origin, fields: &impl ReadFields) -> Self {
        Queue {
            name: fields.name(Field::QueueName),
            fifo: fields.boolean(Field::FifoQueue),
            content_based_dedup: fields.boolean(Field::ContentBasedDedup),
            visibility_timeout: fields.int(Field::VisibilityTimeout),
            receive_wait_time: fields.int(Field::ReceiveWaitTime),
            retention_period: fields.int(Field::RetentionPeriod),
            delay_seconds: fields.int(Field::DelaySeconds),
            sse_enabled: fields.boolean(Field::SqsManagedSse),
            kms_key: fields.text(Field::KmsMasterKeyId),
            fifo_throughput_limit: fields.text(Field::FifoThroughputLimit),
            deduplication_scope: fields.text(Field::DeduplicationScope),
            ..Queue::new(resource, origin)
        }
    }

    /// A queue with every attribute absent (AWS defaults), located at `origin`.
    pub fn new(resource: impl Into<String>, origin: Origin) -> Self {
        fn absent<T>(origin: &Origin) -> Attr<T> {
            Attr::absent(origin.clone())
        }
        Queue {
            resource: resource.into(),
            name: absent(&origin),
            name_prefix: absent(&origin),
            fifo: absent(&origin),
            content_based_dedup: absent(&origin),
            visibility_timeout: absent(&origin),
            receive_wait_time: absent(&origin),
            retention_period: absent(&origin),
            delay_seconds: absent(&origin),
            sse_enabled: absent(&origin),
            kms_key: absent(&origin),
            key: absent(&origin),
            fifo_throughput_limit: absent(&origin),
            deduplication_scope: absent(&origin),
            redrive: absent(&origin),
            payload: None,
            live: None,
            created: None,
            module: None,
            origin,
        }
    }
}

impl Function {
    /// A function's settings, read field by field; where its code is, is
    /// for the front-end to set.
    pub fn read(resource: impl Into<String>, origin: Origin, fields: &impl ReadFields) -> Self {
        Function {
            resource: resource.into(),
            origin,
            timeout: fields.int(Field::Timeout),
            reserved_concurrency: fields.int(Field::ReservedConcurrency),
            code: None,
        }
    }

    /// A function with every setting absent, located at `origin`.
    pub fn new(resource: impl Into<String>, origin: Origin) -> Self {
        let facts = Facts::new(origin.clone());
        Function::read(resource, origin, &facts)
    }
}

/// What an event source mapping links: the queue it reads (and how it
/// names it) and the function it invokes.
#[derive(Clone, Debug)]
pub struct Links {
    pub queue: Attr<Target>,
    pub queue_via: Attr<Via>,
    pub function: Attr<Target>,
}

impl Consumer {
    /// A mapping's settings, read field by field.
    pub fn read(resource: impl Into<String>, origin: Origin, links: Links, fields: &impl ReadFields) -> Self {
        Consumer {
            resource: resource.into(),
            origin,
            queue: links.queue,
            queue_via: links.queue_via,
            function: links.function,
            batch_size: fields.int(Field::BatchSize),
            batching_window: fields.int(Field::BatchingWindow),
            response_types: fields.list(Field::FunctionResponseTypes),
            maximum_concurrency: fields.int(Field::MaximumConcurrency),
            enabled: fields.boolean(Field::MappingEnabled),
            stream: Some(Box::new(StreamParameters {
                starting_position: fields.text(Field::StartingPosition),
                starting_position_timestamp: fields.text(Field::StartingPositionTimestamp),
                destination_config: fields.block(Field::DestinationConfig),
                maximum_retry_attempts: fields.int(Field::MappingRetryAttempts),
                maximum_record_age: fields.int(Field::MaximumRecordAge),
                bisect_batch: fields.boolean(Field::BisectBatch),
                parallelization_factor: fields.int(Field::ParallelizationFactor),
                tumbling_window: fields.int(Field::TumblingWindow),
            }))
            .filter(|s| s.any()),
        }
    }
}

impl Alarm {
    /// An alarm's comparison and threshold, read field by field, on the
    /// metrics the front-end read (each with [`AlarmMetric::read`]): where
    /// they sit in the alarm is the dialect's.
    pub fn read(
        resource: impl Into<String>,
        origin: Origin,
        metrics: Vec<AlarmMetric>,
        fields: &impl ReadFields,
    ) -> Self {
        Alarm {
            resource: resource.into(),
            origin,
            metrics,
            comparison: fields.text(Field::ComparisonOperator),
            threshold: fields.number(Field::Threshold),
        }
    }

    /// An alarm on `metrics`, `comparison` `threshold`.
    pub fn new(
        resource: impl Into<String>,
        origin: Origin,
        metrics: Vec<AlarmMetric>,
        (comparison, threshold): (Attr<String>, Attr<f64>),
    ) -> Self {
        let facts =
            Facts::new(origin.clone()).with(Field::ComparisonOperator, comparison).with(Field::Threshold, threshold);
        Alarm::read(resource, origin, metrics, &facts)
    }
}

impl AlarmMetric {
    /// One metric of an alarm, its namespace and name read by their
    /// fields with `text` (from the metric's own map, wherever the dialect
    /// places it), watching `queue`: the one its `QueueName` dimension
    /// names, which the front-end finds in the dialect's shape of
    /// [`Field::Dimensions`].
    pub fn read(text: impl Fn(Field) -> Value<String>, queue: Value<Target>) -> Self {
        AlarmMetric { namespace: text(Field::Namespace), metric_name: text(Field::MetricName), queue }
    }

    /// The SQS metric `metric` of the queue `queue`.
    pub fn sqs(metric: &str, queue: Target) -> Self {
        let text = |field| match field {
            Field::Namespace => Value::Known("AWS/SQS".into()),
            Field::MetricName => Value::Known(metric.into()),
            _ => Value::Absent,
        };
        AlarmMetric::read(text, Value::Known(queue))
    }
}

impl Facts {
    /// The value of a text field given as a fact: for what holds one
    /// value rather than an attribute (an alarm's metric).
    pub fn value(&self, field: Field) -> Value<String> {
        let mut alts = self.text(field).alts;
        match (alts.pop(), alts.is_empty()) {
            (Some(alt), true) => alt.value,
            // Facts hold one alternative each; anything else is not understood.
            _ => Value::Unknown(format!("{field:?} has alternatives")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::{SourceFile, Span};

    fn at(n: usize) -> Origin {
        Origin::file(&SourceFile::new("facts.yaml", "x".repeat(10)), Span::new(n, n + 1))
    }

    #[test]
    fn facts_not_given_are_absent_at_the_resource_and_given_ones_keep_their_origin() {
        let facts =
            Facts::new(at(0)).known(Field::BatchSize, 5i64, at(3)).maybe::<bool>(Field::MappingEnabled, None, at(4));
        let links = Links {
            queue: Attr::known(Target::Queue(0), at(1)),
            queue_via: Attr::known(Via::Arn, at(1)),
            function: Attr::known(Target::Function(0), at(2)),
        };
        let c = Consumer::read("M", at(0), links, &facts);
        assert_eq!(c.batch_size.alts[0].value, Value::Known(5));
        assert_eq!(c.batch_size.alts[0].origin.location().map(|l| l.column), Some(4));
        assert_eq!(c.enabled.alts[0].value, Value::Absent);
        assert_eq!(c.batching_window.alts[0].origin.location().map(|l| l.column), Some(1));
    }

    #[test]
    fn a_fact_of_another_type_is_unknown_never_a_value() {
        let facts = Facts::new(at(0)).known(Field::Timeout, true, at(1));
        let f = Function::read("F", at(0), &facts);
        assert!(matches!(f.timeout.alts[0].value, Value::Unknown(_)));
    }

    #[test]
    fn an_alarm_reads_its_comparison_and_threshold_by_field_and_its_metrics_by_name() {
        let facts = Facts::new(at(0))
            .known(Field::ComparisonOperator, "GreaterThanThreshold".to_string(), at(2))
            .known(Field::Namespace, "AWS/SQS".to_string(), at(3));
        let metric = AlarmMetric::read(|f| facts.value(f), Value::Known(Target::Queue(1)));
        let alarm = Alarm::read("A", at(0), vec![metric], &facts);
        assert_eq!(alarm.comparison.alts[0].value, Value::Known("GreaterThanThreshold".to_string()));
        assert_eq!(alarm.comparison.alts[0].origin.location().map(|l| l.column), Some(3));
        assert_eq!(alarm.threshold.alts[0].value, Value::Absent);
        assert_eq!(alarm.metrics[0].namespace, Value::Known("AWS/SQS".to_string()));
        assert_eq!(alarm.metrics[0].metric_name, Value::Absent);
        let wrong = Facts::new(at(0)).known(Field::Threshold, 1i64, at(1));
        assert!(matches!(Alarm::read("B", at(0), Vec::new(), &wrong).threshold.alts[0].value, Value::Unknown(_)));
    }
}
