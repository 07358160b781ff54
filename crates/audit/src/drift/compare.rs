//! The settings the rules read, compared between a template resource and
//! the live one it deploys to: each difference an SQS105 at the template's
//! value (or at its resource when the template leaves the setting to AWS's
//! default), with both values. A template value only known at deploy time
//! is a note, never a silent match.

use std::collections::HashSet;
use std::fmt::Display;

use super::join::{Joined, Pair};
use super::names::{self, last_part};
use sqsguard_finding::{Finding, Note};
use sqsguard_model::{Attr, Field, Model, Redrive, Target, Value};
use sqsguard_rules::LIVE_DIFFERS;

/// What an absent value means for a field.
enum Absent<T> {
    /// AWS's default applies.
    Is(T),
    /// Nothing is set, and that is a value (no reserved concurrency).
    NotSet,
    /// The template leaves it to AWS: compared only when the template sets it.
    Aws,
}

/// Where a comparison's findings and notes go, and the functions already
/// compared (a function with two mappings is compared once).
pub(crate) struct Out<'o> {
    pub findings: &'o mut Vec<Finding>,
    pub notes: &'o mut Vec<Note>,
    pub functions: HashSet<(usize, usize)>,
}

/// What is compared: the template's model and resource, the live one
/// (what people call it, and its URL, UUID or ARN).
struct Sides<'a> {
    template: &'a Model,
    resource: &'a str,
    live_kind: &'static str,
    live_name: String,
    live_id: &'a str,
}

/// An SQS105 at the template's resource, about the live one too.
fn differs(resource: &str, live_id: &str, at: &sqsguard_model::Origin, message: String, fix: String) -> Finding {
    let mut f = LIVE_DIFFERS.finding(resource, at, message, fix);
    f.related.push(live_id.to_string());
    f
}

fn show<T: Display>(v: &Option<T>) -> String {
    v.as_ref().map_or("not set".to_string(), |v| v.to_string())
}

fn compare<T: PartialEq + Clone + Display>(
    sides: &Sides<'_>,
    field: Field,
    template: &Attr<T>,
    live: &Attr<T>,
    absent: Absent<T>,
    out: &mut Out<'_>,
) {
    let name = sides.template.dialect.name(field);
    let value = |v: &Value<T>| -> Option<Option<T>> {
        match v {
            Value::Known(v) => Some(Some(v.clone())),
            Value::Absent => match &absent {
                Absent::Is(d) => Some(Some(d.clone())),
                Absent::NotSet => Some(None),
                Absent::Aws => None,
            },
            Value::Unknown(_) => None,
        }
    };
    // A live value not read: the audit says what it could not read.
    let [live_alt] = live.alts.as_slice() else { return };
    let Some(now) = value(&live_alt.value).or(matches!(live_alt.value, Value::Absent).then_some(None)) else {
        return;
    };
    let mut differing = Vec::new();
    for alt in &template.alts {
        match (&alt.value, value(&alt.value)) {
            (Value::Unknown(why), _) => out.notes.push(Note {
                origin: alt.origin.clone(),
                message: format!(
                    "{name} of {} is not compared with the live {} {}: the template's value is not known ({why})",
                    sides.resource, sides.live_kind, sides.live_name
                ),
            }),
            (_, Some(written)) if written == now => return,
            (Value::Absent, Some(written)) => {
                differing.push((alt, format!("not set in the template (so {})", show(&written))))
            }
            (_, Some(written)) => differing.push((alt, format!("{} in the template", show(&written)))),
            (_, None) => {}
        }
    }
    for (alt, was) in differing {
        let message = format!(
            "{name} of {} is {was}{} but {} on the live {} {}",
            sides.resource,
            alt.when,
            show(&now),
            sides.live_kind,
            sides.live_name
        );
        let fix = format!(
            "deploy the template again to put the live {} back, or write {} in the template if it is what you want",
            sides.live_kind,
            show(&now)
        );
        out.findings.push(differs(sides.resource, sides.live_id, &alt.origin, message, fix));
    }
}

/// A queue's name as a template or the account says it, for a redrive
/// target: the live queue a template queue joined, else its written name.
fn target_name(joined: &Joined<'_>, model: (usize, &Model), target: &Value<Target>, live: bool) -> Option<String> {
    match target {
        Value::Known(Target::Queue(q)) if live => Some(last_part(&model.1.queues[*q].resource).to_string()),
        Value::Known(Target::Queue(q)) => match joined.live_of((model.0, *q)) {
            Some((m, i)) => Some(last_part(&joined.live[m].queues[i].resource).to_string()),
            None => model.1.queues[*q].name.alts.first()?.value.known().map(|n| n.text.clone()),
        },
        Value::Known(Target::External(text)) => Some(last_part(text).to_string()),
        _ => None,
    }
}

pub(crate) fn queue(pair: &Pair, joined: &Joined<'_>, out: &mut Out<'_>) {
    let (t, l) = (&joined.templates[pair.template.0], &joined.live[pair.live.0]);
    let (tq, lq) = (&t.queues[pair.template.1], &l.queues[pair.live.1]);
    let live_name = names::queue(l, pair.live.1).to_string();
    let sides = Sides { template: t, resource: &tq.resource, live_kind: "queue", live_name, live_id: &lq.resource };
    let int = |f: Field| f.default().map_or(Absent::Aws, Absent::Is);
    for (field, a, b) in [
        (Field::VisibilityTimeout, &tq.visibility_timeout, &lq.visibility_timeout),
        (Field::ReceiveWaitTime, &tq.receive_wait_time, &lq.receive_wait_time),
        (Field::RetentionPeriod, &tq.retention_period, &lq.retention_period),
        (Field::DelaySeconds, &tq.delay_seconds, &lq.delay_seconds),
    ] {
        compare(&sides, field, a, b, int(field), out);
    }
    compare(&sides, Field::FifoQueue, &tq.fifo, &lq.fifo, Absent::Is(false), out);
    compare(&sides, Field::ContentBasedDedup, &tq.content_based_dedup, &lq.content_based_dedup, Absent::Is(false), out);
    // New queues get SQS-managed encryption unless told otherwise: only a
    // template that says is compared.
    compare(&sides, Field::SqsManagedSse, &tq.sse_enabled, &lq.sse_enabled, Absent::Aws, out);
    for (field, a, b) in [
        (Field::KmsMasterKeyId, &tq.kms_key, &lq.kms_key),
        (Field::FifoThroughputLimit, &tq.fifo_throughput_limit, &lq.fifo_throughput_limit),
        (Field::DeduplicationScope, &tq.deduplication_scope, &lq.deduplication_scope),
    ] {
        compare(&sides, field, a, b, Absent::Aws, out);
    }
    redrive(&sides, pair, joined, out);
}

fn redrive(sides: &Sides<'_>, pair: &Pair, joined: &Joined<'_>, out: &mut Out<'_>) {
    let (t, l) = (&joined.templates[pair.template.0], &joined.live[pair.live.0]);
    let (tq, lq) = (&t.queues[pair.template.1], &l.queues[pair.live.1]);
    let name = t.dialect.name(Field::RedrivePolicy);
    let [live_alt] = lq.redrive.alts.as_slice() else { return };
    let live: Option<&Redrive> = match &live_alt.value {
        Value::Known(r) => Some(r),
        Value::Absent => None,
        Value::Unknown(_) => return,
    };
    for alt in &tq.redrive.alts {
        let written = match &alt.value {
            Value::Known(r) => r,
            Value::Absent => {
                if let Some(r) = live {
                    let target =
                        r.target.alts.first().and_then(|a| target_name(joined, (pair.live.0, l), &a.value, true));
                    let message = format!(
                        "{name} of {} is not set in the template{} but the live queue {} sends to {} after {} receives",
                        tq.resource,
                        alt.when,
                        sides.live_name,
                        target.as_deref().unwrap_or("a queue"),
                        r.max_receive_count
                            .alts
                            .first()
                            .and_then(|a| a.value.known())
                            .map_or("?".into(), |n| n.to_string()),
                    );
                    let fix =
                        "write the live RedrivePolicy in the template, or deploy it again to remove it".to_string();
                    out.findings.push(differs(&tq.resource, &lq.resource, &alt.origin, message, fix));
                }
                continue;
            }
            Value::Unknown(_) => continue,
        };
        let Some(r) = live else {
            let message = format!(
                "{name} of {} is set in the template{} but the live queue {} has none: failed messages are never set aside",
                tq.resource, alt.when, sides.live_name
            );
            let fix = "deploy the template again to put the RedrivePolicy back".to_string();
            out.findings.push(differs(&tq.resource, &lq.resource, &alt.origin, message, fix));
            continue;
        };
        compare(sides, Field::MaxReceiveCount, &written.max_receive_count, &r.max_receive_count, Absent::Aws, out);
        let (Some(ta), Some(la)) = (written.target.alts.first(), r.target.alts.first()) else { continue };
        let was = target_name(joined, (pair.template.0, t), &ta.value, false);
        let now = target_name(joined, (pair.live.0, l), &la.value, true);
        if let (Some(was), Some(now)) = (was, now)
            && was != now
        {
            let target = t.dialect.name(Field::DeadLetterTarget);
            let message = format!(
                "{target} of {} is {was} in the template{} but {now} on the live queue {}",
                tq.resource, ta.when, sides.live_name
            );
            let fix = "deploy the template again, or point the template at the queue you mean".to_string();
            out.findings.push(differs(&tq.resource, &lq.resource, &ta.origin, message, fix));
        }
    }
}

pub(crate) fn consumer(pair: &Pair, joined: &Joined<'_>, out: &mut Out<'_>) {
    let (t, l) = (&joined.templates[pair.template.0], &joined.live[pair.live.0]);
    let (tc, lc) = (&t.consumers[pair.template.1], &l.consumers[pair.live.1]);
    let live_name = names::mapping(l, pair.live.1);
    let sides = Sides { template: t, resource: &tc.resource, live_kind: "mapping", live_name, live_id: &lc.resource };
    let int = |f: Field| f.default().map_or(Absent::Aws, Absent::Is);
    compare(&sides, Field::BatchSize, &tc.batch_size, &lc.batch_size, int(Field::BatchSize), out);
    compare(&sides, Field::BatchingWindow, &tc.batching_window, &lc.batching_window, int(Field::BatchingWindow), out);
    let listed = |a: &Attr<Vec<String>>| Attr {
        alts: a
            .alts
            .iter()
            .map(|alt| sqsguard_model::Alt {
                value: match &alt.value {
                    Value::Known(v) => Value::Known(v.join(", ")),
                    Value::Absent => Value::Absent,
                    Value::Unknown(w) => Value::Unknown(w.clone()),
                },
                ..sqsguard_model::Alt::new(Value::Absent, alt.origin.clone(), alt.when.clone())
            })
            .collect(),
    };
    let none = Absent::Is(String::new());
    compare(&sides, Field::FunctionResponseTypes, &listed(&tc.response_types), &listed(&lc.response_types), none, out);
    compare(&sides, Field::MaximumConcurrency, &tc.maximum_concurrency, &lc.maximum_concurrency, Absent::NotSet, out);
    // A mapping switched off behind the template stops every consumer; one
    // in a passing state (Creating, Updating) is said, not compared.
    compare(&sides, Field::MappingEnabled, &tc.enabled, &lc.enabled, Absent::Is(true), out);
    if let [alt] = lc.enabled.alts.as_slice()
        && let Value::Unknown(why) = &alt.value
    {
        out.notes.push(Note {
            origin: tc.origin.clone(),
            message: format!(
                "{} of {} is not compared with the live mapping {}: {why}",
                t.dialect.name(Field::MappingEnabled),
                tc.resource,
                sides.live_name
            ),
        });
    }
    let function = |a: &Attr<Target>| match a.alts.as_slice() {
        [alt] => match alt.value {
            Value::Known(Target::Function(f)) => Some(f),
            _ => None,
        },
        _ => None,
    };
    let Some(tf) = function(&tc.function) else { return };
    // The function its stack names, else the live mapping's.
    let (m, lf) = match joined.functions.get(&(pair.template.0, tf)) {
        Some(&lf) => lf,
        None => match function(&lc.function) {
            Some(lf) => (pair.live.0, lf),
            None => return,
        },
    };
    if !out.functions.insert((pair.template.0, tf)) {
        return;
    }
    let l = &joined.live[m];
    let (tf, lf) = (&t.functions[tf], &l.functions[lf]);
    let live_name = last_part(&lf.resource).to_string();
    let sides = Sides { template: t, resource: &tf.resource, live_kind: "function", live_name, live_id: &lf.resource };
    compare(&sides, Field::Timeout, &tf.timeout, &lf.timeout, int(Field::Timeout), out);
    compare(
        &sides,
        Field::ReservedConcurrency,
        &tf.reserved_concurrency,
        &lf.reserved_concurrency,
        Absent::NotSet,
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_model::{Alt, Name, Origin, Queue, When};
    use std::sync::Arc;

    const URL: &str = "https://sqs.eu-west-1.amazonaws.com/123456789012/jobs";

    fn models(template: Attr<i64>, live: Option<i64>) -> (Vec<Model>, Vec<Model>) {
        let at = Origin::path(std::path::Path::new("template.yaml"));
        let mut t = Queue::new("Jobs", at.clone());
        t.name = Attr::known(Name { text: "jobs".into(), suffix_known: true }, at);
        t.visibility_timeout = template;
        let origin = Origin::live(URL, None, None);
        let mut l = Queue::new(URL, origin.clone());
        if let Some(v) = live {
            l.visibility_timeout = Attr::known(v, origin);
        }
        (vec![Model { queues: vec![t], ..Model::default() }], vec![Model { queues: vec![l], ..Model::default() }])
    }

    fn run(template: Attr<i64>, live: Option<i64>) -> (Vec<String>, Vec<String>) {
        let (t, l) = models(template, live);
        let mut joined = super::super::join::Joined::new(&t, &l);
        super::super::join::join(&mut joined);
        assert_eq!(joined.queues.len(), 1);
        let (mut findings, mut notes) = (Vec::new(), Vec::new());
        let mut out = Out { findings: &mut findings, notes: &mut notes, functions: HashSet::new() };
        queue(&joined.queues[0], &joined, &mut out);
        (findings.into_iter().map(|f| f.message.clone()).collect(), notes.into_iter().map(|n| n.message).collect())
    }

    fn at() -> Origin {
        Origin::path(std::path::Path::new("template.yaml"))
    }

    #[test]
    fn an_absent_value_is_aws_default_on_both_sides() {
        assert_eq!(run(Attr::absent(at()), None), (vec![], vec![]));
        assert_eq!(run(Attr::absent(at()), Some(30)), (vec![], vec![]));
        let (findings, _) = run(Attr::absent(at()), Some(60));
        assert_eq!(
            findings,
            vec![format!("VisibilityTimeout of Jobs is not set in the template (so 30) but 60 on the live queue jobs")]
        );
        let (findings, _) = run(Attr::known(90, at()), None);
        assert_eq!(
            findings,
            vec!["VisibilityTimeout of Jobs is 90 in the template but 30 on the live queue jobs".to_string()]
        );
    }

    #[test]
    fn a_condition_differs_only_when_no_branch_has_the_live_value() {
        let cond: Arc<str> = Arc::from("IsProd");
        let branches = |a: i64, b: i64| Attr {
            alts: vec![
                Alt::new(Value::Known(a), at(), When::always().with(&cond, true)),
                Alt::new(Value::Known(b), at(), When::always().with(&cond, false)),
            ],
        };
        assert_eq!(run(branches(300, 60), Some(60)), (vec![], vec![]));
        let (findings, _) = run(branches(300, 60), Some(45));
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert!(findings[0].contains("is 300 in the template (when condition IsProd is true) but 45"), "{findings:?}");
    }

    #[test]
    fn a_value_known_only_at_deploy_time_is_a_note_not_a_match() {
        let (findings, notes) = run(Attr::single(Value::Unknown("a parameter with no default".into()), at()), Some(30));
        assert_eq!(findings, Vec::<String>::new());
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("not compared") && notes[0].contains("a parameter with no default"), "{notes:?}");
    }
}
