//! `sqsguard audit`: the same rules on live queues, read-only, through the
//! AWS SDK for Rust (feature `audit`), from one account to an organization.
//!
//! [`scope`] says which (account, Region) pairs to read ([`regions`] for
//! `--regions all`), [`assume`] gets each account's credentials, `collect`
//! makes the calls of one pair (and no more than needed), `calls` counts and records them, the live
//! front-end ([`crate::frontend::live`]) turns what was read into the
//! shared model, and `check` runs the rules on it as on any file. A pair
//! that cannot be read, or is read only in part, is in
//! [`Outcome::unaudited`] and fails the run: a partial audit never looks
//! clean.

pub mod assume;
pub mod calls;
pub mod collect;
pub mod regions;
pub mod scope;

use std::sync::Arc;
use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};
use tokio::sync::Semaphore;

use crate::finding::{Finding, Note};
use crate::model::Origin;
use crate::outcome::{Outcome, Unaudited};
use scope::{Pair, Shard};

/// Which accounts to audit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Accounts {
    /// The credentials' own account (no call to learn which).
    #[default]
    Caller,
    /// These (sorted, each once).
    List(Vec<String>),
    /// The ACTIVE accounts of the caller's organization.
    Organization,
}

pub struct Options {
    /// Regions to audit; empty: the one the credential chain gives.
    pub regions: Vec<String>,
    /// `--regions all`: every Region enabled in each account.
    pub all_regions: bool,
    pub accounts: Accounts,
    /// Assumed in every account but the caller's own:
    /// `arn:PARTITION:iam::ACCOUNT:role/NAME`.
    pub role_name: Option<String>,
    pub external_id: Option<String>,
    pub shard: Option<Shard>,
    pub profile: Option<String>,
    pub endpoint_url: Option<String>,
    pub queue_prefix: Option<String>,
    pub lookback_seconds: u64,
    /// Requests in flight at once, over every pair.
    pub concurrency: usize,
    /// How long one pair may take before it is given up as unaudited.
    pub pair_deadline: Duration,
    pub connect_timeout: Duration,
    /// Attempts of one call, the first included (`--max-attempts`).
    pub max_attempts: u32,
    /// The most one call may take, its retries and the waits between them
    /// included (`--retry-budget`); see [`retry_config`].
    pub retry_budget: Duration,
    /// A progress line as pairs complete (given to
    /// [`run_with_progress`]'s `progress`, standard error's).
    pub progress: bool,
    /// `.sqsguard.yaml`: rule options, severities, payload declarations.
    pub settings: crate::config::Config,
}

/// The command line's defaults.
impl Default for Options {
    fn default() -> Self {
        Options {
            regions: Vec::new(),
            all_regions: false,
            accounts: Accounts::Caller,
            role_name: None,
            external_id: None,
            shard: None,
            profile: None,
            endpoint_url: None,
            queue_prefix: None,
            lookback_seconds: 3600,
            concurrency: 16,
            pair_deadline: Duration::from_secs(600),
            connect_timeout: Duration::from_secs(3),
            max_attempts: 8,
            retry_budget: Duration::from_secs(30),
            progress: false,
            settings: crate::config::Config::default(),
        }
    }
}

/// What an audit found, and the operations it sent.
pub struct Audit {
    pub outcome: Outcome,
    pub calls: Arc<calls::CallLog>,
}

/// Run the audit. `Err` is one line for the user: AWS cannot be reached,
/// there are no credentials or no Region, or the organization's accounts
/// cannot be listed.
pub fn run(opts: &Options) -> Result<Audit, crate::error::Error> {
    run_with_progress(opts, &mut |_| {})
}

/// [`run`], giving `progress` the text that redraws the progress line
/// (with `opts.progress`). This layer writes nothing itself: the command
/// line's one way to its streams, which never panics on a write, does.
pub fn run_with_progress(opts: &Options, progress: &mut dyn FnMut(&str)) -> Result<Audit, crate::error::Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| crate::error::Error::Aws(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(audit(opts, progress)).map_err(crate::error::Error::Aws)
}

/// What reading one pair came to.
enum Read {
    Checked {
        pair: Pair,
        outcome: Box<Outcome>,
    },
    /// Not read: no credentials for its account, ListQueues refused, the
    /// deadline passed.
    Unaudited(Unaudited),
    /// AWS could not be reached at all from it.
    Unreachable(Pair, String),
    /// A Region of the partition's list that the account has not enabled.
    NotEnabled(Pair, String),
}

async fn audit(opts: &Options, progress: &mut dyn FnMut(&str)) -> Result<Audit, String> {
    let log = Arc::new(calls::CallLog::default());
    let chain = loader(opts, None).load().await;
    // STS, Organizations and Account are asked in the first Region named,
    // else the chain's (Organizations' and Account's endpoints are global:
    // the SDK finds them from any Region of the partition).
    let home = match (opts.regions.first(), chain.region()) {
        (Some(r), _) => r.clone(),
        (None, Some(r)) => r.to_string(),
        (None, None) if opts.all_regions => "us-east-1".to_string(),
        (None, None) => return Err("no AWS Region: pass --region or set AWS_REGION".into()),
    };
    let regions = if opts.regions.is_empty() { vec![home.clone()] } else { opts.regions.clone() };
    let partition = assume::partition(&home);
    let base = loader(opts, Some(&home)).load().await;
    let named = opts.accounts != Accounts::Caller;
    let (accounts, caller) = match &opts.accounts {
        Accounts::Caller => (vec![None], None),
        Accounts::List(ids) => (ids.iter().cloned().map(Some).collect(), Some(assume::caller(&base, &log).await?)),
        Accounts::Organization => {
            let ids = assume::organization_accounts(&base, &log).await?;
            (ids.into_iter().map(Some).collect(), Some(assume::caller(&base, &log).await?))
        }
    };
    if named && opts.role_name.is_none() && accounts.iter().any(|a| a.as_ref() != caller.as_ref()) {
        return Err("--accounts and --organization need --role-name, the role to assume in each account".into());
    }
    let account_logs: std::collections::BTreeMap<String, Arc<calls::CallLog>> =
        accounts.iter().flatten().map(|a| (a.clone(), Arc::new(calls::CallLog::default()))).collect();
    let counter_of = |account: &Option<String>| {
        calls::Counter(log.clone(), account.as_ref().and_then(|a| account_logs.get(a)).cloned())
    };
    let assumer = Arc::new(assume::Assumer::new(
        base.clone(),
        partition,
        opts.role_name.clone().unwrap_or_default(),
        opts.external_id.clone(),
        // Fresh enough to last a whole pair.
        opts.pair_deadline + Duration::from_secs(300),
    ));
    let mut outcome = Outcome::default();
    // With --regions all the pairs are only known account by account, and
    // an account's answer may differ between two shards' runs: the
    // accounts are sliced, so every shard keeps whole accounts.
    let digest_of = |items: &[String]| crate::fingerprint::stable_hash(items);
    let (accounts, sliced) = match (opts.shard, opts.all_regions) {
        (Some(shard), true) => {
            let names: Vec<String> = accounts.iter().map(|a| a.clone().unwrap_or_default()).collect();
            let of = crate::outcome::ShardOf {
                index: shard.index,
                count: shard.count,
                of: "accounts".into(),
                digest: digest_of(&names),
            };
            (shard.of(&accounts), Some(of))
        }
        _ => (accounts, None),
    };
    let all = if opts.all_regions {
        let mut all = Vec::new();
        for account in &accounts {
            let counter = counter_of(account);
            let own = account.is_none() || account == &caller;
            let config = if own {
                base.clone()
            } else {
                match assumer.credentials(account.as_deref().unwrap_or_default(), &counter).await {
                    Ok(credentials) => loader(opts, Some(&home)).credentials_provider(credentials).load().await,
                    Err(assume::Failed::Refused(why) | assume::Failed::Unreachable(why)) => {
                        outcome.unaudited.push(Unaudited::whole(account.clone(), "every Region", why));
                        continue;
                    }
                }
            };
            let (names, enabled) = match regions::enabled(&config, &counter).await {
                Ok(names) => (names, true),
                Err(why) => {
                    let whose = account.as_ref().map(|a| format!("account {a}: ")).unwrap_or_default();
                    outcome.notes.push(Note {
                        origin: Origin::live(String::new(), account.clone(), None),
                        message: format!(
                            "{whose}{why}; reading every Region of the {partition} partition, and noting those not enabled"
                        ),
                    });
                    (regions::of_partition(partition).iter().map(|r| r.to_string()).collect(), false)
                }
            };
            all.extend(names.into_iter().map(|region| Pair { account: account.clone(), region, enabled }));
        }
        all.sort();
        all
    } else {
        scope::pairs(&accounts, &regions)
    };
    let pairs = match (opts.shard, sliced) {
        (_, Some(of)) => {
            outcome.shard = Some(of);
            all
        }
        (Some(shard), None) => {
            let names: Vec<String> =
                all.iter().map(|p| format!("{}/{}", p.account.as_deref().unwrap_or_default(), p.region)).collect();
            outcome.shard = Some(crate::outcome::ShardOf {
                index: shard.index,
                count: shard.count,
                of: "pairs".into(),
                digest: digest_of(&names),
            });
            shard.of(&all)
        }
        (None, None) => all,
    };
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
            caller: caller.clone(),
            assumer: assumer.clone(),
            counter: counter_of(&pair.account),
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
    let mut reads = Vec::with_capacity(pairs.len());
    let mut findings_so_far = 0;
    while let Some(joined) = tasks.join_next_with_id().await {
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
        if opts.progress {
            progress(&format!("\raudited {}/{} account-Regions, {findings_so_far} findings", reads.len(), pairs.len()));
        }
    }
    if opts.progress && !pairs.is_empty() {
        progress("\r\x1b[2K");
    }
    reads.sort_by_key(|(i, _)| *i);
    // Nothing reached AWS at all: one line and exit 2, not a report of
    // every pair failing the same way.
    if let Some((_, Read::Unreachable(pair, why))) = reads.first()
        && reads.iter().all(|(_, r)| matches!(r, Read::Unreachable(..)))
    {
        let whose = pair.account.as_ref().map(|a| format!("account {a} in ")).unwrap_or_default();
        return Err(format!("{whose}{}: {why}", pair.region));
    }
    // "Not enabled" is believed of a Region only when the same credentials
    // read another Region of the account; else they may simply be bad.
    let read_somewhere: std::collections::HashSet<Option<String>> = reads
        .iter()
        .filter_map(|(_, r)| match r {
            Read::Checked { pair, .. } => Some(pair.account.clone()),
            _ => None,
        })
        .collect();
    for (_, read) in reads {
        match read {
            Read::Checked { outcome: pair, .. } => {
                outcome.findings.extend(pair.findings);
                outcome.notes.extend(pair.notes);
                outcome.unaudited.extend(pair.unaudited);
                outcome.files += pair.files;
                outcome.skipped += pair.skipped;
                outcome.suppressed += pair.suppressed;
            }
            Read::Unaudited(gap) => outcome.unaudited.push(gap),
            Read::NotEnabled(pair, why) if read_somewhere.contains(&pair.account) => outcome.notes.push(Note {
                origin: Origin::live(String::new(), pair.account.clone(), Some(pair.region.clone())),
                message: format!("{} is not enabled for this account ({why})", pair.region),
            }),
            Read::NotEnabled(pair, why) => outcome.unaudited.push(Unaudited::whole(
                pair.account,
                &pair.region,
                format!("{why} (and no other Region of the account could be read)"),
            )),
            Read::Unreachable(pair, why) => outcome.unaudited.push(Unaudited::whole(pair.account, &pair.region, why)),
        }
    }
    outcome.unaudited.sort();
    // Notes by account and Region, as report merge orders the shards'.
    outcome.notes.sort_by(|a, b| a.origin.account_region().cmp(&b.origin.account_region()));
    outcome.finish();
    outcome.api_calls = Some(log.count());
    outcome.api_calls_by_account = account_logs.iter().map(|(a, l)| (a.clone(), l.count())).collect();
    Ok(Audit { outcome, calls: log })
}

/// What one pair's task needs.
struct PairContext {
    opts: Arc<Options>,
    caller: Option<String>,
    assumer: Arc<assume::Assumer>,
    counter: calls::Counter,
    requests: Arc<Semaphore>,
}

impl Options {
    /// The options a pair's task reads.
    fn for_pair(opts: &Options) -> Options {
        Options {
            profile: opts.profile.clone(),
            endpoint_url: opts.endpoint_url.clone(),
            queue_prefix: opts.queue_prefix.clone(),
            lookback_seconds: opts.lookback_seconds,
            concurrency: opts.concurrency,
            pair_deadline: opts.pair_deadline,
            connect_timeout: opts.connect_timeout,
            max_attempts: opts.max_attempts,
            retry_budget: opts.retry_budget,
            settings: opts.settings.clone(),
            ..Options::default()
        }
    }
}

async fn read_pair(ctx: &PairContext, pair: Pair) -> Read {
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
            aws_sdk_cloudwatch::config::Builder::from(&config).interceptor(counter).build(),
        ),
    };
    let prefix = ctx.opts.queue_prefix.as_deref();
    let read = match collect::region(&clients, prefix, ctx.opts.lookback_seconds, ctx.requests.clone()).await {
        Ok(read) => read,
        // A Region only the partition's list named: refusing the
        // credentials means the account never opted into it.
        Err(collect::Unread::Refused(why)) if !pair.enabled && regions::means_not_enabled(&why) => {
            return Read::NotEnabled(pair, format!("ListQueues: {why}"));
        }
        Err(collect::Unread::Refused(why)) => return Read::Unaudited(unaudited(format!("ListQueues: {why}"))),
        Err(collect::Unread::Unreachable(why)) => return Read::Unreachable(pair, format!("ListQueues: {why}")),
    };
    let mut outcome = Outcome { files: read.queues.len(), skipped: read.skipped.len(), ..Outcome::default() };
    let account =
        pair.account.clone().or_else(|| read.queues.first().and_then(|q| crate::frontend::live::account_of(&q.url)));
    for s in &read.skipped {
        outcome.notes.push(Note {
            origin: Origin::live(s.what.clone(), account.clone(), Some(pair.region.clone())),
            message: format!("skipped {}: {}", s.what, s.why),
        });
    }
    let loaded = crate::frontend::live::load(&read, &pair.region, ctx.opts.lookback_seconds);
    let checked = crate::check::check(loaded, &ctx.opts.settings);
    outcome.findings = checked.findings;
    outcome.notes.extend(checked.notes);
    outcome.notes.extend(crate::check::stale(&checked.used, checked.unused));
    outcome.suppressed = checked.suppressed;
    if let Some(gap) = blind(&read.skipped, &mut outcome.findings) {
        outcome.unaudited.push(Unaudited { account, region: pair.region.clone(), ..gap });
    }
    Read::Checked { pair, outcome: Box::new(outcome) }
}

/// The rules that cannot see without an operation's data, and of those
/// the ones that would report the data's absence as a problem: their
/// findings are dropped where the data is missing. Each rule says which
/// (`needs`, `misled_without`); this only asks them.
fn blinded(api: &str) -> (Vec<&'static str>, Vec<&'static str>) {
    let reads = |inputs: &[crate::rules::LiveInput]| inputs.iter().any(|i| i.api() == api);
    let blind = crate::rules::ALL.iter().filter(|r| reads(r.needs)).map(|r| r.id.code).collect();
    let misled = crate::rules::ALL.iter().filter(|r| reads(r.misled_without)).map(|r| r.id.code).collect();
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

/// How every call is retried: `max_attempts` attempts within `budget`.
///
/// Standard retries, not adaptive: the adaptive mode's client-side rate
/// limiter, one per service for the whole process, drops to half a request
/// a second at the first throttle and makes each retry wait for five
/// tokens, so that 30 % of calls throttled turned a 0.4 s read into 102 s
/// (benches/throttle.sh). The waits between attempts double, with full
/// jitter, from `budget / 2^max_attempts` (30 s and 8 attempts: about a
/// tenth of a second), never from more than a second (the SDK's own default), so
/// together they take at most half the budget; an attempt with no
/// answer after half the budget is abandoned, and the whole call after the
/// budget. A call that still fails is a failed read, which the pair's
/// outcome names (unaudited, or read in part): never silence.
pub fn retry_config(max_attempts: u32, budget: Duration) -> (RetryConfig, TimeoutConfig) {
    let attempts = max_attempts.max(1);
    let first_wait = budget.div_f64(2f64.powi(attempts.min(30) as i32)).min(Duration::from_secs(1));
    let retry = RetryConfig::standard()
        .with_max_attempts(attempts)
        .with_initial_backoff(first_wait)
        .with_max_backoff(budget / 4);
    let attempt = if attempts == 1 { budget } else { budget / 2 };
    (retry, TimeoutConfig::builder().operation_attempt_timeout(attempt).operation_timeout(budget).build())
}

fn loader(opts: &Options, region: Option<&str>) -> aws_config::ConfigLoader {
    let (retry, timeouts) = retry_config(opts.max_attempts, opts.retry_budget);
    let timeouts = timeouts.to_builder().connect_timeout(opts.connect_timeout).build();
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).retry_config(retry).timeout_config(timeouts);
    if let Some(r) = region {
        loader = loader.region(Region::new(r.to_string()));
    }
    if let Some(p) = &opts.profile {
        loader = loader.profile_name(p);
    }
    if let Some(url) = &opts.endpoint_url {
        loader = loader.endpoint_url(url);
    }
    loader
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_config::retry::RetryMode;

    #[test]
    fn what_a_failed_read_blinds_is_what_the_rules_say_they_need() {
        // The table the audit kept by hand before the rules said it.
        let consumers = vec!["SQS001", "SQS002", "SQS005", "SQS006", "SQS010", "SQS011", "SQS012"];
        let queues = vec!["SQS004", "SQS006", "SQS007", "SQS009", "SQS015", "SQS101"];
        let sorted = |mut v: Vec<&'static str>| {
            v.sort();
            v
        };
        for (api, blind, misled) in [
            ("GetQueueAttributes", queues, vec!["SQS004", "SQS006"]),
            ("ListEventSourceMappings", consumers, vec!["SQS006"]),
            ("GetFunctionConfiguration", vec!["SQS001", "SQS002"], vec![]),
            ("DescribeAlarms", vec!["SQS015"], vec!["SQS015"]),
            ("GetMetricData", vec!["SQS006", "SQS102"], vec![]),
            ("ListQueueTags", vec!["SQS003"], vec!["SQS003"]),
            ("ListQueues", vec![], vec![]),
        ] {
            let (b, m) = blinded(api);
            assert_eq!((sorted(b), sorted(m)), (sorted(blind), sorted(misled)), "{api}");
        }
    }

    #[test]
    fn retries_are_standard_and_their_waits_fit_in_half_the_budget() {
        for (attempts, budget) in [(8, 30), (6, 30), (3, 4), (2, 2), (1, 10), (20, 600)] {
            let budget = Duration::from_secs(budget);
            let (retry, timeouts) = retry_config(attempts, budget);
            // Adaptive mode's client-side rate limiter is what made throttling slow.
            assert_eq!(retry.mode(), RetryMode::Standard);
            assert_eq!(retry.max_attempts(), attempts);
            // The longest each wait can be (full jitter: up to this), one per retry.
            let waits: Duration = (0..attempts.saturating_sub(1))
                .map(|k| (retry.initial_backoff() * 2u32.pow(k)).min(retry.max_backoff()))
                .sum();
            assert!(waits <= budget / 2, "{attempts} attempts in {budget:?}: waits up to {waits:?}");
            assert_eq!(timeouts.operation_timeout(), Some(budget));
            let attempt = timeouts.operation_attempt_timeout().unwrap();
            assert!(attempt <= budget && (attempts == 1 || attempt < budget), "{attempt:?}");
        }
        // A second at most: fewer attempts do not wait longer.
        assert_eq!(retry_config(2, Duration::from_secs(600)).0.initial_backoff(), Duration::from_secs(1));
        assert_eq!(retry_config(3, Duration::from_secs(4)).0.initial_backoff(), Duration::from_millis(500));
        // The default: about 0.12 s first, doubling up to 7.5 s, 15 s in all at most.
        let (retry, _) = retry_config(Options::default().max_attempts, Options::default().retry_budget);
        assert_eq!(retry.initial_backoff(), Duration::from_secs(30).div_f64(256.0));
    }
}
