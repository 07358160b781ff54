//! The rule options `.sqsguard.yaml` can set (`rules: {SQS001: {multiplier: 4}}`).

use crate::model::field::guidance;

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
