//! The generator's refusals: the rules of `sqsguard lint`, run on the model
//! a spec makes, so a refusal carries the rule's own code, threshold and
//! words, located at the spec value that causes it.
//!
//! [`model`] holds what the templates will emit (the plan's values: the
//! queue and its dead-letter queue, the Lambda consumer and its function,
//! the alarms, the payload declaration), each value located at the span of
//! the spec that decides it. A value the generator chooses by itself (long
//! polling, batch item failures, how the mapping and the redrive policy
//! name their queues, a raised batching window) is located in a stand-in file for the generator instead: a finding there
//! is sqsguard's mistake, not the spec's, and the self-check of the rendered
//! output reports it as one. Every finding located in the spec is a refusal.
//!
//! Queue and key policies hold what the templates grant each producer (the
//! generator's deny of requests without TLS is left out: no spec value
//! reaches it). The config's `payloads:` are not
//! applied: the spec declares the payload the output records.

use super::plan::{Lambda, Plan};
use super::spec::{At, Encryption, Spec};
use sqsguard_finding::{Finding, Severity};
use sqsguard_lint::config::Config;
use sqsguard_model::build::Links;
use sqsguard_model::key::{Key, KeyRef, is_aws_managed};
use sqsguard_model::policy::{Actions, Condition, Principal, SourceId};
use sqsguard_model::{
    Alarm, AlarmMetric, Attr, Consumer, Dialect, Facts, Field, Function, Model, Name, Origin, Payload, PayloadDecl,
    Producer, Queue, QueuePolicy, Redrive, Statement, Target, Value, Via, When,
};
use sqsguard_source::{Source, SourceFile, Span};

/// The queue and its dead-letter queue in the model.
const QUEUE: usize = 0;
const DLQ: usize = 1;

/// What the templates write for the alarms and the mapping (they are
/// layout, so these mirror them; the self-check holds the two together).
const DEPTH_METRIC: &str = "ApproximateNumberOfMessagesVisible";
const AGE_METRIC: &str = "ApproximateAgeOfOldestMessage";
const ABOVE: &str = "GreaterThanThreshold";
const REPORT_FAILURES: &str = "ReportBatchItemFailures";

/// Where the model's values are decided: spans of the spec, with the
/// spec's name for each, or the generator.
pub(crate) struct Places {
    spec: Source,
    generator: Source,
    /// The spec's words for what is at a span, first given first.
    keys: Vec<(Span, String)>,
}

impl Places {
    pub(crate) fn new(spec: &Source) -> Self {
        Places {
            spec: spec.clone(),
            generator: SourceFile::new("(chosen by sqsguard generate)", String::new()),
            keys: Vec::new(),
        }
    }

    /// The spec's value `at`, which it calls `key`. A default is located at
    /// the spec's root and named by nothing: the spec did not write it.
    fn at<T>(&mut self, at: &At<T>, key: impl Into<String>) -> Origin {
        if at.explicit {
            self.keys.push((at.span, key.into()));
        }
        Origin::file(&self.spec, at.span)
    }

    /// A value the generator chooses, whatever the spec says.
    fn chosen(&self) -> Origin {
        Origin::file(&self.generator, Span::default())
    }

    /// The span of the spec `origin` is at, if it is in the spec.
    fn in_spec(&self, origin: &Origin) -> Option<Span> {
        match origin {
            Origin::File { file, span } if std::sync::Arc::ptr_eq(file, &self.spec) => Some(*span),
            _ => None,
        }
    }

    fn key(&self, span: Span) -> Option<&str> {
        self.keys.iter().find(|(s, _)| *s == span).map(|(_, k)| k.as_str())
    }
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The model of what `plan` emits for `spec`, located in the spec.
pub(crate) fn model(spec: &Spec, plan: &Plan, dialect: Dialect, places: &mut Places) -> Model {
    let named = |text: &str| Name { text: text.to_string(), suffix_known: true };
    let pipeline = places.at(&spec.pipeline, "pipeline");
    // The generator derives VisibilityTimeout from the consumer's timing:
    // a finding about it is about the value it comes from.
    let timing = match &plan.lambda {
        Some(_) => spec.function_timeout.as_ref().map(|t| (t, "consumer.function_timeout")),
        None => spec.processing_time_p99.as_ref().map(|p| (p, "consumer.processing_time_p99")),
    };
    let visibility_words = |key: &str| {
        format!("{key}, from which {} is {}", dialect.name(Field::VisibilityTimeout), plan.visibility_reason)
    };
    let visibility_at = match timing {
        Some((at, key)) => places.at(at, visibility_words(key)),
        None => places.at(&spec.consumer, visibility_words("consumer.type")),
    };
    let encryption = places.at(&spec.encryption, "queue.encryption");
    let encrypt = |queue: &mut Queue| match &plan.kms_key {
        Some(key) => queue.kms_key = Attr::known(key.clone(), encryption.clone()),
        None => queue.sse_enabled = Attr::known(true, encryption.clone()),
    };

    let mut queue = Queue::new(plan.queue_name.clone(), pipeline.clone());
    queue.name = Attr::known(named(&plan.queue_name), pipeline.clone());
    if plan.fifo {
        queue.fifo = Attr::known(true, places.at(&spec.fifo, "queue.fifo"));
        let cbd = places.at(&spec.content_based_deduplication, "queue.content_based_deduplication");
        queue.content_based_dedup = Attr::known(plan.content_based_deduplication, cbd);
        if plan.high_throughput {
            let at = places.at(&spec.high_throughput, "queue.high_throughput");
            queue.deduplication_scope = Attr::known("messageGroup".into(), at.clone());
            queue.fifo_throughput_limit = Attr::known("perMessageGroupId".into(), at);
        }
    }
    queue.visibility_timeout = Attr::known(int(plan.visibility_timeout), visibility_at);
    queue.receive_wait_time = Attr::known(int(plan.wait_time_seconds), places.chosen());
    queue.retention_period = Attr::known(int(plan.retention_seconds), places.at(&spec.retention, "queue.retention"));
    queue.delay_seconds = Attr::known(int(plan.delay_seconds), places.at(&spec.delay, "queue.delay"));
    encrypt(&mut queue);
    // A finding about the redrive link (SQS007) is about the two
    // retentions: the dead-letter queue's where the spec sets it, else the
    // queue's, the one of the pair it chose.
    let link = if spec.dlq_retention.explicit {
        places.at(&spec.dlq_retention, "dlq.retention")
    } else {
        places.at(&spec.retention, "queue.retention")
    };
    queue.redrive = Attr::known(
        Redrive {
            target: Attr::known(Target::Queue(DLQ), link),
            target_via: Attr::known(Via::Arn, places.chosen()),
            max_receive_count: Attr::known(
                int(plan.max_receive_count),
                places.at(&spec.max_receive_count, "dlq.max_receive_count"),
            ),
        },
        places.chosen(),
    );
    queue.payload = spec.payload.as_ref().map(|p| {
        let reasons = p.non_deterministic();
        let payload = if reasons.is_empty() { Payload::Deterministic } else { Payload::NonDeterministic(reasons) };
        let at = At { value: (), span: p.span, explicit: true };
        Box::new(PayloadDecl { payload: Value::Known(payload), origin: places.at(&at, "payload"), source: "the spec" })
    });

    // What the spec can get wrong about the dead-letter queue itself is
    // whether anything watches it (SQS015): it is located there.
    let watched = places.at(&spec.dlq_depth_alarm, "alarms.dlq_depth");
    let mut dlq = Queue::new(plan.dlq_name.clone(), watched.clone());
    dlq.name = Attr::known(named(&plan.dlq_name), pipeline);
    if plan.fifo {
        dlq.fifo = Attr::known(true, places.at(&spec.fifo, "queue.fifo"));
    }
    dlq.retention_period =
        Attr::known(int(plan.dlq_retention_seconds), places.at(&spec.dlq_retention, "dlq.retention"));
    encrypt(&mut dlq);

    let alarms = alarms(spec, plan, places, watched);
    let (functions, consumers): (Vec<_>, Vec<_>) =
        plan.lambda.as_ref().map(|l| lambda(spec, plan, l, places)).into_iter().unzip();

    let mut queues = vec![queue, dlq];
    let (producers, policies, keys) = producers(spec, plan, places, &mut queues);
    Model { dialect, queues, functions, consumers, alarms, producers, policies, keys, ..Model::default() }
}

/// The alarms the templates write: the dead-letter queue's depth (located
/// at `watched`) and the queue's oldest message age, each as the spec asks.
fn alarms(spec: &Spec, plan: &Plan, places: &mut Places, watched: Origin) -> Vec<Alarm> {
    let age_at = spec.oldest_message_age.as_ref().map(|a| places.at(a, "alarms.oldest_message_age"));
    let mut alarms = Vec::new();
    let alarm = |resource: String, origin: Origin, metric: &str, queue: usize, threshold: u64| {
        let above = (Attr::known(ABOVE.into(), places.chosen()), Attr::known(threshold as f64, places.chosen()));
        Alarm::new(resource, origin, vec![AlarmMetric::sqs(metric, Target::Queue(queue))], above)
    };
    if plan.dlq_depth_alarm {
        alarms.push(alarm(format!("{} depth alarm", plan.dlq_name), watched, DEPTH_METRIC, DLQ, 0));
    }
    if let (Some(age), Some(origin)) = (plan.oldest_message_age, age_at) {
        alarms.push(alarm(format!("{} age alarm", plan.queue_name), origin, AGE_METRIC, QUEUE, age));
    }
    alarms
}

/// The Lambda consumer: the function, with its timeout and reserved
/// concurrency, and its event source mapping on the queue.
fn lambda(spec: &Spec, plan: &Plan, l: &Lambda, places: &mut Places) -> (Function, Consumer) {
    let consumer_at = places.at(&spec.consumer, "consumer");
    let timeout_at = match &spec.function_timeout {
        Some(t) => places.at(t, "consumer.function_timeout"),
        None => consumer_at.clone(),
    };
    let origin = spec.function.as_ref().map_or(consumer_at.clone(), |f| places.at(f, "consumer.function"));
    let reserved_concurrency = match &spec.reserved_concurrency {
        Some(r) => Attr::known(int(r.value), places.at(r, "consumer.reserved_concurrency")),
        None => Attr::absent(places.chosen()),
    };
    let facts = Facts::new(places.chosen())
        .known(Field::Timeout, int(l.timeout), timeout_at)
        .with(Field::ReservedConcurrency, reserved_concurrency);
    let function = Function::read(l.function_name.clone(), origin, &facts);
    // A FIFO mapping has no batching window; a raised one is the generator's.
    let batching_window = if plan.fifo {
        Attr::absent(places.chosen())
    } else if l.window_raised {
        Attr::known(int(l.batching_window), places.chosen())
    } else {
        Attr::known(int(l.batching_window), places.at(&spec.batching_window, "consumer.batching_window"))
    };
    let batch_size = places.at(&spec.batch_size, "consumer.batch_size");
    let facts = Facts::new(places.chosen())
        .known(Field::BatchSize, int(l.batch_size), batch_size)
        .with(Field::BatchingWindow, batching_window)
        .known(Field::FunctionResponseTypes, vec![REPORT_FAILURES.to_string()], places.chosen())
        // The generator sets it from the reserved concurrency.
        .maybe(Field::MaximumConcurrency, plan.maximum_concurrency.map(int), places.chosen());
    let links = Links {
        queue: Attr::known(Target::Queue(QUEUE), places.chosen()),
        queue_via: Attr::known(Via::Arn, places.chosen()),
        function: Attr::known(Target::Function(0), places.chosen()),
    };
    (function, Consumer::read(l.function_name.clone(), consumer_at, links, &facts))
}

/// The producers the spec names, each located at its entry, with the queue
/// policy statement and key policy the templates write for it: what the
/// spec can get wrong is a producer the queue's type or key cannot take
/// (SQS020, SQS021), not the grants, which the generator writes.
fn producers(
    spec: &Spec,
    plan: &Plan,
    places: &mut Places,
    queues: &mut [Queue],
) -> (Vec<Producer>, Vec<QueuePolicy>, Vec<Key>) {
    let encryption = places.at(&spec.encryption, "queue.encryption");
    if let Some(queue) = queues.get_mut(QUEUE) {
        queue.key = match (&spec.encryption.value, &plan.kms_key) {
            (Encryption::NewKey, _) => Attr::known(KeyRef::Resource(NEW_KEY.into()), encryption),
            (_, Some(k)) if is_aws_managed(k) => Attr::known(KeyRef::AwsManaged, encryption),
            (_, Some(k)) => Attr::known(KeyRef::Other(k.clone()), encryption),
            (_, None) => Attr::absent(encryption),
        };
    }
    let (mut out, mut statements, mut key_statements) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (at, planned)) in spec.producers.iter().zip(&plan.producers).enumerate() {
        let origin = places.at(at, format!("producers[{i}]"));
        let mut p = Producer::new(
            planned.logical.clone(),
            origin.clone(),
            planned.service(),
            Attr::known(Target::Queue(QUEUE), places.chosen()),
        );
        let source = SourceId::Resource(planned.logical.clone());
        p.source = Value::Known(source.clone());
        p.fifo_source = match &planned.topic_arn {
            Some(arn) => Attr::known(arn.ends_with(".fifo"), origin.clone()),
            None => Attr::known(plan.fifo, places.chosen()),
        };
        p.message_group_id = match &planned.group_id {
            Some(g) => Attr::known(g.clone(), places.chosen()),
            None => Attr::absent(origin.clone()),
        };
        let grant = |action: &str| Statement {
            origin: places.chosen(),
            when: When::always(),
            allow: Value::Known(true),
            public_principal: Value::Known(false),
            has_condition: true,
            principals: Value::Known(vec![Principal::Service(planned.principal.to_string())]),
            actions: Value::Known(Actions { not: false, patterns: vec![action.to_string()] }),
            resources: Value::Absent,
            conditions: vec![Condition { key: "aws:sourcearn".into(), values: vec![Value::Known(source.clone())] }],
        };
        statements.push(grant("sqs:sendmessage"));
        key_statements.push(grant("kms:*"));
        out.push(p);
    }
    let policy = QueuePolicy {
        resource: "QueuePolicy".into(),
        origin: places.chosen(),
        queues: vec![Value::Known(Target::Queue(QUEUE))],
        statements,
        unreadable: None,
    };
    let keys = match spec.encryption.value {
        Encryption::NewKey => {
            vec![Key {
                resource: NEW_KEY.into(),
                origin: places.chosen(),
                statements: key_statements,
                unreadable: None,
            }]
        }
        _ => Vec::new(),
    };
    (out, vec![policy], keys)
}

/// The key the templates create for `new-kms-key`.
const NEW_KEY: &str = "QueueKey";

/// The findings of the rules `config` keeps on the model of `plan`, each
/// located at the spec value that causes it and phrased in `dialect` (the
/// output's): the spec's refusals.
pub(crate) fn refusals(spec: &Spec, plan: &Plan, file: &Source, config: &Config, dialect: Dialect) -> Vec<Finding> {
    let mut places = Places::new(file);
    let model = model(spec, plan, dialect, &mut places);
    sqsguard_rules::check(&model, &config.options)
        .into_iter()
        .filter(|f| config.filter.keeps(f.code()))
        .filter_map(|f| refusal(f, &places))
        .collect()
}

/// A finding as a refusal, if the spec caused it: an error, named by the
/// spec's key where the spec wrote the value, without the rule's fix (it
/// speaks of the output, which the spec's user does not edit).
fn refusal(mut finding: Finding, places: &Places) -> Option<Finding> {
    let span = places.in_spec(&finding.origin)?;
    if let Some(key) = places.key(span) {
        finding.message = format!("{key}: {}", finding.message);
    }
    finding.fix = format!("`sqsguard explain {}` tells why", finding.code()).into();
    finding.context.created_by = None;
    finding.remedy = None;
    Some(finding.with_severity(Severity::Error))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_rules::Options;

    fn spec_of(text: &str) -> (Source, Spec) {
        let file = SourceFile::new("spec.yaml", text.to_string());
        let root = sqsguard_syntax::yaml::parse(&file).unwrap();
        let spec = super::super::spec::read(&root).unwrap();
        (file, spec)
    }

    /// Every finding on the model, wherever it is located.
    fn all_findings(text: &str, options: &Options) -> Vec<Finding> {
        let (file, spec) = spec_of(text);
        let plan = super::super::plan::plan(&spec, options);
        let mut places = Places::new(&file);
        let model = model(&spec, &plan, Dialect::CloudFormation, &mut places);
        sqsguard_rules::check(&model, options)
    }

    #[test]
    fn the_shipped_examples_make_models_no_rule_finds_fault_with() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/generate");
        for name in ["mcp-probe", "high-volume", "ecs-worker", "fifo-commands", "fan-in"] {
            let text = std::fs::read_to_string(root.join(format!("{name}.yaml"))).unwrap();
            let found = all_findings(&text, &Options::default());
            assert!(found.is_empty(), "{name}: {:?}", found.iter().map(|f| f.full_message()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn what_the_generator_chooses_is_not_the_specs_fault() {
        // A batch above 10 on a standard queue: the generator raises the
        // window to 1 s itself, so SQS011 has nothing to say.
        let text = "pipeline: p\nconsumer: {type: lambda, function_timeout: 5s, batch_size: 50}\n";
        assert!(all_findings(text, &Options::default()).is_empty());
    }

    #[test]
    fn a_finding_in_the_spec_is_refused_and_one_of_the_generators_is_not() {
        let (file, spec) = spec_of("pipeline: p\nconsumer: {type: ecs, processing_time_p99: 30s}\n");
        let places = Places::new(&file);
        let at = |origin: Origin| {
            let finding = sqsguard_rules::ALL[1].finding("q", &origin, "m".into(), "f".into());
            refusal(finding.with_severity(Severity::Warning), &places)
        };
        let refused = at(Origin::file(&file, spec.consumer.span)).unwrap();
        assert_eq!(refused.severity, Severity::Error, "a refusal is an error, whatever the rule's severity");
        assert_eq!(refused.code(), sqsguard_rules::ALL[1].id.code);
        assert!(at(places.chosen()).is_none());
    }
}
