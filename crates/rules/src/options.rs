//! The rule options `.sqsguard.yaml` can set (`rules: {SQS001: {multiplier: 4}}`).

use sqsguard_model::field::guidance;

/// Thresholds of the configurable rules; [`Default`] is what each rule's page says.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// SQS001: VisibilityTimeout must reach this many times the function
    /// timeout, plus the batching window (AWS recommends 6).
    pub visibility_multiplier: i64,
    /// SQS008: the lowest acceptable maxReceiveCount.
    pub min_max_receive_count: i64,
    /// SQS102: seconds a message may wait before it is too old.
    pub oldest_message_sla_seconds: f64,
    /// SQS103: visible messages above which an idle queue is starving.
    pub starvation_threshold: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            visibility_multiplier: guidance::VISIBILITY_MULTIPLIER,
            min_max_receive_count: guidance::MIN_MAX_RECEIVE_COUNT,
            oldest_message_sla_seconds: 300.0,
            starvation_threshold: 100,
        }
    }
}

/// What kind of value an option takes (the config schema says the same,
/// and a test holds them together).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OptionKind {
    /// A whole number in `min..=max` (no upper bound when `max` is `None`).
    Integer { min: u64, max: Option<u64> },
    /// Seconds, or a duration such as `5m` or `2h`.
    Duration,
}

/// One option a rule takes under `rules: {CODE: {NAME: value}}`.
#[derive(Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
    /// Store a value read from the config (seconds for a duration).
    pub set: fn(&mut Options, u64),
}
