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
//! of one pair and of all of them, and `sdk` the SDK's retries and timeouts. [`stacks`] lists
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

use pair::{Read, read_pairs};
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
    let home = home_region(opts, chain.region().map(ToString::to_string))?;
    let regions = if opts.regions.is_empty() { vec![home.clone()] } else { opts.regions.clone() };
    let partition = assume::partition(&home);
    let base = loader(opts, Some(&home)).load().await;
    let (accounts, caller) = accounts_to_read(opts, &base, &log).await?;
    let access = Access {
        account_logs: accounts.iter().flatten().map(|a| (a.clone(), Arc::new(calls::CallLog::default()))).collect(),
        assumer: Arc::new(assume::Assumer::new(
            base.clone(),
            partition,
            opts.role_name.clone().unwrap_or_default(),
            opts.external_id.clone(),
            // Fresh enough to last a whole pair.
            opts.pair_deadline + Duration::from_secs(300),
        )),
        base,
        caller,
        log,
    };
    let mut outcome = Outcome::default();
    let (accounts, sliced) = scope::shard_accounts(opts.shard, opts.all_regions, accounts);
    let all = if opts.all_regions {
        enabled_pairs(opts, &home, &access, &accounts, &mut outcome).await
    } else {
        scope::pairs(&accounts, &regions)
    };
    let (pairs, shard) = scope::shard_pairs(opts.shard, sliced, all);
    outcome.shard = shard;
    let reads = read_pairs(opts, &access, &pairs, progress).await;
    // Nothing reached AWS at all: one line and exit 2, not a report of
    // every pair failing the same way.
    if let Some((_, Read::Unreachable(pair, why))) = reads.first()
        && reads.iter().all(|(_, r)| matches!(r, Read::Unreachable(..)))
    {
        // The endpoint or the credentials it names are the same for every pair.
        let whose = pair.account.as_ref().map(|a| format!("account {a}: ")).unwrap_or_default();
        return Err(format!("{whose}{why}"));
    }
    let (models, skipped) = gather(reads, opts, &mut outcome);
    outcome.unaudited.sort();
    // Notes by account and Region, as report merge orders the shards'.
    outcome.notes.sort_by(|a, b| a.origin.account_region().cmp(&b.origin.account_region()));
    outcome.finish();
    outcome.api_calls = Some(access.log.count());
    outcome.api_calls_by_account = access.account_logs.iter().map(|(a, l)| (a.clone(), l.count())).collect();
    Ok(Audit { outcome, calls: access.log, models, skipped })
}

/// The Region STS, Organizations and Account are asked in: the first
/// Region named, else the chain's (Organizations' and Account's endpoints
/// are global: the SDK finds them from any Region of the partition).
fn home_region(opts: &Options, chain: Option<String>) -> Result<String, String> {
    match (opts.regions.first(), chain) {
        (Some(r), _) => Ok(r.clone()),
        (None, Some(r)) => Ok(r),
        (None, None) if opts.all_regions => Ok("us-east-1".to_string()),
        (None, None) => Err("no AWS Region: pass --region or set AWS_REGION".into()),
    }
}

/// The accounts to read (`None`: the credentials' own, unnamed) and the
/// caller's account when other accounts are named.
async fn accounts_to_read(
    opts: &Options,
    base: &aws_config::SdkConfig,
    log: &Arc<calls::CallLog>,
) -> Result<(Vec<Option<String>>, Option<String>), String> {
    let (accounts, caller) = match &opts.accounts {
        Accounts::Caller => return Ok((vec![None], None)),
        Accounts::List(ids) => (ids.iter().cloned().map(Some).collect(), Some(assume::caller(base, log).await?)),
        Accounts::Organization => {
            let ids = assume::organization_accounts(base, log).await?;
            (ids.into_iter().map(Some).collect::<Vec<_>>(), Some(assume::caller(base, log).await?))
        }
    };
    if opts.role_name.is_none() && accounts.iter().any(|a| a.as_ref() != caller.as_ref()) {
        return Err("--accounts and --organization need --role-name, the role to assume in each account".into());
    }
    Ok((accounts, caller))
}

/// How every account is read: the credentials found, the caller's account,
/// the role assumed in the others, and the calls counted in all and by
/// account.
struct Access {
    base: aws_config::SdkConfig,
    caller: Option<String>,
    assumer: Arc<assume::Assumer>,
    log: Arc<calls::CallLog>,
    account_logs: std::collections::BTreeMap<String, Arc<calls::CallLog>>,
}

impl Access {
    fn counter(&self, account: &Option<String>) -> calls::Counter {
        calls::Counter(self.log.clone(), account.as_ref().and_then(|a| self.account_logs.get(a)).cloned())
    }
}

/// With --regions all: every Region each account has enabled (each
/// Region of the partition, noted, when the account cannot say), in
/// order. An account whose role cannot be assumed is unaudited.
async fn enabled_pairs(
    opts: &Options,
    home: &str,
    access: &Access,
    accounts: &[Option<String>],
    outcome: &mut Outcome,
) -> Vec<Pair> {
    let partition = assume::partition(home);
    let mut all = Vec::new();
    for account in accounts {
        let counter = access.counter(account);
        let own = account.is_none() || account == &access.caller;
        let config = if own {
            access.base.clone()
        } else {
            match access.assumer.credentials(account.as_deref().unwrap_or_default(), &counter).await {
                Ok(credentials) => loader(opts, Some(home)).credentials_provider(credentials).load().await,
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
}

/// Every pair's read into the audit's outcome; the models kept and the
/// reads that failed.
fn gather(
    reads: Vec<(usize, Read)>,
    opts: &Options,
    outcome: &mut Outcome,
) -> (Vec<sqsguard_model::Model>, Vec<collect::Skipped>) {
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
    (models, skipped)
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
