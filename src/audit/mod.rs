//! `sqsguard audit`: the same rules on live queues, read-only, through the
//! AWS SDK for Rust (feature `audit`).
//!
//! `collect` makes the calls (and no more than needed), `calls` counts and
//! records them, the live front-end ([`crate::frontend::live`]) turns what
//! was read into the shared model, and `check` runs the rules on it as on
//! any file.

pub mod calls;
pub mod collect;

use std::sync::Arc;
use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};

use crate::finding::Note;
use crate::model::Origin;
use crate::outcome::Outcome;

pub struct Options {
    /// Regions to audit; empty: the one the credential chain gives.
    pub regions: Vec<String>,
    pub profile: Option<String>,
    pub endpoint_url: Option<String>,
    pub queue_prefix: Option<String>,
    pub lookback_seconds: u64,
    pub concurrency: usize,
    pub connect_timeout: Duration,
    /// `.sqsguard.yaml`: rule options, severities, payload declarations.
    pub settings: crate::config::Config,
}

/// What an audit found, and the operations it sent.
pub struct Audit {
    pub outcome: Outcome,
    pub calls: Arc<calls::CallLog>,
}

/// Run the audit. `Err` is one line for the user: AWS cannot be reached,
/// or there are no credentials or no Region.
pub fn run(opts: &Options) -> Result<Audit, crate::error::Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| crate::error::Error::Aws(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(audit(opts)).map_err(crate::error::Error::Aws)
}

async fn audit(opts: &Options) -> Result<Audit, String> {
    let log = Arc::new(calls::CallLog::default());
    let mut outcome = Outcome::default();
    let mut regions = opts.regions.clone();
    if regions.is_empty() {
        let base = loader(opts, None).load().await;
        match base.region() {
            Some(r) => regions.push(r.to_string()),
            None => return Err("no AWS Region: pass --region or set AWS_REGION".into()),
        }
    }
    for region in &regions {
        let config = loader(opts, Some(region)).load().await;
        let counter = calls::Counter(log.clone());
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
        let read =
            collect::region(&clients, opts.queue_prefix.as_deref(), opts.lookback_seconds, opts.concurrency).await?;
        outcome.files += read.queues.len();
        outcome.skipped += read.skipped.len();
        for (what, why) in &read.skipped {
            outcome.notes.push(Note {
                origin: Origin::live(what.clone(), None, Some(region.clone())),
                message: format!("skipped {what}: {why}"),
            });
        }
        let loaded = crate::frontend::live::load(&read, region, opts.lookback_seconds);
        let checked = crate::check::check(loaded, &opts.settings);
        outcome.findings.extend(checked.findings);
        outcome.notes.extend(checked.notes);
        outcome.notes.extend(crate::check::stale(&checked.used, checked.unused));
        outcome.suppressed += checked.suppressed;
    }
    outcome.finish(&opts.settings);
    outcome.api_calls = Some(log.count());
    Ok(Audit { outcome, calls: log })
}

fn loader(opts: &Options, region: Option<&str>) -> aws_config::ConfigLoader {
    let mut loader = aws_config::defaults(BehaviorVersion::latest())
        .retry_config(RetryConfig::adaptive().with_max_attempts(4))
        .timeout_config(
            TimeoutConfig::builder()
                .connect_timeout(opts.connect_timeout)
                .operation_attempt_timeout(Duration::from_secs(20))
                .operation_timeout(Duration::from_secs(60))
                .build(),
        );
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
