//! SQS013: a FIFO queue whose name lacks `.fifo`, or a `.fifo` standard queue.

use super::helpers::all_of;
use super::{Context, Findings};
use crate::finding::{Applicability, Remedy, Want};
use crate::model::{Field, Scalar};

rule! {
    code: "SQS013",
    name: "fifo-name-mismatch",
    severity: Error,
    summary: "FIFO queue name does not end in .fifo, or a standard queue's name does",
    kind: Template,
    check: check,
}

const SUFFIX: &str = ".fifo";

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for queue in &cx.model.queues {
        for name in queue.name.iter() {
            let Some(n) = name.value.known() else { continue };
            if !n.suffix_known {
                continue;
            }
            for fifo in queue.fifo.iter() {
                let Some(is_fifo) = fifo.value.or_aws_default(Field::FifoQueue) else { continue };
                let dotted = n.text.ends_with(SUFFIX);
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
                            cx.name(Field::FifoQueue)
                        ),
                        format!(
                            "set {}, or drop the \".fifo\" suffix",
                            cx.dialect().assign(Field::FifoQueue, &Scalar::Bool(true))
                        ),
                    )
                };
                // Renaming replaces the queue.
                let remedy = Remedy {
                    resource: queue.resource.clone(),
                    field: Field::QueueName,
                    want: Want::NameSuffix(SUFFIX, is_fifo),
                    at: name.origin.clone(),
                    absent: false,
                    conditional: !name.when.is_always(),
                    given: name.given.clone(),
                    applicability: Applicability::Unsafe,
                };
                findings.push(RULE.finding(&queue.resource, &name.origin, message, fix).with_remedy(remedy));
            }
        }
    }
}
