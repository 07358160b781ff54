//! AWS::CloudWatch::Alarm: the metrics it watches (plain or metric-math
//! `Metrics`), its comparison and threshold, read by the field table's
//! names; the one CloudFormation shape read here is where the metrics sit
//! and a `Dimensions` list of `Name`/`Value` pairs.

use super::context::Ctx;
use super::resolve::R;
use super::template::Resource;
use crate::convert::to_string;
use sqsguard_model::field::QUEUE_DIMENSION;
use sqsguard_model::{Alarm, AlarmMetric, Dialect, Field, Model, Value};

const CFN: Dialect = Dialect::CloudFormation;

pub(crate) fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>, model: &mut Model) {
    let Some(props) = ctx.properties(res) else { return };
    let at = res.entry.key_span;
    let mut metrics = Vec::new();
    for (_, p) in props.alternatives() {
        if p.entry(CFN.name(Field::MetricName)).is_some() {
            metrics.push(metric(ctx, p));
        }
        for (_, stat) in ctx.values_at(p, &[CFN.name(Field::Metrics), "*", "MetricStat", "Metric"]) {
            metrics.push(metric(ctx, stat));
        }
    }
    let fields = ctx.fields(Some(&props), at);
    model.alarms.push(Alarm::read(res.id, ctx.origin(at), metrics, &fields));
}

fn metric(ctx: &Ctx<'_, '_>, m: &R) -> AlarmMetric {
    let text = |field| match m.entry(CFN.name(field)) {
        Some((_, v)) => to_string(v),
        None => Value::Absent,
    };
    let mut queue = Value::Absent;
    for (_, dim) in ctx.values_at(m, &[CFN.name(Field::Dimensions), "*"]) {
        let name = dim.entry("Name").and_then(|(_, n)| n.literal());
        if name.as_deref() == Some(QUEUE_DIMENSION)
            && let Some((_, v)) = dim.entry("Value")
        {
            queue = ctx.queue_name_target(v);
        }
    }
    AlarmMetric::read(text, queue)
}
