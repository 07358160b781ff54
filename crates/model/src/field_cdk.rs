//! What the AWS CDK's constructs call the fields, for findings that point
//! into a CDK app's source ([`Field::cdk`]). Kept beside the field table
//! rather than as a column of it: only the fields an L2 construct sets
//! have a name here, and the name depends on which construct sets it (a
//! queue's `Queue`, a mapping's `SqsEventSource`, a function's
//! `Function`).

use super::Field;

/// Which construct a CDK property is a property of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CdkOwner {
    /// `sqs.Queue`.
    Queue,
    /// `SqsEventSource`, `EventSourceMapping`, `addEventSourceMapping`.
    Mapping,
    /// `lambda.Function` and its subclasses (`NodejsFunction`, ...).
    Function,
}

impl Field {
    /// The property of `owner`'s props (TypeScript's camelCase; Python's
    /// snake_case is derived from it) that sets this field, or `None` when
    /// the construct has none.
    pub fn cdk(self, owner: CdkOwner) -> Option<&'static str> {
        use Field::*;
        let name = match (owner, self) {
            (CdkOwner::Queue, QueueName) => "queueName",
            (CdkOwner::Queue, FifoQueue) => "fifo",
            (CdkOwner::Queue, ContentBasedDedup) => "contentBasedDeduplication",
            (CdkOwner::Queue, VisibilityTimeout) => "visibilityTimeout",
            (CdkOwner::Queue, ReceiveWaitTime) => "receiveMessageWaitTime",
            (CdkOwner::Queue, RetentionPeriod) => "retentionPeriod",
            (CdkOwner::Queue, DelaySeconds) => "deliveryDelay",
            (CdkOwner::Queue, SqsManagedSse) => "encryption",
            (CdkOwner::Queue, KmsMasterKeyId) => "encryptionMasterKey",
            (CdkOwner::Queue, FifoThroughputLimit) => "fifoThroughputLimit",
            (CdkOwner::Queue, DeduplicationScope) => "deduplicationScope",
            (CdkOwner::Queue, RedrivePolicy | DeadLetterTarget | MaxReceiveCount) => "deadLetterQueue",
            (CdkOwner::Mapping, BatchSize) => "batchSize",
            (CdkOwner::Mapping, BatchingWindow) => "maxBatchingWindow",
            (CdkOwner::Mapping, FunctionResponseTypes) => "reportBatchItemFailures",
            (CdkOwner::Mapping, MaximumConcurrency) => "maxConcurrency",
            (CdkOwner::Mapping, MappingEnabled) => "enabled",
            (CdkOwner::Function, Timeout) => "timeout",
            (CdkOwner::Function, ReservedConcurrency) => "reservedConcurrentExecutions",
            (CdkOwner::Function, FunctionName) => "functionName",
            _ => return None,
        };
        Some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::{CdkOwner, Field};

    #[test]
    fn each_owner_names_its_own_fields_only() {
        assert_eq!(Field::VisibilityTimeout.cdk(CdkOwner::Queue), Some("visibilityTimeout"));
        assert_eq!(Field::VisibilityTimeout.cdk(CdkOwner::Function), None);
        assert_eq!(Field::FunctionResponseTypes.cdk(CdkOwner::Mapping), Some("reportBatchItemFailures"));
        assert_eq!(Field::MaxReceiveCount.cdk(CdkOwner::Queue), Some("deadLetterQueue"));
    }
}
