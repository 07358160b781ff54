//! Reading one (account, Region) pair: its credentials, the calls, the
//! rules on what was read, and what a read in part leaves unaudited.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::options::Options;
use super::scope::Pair;
use super::sdk::loader;
use super::{assume, calls, collect, keys, producers, regions};
use sqsguard_finding::{Finding, Note};
use sqsguard_lint::outcome::{Outcome, Unaudited};
use sqsguard_model::Origin;

/// What reading one pair came to.
pub(super) enum Read {
    Checked {
        pair: Pair,
        outcome: Box<Outcome>,
        /// What was read, as the model (with `keep_models`).
        model: Option<Box<sqsguard_model::Model>>,
        /// The reads that failed, each with what it was reading.
        skipped: Vec<collect::Skipped>,
    },
    /// Not read: no credentials for its account, ListQueues refused, the
    /// deadline passed.
    Unaudited(Unaudited),
    /// AWS could not be reached at all from it.
    Unreachable(Pair, String),
    /// A Region of the partition's list that the account has not enabled.
    NotEnabled(Pair, String),
}

/// What one pair's task needs.
pub(super) struct PairContext {
    pub(super) opts: Arc<Options>,
    pub(super) caller: Option<String>,
    pub(super) assumer: Arc<assume::Assumer>,
    pub(super) counter: calls::Counter,
    pub(super) requests: Arc<Semaphore>,
}

pub(super) async fn read_pair(ctx: &PairContext, pair: Pair) -> Read {
    let unaudited = |reason: String| Unaudited::whole(pair.account.clone(), &pair.region, reason);
    let mut loader = loader(&ctx.opts, Some(&pair.region));
    // Another account than the caller's: its role's credentials.
    if let Some(account) = pair.account.as_ref().filter(|a| Some(*a) != ctx.caller.as_ref()) {
        match ctx.assumer.credentials(account, &ctx.counter).await {
            Ok(credentials) => loader = loader.credentials_provider(credentials),
            Err(assume::Failed::Refused(why)) => return Read::Unaudited(unaudited(why)),
            Err(assume::Failed::Unreachable(why)) => return Read::Unreachable(pair, format!("sts AssumeRole: {why}")),
        }
    }
    let config = loader.load().await;
    let counter = ctx.counter.clone();
    let clients = collect::Clients {
        sqs: aws_sdk_sqs::Client::from_conf(
            aws_sdk_sqs::config::Builder::from(&config).interceptor(counter.clone()).build(),
        ),
        lambda: aws_sdk_lambda::Client::from_conf(
            aws_sdk_lambda::config::Builder::from(&config).interceptor(counter.clone()).build(),
        ),
        cloudwatch: aws_sdk_cloudwatch::Client::from_conf(
            aws_sdk_cloudwatch::config::Builder::from(&config).interceptor(counter.clone()).build(),
        ),
        sns: aws_sdk_sns::Client::from_conf(
            aws_sdk_sns::config::Builder::from(&config).interceptor(counter.clone()).build(),
        ),
        eventbridge: aws_sdk_eventbridge::Client::from_conf(
            aws_sdk_eventbridge::config::Builder::from(&config).interceptor(counter.clone()).build(),
        ),
        kms: aws_sdk_kms::Client::from_conf(aws_sdk_kms::config::Builder::from(&config).interceptor(counter).build()),
    };
    let prefix = ctx.opts.queue_prefix.as_deref();
    let mut read = match collect::region(&clients, prefix, ctx.opts.lookback_seconds, ctx.requests.clone()).await {
        Ok(read) => read,
        // A Region only the partition's list named: refusing the
        // credentials means the account never opted into it.
        Err(collect::Unread::Refused(why)) if !pair.enabled && regions::means_not_enabled(&why) => {
            return Read::NotEnabled(pair, format!("ListQueues: {why}"));
        }
        Err(collect::Unread::Refused(why)) => return Read::Unaudited(unaudited(format!("ListQueues: {why}"))),
        Err(collect::Unread::Unreachable(why)) => {
            let why = super::sdk::unreachable(&ctx.opts, &pair.region, &why);
            return Read::Unreachable(pair, why);
        }
    };
    producers::read(&clients, &mut read, &ctx.requests).await;
    keys::read(&clients, &mut read, &ctx.requests).await;
    let mut outcome = Outcome { files: read.queues.len(), skipped: read.skipped.len(), ..Outcome::default() };
    let account =
        pair.account.clone().or_else(|| read.queues.first().and_then(|q| sqsguard_frontend::live::account_of(&q.url)));
    for s in &read.skipped {
        outcome.notes.push(Note {
            origin: Origin::live(s.what.clone(), account.clone(), Some(pair.region.clone())),
            message: format!("skipped {}: {}", s.what, s.why),
        });
    }
    let loaded = sqsguard_frontend::live::load(&read, &pair.region, ctx.opts.lookback_seconds);
    let model = ctx.opts.keep_models.then(|| Box::new(loaded.model.clone()));
    let checked = sqsguard_lint::check::check(loaded, &ctx.opts.settings);
    outcome.findings = checked.findings;
    let names = super::names::Names::of(&read);
    outcome.findings.iter_mut().for_each(|f| names.apply(f));
    outcome.notes.extend(checked.notes);
    outcome.notes.extend(sqsguard_lint::check::stale(&checked.used, checked.unused));
    outcome.suppressed = checked.suppressed;
    if let Some(gap) = blind(&read.skipped, &mut outcome.findings) {
        outcome.unaudited.push(Unaudited { account, region: pair.region.clone(), ..gap });
    }
    Read::Checked { pair, outcome: Box::new(outcome), model, skipped: read.skipped }
}

/// The rules that cannot see without an operation's data, and of those
/// the ones that would report the data's absence as a problem: their
/// findings are dropped where the data is missing. Each rule says which
/// (`needs`, `misled_without`); this only asks them.
fn blinded(api: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let reads = |inputs: &[sqsguard_rules::LiveInput]| inputs.iter().any(|i| i.read_by(api));
    let blind = sqsguard_rules::ALL.iter().filter(|r| reads(r.needs)).map(|r| r.id.code).collect();
    let misled = sqsguard_rules::ALL.iter().filter(|r| reads(r.misled_without)).map(|r| r.id.code).collect();
    (blind, misled)
}

/// A pair read in part: what failed, the rules blind without it, and its
/// false findings removed from `findings`. `None` when all was read.
fn blind(skipped: &[collect::Skipped], findings: &mut Vec<Finding>) -> Option<Unaudited> {
    if skipped.is_empty() {
        return None;
    }
    let mut apis: Vec<String> = skipped.iter().map(|s| s.api.to_string()).collect();
    apis.sort();
    apis.dedup();
    let mut rules: Vec<String> = apis.iter().flat_map(|a| blinded(a).0).map(|r| r.to_string()).collect();
    rules.sort();
    rules.dedup();
    findings.retain(|f| {
        !skipped.iter().any(|s| {
            let false_alarm = blinded(s.api).1.contains(&f.code());
            // Tags are read per queue: only that queue's SQS003 is unknown.
            false_alarm && (s.api != "ListQueueTags" || f.resource == s.what)
        })
    });
    let reasons: Vec<String> =
        skipped
            .iter()
            .map(|s| {
                if s.what == s.api {
                    format!("{}: {}", s.api, s.why)
                } else {
                    format!("{} {}: {}", s.api, s.what, s.why)
                }
            })
            .collect();
    let reason = match reasons.len() {
        1 => reasons[0].clone(),
        n => format!("{n} reads failed, the first {}", reasons[0]),
    };
    Some(Unaudited { account: None, region: String::new(), partial: true, reason, apis, rules })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_failed_read_blinds_is_what_the_rules_say_they_need() {
        // Rules the catalog has long had, so a new rule adds to these sets
        // without editing the test: each listed rule is blind (and where
        // said, misled) without the operation; a misled rule is always a
        // blind one; a producer read that failed misleads no rule.
        let producers = &["SQS019", "SQS020", "SQS021"][..];
        for (api, blind, misled) in [
            ("GetQueueAttributes", &["SQS004", "SQS007", "SQS009", "SQS101"][..], &["SQS004", "SQS006"][..]),
            ("ListEventSourceMappings", &["SQS001", "SQS002", "SQS005", "SQS010", "SQS022"], &["SQS006"]),
            ("GetFunctionConfiguration", &["SQS001", "SQS002"], &[]),
            ("GetFunctionConcurrency", &["SQS022"], &[]),
            ("DescribeAlarms", &["SQS015"], &["SQS015"]),
            ("GetMetricData", &["SQS006", "SQS102"], &[]),
            ("ListQueueTags", &["SQS003"], &["SQS003"]),
            ("ListSubscriptions", producers, &[]),
            ("ListEventBuses", producers, &[]),
            ("ListRules", producers, &[]),
            ("ListRuleNamesByTarget", producers, &[]),
            ("ListTargetsByRule", producers, &[]),
            // A key not described or its policy not read is one SQS020
            // does not judge: blind, never misled.
            ("DescribeKey", &["SQS020"], &[]),
            ("GetKeyPolicy", &["SQS020"], &[]),
        ] {
            let (b, m) = blinded(api);
            for code in blind {
                assert!(b.contains(code), "{api}: {code} is not blind without it: {b:?}");
            }
            assert!(misled.iter().all(|c| m.contains(c)), "{api}: {misled:?} not all misled: {m:?}");
            assert!(m.iter().all(|c| b.contains(c)), "{api}: misled but not blind: {m:?} {b:?}");
            if misled.is_empty() {
                assert!(m.is_empty(), "{api}: a failed read that only hides findings misleads {m:?}");
            }
        }
        assert_eq!(blinded("ListQueues"), (vec![], vec![]));
    }
}
