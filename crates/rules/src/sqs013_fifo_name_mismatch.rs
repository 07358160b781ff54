//! SQS013: a FIFO queue whose name lacks `.fifo`, or a `.fifo` standard queue.

use super::helpers::all_of;
use super::{Context, Findings};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::{Field, Scalar};

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
                    field: Some(Field::QueueName),
                    // The name the model read, renamed where it is written as that literal.
                    ops: renamed(&n.text, is_fifo)
                        .map(|new| Op::Replace { old: n.text.clone(), new: Scalar::Str(new) })
                        .into_iter()
                        .collect(),
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

/// `name` with (`add`) or without the `.fifo` suffix. A name that is not
/// plain (`${...}` left in it) gets no new name, nor one that would pass
/// SQS's 80 characters.
fn renamed(name: &str, add: bool) -> Option<String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
        return None;
    }
    let renamed = if add { format!("{name}{SUFFIX}") } else { name.strip_suffix(SUFFIX)?.to_string() };
    (!renamed.is_empty() && renamed.len() <= 80).then_some(renamed)
}

#[cfg(test)]
mod tests {
    use super::renamed;

    #[test]
    fn only_plain_names_are_renamed() {
        assert_eq!(renamed("orders", true).as_deref(), Some("orders.fifo"));
        assert_eq!(renamed("orders.fifo", false).as_deref(), Some("orders"));
        assert_eq!(renamed("a-b_c", true).as_deref(), Some("a-b_c.fifo"));
        assert_eq!(renamed("${var.env}-orders", true), None);
        assert_eq!(renamed(".fifo", false), None);
        assert_eq!(renamed(&"q".repeat(76), true), None, "over 80 characters");
    }
}
