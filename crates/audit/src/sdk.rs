//! How the AWS SDK is configured for every call: retries, timeouts, the
//! profile and the endpoint.

use std::time::Duration;

use aws_config::retry::RetryConfig;
use aws_config::timeout::TimeoutConfig;
use aws_config::{BehaviorVersion, Region};

use super::options::Options;

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

pub(super) fn loader(opts: &Options, region: Option<&str>) -> aws_config::ConfigLoader {
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

/// Why the first call could not be made, in one line that names what was
/// tried: the endpoint (and how it failed), or the places credentials were
/// looked for. `raw` is the SDK's chain of errors, kept (with the Region
/// and the call) when it is neither a refusal nor a name that does not
/// resolve.
pub(super) fn unreachable(opts: &Options, region: &str, raw: &str) -> String {
    let lower = raw.to_ascii_lowercase();
    if lower.contains("credential") {
        let profile = opts
            .profile
            .clone()
            .or_else(|| std::env::var("AWS_PROFILE").ok().filter(|p| !p.is_empty()))
            .unwrap_or_else(|| "default".into());
        let imds = match std::env::var("AWS_EC2_METADATA_DISABLED") {
            Ok(v) if v.eq_ignore_ascii_case("true") => "",
            _ => ", EC2 instance metadata",
        };
        return format!(
            "no AWS credentials found (tried: environment, profile {profile}, web identity token, container credentials{imds}); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or pass --profile"
        );
    }
    let endpoint = opts
        .endpoint_url
        .clone()
        .or_else(|| std::env::var("AWS_ENDPOINT_URL_SQS").ok())
        .or_else(|| std::env::var("AWS_ENDPOINT_URL").ok())
        .unwrap_or_else(|| format!("https://sqs.{region}.amazonaws.com"));
    let why = if lower.contains("connection refused") {
        "connection refused".to_string()
    } else if lower.contains("dns error") || lower.contains("failed to lookup") || lower.contains("name resolution") {
        "its host name does not resolve".to_string()
    } else {
        // Anything else (a reset, no answer in time): the call and the SDK's words.
        format!("{region} ListQueues: {raw}")
    };
    format!("cannot reach the SQS endpoint {endpoint} ({why})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_config::retry::RetryMode;

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

    #[test]
    fn an_unreachable_endpoint_is_named_with_how_it_failed() {
        let opts = Options { endpoint_url: Some("http://q.invalid".into()), ..Options::default() };
        let dns = "dispatch failure: io error: client error (Connect): dns error: failed to lookup address information";
        assert_eq!(
            unreachable(&opts, "eu-west-1", dns),
            "cannot reach the SQS endpoint http://q.invalid (its host name does not resolve)"
        );
        assert_eq!(
            unreachable(&opts, "eu-west-1", "dispatch failure: connection reset"),
            "cannot reach the SQS endpoint http://q.invalid (eu-west-1 ListQueues: dispatch failure: connection reset)"
        );
    }
}
