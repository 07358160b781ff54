//! What people call the things an audit reads: a finding's message names
//! queues by URL, consumers by mapping UUID and functions by ARN, as the
//! rules phrase them for every source; here each becomes the name a
//! console shows (`jobs`, `jobs-worker on jobs`, `jobs-worker`). The
//! identifiers stay in JSON's `resource`, the one place a program reads
//! them.

use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};

use sqsguard_finding::Finding;
use sqsguard_frontend::live::Region;
use sqsguard_model::Origin;

/// The names of one Region's reading.
pub(super) struct Names {
    names: Vec<String>,
    index: HashMap<String, usize>,
    /// What a resource is called on its own where a message's phrase
    /// says it otherwise (an SNS subscription's ARN).
    alone: HashMap<String, String>,
    finder: Option<AhoCorasick>,
}

impl Names {
    pub(super) fn of(read: &Region) -> Self {
        let mut pairs: Vec<(String, String)> = Vec::new();
        let last = |text: &str, sep: char| text.rsplit(sep).next().unwrap_or(text).to_string();
        let function = |arn: &str| arn.split_once(":function:").map_or_else(|| arn.to_string(), |(_, n)| n.to_string());
        for q in &read.queues {
            pairs.push((q.url.clone(), last(&q.url, '/')));
            if let Some(arn) = q.attributes.get("QueueArn") {
                pairs.push((arn.clone(), last(arn, ':')));
            }
        }
        for arn in read.timeouts.keys() {
            pairs.push((arn.clone(), function(arn)));
        }
        // An SNS subscription is known by its topic (its ARN ends in a
        // UUID only SNS uses); the messages call it `SNS subscription ARN`.
        let mut alone = HashMap::new();
        for sub in read.subscriptions.iter().filter(|sub| sub.arn.starts_with("arn:")) {
            let topic = last(&sub.topic_arn, ':');
            pairs.push((format!("SNS subscription {}", sub.arn), format!("SNS subscription of topic {topic}")));
            let to = last(&sub.endpoint, ':');
            alone.insert(sub.arn.clone(), format!("subscription of topic {topic} to {to}"));
        }
        // `arn:aws:events:REGION:ACCOUNT:rule/[BUS/]NAME`.
        for t in &read.targets {
            let name = match t.rule_arn.split_once(":rule/").map(|(_, path)| path.split_once('/')) {
                Some(Some((bus, rule))) => format!("rule {rule} on bus {bus}"),
                Some(None) => format!("rule {}", last(&t.rule_arn, '/')),
                None => continue,
            };
            pairs.push((t.rule_arn.clone(), name));
        }
        // A key as the KMS console lists it, by its ID.
        for key in read.keys.values().filter(|k| k.arn.contains(":key/")) {
            pairs.push((key.arn.clone(), last(&key.arn, '/')));
        }
        for m in &read.mappings {
            let queue = last(&m.source_arn, ':');
            let name = match &m.function_arn {
                Some(f) => format!("{} on {queue}", function(f)),
                None => format!("the mapping {} on {queue}", m.uuid),
            };
            if let Some(f) = &m.function_arn {
                pairs.push((f.clone(), function(f)));
            }
            pairs.push((m.uuid.clone(), name));
        }
        pairs.sort();
        pairs.dedup_by(|a, b| a.0 == b.0);
        let (ids, names): (Vec<String>, Vec<String>) = pairs.into_iter().unzip();
        let index = ids.iter().enumerate().map(|(i, id)| (id.clone(), i)).collect();
        let finder = AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(&ids).ok();
        Names { names, index, alone, finder }
    }

    /// `text` with every identifier read written as its name; one that
    /// runs on into a longer word (a queue outside what was read) is left.
    pub(super) fn rewrite(&self, text: &str) -> String {
        let Some(finder) = &self.finder else { return text.to_string() };
        let part = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | '/' | ':');
        let mut out = String::with_capacity(text.len());
        let mut from = 0;
        for m in finder.find_iter(text) {
            let mut rest = text[m.end()..].chars();
            let before = text[..m.start()].chars().next_back();
            // A colon that ends a clause (`queue URL: the queue has ...`)
            // is not part of the identifier.
            let after = match rest.next() {
                Some(':') => rest.next().filter(|c| !c.is_whitespace()),
                c => c,
            };
            if after.is_some_and(part) || before.is_some_and(part) {
                continue;
            }
            out.push_str(&text[from..m.start()]);
            out.push_str(&self.names[m.pattern().as_usize()]);
            from = m.end();
        }
        out.push_str(&text[from..]);
        out
    }

    /// The finding's message in names, and the name of what it is about on
    /// its origin. The fix keeps identifiers: a command it gives needs them;
    /// so does its context, the user's own words (a flag, a CDK path).
    pub(super) fn apply(&self, f: &mut Finding) {
        // Its fields, to borrow them apart.
        let f: &mut sqsguard_finding::FindingData = f;
        f.message = self.rewrite(&f.message);
        if let Origin::Live(live) = &mut f.origin {
            live.name = match self.alone.get(&f.resource) {
                Some(name) => Some(name.clone()),
                None => self.index.get(&f.resource).map(|&i| self.names[i].clone()),
            };
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.names.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_frontend::live::{LiveQueueData, Mapping};

    #[test]
    fn identifiers_become_names_and_others_stay() {
        let url = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
        let mut read = Region::default();
        read.queues.push(LiveQueueData { url: url.into(), ..Default::default() });
        let f = "arn:aws:lambda:us-east-1:123456789012:function:jobs-worker";
        read.timeouts.insert(f.into(), Some(60));
        read.mappings.push(Mapping {
            uuid: "0b4c-11".into(),
            source_arn: "arn:aws:sqs:us-east-1:123456789012:jobs".into(),
            function_arn: Some(f.into()),
            settings: Default::default(),
            enabled: Ok(true),
        });
        let names = Names::of(&read);
        assert_eq!(names.len(), 3);
        assert_eq!(
            names.rewrite(&format!("queue {url} of function {f} (consumer 0b4c-11); {url}-dlq stays.")),
            format!("queue jobs of function jobs-worker (consumer jobs-worker on jobs); {url}-dlq stays.")
        );
        // A clause's colon ends the name; a colon inside a longer ARN does not.
        assert_eq!(names.rewrite(&format!("to queue {url}: refused")), "to queue jobs: refused");
        assert_eq!(names.rewrite(&format!("{f}:live")), format!("{f}:live"));
    }

    #[test]
    fn producers_and_keys_are_named_as_their_consoles_list_them() {
        use sqsguard_frontend::live::{LiveSubscription, LiveTarget};
        use sqsguard_frontend::live_key::LiveKey;
        let mut read = Region::default();
        let sub = "arn:aws:sns:us-east-1:123456789012:orders:3f71909c-e16a-4d85-b3bb-edf3d6cbbd48";
        read.subscriptions.push(LiveSubscription {
            arn: sub.into(),
            topic_arn: "arn:aws:sns:us-east-1:123456789012:orders".into(),
            endpoint: "arn:aws:sqs:us-east-1:123456789012:jobs".into(),
        });
        let target = |rule: &str| LiveTarget {
            rule_arn: rule.into(),
            id: "t".into(),
            arn: "arn:aws:sqs:us-east-1:123456789012:jobs".into(),
            message_group_id: None,
            dead_letter_arn: None,
            role_arn: None,
            retry: (None, None),
        };
        read.targets.push(target("arn:aws:events:us-east-1:123456789012:rule/orders-bus/r07"));
        read.targets.push(target("arn:aws:events:us-east-1:123456789012:rule/nightly"));
        let key = "arn:aws:kms:us-east-1:123456789012:key/f9b5e5e4-bc11-4572-bb39-379eb5d181f4";
        read.keys.insert("alias/jobs".into(), LiveKey { arn: key.into(), aws_managed: false, policy: None });
        let names = Names::of(&read);
        assert_eq!(
            names.rewrite(&format!("SNS subscription {sub} delivers to jobs, but the key policy of key {key} ...")),
            "SNS subscription of topic orders delivers to jobs, but the key policy of key \
             f9b5e5e4-bc11-4572-bb39-379eb5d181f4 ..."
        );
        assert_eq!(
            names.rewrite("EventBridge target arn:aws:events:us-east-1:123456789012:rule/orders-bus/r07 (Id t)"),
            "EventBridge target rule r07 on bus orders-bus (Id t)"
        );
        assert_eq!(
            names.rewrite("EventBridge target arn:aws:events:us-east-1:123456789012:rule/nightly (Id t)"),
            "EventBridge target rule nightly (Id t)"
        );
        let origin = Origin::live(sub, None, None);
        let rule = sqsguard_rules::by_code("SQS019").unwrap();
        let mut finding = rule.finding(sub, &origin, String::new(), String::new());
        names.apply(&mut finding);
        let Origin::Live(live) = &finding.origin else { unreachable!() };
        assert_eq!(live.name.as_deref(), Some("subscription of topic orders to jobs"));
    }
}
