//! SQS015: a dead-letter queue that nothing alarms on.

use super::{Context, Findings, Link, LiveInput};
use sqsguard_model::{Alarm, AlarmMetric, Dialect, Target, Value};

rule! {
    code: "SQS015",
    name: "dlq-without-alarm",
    severity: Warning,
    summary: "Dead-letter queue has no CloudWatch alarm on ApproximateNumberOfMessagesVisible > 0",
    kind: Template,
    check: check,
    reads: &[Link::RedriveTarget, Link::AlarmQueue],
    needs: &[LiveInput::QueueAttributes, LiveInput::Alarms],
    misled_without: &[LiveInput::Alarms],
}

const METRIC: &str = "ApproximateNumberOfMessagesVisible";

fn check(cx: &Context<'_>, findings: &mut Findings) {
    // An alarm whose metric or queue cannot be resolved might cover any
    // dead-letter queue: then say nothing about any of them.
    if cx.model.alarms.iter().any(|a| a.metrics.iter().any(might_watch_any_queue)) {
        return;
    }
    for (qi, dlq) in cx.model.queues.iter().enumerate() {
        let sources: Vec<&str> = cx.index.redrive_sources_of(qi).map(|q| q.resource.as_str()).collect();
        if sources.is_empty() {
            continue;
        }
        match coverage(cx.index.watched_by(qi)) {
            Coverage::Covered | Coverage::Unknown => continue,
            Coverage::Missing => {}
        }
        let message = format!(
            "dead-letter queue {} (of {}) has no CloudWatch alarm on {METRIC} > 0: failed messages pile up unseen until they expire",
            dlq.resource,
            sources.join(", ")
        );
        let fix = add_depth_alarm(cx.dialect(), METRIC, &dlq.resource);
        findings.push(RULE.finding(&dlq.resource, &dlq.origin, message, fix));
    }
}

enum Coverage {
    Covered,
    Missing,
    /// Some alarm might cover it (a threshold that could not be resolved):
    /// say nothing.
    Unknown,
}

/// Is the metric (maybe) the depth metric, with a queue that cannot be told?
fn might_watch_any_queue(metric: &AlarmMetric) -> bool {
    match depth_metric(metric) {
        Some(true) => matches!(metric.queue, Value::Unknown(_)),
        Some(false) => false,
        None => true,
    }
}

/// Is it AWS/SQS ApproximateNumberOfMessagesVisible? `None`: unknown.
fn depth_metric(metric: &AlarmMetric) -> Option<bool> {
    let named = |v: &Value<String>, want: &str| match v {
        Value::Known(s) => Some(s == want),
        _ => None,
    };
    match (named(&metric.namespace, "AWS/SQS"), named(&metric.metric_name, METRIC)) {
        (Some(true), Some(true)) => Some(true),
        (Some(false), _) | (_, Some(false)) => Some(false),
        _ => None,
    }
}

/// Whether the alarms on a queue's QueueName dimension cover it.
fn coverage(watches: &[(&Alarm, &AlarmMetric)]) -> Coverage {
    let mut unknown = false;
    for (alarm, metric) in watches {
        if depth_metric(metric) != Some(true) || !matches!(metric.queue, Value::Known(Target::Queue(_))) {
            continue;
        }
        match fires_on_any_message(alarm) {
            Some(true) => return Coverage::Covered,
            Some(false) => {}
            None => unknown = true,
        }
    }
    if unknown { Coverage::Unknown } else { Coverage::Missing }
}

/// Does the alarm fire as soon as one message is visible? `None`: unknown.
fn fires_on_any_message(alarm: &Alarm) -> Option<bool> {
    let mut any_unknown = false;
    for op in alarm.comparison.iter() {
        for threshold in alarm.threshold.iter() {
            let (Some(op), Some(t)) = (op.value.known(), threshold.value.known()) else {
                any_unknown = true;
                continue;
            };
            let fires = match op.as_str() {
                "GreaterThanThreshold" => *t < 1.0,
                "GreaterThanOrEqualToThreshold" => *t <= 1.0,
                _ => false,
            };
            if fires {
                return Some(true);
            }
        }
    }
    if any_unknown { None } else { Some(false) }
}

/// How to alarm on a queue's `metric` as soon as it holds a message (SQS015).
fn add_depth_alarm(dialect: Dialect, metric: &str, queue: &str) -> String {
    match dialect {
        // A live queue (its resource is its URL): the call that creates one.
        Dialect::Api => {
            let name = queue.rsplit('/').next().unwrap_or(queue);
            format!(
                "create a CloudWatch alarm on AWS/SQS {metric} > 0 for queue {name} (aws cloudwatch put-metric-alarm --alarm-name {name}-not-empty --namespace AWS/SQS --metric-name {metric} --dimensions Name=QueueName,Value={name} --statistic Maximum --period 60 --evaluation-periods 1 --threshold 0 --comparison-operator GreaterThanThreshold --alarm-actions <an SNS topic ARN>)"
            )
        }
        Dialect::CloudFormation | Dialect::Serverless => format!(
            "add an AWS::CloudWatch::Alarm on AWS/SQS {metric} with the QueueName dimension of this queue, ComparisonOperator GreaterThanThreshold and Threshold 0"
        ),
        Dialect::Terraform => format!(
            "add an aws_cloudwatch_metric_alarm on namespace \"AWS/SQS\", metric_name \"{metric}\", dimensions = {{ QueueName = <this queue>.name }}, comparison_operator \"GreaterThanThreshold\", threshold 0"
        ),
    }
}
