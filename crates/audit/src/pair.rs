//! Reading one (account, Region) pair: its credentials, the calls, the
//! rules on what was read, and what a read in part leaves unaudited; and
//! reading every pair of the audit at once, with the progress line.

use std::sync::Arc;
use std::time::Duration;

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

/// Read every pair, at most `opts.concurrency` at once, each within the
/// pair deadline; the reads in the pairs' order.
pub(super) async fn read_pairs(
    opts: &Options,
    access: &super::Access,
    pairs: &[Pair],
    progress: &mut dyn FnMut(&str),
) -> Vec<(usize, Read)> {
    // One pool for the whole audit: every request of every pair takes a
    // place in it, and at most as many pairs as it has places are read at once.
    let requests = Arc::new(Semaphore::new(opts.concurrency.max(1)));
    let pairs_at_once = Arc::new(Semaphore::new(opts.concurrency.max(1)));
    // What every pair's task reads, copied once (tasks outlive borrows).
    let shared = Arc::new(Options::for_pair(opts));
    let mut tasks = tokio::task::JoinSet::new();
    // Task -> the pair it reads, for a task that ends without an answer.
    let mut pair_of = std::collections::HashMap::new();
    for (i, pair) in pairs.iter().cloned().enumerate() {
        let ctx = PairContext {
            opts: shared.clone(),
            caller: access.caller.clone(),
            assumer: access.assumer.clone(),
            counter: access.counter(&pair.account),
            requests: requests.clone(),
        };
        let permit = pairs_at_once.clone();
        let task_pair = (i, pair.clone());
        let task = tasks.spawn(async move {
            let _permit = permit.acquire_owned().await;
            let deadline = ctx.opts.pair_deadline;
            let read = match tokio::time::timeout(deadline, read_pair(&ctx, pair.clone())).await {
                Ok(read) => read,
                Err(_) => Read::Unaudited(Unaudited::whole(
                    pair.account.clone(),
                    &pair.region,
                    format!("not read within {} s (the deadline of one account-Region)", deadline.as_secs()),
                )),
            };
            (i, read)
        });
        pair_of.insert(task.id(), task_pair);
    }
    let mut reads = join_reads(opts, &access.log, pairs.len(), tasks, pair_of, progress).await;
    reads.sort_by_key(|(i, _)| *i);
    reads
}

/// The reads as the pairs' tasks end, with the progress line: shown once
/// the run has taken `progress_after`, redrawn in place as pairs complete
/// and, between them, as calls are sent (one large Region takes minutes),
/// then cleared.
async fn join_reads(
    opts: &Options,
    log: &calls::CallLog,
    total: usize,
    mut tasks: tokio::task::JoinSet<(usize, Read)>,
    mut pair_of: std::collections::HashMap<tokio::task::Id, (usize, Pair)>,
    progress: &mut dyn FnMut(&str),
) -> Vec<(usize, Read)> {
    let mut reads = Vec::with_capacity(total);
    let mut findings_so_far = 0;
    let started = std::time::Instant::now();
    let mut shown = String::new();
    let mut redraw = |done: usize, findings: usize, shown: &mut String| {
        if !opts.progress || started.elapsed() < opts.progress_after {
            return;
        }
        let line = format!("\raudited {done}/{total} account-Regions, {findings} findings, {} API calls", log.count());
        if *shown != line {
            progress(&line);
            *shown = line;
        }
    };
    let tick = Duration::from_millis(250);
    loop {
        let next = match opts.progress {
            // join_next is cancel safe: a tick loses no pair.
            true => match tokio::time::timeout(tick, tasks.join_next_with_id()).await {
                Ok(next) => next,
                Err(_) => {
                    redraw(reads.len(), findings_so_far, &mut shown);
                    continue;
                }
            },
            false => tasks.join_next_with_id().await,
        };
        let Some(joined) = next else { break };
        let (i, read) = match joined {
            Ok((_, answer)) => answer,
            // A pair is never dropped quietly: one whose task ended
            // without an answer (a bug, caught) is unaudited.
            Err(e) => {
                let Some((i, pair)) = pair_of.remove(&e.id()) else { continue };
                let gap =
                    Unaudited::whole(pair.account, &pair.region, format!("the read ended without an answer ({e})"));
                (i, Read::Unaudited(gap))
            }
        };
        if let Read::Checked { outcome, .. } = &read {
            findings_so_far += outcome.findings.len();
        }
        reads.push((i, read));
        redraw(reads.len(), findings_so_far, &mut shown);
    }
    if !shown.is_empty() {
        progress("\r\x1b[2K");
    }
    reads
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
