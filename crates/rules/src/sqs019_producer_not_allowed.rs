//! SQS019: an SNS subscription, EventBridge target or S3 notification
//! delivers to a queue whose policies do not let that service send.

use std::collections::HashMap;

use super::{Context, Findings, Link, LiveInput};
use sqsguard_finding::{Applicability, Op, Remedy, Statement};
use sqsguard_model::policy::{Delivery, Verdict};
use sqsguard_model::statements::Indexed;
use sqsguard_model::{Feed, Field, Origin, QueuePolicy, Service, Value};

rule! {
    code: "SQS019",
    name: "producer-not-allowed",
    severity: Error,
    summary: "SNS, EventBridge or S3 delivers to a queue whose policy does not allow that service to send",
    kind: Template,
    check: check,
    reads: &[Link::ProducerQueue],
    needs: &[LiveInput::QueueAttributes, LiveInput::Subscriptions, LiveInput::EventBridgeTargets],
}

/// What SQS019 asks a policy for.
const SEND: &str = "sqs:sendmessage";

fn check(cx: &Context<'_>, findings: &mut Findings) {
    // Each policy's statements indexed once, however many producers ask.
    let mut indexed: HashMap<*const QueuePolicy, Indexed<'_>> = HashMap::new();
    for feed in cx.index.feeds() {
        let p = feed.producer;
        let Some(principal) = p.service.principal() else { continue };
        if p.writes_policy.is_some() || p.role {
            continue;
        }
        let Some(queue) = cx.model.queues.get(feed.queue) else { continue };
        if queue.created.is_some() {
            continue;
        }
        let name = queue.name.alts.first().and_then(|a| a.value.known()).filter(|n| n.suffix_known);
        let delivery = Delivery {
            principal,
            source: &p.source,
            queue: Some(feed.queue),
            queue_name: name.map(|n| n.text.as_str()),
            action: SEND,
        };
        let (policies, maybe) = cx.index.policies_of(feed.queue);
        for p in policies.iter().chain(maybe) {
            indexed.entry(std::ptr::from_ref(*p)).or_insert_with(|| Indexed::new(&p.statements));
        }
        if verdict(policies, maybe, &delivery, &indexed) != Verdict::NotAllowed {
            continue;
        }
        let finding = finding(feed, &queue.resource, &queue.origin, principal, policies);
        let finding = match remedy(feed, &queue.resource, &queue.origin, policies, maybe) {
            Some(remedy) => finding.with_remedy(remedy),
            None => finding,
        };
        findings.push(finding);
    }
}

/// Whether the policies that apply to the queue (and those that may) allow
/// the delivery.
fn verdict(
    policies: &[&QueuePolicy],
    maybe: &[&QueuePolicy],
    delivery: &Delivery<'_>,
    indexed: &HashMap<*const QueuePolicy, Indexed<'_>>,
) -> Verdict {
    let one = |policy: &QueuePolicy| {
        let v = match indexed.get(&std::ptr::from_ref(policy)) {
            Some(index) => index.grants(delivery),
            None => Verdict::Unknown("the policy was not indexed".into()),
        };
        match (&policy.unreadable, v) {
            (Some(why), Verdict::NotAllowed) => Verdict::Unknown(why.clone()),
            (_, v) => v,
        }
    };
    let mut v = Verdict::NotAllowed;
    for policy in policies {
        v = v.or(one(policy));
    }
    for policy in maybe {
        // A policy whose queues are only known at deploy time may be this
        // queue's: if it would allow, the answer is unknown.
        if one(policy) != Verdict::NotAllowed {
            v = v.or(Verdict::Unknown(format!("policy {} may apply to the queue", policy.resource)));
        }
    }
    v
}

/// The statement that would allow the delivery, from this producer only:
/// in the queue's one policy, or in a new one when it has none.
fn remedy(
    feed: &Feed<'_>,
    queue: &str,
    queue_at: &Origin,
    policies: &[&QueuePolicy],
    maybe: &[&QueuePolicy],
) -> Option<Remedy> {
    let p = feed.producer;
    let Value::Known(source) = &p.source else { return None };
    let (policy, at) = match policies {
        [] if maybe.is_empty() => (None, queue_at.clone()),
        [one] => (Some(one.resource.clone()), one.origin.clone()),
        _ => return None,
    };
    let sid: String = format!("Allow{}", p.resource).chars().filter(char::is_ascii_alphanumeric).collect();
    Some(Remedy {
        resource: queue.to_string(),
        field: Some(Field::Policy),
        ops: vec![Op::AppendStatement(Statement {
            service: p.service,
            source: source.clone(),
            sid,
            policy: policy.clone(),
        })],
        absent: policy.is_none(),
        at,
        conditional: !feed.target.when.is_always(),
        given: None,
        // A new permission.
        applicability: Applicability::Unsafe,
    })
}

fn finding(
    feed: &Feed<'_>,
    queue: &str,
    at: &Origin,
    principal: &str,
    policies: &[&QueuePolicy],
) -> sqsguard_finding::Finding {
    let p = feed.producer;
    let source = match p.service {
        Service::Sns => "topic",
        Service::EventBridge => "rule",
        _ => "bucket",
    };
    let allows = format!("{principal} (or \"*\" on a condition naming this {source}) sqs:SendMessage");
    let policy_words = match policies {
        [] => format!("queue {queue} has no queue policy"),
        // A live queue's policy is its Policy attribute, named by the queue.
        [one] if one.resource == queue => format!("the policy of queue {queue} does not allow {allows}"),
        [one] => format!("policy {} of queue {queue} does not allow {allows}", one.resource),
        _ => format!("none of the {} policies of queue {queue} allows {allows}", policies.len()),
    };
    let consequence = match p.service {
        Service::S3 => "S3 refuses the notification configuration, so the deployment fails",
        Service::Sns => {
            "SNS drops every message without an error anyone sees (the subscription still shows as confirmed)"
        }
        Service::EventBridge => "EventBridge drops every event, counting only FailedInvocations",
        Service::Pipes => "",
    };
    let message =
        format!("{} delivers to queue {queue}, but {policy_words}: {consequence}{}", p.name(), feed.target.when);
    let statement = format!(
        "Effect Allow, Principal {{Service: {principal}}}, Action sqs:SendMessage, Resource the queue's ARN, Condition ArnEquals aws:SourceArn = the {source}'s ARN"
    );
    let fix = match at {
        // A live queue: its Policy attribute is set whole.
        Origin::Live(_) => format!(
            "add a statement to the queue's Policy: {statement} (aws sqs set-queue-attributes --queue-url {queue} --attributes Policy=<the whole policy, with it>)"
        ),
        Origin::File { .. } => format!("add a queue policy statement on {queue}: {statement}"),
    };
    let mut related: Vec<&str> = vec![p.resource.as_str()];
    related.extend(policies.iter().map(|q| q.resource.as_str()));
    RULE.finding(queue, at, message, fix).with_related(&related)
}
