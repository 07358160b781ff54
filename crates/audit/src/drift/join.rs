//! Which live queue and mapping each template queue and mapping deploys
//! to, by name, for the templates no `--stack` holds (the `stack` module
//! joins those by physical ID). A queue is joined by name: the name
//! written in the template; a pattern where only part of it is known
//! (`${AWS::StackName}-jobs`, each unknown part any text); the name
//! CloudFormation generates when none is written (`STACK-LogicalId-RANDOM`,
//! any stack); and a Terraform queue's `name_prefix`, the start of the
//! name the provider generates. A name that fits no live queue, or more
//! than one, is a note, as is every live queue no template queue joined.
//! A mapping is joined through its queue: the one mapping of the live
//! queue, else the one whose function's name is, or was generated from,
//! the template function's.

use std::collections::{HashMap, HashSet};

use super::names::{self, last_part};
use super::wanted::{candidates, fits_any, wanted};
use sqsguard_finding::Note;
use sqsguard_model::{Model, Target, Value};

/// A resource of a template model and the live resource it deploys to:
/// (template model, index) and (live model, index).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pair {
    pub template: (usize, usize),
    pub live: (usize, usize),
}

pub(crate) struct Joined<'a> {
    pub templates: &'a [Model],
    pub live: &'a [Model],
    pub queues: Vec<Pair>,
    pub consumers: Vec<Pair>,
    pub notes: Vec<Note>,
    /// Template queue -> its live queue.
    by_template: HashMap<(usize, usize), (usize, usize)>,
    /// Template function -> its live function, where a stack says.
    pub functions: HashMap<(usize, usize), (usize, usize)>,
    /// The templates joined by their stack's physical IDs.
    pub stacked: HashSet<usize>,
    /// What the audit could not read: said as such, never as missing.
    pub unread: super::unread::Unread,
    /// Live queues and mappings joined (mappings: or said).
    taken_queues: HashSet<(usize, usize)>,
    taken_consumers: HashSet<(usize, usize)>,
}

impl<'a> Joined<'a> {
    pub(crate) fn new(templates: &'a [Model], live: &'a [Model]) -> Self {
        Joined {
            templates,
            live,
            queues: Vec::new(),
            consumers: Vec::new(),
            notes: Vec::new(),
            by_template: HashMap::new(),
            functions: HashMap::new(),
            stacked: HashSet::new(),
            unread: Default::default(),
            taken_queues: HashSet::new(),
            taken_consumers: HashSet::new(),
        }
    }

    /// The live queue a template queue was joined to.
    pub(crate) fn live_of(&self, template: (usize, usize)) -> Option<(usize, usize)> {
        self.by_template.get(&template).copied()
    }

    pub(crate) fn pair_queue(&mut self, template: (usize, usize), live: (usize, usize)) {
        self.taken_queues.insert(live);
        self.by_template.insert(template, live);
        self.queues.push(Pair { template, live });
    }

    pub(crate) fn pair_consumer(&mut self, template: (usize, usize), live: (usize, usize)) {
        self.taken_consumers.insert(live);
        self.consumers.push(Pair { template, live });
    }

    /// A live mapping already said (by its stack): no further note.
    pub(crate) fn said_consumer(&mut self, live: (usize, usize)) {
        self.taken_consumers.insert(live);
    }

    /// Whether a live mapping was joined.
    pub(crate) fn consumer_taken(&self, live: (usize, usize)) -> bool {
        self.taken_consumers.contains(&live)
    }
}

/// Join by name what no stack joined, then note what is live and joined
/// to nothing.
pub(crate) fn join(out: &mut Joined<'_>) {
    let (templates, live) = (out.templates, out.live);
    let live_queues: Vec<(usize, usize, &str)> = live
        .iter()
        .enumerate()
        .flat_map(|(m, model)| model.queues.iter().enumerate().map(move |(i, q)| (m, i, last_part(&q.resource))))
        .collect();
    let mut by_name: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    for (m, i, name) in &live_queues {
        by_name.entry(name).or_default().push((*m, *i));
    }
    for (t, model) in templates.iter().enumerate() {
        if out.stacked.contains(&t) {
            continue;
        }
        for (tq, queue) in model.queues.iter().enumerate() {
            let wants = wanted(model, tq);
            let names = |n: &str| fits_any(&wants, n);
            let (found, prefix, why_not) = candidates(&wants, &by_name, &live_queues);
            let note = |message: String| Note { origin: queue.origin.clone(), message };
            // A queue of its name not read may be the one: nothing is compared.
            let unread = if why_not.is_none() { out.unread.queue(names, !found.is_empty()) } else { None };
            if let Some(why) = unread {
                let message = format!(
                    "queue {} of the template is not compared: could not read the live queue ({why})",
                    queue.resource
                );
                out.notes.push(note(message));
                continue;
            }
            match (found.as_slice(), why_not) {
                (_, Some(why)) => out
                    .notes
                    .push(note(format!("queue {} is not compared with the live account: {why}", queue.resource))),
                ([], None) => out.notes.push(note(match &prefix {
                    Some(p) => format!(
                        "queue {} of the template is missing live: no queue of the account has a name starting with its name_prefix {p}",
                        queue.resource
                    ),
                    None => format!(
                        "queue {} of the template is missing live: no queue of the account has its name",
                        queue.resource
                    ),
                })),
                ([one], None) => out.pair_queue((t, tq), *one),
                (many, None) => {
                    let names: Vec<&str> = many.iter().map(|(m, i)| last_part(&live[*m].queues[*i].resource)).collect();
                    out.notes.push(note(match &prefix {
                        // Which one Terraform made is in its state, not in a file.
                        Some(p) => format!(
                            "queue {} is not compared with the live account: {} live queues start with its name_prefix {p} ({}), and no file says which one Terraform created",
                            queue.resource,
                            many.len(),
                            names.join(", ")
                        ),
                        None => format!(
                            "queue {} is not compared with the live account: its name fits {} live queues ({}); name the stack with --stack",
                            queue.resource,
                            many.len(),
                            names.join(", ")
                        ),
                    }));
                }
            }
        }
    }
    join_consumers(out);
    for (m, i, _) in &live_queues {
        if !out.taken_queues.contains(&(*m, *i)) {
            let q = &live[*m].queues[*i];
            out.notes.push(Note {
                origin: q.origin.clone(),
                message: format!(
                    "live queue {} is in no template given: no template queue has its name",
                    last_part(&q.resource)
                ),
            });
        }
    }
    extra_consumers(out);
}

/// The live mappings of each live queue.
pub(crate) fn live_on(live: &[Model]) -> HashMap<(usize, usize), Vec<usize>> {
    let mut on: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    for (m, model) in live.iter().enumerate() {
        for c in 0..model.consumers.len() {
            if let Some(q) = queue_of(model, c) {
                on.entry((m, q)).or_default().push(c);
            }
        }
    }
    on
}

/// The queue a mapping reads, when it is one of its model's.
pub(crate) fn queue_of(model: &Model, consumer: usize) -> Option<usize> {
    let alts = &model.consumers[consumer].queue.alts;
    match alts.as_slice() {
        [alt] => match alt.value {
            Value::Known(Target::Queue(q)) => Some(q),
            _ => None,
        },
        _ => None,
    }
}

/// The function's name as a template or the account says it: a live
/// ARN's last part, a template function's logical ID, a name written.
pub(crate) fn function_name(model: &Model, consumer: usize) -> Option<&str> {
    match model.consumers[consumer].function.alts.first().map(|a| &a.value) {
        Some(Value::Known(Target::Function(f))) => Some(last_part(&model.functions[*f].resource)),
        Some(Value::Known(Target::External(name))) => Some(last_part(name)),
        _ => None,
    }
}

fn same_function(template: &str, live: &str) -> bool {
    template == live || live.contains(&format!("-{template}-"))
}

fn join_consumers(out: &mut Joined<'_>) {
    let live_on = live_on(out.live);
    for (t, model) in out.templates.iter().enumerate() {
        if out.stacked.contains(&t) {
            continue;
        }
        let mut on: HashMap<usize, Vec<usize>> = HashMap::new();
        for c in 0..model.consumers.len() {
            if let Some(q) = queue_of(model, c) {
                on.entry(q).or_default().push(c);
            }
        }
        let mut queues: Vec<_> = on.into_iter().collect();
        queues.sort();
        for (tq, consumers) in queues {
            let Some((m, lq)) = out.live_of((t, tq)) else { continue };
            let candidates = live_on.get(&(m, lq)).cloned().unwrap_or_default();
            for tc in consumers {
                let consumer = &model.consumers[tc];
                let matched: Vec<usize> = if candidates.len() == 1 && model.consumers.len() == 1 {
                    candidates.clone()
                } else {
                    let name = function_name(model, tc);
                    candidates
                        .iter()
                        .copied()
                        .filter(|&lc| match (name, function_name(&out.live[m], lc)) {
                            (Some(t), Some(l)) => same_function(t, l),
                            _ => false,
                        })
                        .collect()
                };
                let note = |message: String| Note { origin: consumer.origin.clone(), message };
                match matched.as_slice() {
                    [lc] => out.pair_consumer((t, tc), (m, *lc)),
                    [] if out.unread.mappings().is_some() => out.notes.push(note(format!(
                        "mapping {} of the template is not compared: could not read the live mappings ({})",
                        consumer.resource,
                        out.unread.mappings().unwrap_or_default()
                    ))),
                    [] => out.notes.push(note(format!(
                        "mapping {} of the template is missing live: no mapping of its function reads the live queue {}",
                        consumer.resource,
                        names::queue(&out.live[m], lq)
                    ))),
                    many => out.notes.push(note(format!(
                        "mapping {} is not compared with the live account: {} live mappings of the queue fit it",
                        consumer.resource,
                        many.len()
                    ))),
                }
            }
        }
    }
}

/// Live mappings of joined queues that no template mapping joined.
fn extra_consumers(out: &mut Joined<'_>) {
    let live_on = live_on(out.live);
    let joined_queues: HashSet<(usize, usize)> = out.queues.iter().map(|p| p.live).collect();
    let mut extra: Vec<(usize, usize)> = live_on
        .iter()
        .filter(|(q, _)| joined_queues.contains(q))
        .flat_map(|((m, _), cs)| cs.iter().map(move |c| (*m, *c)))
        .filter(|k| !out.taken_consumers.contains(k))
        .collect();
    extra.sort();
    for (m, c) in extra {
        let consumer = &out.live[m].consumers[c];
        out.notes.push(Note {
            origin: consumer.origin.clone(),
            message: format!(
                "live mapping {} reads a queue of the template but is in no template given",
                names::mapping(&out.live[m], c)
            ),
        });
    }
}
