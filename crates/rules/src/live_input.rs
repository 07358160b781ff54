//! What a rule needs of a live account: the reads whose failure leaves it
//! blind (`Rule.needs`), which the audit asks when a read fails.

/// A read of a live account that rules depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LiveInput {
    QueueAttributes,
    EventSourceMappings,
    FunctionConfiguration,
    Alarms,
    Metrics,
    QueueTags,
    /// The Region's SNS subscriptions (those to a queue read are producers).
    Subscriptions,
    /// The EventBridge targets on a queue read, and the buses and rules
    /// listed to find them.
    EventBridgeTargets,
    /// A consumer function's reserved concurrency.
    FunctionConcurrency,
    /// The key policies of the customer managed keys of the queues fed,
    /// and the keys described to find them.
    KeyPolicies,
}

impl LiveInput {
    /// The operation that reads it.
    pub(crate) fn api(self) -> &'static str {
        match self {
            LiveInput::QueueAttributes => "GetQueueAttributes",
            LiveInput::EventSourceMappings => "ListEventSourceMappings",
            LiveInput::FunctionConfiguration => "GetFunctionConfiguration",
            LiveInput::Alarms => "DescribeAlarms",
            LiveInput::Metrics => "GetMetricData",
            LiveInput::QueueTags => "ListQueueTags",
            LiveInput::Subscriptions => "ListSubscriptions",
            LiveInput::EventBridgeTargets => "ListTargetsByRule",
            LiveInput::FunctionConcurrency => "GetFunctionConcurrency",
            LiveInput::KeyPolicies => "GetKeyPolicy",
        }
    }

    /// Whether a failure of operation `api` leaves it unread: its own
    /// operation, or one of those that lead to it (the targets of a rule
    /// are found through the buses and the rules listed, a key policy
    /// through the key described).
    pub fn read_by(self, api: &str) -> bool {
        match self {
            LiveInput::EventBridgeTargets => {
                ["ListEventBuses", "ListRules", "ListRuleNamesByTarget", self.api()].contains(&api)
            }
            LiveInput::KeyPolicies => ["DescribeKey", self.api()].contains(&api),
            _ => self.api() == api,
        }
    }
}
