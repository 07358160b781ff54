//! SQS013: a FIFO queue whose name lacks `.fifo`, or a `.fifo` standard queue.

use super::{Findings, Options, Rule, all_of};
use crate::finding::Severity;
use crate::model::{Field, Model};

pub static RULE: Rule = Rule {
    code: "SQS013",
    name: "fifo-name-mismatch",
    severity: Severity::Error,
    summary: "FIFO queue name does not end in .fifo, or a standard queue's name does",
    live_only: false,
    doc: include_str!("../../rules/SQS013.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    for queue in &model.queues {
        for name in queue.name.iter() {
            let Some(n) = name.value.known() else { continue };
            if !n.suffix_known {
                continue;
            }
            for fifo in queue.fifo.iter() {
                let Some(is_fifo) = fifo.value.or_default(false) else { continue };
                let dotted = n.text.ends_with(".fifo");
                if is_fifo == dotted {
                    continue;
                }
                let Some(when) = all_of(&[&name.when, &fifo.when]) else { continue };
                let (message, fix) = if is_fifo {
                    (
                        format!(
                            "FIFO queue name \"{}\" does not end in \".fifo\": SQS refuses to create it{when}",
                            n.text
                        ),
                        format!("rename the queue to \"{}.fifo\"", n.text),
                    )
                } else {
                    (
                        format!(
                            "queue name \"{}\" ends in \".fifo\" but {} is not true: SQS refuses to create it{when}",
                            n.text,
                            model.dialect.name(Field::FifoQueue)
                        ),
                        format!("set {}, or drop the \".fifo\" suffix", model.dialect.assign(Field::FifoQueue, "true")),
                    )
                };
                findings.add(&RULE, &queue.resource, &name.origin, message, fix);
            }
        }
    }
}
