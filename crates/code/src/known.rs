//! The queues of the whole run that code no template owns may name: a
//! worker's `QueueUrl="https://sqs.../jobs"` is the Terraform or
//! CloudFormation queue named `jobs` linted in the same run, so the rules
//! that need the queue's attributes (SQS204's long polling, SQS205's FIFO
//! flag) read them instead of calling it unknown.
//!
//! A name is known only when exactly one queue of the run has it, with its
//! name resolved: two stacks that both define `jobs` (a dev and a prod
//! stage, say) leave it as it was, an outside queue, never a guess at
//! which one is meant.

use std::collections::HashMap;

use crate::calls::QueueNames;
use sqsguard_model::code::SdkCall;
use sqsguard_model::{Queue, Target, Value};

/// The run's queues whose names are theirs alone.
#[derive(Default)]
pub struct KnownQueues {
    queues: Vec<Queue>,
    /// `queues` by name, looked up by each call.
    names: QueueNames,
}

impl KnownQueues {
    /// The queues of `models`' queue lists whose resolved name no other
    /// queue of them shares.
    pub fn of<'a>(queues: impl Iterator<Item = &'a Queue>) -> Self {
        let mut by_name: HashMap<String, Option<&'a Queue>> = HashMap::new();
        for queue in queues {
            // A queue whose name has several values (a condition) or none
            // known is not named by a literal with any certainty.
            let [alt] = queue.name.alts.as_slice() else { continue };
            let Value::Known(name) = &alt.value else { continue };
            // A name with a part that is not known (`${...}`) is matched by
            // no literal.
            if name.text.is_empty() || name.text.contains("${") {
                continue;
            }
            by_name.entry(name.text.clone()).and_modify(|seen| *seen = None).or_insert(Some(queue));
        }
        let mut queues: Vec<Queue> = by_name.into_values().flatten().cloned().collect();
        queues.sort_by(|a, b| a.resource.cmp(&b.resource));
        let names = QueueNames::of(&queues);
        KnownQueues { queues, names }
    }

    /// What a literal URL, ARN or name is matched against.
    pub(crate) fn names(&self) -> &QueueNames {
        &self.names
    }

    /// The queues `calls` name, for their own model: each call's
    /// `Target::Queue` (an index into [`KnownQueues::queues`]) becomes an
    /// index into the list returned, so a file's model holds only the
    /// queues its calls name, not the run's.
    pub(crate) fn adopt(&self, calls: &mut [SdkCall]) -> Vec<Queue> {
        let mut taken: HashMap<usize, usize> = HashMap::new();
        let mut adopted = Vec::new();
        for call in calls {
            if let Value::Known(Target::Queue(i)) = &mut call.queue {
                let Some(queue) = self.queues.get(*i) else {
                    call.queue = Value::Unknown("a queue of the run that could not be found again".into());
                    continue;
                };
                *i = *taken.entry(*i).or_insert_with(|| {
                    adopted.push(queue.clone());
                    adopted.len() - 1
                });
            }
        }
        adopted
    }
}
