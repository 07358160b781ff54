//! Links that could not be resolved are said, never silent: a consumer
//! whose queue or function, a redrive policy whose dead-letter queue, a
//! dead-letter target, an alarm's queue or a policy's queue that is only
//! known at deploy time (a data source, an import, a parameter without a
//! default) is a note naming the resource and the expression. The rules
//! that needed the link do not fire on a guess; the note is how a reader
//! learns that they did not run.

use crate::finding::Note;
use crate::model::{Attr, Model, Origin, Value};

/// The expression at `origin` as written, shortened for a one-line note.
fn written(origin: &Origin) -> Option<String> {
    let Origin::File { file, span } = origin else { return None };
    let text = file.text.get(span.start..span.end)?.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return None;
    }
    let mut chars = text.chars();
    let short: String = chars.by_ref().take(80).collect();
    Some(if chars.next().is_some() { format!("{short}...") } else { short })
}

/// `resource: what `expression` could not be resolved (why): then.` The
/// expression is quoted only where `origin` is the value's own place, not
/// the resource's key or block (an alarm's dimension or a policy's queue
/// list is kept without its place): quoting the key read as if the
/// resource's name were what could not be resolved.
fn note(notes: &mut Vec<Note>, resource: (&str, Option<&Origin>), what: &str, origin: &Origin, why: &str, then: &str) {
    let (resource, own) = resource;
    let expression = match own.is_some_and(|own| origin.is_same_place(own)) {
        true => String::new(),
        false => written(origin).map(|e| format!(" `{e}`")).unwrap_or_default(),
    };
    notes.push(Note {
        origin: origin.clone(),
        message: format!("{resource}: {what}{expression} could not be resolved ({why}): {then}"),
    });
}

/// Every alternative of `attr` that is unknown, once per place.
fn unknown<T>(attr: &Attr<T>) -> impl Iterator<Item = (&Origin, &str)> {
    attr.alts.iter().filter_map(|alt| match &alt.value {
        Value::Unknown(why) => Some((&alt.origin, why.as_str())),
        _ => None,
    })
}

/// The notes for every link of `model` that is only known at deploy time.
pub fn notes(model: &Model) -> Vec<Note> {
    let mut notes = Vec::new();
    for c in &model.consumers {
        for (origin, why) in unknown(&c.queue) {
            let then = "SQS001, SQS002, SQS010 and SQS011 were not checked for it";
            note(&mut notes, (&c.resource, Some(&c.origin)), "the queue it reads", origin, why, then);
        }
        for (origin, why) in unknown(&c.function) {
            let then = "SQS001 and SQS002 were not checked for it";
            note(&mut notes, (&c.resource, Some(&c.origin)), "the function it invokes", origin, why, then);
        }
    }
    for u in &model.unknown_sources {
        let then = "if it is a queue, SQS001, SQS002, SQS005, SQS010 and SQS011 were not checked for it";
        note(&mut notes, (&u.resource, None), "the event source it reads", &u.origin, &u.why, then);
    }
    for u in &model.unknown_producers {
        let then = "if it is a queue of the analysed set, SQS019, SQS020 and SQS021 were not checked for it";
        note(&mut notes, (&u.resource, None), "the queue it delivers to", &u.origin, &u.why, then);
    }
    for q in &model.queues {
        for alt in &q.redrive.alts {
            let Value::Known(redrive) = &alt.value else { continue };
            for (origin, why) in unknown(&redrive.target) {
                let then = "SQS007, SQS009 and SQS015 were not checked for it";
                note(&mut notes, (&q.resource, Some(&q.origin)), "its dead-letter queue", origin, why, then);
            }
        }
    }
    for d in &model.dlq_refs {
        for (origin, why) in unknown(&d.target) {
            let then = "the queue it names is not known to be a dead-letter queue (exempt from SQS004 and SQS006)";
            note(&mut notes, ("a dead-letter target", None), "its queue", origin, why, then);
        }
    }
    for a in &model.alarms {
        for m in &a.metrics {
            let sqs =
                matches!(&m.namespace, Value::Known(n) if n == "AWS/SQS") || matches!(m.namespace, Value::Unknown(_));
            if let (true, Value::Unknown(why)) = (sqs, &m.queue) {
                let then = "it counts as no dead-letter queue's alarm (SQS015)";
                note(
                    &mut notes,
                    (&a.resource, Some(&a.origin)),
                    "the queue of its QueueName dimension",
                    &a.origin,
                    why,
                    then,
                );
            }
        }
    }
    for p in &model.policies {
        for target in &p.queues {
            if let Value::Unknown(why) = target {
                let then = "its findings name the policy, not the queue";
                note(&mut notes, (&p.resource, Some(&p.origin)), "a queue it applies to", &p.origin, why, then);
            }
        }
    }
    notes
}
