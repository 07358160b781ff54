//! What feeds the queues read, in calls that grow with the producers, not
//! with the queues (a Region of a thousand queues and no rule costs three
//! calls):
//!
//! - SNS ListSubscriptions, paginated (100 a page): every subscription of
//!   the Region, kept where the protocol is `sqs` and the endpoint a queue
//!   read. ListTopics and ListSubscriptionsByTopic would cost a call per
//!   topic, GetSubscriptionAttributes a call per subscription, and neither
//!   tells more here: a topic is FIFO when its ARN ends in `.fifo` (a
//!   standard topic's name cannot hold a dot), so no GetTopicAttributes.
//! - EventBridge ListEventBuses (the default bus and the custom ones), then
//!   for each bus ListRules, and the targets of whichever is fewer: each
//!   rule's (ListTargetsByRule), or the rules that name each queue
//!   (ListRuleNamesByTarget) and then their targets. Targets are kept where
//!   they deliver to a queue read.
//!
//! A failed call is skipped, with why, as any other read: the producer
//! rules are then blind for the pair (`LiveInput::Subscriptions`,
//! `LiveInput::EventBridgeTargets`).

use std::collections::{BTreeMap, BTreeSet};

use tokio::sync::Semaphore;

use super::collect::{Clients, Region, in_pool, service_reason_or, skipped};
use sqsguard_frontend::live::{LiveSubscription, LiveTarget};

/// The producers of `out`'s queues, into `out`.
pub(super) async fn read(c: &Clients, out: &mut Region, pool: &Semaphore) {
    let queues: BTreeSet<String> = out.queues.iter().filter_map(|q| q.attributes.get("QueueArn").cloned()).collect();
    if queues.is_empty() {
        return;
    }
    subscriptions(c, out, &queues, pool).await;
    let mut buses = Vec::new();
    let mut token = None;
    loop {
        match in_pool(pool, c.eventbridge.list_event_buses().set_next_token(token.take()).send()).await {
            Ok(page) => {
                buses.extend(page.event_buses().iter().filter_map(|b| b.name().map(str::to_string)));
                token = page.next_token().map(str::to_string);
            }
            Err(e) => {
                // The default bus is there in every Region: still read.
                out.skipped.push(skipped("ListEventBuses", "ListEventBuses", service_reason_or(&e)));
                buses = vec!["default".to_string()];
                break;
            }
        }
        if token.is_none() {
            break;
        }
    }
    // Every Region has the default bus: a listing without it read nothing.
    if !buses.iter().any(|b| b == "default") {
        let why = "answered without the default event bus".to_string();
        out.skipped.push(skipped("ListEventBuses", "ListEventBuses", why));
        buses.push("default".to_string());
    }
    buses.sort();
    buses.dedup();
    for bus in &buses {
        targets(c, out, &queues, bus, pool).await;
    }
    // In the fixed order collect::region leaves them in.
    out.skipped.sort_by(|a, b| (a.api, &a.what).cmp(&(b.api, &b.what)));
}

async fn subscriptions(c: &Clients, out: &mut Region, queues: &BTreeSet<String>, pool: &Semaphore) {
    let mut items = c.sns.list_subscriptions().into_paginator().items().send();
    while let Some(item) = in_pool(pool, items.next()).await {
        match item {
            Ok(s) => {
                let Some(endpoint) = s.endpoint().filter(|e| s.protocol() == Some("sqs") && queues.contains(*e)) else {
                    continue;
                };
                out.subscriptions.push(LiveSubscription {
                    arn: s.subscription_arn().unwrap_or_default().to_string(),
                    topic_arn: s.topic_arn().unwrap_or_default().to_string(),
                    endpoint: endpoint.to_string(),
                });
            }
            Err(e) => {
                out.skipped.push(skipped("ListSubscriptions", "ListSubscriptions", service_reason_or(&e)));
                return;
            }
        }
    }
}

/// The targets on `queues` of the rules of `bus`.
async fn targets(c: &Clients, out: &mut Region, queues: &BTreeSet<String>, bus: &str, pool: &Semaphore) {
    let eb = &c.eventbridge;
    let Some(rules) = bus_rules(c, out, bus, pool).await else { return };
    // Fewer calls either way: a call per rule, or one per queue and one
    // per rule that names a queue.
    let named: Vec<String> = if rules.len() <= queues.len() {
        rules.keys().cloned().collect()
    } else {
        rules_targeting(c, out, queues, bus, pool).await.into_iter().collect()
    };
    for name in named {
        let Some(rule_arn) = rules.get(&name) else { continue };
        let mut token = None;
        loop {
            let request = eb.list_targets_by_rule().rule(&name).event_bus_name(bus).set_next_token(token.take());
            match in_pool(pool, request.send()).await {
                Ok(page) => {
                    for t in page.targets().iter().filter(|t| queues.contains(t.arn())) {
                        out.targets.push(LiveTarget {
                            rule_arn: rule_arn.clone(),
                            id: t.id().to_string(),
                            arn: t.arn().to_string(),
                            message_group_id: t.sqs_parameters().and_then(|p| p.message_group_id()).map(str::to_string),
                            dead_letter_arn: t.dead_letter_config().and_then(|d| d.arn()).map(str::to_string),
                            role_arn: t.role_arn().map(str::to_string),
                            retry: t.retry_policy().map_or((None, None), |r| {
                                (
                                    r.maximum_retry_attempts().map(i64::from),
                                    r.maximum_event_age_in_seconds().map(i64::from),
                                )
                            }),
                        });
                    }
                    token = page.next_token().map(str::to_string);
                }
                Err(e) => {
                    out.skipped.push(skipped("ListTargetsByRule", rule_arn.clone(), service_reason_or(&e)));
                    break;
                }
            }
            if token.is_none() {
                break;
            }
        }
    }
}

/// The rules of `bus`, name -> ARN; `None` when they cannot be listed
/// (skipped, with why).
async fn bus_rules(c: &Clients, out: &mut Region, bus: &str, pool: &Semaphore) -> Option<BTreeMap<String, String>> {
    let eb = &c.eventbridge;
    // Rule name -> ARN.
    let mut rules = BTreeMap::new();
    let mut token = None;
    loop {
        let request = eb.list_rules().event_bus_name(bus).set_next_token(token.take()).send();
        match in_pool(pool, request).await {
            Ok(page) => {
                for r in page.rules() {
                    if let (Some(name), Some(arn)) = (r.name(), r.arn()) {
                        rules.insert(name.to_string(), arn.to_string());
                    }
                }
                token = page.next_token().map(str::to_string);
            }
            Err(e) => {
                out.skipped.push(skipped("ListRules", format!("event bus {bus}"), service_reason_or(&e)));
                return None;
            }
        }
        if token.is_none() {
            break;
        }
    }
    Some(rules)
}

/// The rules of `bus` that name one of `queues` as a target.
async fn rules_targeting(
    c: &Clients,
    out: &mut Region,
    queues: &BTreeSet<String>,
    bus: &str,
    pool: &Semaphore,
) -> BTreeSet<String> {
    let eb = &c.eventbridge;
    let mut named = BTreeSet::new();
    for queue in queues {
        let mut token = None;
        loop {
            let request =
                eb.list_rule_names_by_target().target_arn(queue).event_bus_name(bus).set_next_token(token.take());
            match in_pool(pool, request.send()).await {
                Ok(page) => {
                    named.extend(page.rule_names().iter().cloned());
                    token = page.next_token().map(str::to_string);
                }
                Err(e) => {
                    out.skipped.push(skipped("ListRuleNamesByTarget", queue.clone(), service_reason_or(&e)));
                    break;
                }
            }
            if token.is_none() {
                break;
            }
        }
    }
    named
}
