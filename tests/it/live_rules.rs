//! The live-only rules (SQS101-SQS104) and the live form of SQS006 on
//! models as the audit fills them: queues located by URL, with counters
//! and CloudWatch statistics.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use sqsguard::model::{Attr, LiveQueue, Model, Origin, Queue, Redrive, Target, Via};

fn origin(name: &str) -> Origin {
    Origin::live(
        format!("https://sqs.eu-west-1.amazonaws.com/123456789012/{name}"),
        Some("123456789012".into()),
        Some("eu-west-1".into()),
    )
}

fn queue(name: &str, live: LiveQueue) -> Queue {
    let mut q = Queue::new(format!("https://sqs.eu-west-1.amazonaws.com/123456789012/{name}"), origin(name));
    q.receive_wait_time = Attr::known(20, origin(name));
    q.live = Some(Box::new(LiveQueue { lookback_seconds: 3600, ..live }));
    q
}

fn codes(model: &Model) -> Vec<(&'static str, String)> {
    let mut out: Vec<_> = sqsguard::rules::check(model, &Default::default())
        .into_iter()
        .filter(|f| f.code().starts_with("SQS1") || f.code() == "SQS006")
        .map(|f| (f.code(), f.resource.rsplit('/').next().unwrap().to_string()))
        .collect();
    out.sort();
    out
}

#[test]
fn each_live_rule_fires_on_its_condition_and_not_beside_it() {
    let mut model = Model::default();
    let mut jobs = queue(
        "jobs",
        LiveQueue { visible: Some(5), in_flight: Some(3), oldest_age_max: Some(120.0), ..Default::default() },
    );
    jobs.redrive = Attr::known(
        Redrive {
            target: Attr::known(Target::Queue(1), origin("jobs")),
            target_via: Attr::known(Via::Arn, origin("jobs")),
            max_receive_count: Attr::known(5, origin("jobs")),
        },
        origin("jobs"),
    );
    model.queues.push(jobs);
    // A DLQ holding messages: SQS101, and not SQS103 (nothing consumes a DLQ).
    model.queues.push(queue("jobs-dlq", LiveQueue { visible: Some(250), in_flight: Some(0), ..Default::default() }));
    // Too old (SQS102), starving (SQS103).
    model.queues.push(queue(
        "slow",
        LiveQueue { visible: Some(500), in_flight: Some(0), oldest_age_max: Some(901.0), ..Default::default() },
    ));
    // 100,000 in flight on a standard queue: above 80% of 120,000 (SQS104).
    model.queues.push(queue("busy", LiveQueue { visible: Some(0), in_flight: Some(100_000), ..Default::default() }));
    // 20,000 in flight is fine for a standard queue, not for a FIFO one.
    model.queues.push(queue("calm", LiveQueue { visible: Some(0), in_flight: Some(20_000), ..Default::default() }));
    let mut fifo = queue("orders.fifo", LiveQueue { visible: Some(0), in_flight: Some(17_000), ..Default::default() });
    fifo.fifo = Attr::known(true, origin("orders.fifo"));
    model.queues.push(fifo);
    // Short polling by the consumers, whatever the queue says (SQS006 live form)...
    model.queues.push(queue(
        "polled",
        LiveQueue { empty_receives: Some(54_000.0), received: Some(120.0), ..Default::default() },
    ));
    // ...but an idle long-polled queue (180 empty receives an hour a poller) is fine.
    model
        .queues
        .push(queue("idle", LiveQueue { empty_receives: Some(540.0), received: Some(0.0), ..Default::default() }));
    // Unknown counters (the call failed): nothing.
    model.queues.push(queue("unread", LiveQueue::default()));

    assert_eq!(
        codes(&model),
        vec![
            ("SQS006", "polled".to_string()),
            ("SQS101", "jobs-dlq".to_string()),
            ("SQS102", "slow".to_string()),
            ("SQS103", "slow".to_string()),
            ("SQS104", "busy".to_string()),
            ("SQS104", "orders.fifo".to_string()),
        ]
    );
}

#[test]
fn the_sla_and_starvation_threshold_are_options() {
    let mut model = Model::default();
    // 600 s old with 150 waiting and none in flight: SQS102 and SQS103 by default.
    model.queues.push(queue(
        "slow",
        LiveQueue { visible: Some(150), in_flight: Some(0), oldest_age_max: Some(600.0), ..Default::default() },
    ));
    let fired = |config: &str| -> Vec<&'static str> {
        let config = sqsguard::config::load_text(std::path::Path::new(".sqsguard.yaml"), config.to_string()).unwrap();
        sqsguard::rules::check(&model, &config.options)
            .into_iter()
            .map(|f| f.code())
            .filter(|c| c.starts_with("SQS1"))
            .collect()
    };
    assert_eq!(fired(""), vec!["SQS102", "SQS103"]);
    // As a config sets them: a 15-minute SLA (a duration) and 200 messages.
    assert_eq!(fired("rules: {SQS102: {sla: 15m}, SQS103: {threshold: 200}}\n"), Vec::<&str>::new());
    // Each option reaches its own rule only.
    assert_eq!(fired("rules: {SQS102: {sla: 900}}\n"), vec!["SQS103"]);
    assert_eq!(fired("rules: {SQS103: {threshold: 150}}\n"), vec!["SQS102"]);
}
