//! What `sqsguard audit` is asked to do: [`Options`] and the [`Accounts`]
//! it reads, with the command line's defaults.

use std::time::Duration;

use super::scope::Shard;

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
    /// included (`--retry-budget`); see [`super::retry_config`].
    pub retry_budget: Duration,
    /// A progress line as pairs complete (given to
    /// [`super::run_with_progress`]'s `progress`, standard error's).
    pub progress: bool,
    /// How long a run goes before its progress line shows (a quick run
    /// prints none).
    pub progress_after: Duration,
    /// `.sqsguard.yaml`: rule options, severities, payload declarations.
    pub settings: sqsguard_lint::config::Config,
    /// Keep each pair's model in [`super::Audit::models`] (`sqsguard
    /// drift` compares it with the templates').
    pub keep_models: bool,
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
            progress_after: Duration::from_secs(2),
            settings: sqsguard_lint::config::Config::default(),
            keep_models: false,
        }
    }
}

impl Options {
    /// The options a pair's task reads.
    pub(super) fn for_pair(opts: &Options) -> Options {
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
            keep_models: opts.keep_models,
            ..Options::default()
        }
    }
}
