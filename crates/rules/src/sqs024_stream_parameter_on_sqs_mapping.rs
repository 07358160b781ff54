//! SQS024: an event source mapping of a queue that sets a parameter only
//! stream and Kafka sources take: an error where Lambda refuses the
//! mapping, a warning where AWS only documents that it does not apply.

use super::helpers::given_words;
use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, Op, Remedy, Severity};
use sqsguard_model::{Alt, Attr, Consumer, Dialect, Field, Value};

rule! {
    code: "SQS024",
    name: "stream-parameter-on-sqs-mapping",
    severity: Error,
    summary: "Event source mapping of an SQS queue sets a parameter that applies only to streams and Kafka",
    kind: Template,
    check: check,
    milder: Some(Severity::Warning),
    reads: &[Link::Consumer],
    needs: &[LiveInput::EventSourceMappings],
}

/// What a parameter does not do for a queue's mapping, and how bad it is.
enum Effect<'a> {
    /// Lambda refuses the mapping.
    Refused,
    /// Ignored for a queue; the words say what governs it there instead.
    Ignored(&'a str),
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    let n = |f| cx.name(f);
    let retries = format!(
        "an SQS message is retried until the queue's {} (in its {}), then moved to the dead-letter queue",
        n(Field::MaxReceiveCount),
        n(Field::RedrivePolicy)
    );
    let age = format!(
        "an SQS message lives for the queue's {} and is retried until its {}",
        n(Field::RetentionPeriod),
        n(Field::MaxReceiveCount)
    );
    let bisect = format!(
        "a failed SQS batch is not split; {} ReportBatchItemFailures retries only the failed messages",
        n(Field::FunctionResponseTypes)
    );
    let parallel = format!(
        "SQS pollers scale with the queue's backlog, limited by {} {}",
        n(Field::ScalingConfig),
        n(Field::MaximumConcurrency)
    );
    let window = format!("SQS batches have no tumbling window; {} gathers a batch", n(Field::BatchingWindow));
    let (refused, show, hide) = (&Effect::Refused, true, false);
    for consumer in &cx.model.consumers {
        let Some(s) = consumer.stream.as_deref() else { continue };
        let mut out = Out { cx, consumer, findings: &mut *findings };
        out.report(Field::StartingPosition, &s.starting_position, show, refused);
        out.report(Field::StartingPositionTimestamp, &s.starting_position_timestamp, show, refused);
        // What a DestinationConfig holds is not its point: that it is there.
        out.report(Field::DestinationConfig, &s.destination_config, hide, refused);
        out.report(Field::MappingRetryAttempts, &s.maximum_retry_attempts, show, &Effect::Ignored(&retries));
        out.report(Field::MaximumRecordAge, &s.maximum_record_age, show, &Effect::Ignored(&age));
        out.report(Field::BisectBatch, &s.bisect_batch, show, &Effect::Ignored(&bisect));
        out.report(Field::ParallelizationFactor, &s.parallelization_factor, show, &Effect::Ignored(&parallel));
        out.report(Field::TumblingWindow, &s.tumbling_window, show, &Effect::Ignored(&window));
    }
}

/// Where one consumer's findings go.
struct Out<'c, 'm, 'f> {
    cx: &'c Context<'m>,
    consumer: &'c Consumer,
    findings: &'f mut Findings,
}

impl Out<'_, '_, '_> {
    /// One finding per alternative of `attr` that is known to be set;
    /// absent and unknown alternatives are no finding.
    fn report<T: std::fmt::Display>(&mut self, field: Field, attr: &Attr<T>, show: bool, effect: &Effect<'_>) {
        let (cx, consumer) = (self.cx, self.consumer);
        let name = cx.name(field);
        for alt in attr.iter() {
            let Value::Known(value) = &alt.value else { continue };
            let when = &alt.when;
            let given = given_words(cx, &[(field, alt.given.as_ref())]);
            let set = format!(
                "consumer {} reads an SQS queue and sets {name}{}",
                consumer.resource,
                if show { format!(" {value}") } else { String::new() }
            );
            let (message, severity) = match effect {
                Effect::Refused => (
                    format!(
                        "{set}, a parameter only stream and Kafka sources take: Lambda refuses to create or update the mapping ({} is not supported for an SQS event source){given}{when}",
                        Dialect::Api.name(field)
                    ),
                    Severity::Error,
                ),
                Effect::Ignored(instead) => (
                    format!(
                        "{set}, which applies only to stream and Kafka sources and does nothing for a queue: {instead}{given}{when}"
                    ),
                    Severity::Warning,
                ),
            };
            // The parameter does nothing for a queue, or stops the mapping:
            // removing it is safe. The writer takes away only a literal
            // written under the parameter's own key in the mapping (a
            // DestinationConfig map, a reference or a value given for the
            // run keeps the hint, with the writer's reason).
            let remedy = Remedy {
                resource: consumer.resource.clone(),
                field: Some(field),
                ops: vec![Op::Remove],
                at: alt.written_at().clone(),
                absent: false,
                conditional: !alt.when.is_always(),
                given: alt.given.clone(),
                applicability: Applicability::Safe,
            };
            let finding = finding(consumer, alt, message, format!("remove {name}"));
            self.findings.push(finding.with_severity(severity).with_remedy(remedy));
        }
    }
}

fn finding<T>(consumer: &Consumer, alt: &Alt<T>, message: String, fix: String) -> sqsguard_finding::Finding {
    RULE.finding(&consumer.resource, &alt.origin, message, fix)
}
