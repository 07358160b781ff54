//! Each template rule alone, on models built by hand (tests/common/model.rs),
//! with no front-end between the test and the rule: one case that fires
//! and the nearest one that does not, per rule. A front-end that models a
//! template wrongly fails the fixture tests, not these; a rule that reads
//! a right model wrongly fails these.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common::model;

use model::ModelBuilder;
use sqsguard::finding::{Finding, Severity};
use sqsguard::model::key::KeyRef;
use sqsguard::model::{Index, Model, Service};
use sqsguard::rules::{Context, Findings, Options};

/// The findings of rule `code` alone on `model`, with the default options.
fn run(model: &Model, code: &str) -> Vec<Finding> {
    let rule = sqsguard::rules::by_code(code).unwrap();
    let index = Index::new(model);
    let options = Options::default();
    let cx = Context { model, index: &index, options: &options };
    let mut findings = Findings::default();
    (rule.check)(&cx, &mut findings);
    let findings = findings.into_vec();
    assert!(findings.iter().all(|f| f.code() == code), "{code} reported {findings:#?}");
    findings
}

/// The resources rule `code` reports on the model `b` builds.
fn fires(b: ModelBuilder, code: &str) -> Vec<String> {
    run(&b.build(), code).into_iter().map(|f| f.resource.clone()).collect()
}

/// A queue, a function of `timeout` s and a mapping between them: the
/// consumer most rules look at.
fn consumed(visibility: i64, timeout: i64) -> ModelBuilder {
    ModelBuilder::new().queue("Q").visibility(visibility).function("F").timeout(timeout).mapping("M", "Q", "F")
}

#[test]
fn sqs001_visibility_below_six_times_the_timeout_plus_the_window() {
    assert_eq!(fires(consumed(179, 30), "SQS001"), ["Q"]);
    assert!(fires(consumed(180, 30), "SQS001").is_empty());
    assert!(fires(consumed(29, 30), "SQS001").is_empty(), "below the timeout itself is SQS002's, said once");
    assert_eq!(fires(consumed(30, 30), "SQS001"), ["Q"]);
    // The batching window counts: 6 x 30 + 10 = 190.
    assert_eq!(fires(consumed(189, 30).window(10), "SQS001"), ["Q"]);
    assert!(fires(consumed(190, 30).window(10), "SQS001").is_empty());
    // Absent values are AWS's defaults: 30 s visibility, 3 s timeout.
    let defaults = ModelBuilder::new().queue("Q").function("F").mapping("M", "Q", "F");
    assert!(fires(defaults, "SQS001").is_empty(), "30 s >= 6 x 3 s");
    let unknown = ModelBuilder::new().queue("Q").visibility_unknown().function("F").timeout(900).mapping("M", "Q", "F");
    assert!(fires(unknown, "SQS001").is_empty(), "an unknown value is never guessed");
    let findings = run(&consumed(60, 30).build(), "SQS001");
    assert!(findings[0].message.contains("60 s"), "{}", findings[0].message);
    assert!(findings[0].remedy.is_some(), "SQS001 proposes the timeout it needs");
}

#[test]
fn sqs002_visibility_below_the_function_timeout() {
    assert_eq!(fires(consumed(20, 30), "SQS002"), ["Q"]);
    assert!(fires(consumed(30, 30), "SQS002").is_empty());
    // Unconsumed, a queue has no function to compare with.
    let alone = ModelBuilder::new().queue("Q").visibility(1).function("F").timeout(900);
    assert!(fires(alone, "SQS002").is_empty());
}

#[test]
fn sqs003_content_dedup_with_a_nondeterministic_payload() {
    let fifo = || ModelBuilder::new().queue("Q").fifo(true).content_dedup(true);
    let findings = run(&fifo().payload(&["timestamp"]).build(), "SQS003");
    assert_eq!(findings.len(), 1);
    assert_eq!(findings[0].severity, Severity::Error);
    assert!(findings[0].message.contains("timestamp"), "{}", findings[0].message);
    let undeclared = run(&fifo().build(), "SQS003");
    assert_eq!(undeclared.iter().map(|f| f.severity).collect::<Vec<_>>(), [Severity::Warning]);
    assert!(fires(fifo().payload(&[]), "SQS003").is_empty(), "a deterministic payload");
    let off = ModelBuilder::new().queue("Q").fifo(true).content_dedup(false).payload(&["timestamp"]);
    assert!(fires(off, "SQS003").is_empty());
}

#[test]
fn sqs004_a_queue_without_a_dead_letter_queue() {
    assert_eq!(fires(ModelBuilder::new().queue("Q"), "SQS004"), ["Q"]);
    // With its DLQ: the DLQ, a dead-letter target, needs none.
    let redriven = ModelBuilder::new().queue("DLQ").queue("Q").redrive("DLQ", 5);
    assert!(fires(redriven, "SQS004").is_empty());
}

#[test]
fn sqs005_batches_without_partial_failure_reporting() {
    assert_eq!(fires(consumed(180, 30), "SQS005"), ["M"], "BatchSize 10 by default");
    assert!(fires(consumed(180, 30).reports_failures(), "SQS005").is_empty());
    assert!(fires(consumed(180, 30).batch_size(1), "SQS005").is_empty(), "a batch of one fails alone");
}

#[test]
fn sqs006_short_polling_on_a_queue_no_mapping_reads() {
    assert_eq!(fires(ModelBuilder::new().queue("Q"), "SQS006"), ["Q"], "0 s by default");
    assert!(fires(ModelBuilder::new().queue("Q").wait_time(20), "SQS006").is_empty());
    // Lambda long-polls for its mappings; a dead-letter queue is not polled.
    assert!(fires(consumed(180, 30), "SQS006").is_empty());
    let dlq = ModelBuilder::new().queue("DLQ").queue("Q").wait_time(20).redrive("DLQ", 5);
    assert!(fires(dlq, "SQS006").is_empty());
}

#[test]
fn sqs007_a_dead_letter_queue_keeping_messages_no_longer_than_its_source() {
    let pair = |dlq: ModelBuilder| dlq.queue("Q").retention(345_600).redrive("DLQ", 5);
    assert_eq!(fires(pair(ModelBuilder::new().queue("DLQ")), "SQS007"), ["Q"], "both 4 days by default");
    assert!(fires(pair(ModelBuilder::new().queue("DLQ").retention(1_209_600)), "SQS007").is_empty());
    // FIFO queues: not this rule's case.
    let fifo = ModelBuilder::new().queue("DLQ").fifo(true).queue("Q").fifo(true).redrive("DLQ", 5);
    assert!(fires(fifo, "SQS007").is_empty());
}

#[test]
fn sqs008_max_receive_count_below_the_minimum() {
    let min = sqsguard::model::field::guidance::MIN_MAX_RECEIVE_COUNT;
    let with = |n| ModelBuilder::new().queue("DLQ").queue("Q").redrive("DLQ", n);
    assert_eq!(fires(with(min - 1), "SQS008"), ["Q"]);
    assert!(fires(with(min), "SQS008").is_empty());
}

#[test]
fn sqs009_a_dead_letter_queue_of_the_other_type() {
    let pair = |dlq_fifo| ModelBuilder::new().queue("DLQ").fifo(dlq_fifo).queue("Q").fifo(true).redrive("DLQ", 5);
    assert_eq!(fires(pair(false), "SQS009"), ["Q"]);
    assert!(fires(pair(true), "SQS009").is_empty());
}

#[test]
fn sqs010_a_fifo_batch_above_ten() {
    let fifo = |size| ModelBuilder::new().queue("Q").fifo(true).function("F").mapping("M", "Q", "F").batch_size(size);
    assert_eq!(fires(fifo(11), "SQS010"), ["M"]);
    assert!(fires(fifo(10), "SQS010").is_empty());
    assert!(fires(consumed(180, 30).batch_size(11), "SQS010").is_empty(), "a standard queue");
}

#[test]
fn sqs011_a_batch_above_ten_without_a_batching_window() {
    assert_eq!(fires(consumed(180, 30).batch_size(11), "SQS011"), ["M"]);
    assert!(fires(consumed(180, 30).batch_size(11).window(1), "SQS011").is_empty());
    assert!(fires(consumed(180, 30).batch_size(10), "SQS011").is_empty());
}

#[test]
fn sqs012_an_attribute_outside_the_range_aws_accepts() {
    assert_eq!(fires(ModelBuilder::new().queue("Q").visibility(43_201), "SQS012"), ["Q"]);
    assert!(fires(ModelBuilder::new().queue("Q").visibility(43_200), "SQS012").is_empty());
    assert_eq!(fires(ModelBuilder::new().queue("Q").delay(901), "SQS012"), ["Q"]);
    assert_eq!(fires(consumed(180, 30).batch_size(0), "SQS012"), ["M"]);
}

#[test]
fn sqs013_a_fifo_name_that_does_not_match_the_queue_type() {
    let q = |name: &str, fifo| ModelBuilder::new().queue("Q").named(name).fifo(fifo);
    assert_eq!(fires(q("jobs", true), "SQS013"), ["Q"]);
    assert_eq!(fires(q("jobs.fifo", false), "SQS013"), ["Q"]);
    assert!(fires(q("jobs.fifo", true), "SQS013").is_empty());
    assert!(fires(q("jobs", false), "SQS013").is_empty());
}

#[test]
fn sqs014_high_throughput_fifo_needs_message_group_deduplication() {
    let q = || ModelBuilder::new().queue("Q").fifo(true).throughput_limit("perMessageGroupId");
    assert_eq!(fires(q(), "SQS014"), ["Q"], "DeduplicationScope queue by default");
    assert_eq!(fires(q().dedup_scope("queue"), "SQS014"), ["Q"]);
    assert!(fires(q().dedup_scope("messageGroup"), "SQS014").is_empty());
}

#[test]
fn sqs015_a_dead_letter_queue_no_alarm_watches() {
    let pair = || ModelBuilder::new().queue("DLQ").queue("Q").redrive("DLQ", 5);
    assert_eq!(fires(pair(), "SQS015"), ["DLQ"]);
    assert!(fires(pair().depth_alarm("A", "DLQ", "GreaterThanThreshold", 0.0), "SQS015").is_empty());
    // An alarm that waits for five messages misses the first four.
    assert_eq!(fires(pair().depth_alarm("A", "DLQ", "GreaterThanThreshold", 5.0), "SQS015"), ["DLQ"]);
    // A queue that is no dead-letter target needs no alarm.
    assert!(fires(ModelBuilder::new().queue("Q"), "SQS015").is_empty());
}

#[test]
fn sqs016_encryption_turned_off() {
    assert_eq!(fires(ModelBuilder::new().queue("Q").sse(false), "SQS016"), ["Q"]);
    assert!(fires(ModelBuilder::new().queue("Q").sse(false).kms_key("alias/aws/sqs"), "SQS016").is_empty());
    assert!(fires(ModelBuilder::new().queue("Q"), "SQS016").is_empty(), "SSE-SQS by default");
}

#[test]
fn sqs017_a_queue_policy_open_to_everyone() {
    let q = |public, condition| ModelBuilder::new().queue("Q").policy("P", "Q", public, condition);
    assert_eq!(fires(q(true, false), "SQS017"), ["Q"]);
    assert!(fires(q(true, true), "SQS017").is_empty(), "a Condition narrows it");
    assert!(fires(q(false, false), "SQS017").is_empty());
}

#[test]
fn sqs018_a_queue_url_where_an_arn_is_expected() {
    assert_eq!(fires(consumed(180, 30).source_by_url("QueueUrl"), "SQS018"), ["M"]);
    assert!(fires(consumed(180, 30), "SQS018").is_empty());
    let redrive = |url: bool| {
        let b = ModelBuilder::new().queue("DLQ").queue("Q");
        if url { b.redrive_by_url("DLQ", 5, "Ref") } else { b.redrive("DLQ", 5) }
    };
    assert_eq!(fires(redrive(true), "SQS018"), ["Q"]);
    assert!(fires(redrive(false), "SQS018").is_empty());
}

#[test]
fn sqs022_reserved_concurrency_with_no_maximum_concurrency_at_or_below_it() {
    let reserved = |r: i64| {
        ModelBuilder::new()
            .queue("Q")
            .visibility(180)
            .function("F")
            .timeout(30)
            .reserved_concurrency(r)
            .mapping("M", "Q", "F")
    };
    assert_eq!(fires(reserved(10), "SQS022"), ["M"]);
    assert_eq!(fires(reserved(10).maximum_concurrency(11), "SQS022"), ["M"]);
    assert!(fires(reserved(10).maximum_concurrency(10), "SQS022").is_empty());
    assert!(fires(reserved(0), "SQS022").is_empty(), "a function switched off");
    assert!(fires(reserved(-1), "SQS022").is_empty(), "Terraform's no reservation");
    assert!(fires(consumed(180, 30), "SQS022").is_empty(), "no reservation");
}

#[test]
fn sqs019_a_producer_the_queue_policy_does_not_let_in() {
    let fed = || ModelBuilder::new().queue("Q").producer("Sub", Service::Sns, "Topic", "Q");
    assert_eq!(fires(fed(), "SQS019"), ["Q"], "no policy at all");
    let allowed = |principal, actions: &[&str], source| {
        fires(fed().service_policy("P", "Q", principal, actions, source), "SQS019")
    };
    assert!(allowed("sns.amazonaws.com", &["sqs:SendMessage"], Some("Topic")).is_empty());
    assert!(allowed("*", &["SQS:Send*"], Some("Topic")).is_empty(), "* with the source named");
    assert_eq!(allowed("sns.amazonaws.com", &["sqs:SendMessage"], Some("Other")), ["Q"], "another topic");
    assert_eq!(allowed("events.amazonaws.com", &["sqs:*"], None), ["Q"], "another service");
    assert_eq!(allowed("sns.amazonaws.com", &["sqs:ReceiveMessage"], None), ["Q"], "another action");
    let piped = ModelBuilder::new().queue("Q").producer("Pipe", Service::Pipes, "Pipe", "Q");
    assert!(fires(piped, "SQS019").is_empty(), "a pipe sends with its role");
}

#[test]
fn sqs020_a_key_the_producing_service_cannot_use() {
    let fed = |key| ModelBuilder::new().queue("Q").encrypted_with(key).producer("Sub", Service::Sns, "Topic", "Q");
    assert_eq!(fires(fed(KeyRef::AwsManaged), "SQS020"), ["Q"]);
    let cmk = |actions: &[&str]| fed(KeyRef::Resource("K".into())).key("K", "sns.amazonaws.com", actions);
    assert!(fires(cmk(&["kms:GenerateDataKey*", "kms:Decrypt"]), "SQS020").is_empty());
    assert_eq!(fires(cmk(&["kms:Decrypt"]), "SQS020"), ["Q"], "no data key");
    assert!(fires(fed(KeyRef::Other("arn:aws:kms:...".into())), "SQS020").is_empty(), "a key not in the files");
    let unfed = ModelBuilder::new().queue("Q").encrypted_with(KeyRef::AwsManaged);
    assert!(fires(unfed, "SQS020").is_empty(), "no producer");
}

#[test]
fn sqs021_a_producer_that_cannot_deliver_to_the_queue_type() {
    let topic = |fifo_queue, fifo_topic| {
        ModelBuilder::new().queue("Q").fifo(fifo_queue).producer("Sub", Service::Sns, "T", "Q").fifo_topic(fifo_topic)
    };
    assert_eq!(fires(topic(true, false), "SQS021"), ["Q"]);
    assert!(fires(topic(true, true), "SQS021").is_empty());
    assert!(fires(topic(false, true), "SQS021").is_empty(), "a FIFO topic may feed a standard queue");
    let rule = |group: Option<&str>, dedup| {
        let b = ModelBuilder::new().queue("Q").fifo(true).content_dedup(dedup).producer(
            "R",
            Service::EventBridge,
            "R",
            "Q",
        );
        match group {
            Some(g) => b.message_group(g),
            None => b,
        }
    };
    assert_eq!(fires(rule(None, true), "SQS021"), ["Q"], "no message group id");
    assert_eq!(fires(rule(Some("g"), false), "SQS021"), ["Q"], "no content-based deduplication");
    assert!(fires(rule(Some("g"), true), "SQS021").is_empty());
    let s3 = |fifo| ModelBuilder::new().queue("Q").fifo(fifo).producer("B", Service::S3, "B", "Q");
    assert_eq!(fires(s3(true), "SQS021"), ["Q"]);
    assert!(fires(s3(false), "SQS021").is_empty());
}

#[test]
fn sqs023_a_batching_window_on_a_fifo_queues_consumer() {
    let fifo = || ModelBuilder::new().queue("Q").fifo(true).function("F").mapping("M", "Q", "F");
    assert_eq!(fires(fifo().window(1), "SQS023"), ["M"]);
    assert!(fires(fifo().window(0), "SQS023").is_empty(), "a window of 0 is no window");
    assert!(fires(fifo(), "SQS023").is_empty(), "absent is 0");
    assert!(fires(consumed(180, 30).window(5), "SQS023").is_empty(), "a standard queue");
}

#[test]
fn sqs025_a_fifo_only_attribute_on_a_standard_queue() {
    let standard = || ModelBuilder::new().queue("Q");
    assert_eq!(fires(standard().content_dedup(true), "SQS025"), ["Q"], "FifoQueue absent is standard");
    assert_eq!(fires(standard().fifo(false).dedup_scope("messageGroup"), "SQS025"), ["Q"]);
    assert_eq!(fires(standard().throughput_limit("perMessageGroupId"), "SQS025"), ["Q"]);
    let both = standard().dedup_scope("messageGroup").throughput_limit("perMessageGroupId");
    assert_eq!(fires(both, "SQS025"), ["Q", "Q"], "one finding per attribute");
    // The standard values restate what a standard queue does.
    let restated = standard().fifo(false).content_dedup(false).dedup_scope("queue").throughput_limit("perQueue");
    assert!(fires(restated, "SQS025").is_empty());
    let fifo =
        standard().fifo(true).content_dedup(true).dedup_scope("messageGroup").throughput_limit("perMessageGroupId");
    assert!(fires(fifo, "SQS025").is_empty(), "a FIFO queue takes them");
}

/// Each rule alone finds what the whole catalog's check finds for it.
#[test]
fn a_rule_alone_finds_what_the_catalog_finds_for_it() {
    let model = ModelBuilder::new()
        .queue("DLQ")
        .queue("Q")
        .visibility(20)
        .redrive("DLQ", 1)
        .sse(false)
        .function("F")
        .timeout(30)
        .mapping("M", "Q", "F")
        .batch_size(11)
        .build();
    let all = sqsguard::rules::check(&model, &Options::default());
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.kind != sqsguard::rules::Kind::Live) {
        let alone: Vec<String> = run(&model, rule.id.code).into_iter().map(|f| f.message.clone()).collect();
        let in_all: Vec<String> = all.iter().filter(|f| f.code() == rule.id.code).map(|f| f.message.clone()).collect();
        assert_eq!(alone, in_all, "{}", rule.id.code);
    }
    let codes: std::collections::BTreeSet<&str> = all.iter().map(|f| f.code()).collect();
    for code in ["SQS002", "SQS005", "SQS007", "SQS008", "SQS011", "SQS015", "SQS016"] {
        assert!(codes.contains(code), "{code} in {codes:?}");
    }
}

#[test]
fn sqs024_a_stream_only_parameter_on_a_queues_mapping() {
    use sqsguard::model::{Attr, Origin, Value};
    let at = || Origin::live("M", None, None);
    let with = |set: &dyn Fn(&mut sqsguard::model::StreamParameters)| {
        fn absent<T>() -> Attr<T> {
            Attr::single(Value::Absent, Origin::live("M", None, None))
        }
        let mut model = consumed(180, 30).build();
        // A mapping that sets none of them keeps none.
        assert!(model.consumers[0].stream.is_none());
        let stream = model.consumers[0].stream.get_or_insert_with(|| {
            Box::new(sqsguard::model::StreamParameters {
                starting_position: absent(),
                starting_position_timestamp: absent(),
                destination_config: absent(),
                maximum_retry_attempts: absent(),
                maximum_record_age: absent(),
                bisect_batch: absent(),
                parallelization_factor: absent(),
                tumbling_window: absent(),
            })
        });
        set(stream);
        run(&model, "SQS024").into_iter().map(|f| f.severity).collect::<Vec<_>>()
    };
    assert!(with(&|_| {}).is_empty(), "nothing set");
    assert_eq!(with(&|s| s.starting_position = Attr::known("LATEST".into(), at())), [Severity::Error]);
    assert_eq!(with(&|s| s.destination_config = Attr::known(true, at())), [Severity::Error]);
    assert_eq!(with(&|s| s.maximum_retry_attempts = Attr::known(2, at())), [Severity::Warning]);
    assert_eq!(
        with(&|s| {
            s.starting_position_timestamp = Attr::known("1700000000".into(), at());
            s.tumbling_window = Attr::known(60, at());
            s.bisect_batch = Attr::known(false, at());
        }),
        [Severity::Error, Severity::Warning, Severity::Warning],
        "any value set counts, a stream's default too"
    );
    let unknown = with(&|s| s.parallelization_factor = Attr::single(Value::Unknown("a parameter".into()), at()));
    assert!(unknown.is_empty(), "unknown is never a finding");
}
