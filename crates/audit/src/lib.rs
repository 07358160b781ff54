//! `sqsguard audit`: the same rules on live queues, read-only, through the
//! AWS SDK for Rust (feature `audit`), from one account to an organization.
//!
//! [`scope`] says which (account, Region) pairs to read ([`regions`] for
//! `--regions all`), [`assume`] gets each account's credentials, `collect`
//! makes the calls of one pair (and no more than needed; `producers` those
//! that find what feeds the queues), `calls` counts and records them, the live
//! front-end ([`sqsguard_frontend::live`]) turns what was read into the
//! shared model, and `check` runs the rules on it as on any file. A pair
//! that cannot be read, or is read only in part, is in
//! [`Outcome::unaudited`] and fails the run: a partial audit never looks
//! clean. `options` holds what the command is asked, `pair` the reading
//! of one pair, and `sdk` the SDK's retries and timeouts. [`stacks`] lists
//! the resources of the CloudFormation stacks `drift --stack` names.

pub mod drift;

pub(crate) mod assume;
pub(crate) mod calls;
pub(crate) mod collect;
mod keys;
mod mapping;
mod names;
mod options;
mod pair;
mod producers;
pub(crate) mod regions;
pub mod scope;
mod sdk;
pub(crate) mod stacks;

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use pair::{PairContext, Read, read_pair};
use scope::Pair;
use sdk::loader;
use sqsguard_finding::Note;
use sqsguard_lint::outcome::{Outcome, Unaudited};
use sqsguard_model::Origin;

pub use options::{Accounts, Options};
pub use sdk::retry_config;

/// What an audit found, and the operations it sent.
pub struct Audit {
    pub outcome: Outcome,
    pub calls: Arc<calls::CallLog>,
    /// The model of each pair read, with [`Options::keep_models`].
    pub models: Vec<sqsguard_model::Model>,
    /// Every read that failed in the pairs read (those not read at all are
    /// in the outcome's unaudited), each with what it was reading.
    pub skipped: Vec<collect::Skipped>,
}

/// Run the audit. `Err` is one line for the user: AWS cannot be reached,
/// there are no credentials or no Region, or the organization's accounts
/// cannot be listed.
pub fn run(opts: &Options) -> Result<Audit, sqsguard_finding::error::Error> {
    run_with_progress(opts, &mut |_| {})
}

/// [`run`], giving `progress` the text that redraws the progress line
/// (with `opts.progress`). This layer writes nothing itself: the command
/// line's one way to its streams, which never panics on a write, does.
pub fn run_with_progress(
    opts: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Audit, sqsguard_finding::error::Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| sqsguard_finding::error::Error::Aws(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(audit(opts, progress)).map_err(sqsguard_finding::error::Error::Aws)
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
    let digest_of = |items: &[String]| sqsguard_lint::fingerprint::stable_hash(items);
    let (accounts, sliced) = match (opts.shard, opts.all_regions) {
        (Some(shard), true) => {
            let names: Vec<String> = accounts.iter().map(|a| a.clone().unwrap_or_default()).collect();
            let of = sqsguard_lint::outcome::ShardOf {
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
            outcome.shard = Some(sqsguard_lint::outcome::ShardOf {
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
    // The progress line: shown once the run has taken `progress_after`,
    // redrawn in place as pairs complete and, between them, as calls are
    // sent (one large Region takes minutes), then cleared.
    let started = std::time::Instant::now();
    let mut shown = String::new();
    let mut redraw = |done: usize, findings: usize, shown: &mut String| {
        if !opts.progress || started.elapsed() < opts.progress_after {
            return;
        }
        let line =
            format!("\raudited {done}/{} account-Regions, {findings} findings, {} API calls", pairs.len(), log.count());
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
    reads.sort_by_key(|(i, _)| *i);
    // Nothing reached AWS at all: one line and exit 2, not a report of
    // every pair failing the same way.
    if let Some((_, Read::Unreachable(pair, why))) = reads.first()
        && reads.iter().all(|(_, r)| matches!(r, Read::Unreachable(..)))
    {
        // The endpoint or the credentials it names are the same for every pair.
        let whose = pair.account.as_ref().map(|a| format!("account {a}: ")).unwrap_or_default();
        return Err(format!("{whose}{why}"));
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
    let mut models = Vec::new();
    let mut skipped = Vec::new();
    let mut audited = 0;
    // Account -> (Regions read and found empty, Regions read).
    let mut empty: std::collections::BTreeMap<Option<String>, (Vec<String>, usize)> = Default::default();
    for (_, read) in reads {
        audited += usize::from(!matches!(&read, Read::NotEnabled(p, _) if read_somewhere.contains(&p.account)));
        match read {
            Read::Checked { outcome: pair, model, pair: which, skipped: failed } => {
                models.extend(model.map(|m| *m));
                skipped.extend(failed);
                let seen = empty.entry(which.account.clone()).or_default();
                seen.1 += 1;
                if pair.files == 0 && pair.unaudited.is_empty() {
                    seen.0.push(which.region.clone());
                }
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
    outcome.notes.extend(empty_notes(&empty, opts));
    outcome.account_regions = Some(audited);
    outcome.unaudited.sort();
    // Notes by account and Region, as report merge orders the shards'.
    outcome.notes.sort_by(|a, b| a.origin.account_region().cmp(&b.origin.account_region()));
    outcome.finish();
    outcome.api_calls = Some(log.count());
    outcome.api_calls_by_account = account_logs.iter().map(|(a, l)| (a.clone(), l.count())).collect();
    Ok(Audit { outcome, calls: log, models, skipped })
}

/// A Region where no queue was found is said (a wrong or misspelt Region
/// reads as clean otherwise); with `--regions all`, where most Regions
/// are empty, only an account with no queue in any of them.
fn empty_notes(empty: &std::collections::BTreeMap<Option<String>, (Vec<String>, usize)>, opts: &Options) -> Vec<Note> {
    let which = match &opts.queue_prefix {
        Some(p) => format!("no queue named {p}*"),
        None => "no queues".to_string(),
    };
    let hint = "a wrong or misspelt Region looks like this (--require-queues makes a run that finds none fail)";
    let mut notes = Vec::new();
    for (account, (regions, read)) in empty {
        if opts.all_regions {
            if !regions.is_empty() && regions.len() == *read {
                notes.push(Note {
                    origin: Origin::live(String::new(), account.clone(), None),
                    message: format!("{which} in any of the {read} Regions read"),
                });
            }
            continue;
        }
        for region in regions {
            notes.push(Note {
                origin: Origin::live(String::new(), account.clone(), Some(region.clone())),
                message: format!("{which} found: {hint}"),
            });
        }
    }
    notes
}
