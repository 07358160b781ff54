//! AWS::CloudWatch::Alarm: the metrics it watches (plain or metric-math
//! `Metrics`), its comparison and threshold.

use super::context::Ctx;
use super::resolve::R;
use super::template::Resource;
use crate::convert::{to_f64, to_string};
use sqsguard_model::{Alarm, AlarmMetric, Model, Value};

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let at = res.entry.key_span;
    let mut metrics = Vec::new();
    for (_, p) in props.alternatives() {
        if p.entry("MetricName").is_some() {
            metrics.push(metric(ctx, p));
        }
        for (_, stat) in ctx.values_at(p, &["Metrics", "*", "MetricStat", "Metric"]) {
            metrics.push(metric(ctx, stat));
        }
    }
    model.alarms.push(Alarm {
        resource: res.id.to_string(),
        origin: ctx.origin(at),
        metrics,
        comparison: ctx.attr_named(Some(&props), "ComparisonOperator", at, to_string),
        threshold: ctx.attr_named(Some(&props), "Threshold", at, to_f64),
    });
}

fn metric(ctx: &Ctx<'_, '_>, m: &R) -> AlarmMetric {
    let string = |key: &str| match m.entry(key) {
        Some((_, v)) => to_string(v),
        None => Value::Absent,
    };
    let mut queue = Value::Absent;
    for (_, dim) in ctx.values_at(m, &["Dimensions", "*"]) {
        let name = dim.entry("Name").and_then(|(_, n)| n.literal());
        if name.as_deref() == Some("QueueName")
            && let Some((_, v)) = dim.entry("Value")
        {
            queue = ctx.queue_name_target(v);
        }
    }
    AlarmMetric { namespace: string("Namespace"), metric_name: string("MetricName"), queue }
}
