//! Links that could not be resolved are said, never silent: a consumer
//! whose queue or function, a redrive policy whose dead-letter queue, a
//! dead-letter target, an alarm's queue or a policy's queue that is only
//! known at deploy time (a data source, an import, a parameter without a
//! default) is a note naming the resource and the expression. The rules
//! that needed the link do not fire on a guess; the note is how a reader
//! learns that they did not run. Which rules those are, the catalog says
//! (each rule's `reads`).

use super::{ALL, Kind, Link};
use sqsguard_finding::Note;
use sqsguard_model::code::Reports;
use sqsguard_model::{Attr, Model, Origin, Target, Value};

/// `SQS001, SQS002 and SQS010`: the rules that read `link` and run where
/// `origin` is (a file is not judged by a live rule, an account by no code
/// rule), in code order.
fn readers(link: Link, origin: &Origin) -> String {
    let skip = match origin {
        Origin::File { .. } => Kind::Live,
        Origin::Live(_) => Kind::Code,
    };
    let codes: Vec<&str> =
        ALL.iter().filter(|r| r.kind != skip && r.reads.contains(&link)).map(|r| r.id.code).collect();
    match codes.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// `SQS001 and SQS002 were not checked for it` (`SQS015 was ...` for one).
fn not_checked(link: Link, origin: &Origin) -> String {
    let codes = readers(link, origin);
    let were = if codes.contains(' ') { "were" } else { "was" };
    format!("{codes} {were} not checked for it")
}

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
            let then = not_checked(Link::ConsumerQueue, origin);
            note(&mut notes, (&c.resource, Some(&c.origin)), "the queue it reads", origin, why, &then);
        }
        for (origin, why) in unknown(&c.function) {
            let then = not_checked(Link::ConsumerFunction, origin);
            note(&mut notes, (&c.resource, Some(&c.origin)), "the function it invokes", origin, why, &then);
        }
    }
    for u in &model.unknown_sources {
        let then = format!("if it is a queue, {}", not_checked(Link::Consumer, &u.origin));
        note(&mut notes, (&u.resource, None), "the event source it reads", &u.origin, &u.why, &then);
    }
    for u in &model.unknown_producers {
        let then = format!("if it is a queue of the analysed set, {}", not_checked(Link::ProducerQueue, &u.origin));
        note(&mut notes, (&u.resource, None), "the queue it delivers to", &u.origin, &u.why, &then);
    }
    for q in &model.queues {
        for alt in &q.redrive.alts {
            let Value::Known(redrive) = &alt.value else { continue };
            for (origin, why) in unknown(&redrive.target) {
                let then = not_checked(Link::RedriveTarget, origin);
                note(&mut notes, (&q.resource, Some(&q.origin)), "its dead-letter queue", origin, why, &then);
            }
        }
    }
    for d in &model.dlq_refs {
        for (origin, why) in unknown(&d.target) {
            let then = format!(
                "the queue it names is not known to be a dead-letter queue (exempt from {})",
                readers(Link::DeadLetterTarget, origin)
            );
            note(&mut notes, ("a dead-letter target", None), "its queue", origin, why, &then);
        }
    }
    for a in &model.alarms {
        for m in &a.metrics {
            let sqs =
                matches!(&m.namespace, Value::Known(n) if n == "AWS/SQS") || matches!(m.namespace, Value::Unknown(_));
            if let (true, Value::Unknown(why)) = (sqs, &m.queue) {
                let then =
                    format!("it counts as no dead-letter queue's alarm ({})", readers(Link::AlarmQueue, &a.origin));
                note(
                    &mut notes,
                    (&a.resource, Some(&a.origin)),
                    "the queue of its QueueName dimension",
                    &a.origin,
                    why,
                    &then,
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
    handlers(model, &mut notes);
    notes
}

/// A consumer's handler whose answer is not known is said: the rules that
/// judge what it returns do not judge it.
fn handlers(model: &Model, notes: &mut Vec<Note>) {
    let consumed = |function: usize| {
        model
            .consumers
            .iter()
            .any(|c| c.function.iter().any(|a| matches!(a.value.known(), Some(Target::Function(f)) if *f == function)))
    };
    for h in &model.handlers {
        if let Reports::Unknown(why) = &h.reports
            && consumed(h.function)
        {
            let function = model.functions.get(h.function).map_or("-", |f| f.resource.as_str());
            let rules = readers(Link::HandlerReports, &h.origin);
            notes.push(Note {
                origin: h.origin.clone(),
                message: format!(
                    "whether the handler of {function} returns batch item failures is not known ({why}): {rules} do not judge it"
                ),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_a_note_names_are_the_catalogs_readers_of_the_link() {
        let file = sqsguard_source::SourceFile::new("t.yaml", String::new());
        let origin = Origin::file(&file, sqsguard_source::Span::new(0, 0));
        assert_eq!(
            not_checked(Link::ConsumerFunction, &origin),
            "SQS001, SQS002, SQS022, SQS201, SQS202, SQS203 and SQS213 were not checked for it"
        );
        assert_eq!(readers(Link::AlarmQueue, &origin), "SQS015");
        // A file is judged by no live rule: SQS101 and SQS103 also read it.
        assert_eq!(readers(Link::DeadLetterTarget, &origin), "SQS004 and SQS006");
    }
}
