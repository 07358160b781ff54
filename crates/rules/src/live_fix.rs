//! What a live finding's fix says to run. A queue, event source mapping or
//! function the audit read has no line to edit, so its fix names the `aws`
//! CLI command that sets the value, with the queue's URL, the mapping's
//! UUID or the function's ARN it needs (the one place a fix keeps them).

use sqsguard_model::{Dialect, Field, Scalar};

/// ` (aws ...)`, the command that sets `field` to `value` on the live
/// `resource`, for a finding of a live account; empty for a file's, or for
/// a field no single command sets.
pub(crate) fn run(dialect: Dialect, field: Field, resource: &str, value: &Scalar) -> String {
    if dialect != Dialect::Api {
        return String::new();
    }
    command(field, resource, value).map(|c| format!(" ({c})")).unwrap_or_default()
}

/// The command itself.
pub(crate) fn command(field: Field, resource: &str, value: &Scalar) -> Option<String> {
    use Field::*;
    let text = match value {
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Str(s) => s.clone(),
        Scalar::List(items) => items.join(" "),
    };
    let mapping = |flag: &str| format!("aws lambda update-event-source-mapping --uuid {resource} {flag} {text}");
    Some(match field {
        VisibilityTimeout | ReceiveWaitTime | RetentionPeriod | DelaySeconds | SqsManagedSse | KmsMasterKeyId
        | FifoThroughputLimit | DeduplicationScope | ContentBasedDedup => format!(
            "aws sqs set-queue-attributes --queue-url {resource} --attributes {}={text}",
            Dialect::Api.name(field)
        ),
        BatchSize => mapping("--batch-size"),
        BatchingWindow => mapping("--maximum-batching-window-in-seconds"),
        FunctionResponseTypes => mapping("--function-response-types"),
        MaximumConcurrency => {
            format!(
                "aws lambda update-event-source-mapping --uuid {resource} --scaling-config MaximumConcurrency={text}"
            )
        }
        Timeout => format!("aws lambda update-function-configuration --function-name {resource} --timeout {text}"),
        ReservedConcurrency => format!(
            "aws lambda put-function-concurrency --function-name {resource} --reserved-concurrent-executions {text}"
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_mapping_and_function_commands() {
        let url = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
        assert_eq!(
            run(Dialect::Api, Field::VisibilityTimeout, url, &Scalar::Int(360)),
            format!(" (aws sqs set-queue-attributes --queue-url {url} --attributes VisibilityTimeout=360)")
        );
        assert_eq!(run(Dialect::CloudFormation, Field::VisibilityTimeout, url, &Scalar::Int(360)), "");
        let list = Scalar::List(vec!["ReportBatchItemFailures".into()]);
        assert_eq!(
            command(Field::FunctionResponseTypes, "0b4c", &list).unwrap(),
            "aws lambda update-event-source-mapping --uuid 0b4c --function-response-types ReportBatchItemFailures"
        );
        assert_eq!(run(Dialect::Api, Field::Policy, url, &Scalar::Str(String::new())), "");
    }
}
