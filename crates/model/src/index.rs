//! The links of a model, indexed once so that rules ask "who consumes this
//! queue? who sends it dead letters? which alarms watch it?" in constant
//! time instead of scanning every queue and mapping for each queue: the
//! cost of checking a model grows with its size, not with its square.

use super::code::Handler;
use super::{
    Alarm, AlarmMetric, Alt, Attr, Consumer, ConsumerIdx, Function, Model, Producer, Queue, QueueIdx, QueuePolicy,
    Target, Value, When,
};

/// A consumer and a queue of the model it reads.
pub struct ConsumerRead<'m> {
    pub consumer: &'m Consumer,
    pub queue: &'m Queue,
    /// When the consumer reads this queue.
    pub when: When,
}

/// A RedrivePolicy from a source queue to a dead-letter queue of the model.
pub struct DlqLink<'m> {
    pub source: &'m Queue,
    pub dlq: &'m Queue,
    /// The deadLetterTargetArn value (where findings about the link point).
    pub target: &'m Alt<Target>,
    pub when: When,
}

/// A producer and a queue of the model it delivers to.
pub struct Feed<'m> {
    pub producer: &'m Producer,
    pub queue: QueueIdx,
    /// The value that names the queue.
    pub target: &'m Alt<Target>,
}

/// One metric of one alarm.
pub type Watch<'m> = (&'m Alarm, &'m AlarmMetric);

/// Built once per model, after the front-end filled it.
pub struct Index<'m> {
    model: &'m Model,
    /// Per queue: the consumers that may read it.
    consumers_of: Lists<ConsumerIdx>,
    /// Per queue: the queues whose RedrivePolicy may send to it.
    redrive_sources_of: Lists<QueueIdx>,
    /// Per queue: something other than a RedrivePolicy sends it failures.
    referenced_as_dlq: Vec<bool>,
    /// Per queue: the alarm metrics whose QueueName dimension names it.
    watched_by: Lists<Watch<'m>>,
    reads: Vec<ConsumerRead<'m>>,
    links: Vec<DlqLink<'m>>,
    feeds: Vec<Feed<'m>>,
    /// Per queue: the policies that apply to it.
    policies_of: Lists<&'m QueuePolicy>,
    /// Policies whose queues are not all known: they may apply to any.
    policies_anywhere: Vec<&'m QueuePolicy>,
    /// Per function: its handler, when its code was read.
    handler_of: Vec<Option<&'m Handler>>,
}

/// The alternatives of a link that name a queue in the model.
pub fn queue_alts(attr: &Attr<Target>) -> impl Iterator<Item = (QueueIdx, &Alt<Target>)> {
    attr.iter().filter_map(|a| match a.value.known() {
        Some(Target::Queue(q)) => Some((*q, a)),
        _ => None,
    })
}

impl<'m> Index<'m> {
    pub fn new(model: &'m Model) -> Self {
        let n = model.queues.len();
        let mut index = Index {
            model,
            consumers_of: Lists::default(),
            redrive_sources_of: Lists::default(),
            referenced_as_dlq: vec![false; n],
            watched_by: Lists::default(),
            reads: Vec::new(),
            links: Vec::new(),
            feeds: Vec::new(),
            policies_of: Lists::default(),
            policies_anywhere: Vec::new(),
            handler_of: vec![None; model.functions.len()],
        };
        for handler in &model.handlers {
            if let Some(slot) = index.handler_of.get_mut(handler.function) {
                *slot = Some(handler);
            }
        }
        let valid = |q: QueueIdx| q < n;
        let mut consumers_of = Vec::new();
        for (ci, consumer) in model.consumers.iter().enumerate() {
            for (qi, alt) in queue_alts(&consumer.queue).filter(|(q, _)| valid(*q)) {
                consumers_of.push((qi, ci));
                index.reads.push(ConsumerRead { consumer, queue: &model.queues[qi], when: alt.when.clone() });
            }
        }
        index.consumers_of = Lists::new(n, consumers_of, |a, b| a == b);
        let mut redrive_sources_of = Vec::new();
        for (si, source) in model.queues.iter().enumerate() {
            for redrive in source.redrive.iter() {
                let Some(policy) = redrive.value.known() else { continue };
                for (di, target) in queue_alts(&policy.target).filter(|(q, _)| valid(*q)) {
                    redrive_sources_of.push((di, si));
                    if let Some(when) = redrive.when.and(&target.when) {
                        index.links.push(DlqLink { source, dlq: &model.queues[di], target, when });
                    }
                }
            }
        }
        index.redrive_sources_of = Lists::new(n, redrive_sources_of, |a, b| a == b);
        for dlq_ref in &model.dlq_refs {
            for (qi, _) in queue_alts(&dlq_ref.target).filter(|(q, _)| valid(*q)) {
                index.referenced_as_dlq[qi] = true;
            }
        }
        let mut watched_by = Vec::new();
        for alarm in &model.alarms {
            for metric in &alarm.metrics {
                if let Value::Known(Target::Queue(q)) = &metric.queue
                    && valid(*q)
                {
                    watched_by.push((*q, (alarm, metric)));
                }
            }
        }
        index.watched_by = Lists::new(n, watched_by, |_, _| false);
        for producer in &model.producers {
            for (queue, target) in queue_alts(&producer.queue).filter(|(q, _)| valid(*q)) {
                index.feeds.push(Feed { producer, queue, target });
            }
        }
        let mut policies_of = Vec::new();
        for policy in &model.policies {
            for target in &policy.queues {
                match target {
                    Value::Known(Target::Queue(q)) if valid(*q) => policies_of.push((*q, policy)),
                    Value::Unknown(_) if !index.policies_anywhere.last().is_some_and(|p| std::ptr::eq(*p, policy)) => {
                        index.policies_anywhere.push(policy)
                    }
                    _ => {}
                }
            }
        }
        // A policy's queues are read one policy after another, so a queue
        // it names twice has it last in its list.
        index.policies_of = Lists::new(n, policies_of, |a, b| std::ptr::eq(*a, *b));
        index
    }

    /// Every (producer, queue) pair a rule about producers looks at.
    pub fn feeds(&self) -> &[Feed<'m>] {
        &self.feeds
    }

    /// The policies that apply to `queue`, and those that may (their
    /// queues are only known at deploy time).
    pub fn policies_of(&self, queue: QueueIdx) -> (&[&'m QueuePolicy], &[&'m QueuePolicy]) {
        (self.policies_of.of(queue), &self.policies_anywhere)
    }

    /// The consumers that may read `queue` (some alternative names it).
    pub fn consumers_of(&self, queue: QueueIdx) -> impl Iterator<Item = &'m Consumer> + '_ {
        self.consumers_of.of(queue).iter().map(|&c| &self.model.consumers[c])
    }

    /// The queues whose RedrivePolicy may send to `dlq`, in model order.
    pub fn redrive_sources_of(&self, dlq: QueueIdx) -> impl Iterator<Item = &'m Queue> + '_ {
        self.redrive_sources_of.of(dlq).iter().map(|&q| &self.model.queues[q])
    }

    /// True when `queue` receives dead letters from anything in the model.
    pub fn is_dead_letter_target(&self, queue: QueueIdx) -> bool {
        !self.redrive_sources_of.of(queue).is_empty() || self.referenced_as_dlq[queue]
    }

    /// The function a consumer invokes and that function's handler, when
    /// both are known.
    pub fn handler(&self, consumer: &Consumer) -> Option<(&'m Function, &'m Handler)> {
        consumer.function.iter().find_map(|alt| match alt.value.known() {
            Some(Target::Function(f)) => {
                Some((self.model.functions.get(*f)?, self.handler_of.get(*f).copied().flatten()?))
            }
            _ => None,
        })
    }

    /// Every (consumer, queue) pair a rule about consumers looks at.
    pub fn reads(&self) -> &[ConsumerRead<'m>] {
        &self.reads
    }

    /// Every consumer with each queue its source may be, named as messages
    /// say it: a queue of the model, a queue outside it (its ARN), or one
    /// only known at deploy time. The rules that judge a handler against
    /// its mapping need the mapping, not the queue: a consumer is known to
    /// read SQS, so it is judged whichever queue it reads.
    pub fn mapped(&self) -> Vec<(&'m Consumer, String, When)> {
        let mut out = Vec::new();
        for consumer in &self.model.consumers {
            for alt in consumer.queue.iter() {
                let queue = match &alt.value {
                    Value::Known(Target::Queue(q)) => match self.model.queues.get(*q) {
                        Some(queue) => format!("queue {}", queue.resource),
                        None => continue,
                    },
                    Value::Known(Target::External(arn)) => format!("queue {arn}"),
                    Value::Known(Target::Function(_)) | Value::Absent => continue,
                    Value::Unknown(_) => "a queue only known at deploy time".to_string(),
                };
                out.push((consumer, queue, alt.when.clone()));
            }
        }
        out
    }

    /// Every source -> DLQ link through a RedrivePolicy.
    pub fn dlq_links(&self) -> &[DlqLink<'m>] {
        &self.links
    }

    /// The alarm metrics that watch `queue` by its QueueName dimension.
    pub fn watched_by(&self, queue: QueueIdx) -> &[Watch<'m>] {
        self.watched_by.of(queue)
    }
}

/// A list for each queue, all in one vector cut at offsets. A vector for
/// each queue was 24 bytes a queue, and an allocation for each queue with
/// something in its list: 6 MB for the 62,000 queues of a 200 MB plan,
/// held while the rules run (`benches/plan.sh`).
struct Lists<T> {
    /// Where each queue's list starts in `items`, then where the last ends.
    starts: Vec<usize>,
    items: Vec<T>,
}

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists { starts: Vec::new(), items: Vec::new() }
    }
}

impl<T: Copy> Lists<T> {
    /// The lists of `n` queues from (queue, item) pairs, each list in the
    /// pairs' order, leaving out an item that is the `same` as the last
    /// one kept in its list.
    fn new(n: usize, pairs: Vec<(QueueIdx, T)>, same: impl Fn(&T, &T) -> bool) -> Self {
        let mut last: Vec<Option<T>> = vec![None; n];
        let mut starts = vec![0; n + 1];
        let mut kept = Vec::with_capacity(pairs.len());
        for (queue, item) in pairs {
            if last[queue].is_some_and(|previous| same(&previous, &item)) {
                continue;
            }
            last[queue] = Some(item);
            starts[queue + 1] += 1;
            kept.push((queue, item));
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        // Each slot is written once below: the copies only fill it first.
        let mut items: Vec<T> = kept.iter().map(|&(_, item)| item).collect();
        let mut next = starts.clone();
        for (queue, item) in kept {
            items[next[queue]] = item;
            next[queue] += 1;
        }
        Lists { starts, items }
    }

    /// The list of `queue`: empty for a queue of no list.
    fn of(&self, queue: QueueIdx) -> &[T] {
        match (self.starts.get(queue), self.starts.get(queue + 1)) {
            (Some(&start), Some(&end)) => &self.items[start..end],
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lists;

    #[test]
    fn each_queue_has_its_items_in_order_without_a_repeat_of_the_last() {
        let pairs = vec![(2, 'a'), (0, 'b'), (2, 'c'), (2, 'c'), (0, 'b'), (2, 'a'), (0, 'd')];
        let lists = Lists::new(4, pairs, |a, b| a == b);
        assert_eq!(lists.of(0), ['b', 'd']);
        assert!(lists.of(1).is_empty() && lists.of(3).is_empty() && lists.of(4).is_empty());
        assert_eq!(lists.of(2), ['a', 'c', 'a']);
    }
}
