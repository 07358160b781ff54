//! SQS015: a dead-letter queue that nothing alarms on.

use super::{Findings, Options, Rule};
use crate::finding::Severity;
use crate::model::{Alarm, Dialect, Model, QueueIdx, Target, Value};

pub static RULE: Rule = Rule {
    code: "SQS015",
    name: "dlq-without-alarm",
    severity: Severity::Warning,
    summary: "Dead-letter queue has no CloudWatch alarm on ApproximateNumberOfMessagesVisible > 0",
    live_only: false,
    doc: include_str!("../../rules/SQS015.md"),
    check,
};

const METRIC: &str = "ApproximateNumberOfMessagesVisible";

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    for (qi, dlq) in model.queues.iter().enumerate() {
        let sources: Vec<&str> = model.redrive_sources_of(qi).map(|(_, q)| q.resource.as_str()).collect();
        if sources.is_empty() {
            continue;
        }
        match alarm_state(model, qi) {
            Coverage::Covered | Coverage::Unknown => continue,
            Coverage::Missing => {}
        }
        let message = format!(
            "dead-letter queue {} (of {}) has no CloudWatch alarm on {METRIC} > 0: failed messages pile up unseen until they expire",
            dlq.resource,
            sources.join(", ")
        );
        let fix = match model.dialect {
            Dialect::CloudFormation => format!(
                "add an AWS::CloudWatch::Alarm on AWS/SQS {METRIC} with the QueueName dimension of this queue, ComparisonOperator GreaterThanThreshold and Threshold 0"
            ),
            Dialect::Terraform => format!(
                "add an aws_cloudwatch_metric_alarm on namespace \"AWS/SQS\", metric_name \"{METRIC}\", dimensions = {{ QueueName = <this queue>.name }}, comparison_operator \"GreaterThanThreshold\", threshold 0"
            ),
        };
        findings.add(&RULE, &dlq.resource, &dlq.origin, message, fix);
    }
}

enum Coverage {
    Covered,
    Missing,
    /// Some alarm might cover it (a queue dimension or threshold that could
    /// not be resolved): say nothing.
    Unknown,
}

fn alarm_state(model: &Model, queue: QueueIdx) -> Coverage {
    let mut unknown = false;
    for alarm in &model.alarms {
        for metric in &alarm.metrics {
            let named = |v: &Value<String>, want: &str| match v {
                Value::Known(s) => Some(s == want),
                _ => None,
            };
            match (named(&metric.namespace, "AWS/SQS"), named(&metric.metric_name, METRIC)) {
                (Some(true), Some(true)) => {}
                (Some(false), _) | (_, Some(false)) => continue,
                _ => {
                    unknown = true;
                    continue;
                }
            }
            match &metric.queue {
                Value::Known(Target::Queue(q)) if *q == queue => {}
                Value::Known(_) | Value::Absent => continue,
                Value::Unknown(_) => {
                    unknown = true;
                    continue;
                }
            }
            match fires_on_any_message(alarm) {
                Some(true) => return Coverage::Covered,
                Some(false) => {}
                None => unknown = true,
            }
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
