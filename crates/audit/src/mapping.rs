//! A Lambda event source mapping (ListEventSourceMappings) as the live
//! front-end reads it: its settings by field, so a setting of the field
//! table is one line here.

use aws_sdk_lambda::types::EventSourceMappingConfiguration;

use sqsguard_frontend::live::Mapping;
use sqsguard_model::{Field, Scalar};

/// The mapping `m` of the queue `source` (its ARN).
pub(super) fn read(m: &EventSourceMappingConfiguration, source: &str) -> Mapping {
    let int = |v: Option<i32>| v.map(|v| Scalar::Int(i64::from(v)));
    let types = m.function_response_types().iter().map(|t| t.as_str().to_string()).collect();
    Mapping {
        uuid: m.uuid().unwrap_or_default().to_string(),
        source_arn: source.to_string(),
        function_arn: m.function_arn().map(str::to_string),
        // Its settings the API answered, by field.
        settings: [
            (Field::BatchSize, int(m.batch_size())),
            (Field::BatchingWindow, int(m.maximum_batching_window_in_seconds())),
            (Field::FunctionResponseTypes, Some(Scalar::List(types))),
            (Field::MaximumConcurrency, int(m.scaling_config().and_then(|s| s.maximum_concurrency()))),
            // The stream-only parameters Lambda takes on a queue's mapping
            // (SQS024), unless at the stream default the API may answer for
            // one never set. StartingPosition and DestinationConfig are not
            // read: Lambda refuses them on a queue's mapping, so whatever
            // the API echoes is not something a user set.
            (Field::MappingRetryAttempts, unless(int(m.maximum_retry_attempts()), Scalar::Int(-1))),
            (Field::MaximumRecordAge, unless(int(m.maximum_record_age_in_seconds()), Scalar::Int(-1))),
            (Field::BisectBatch, unless(m.bisect_batch_on_function_error().map(Scalar::Bool), Scalar::Bool(false))),
            (Field::ParallelizationFactor, unless(int(m.parallelization_factor()), Scalar::Int(1))),
            (Field::TumblingWindow, unless(int(m.tumbling_window_in_seconds()), Scalar::Int(0))),
        ]
        .into_iter()
        .filter_map(|(field, value)| Some((field, value?)))
        .collect(),
        enabled: match m.state() {
            Some("Enabled" | "Enabling") => Ok(true),
            Some("Disabled" | "Disabling") => Ok(false),
            Some(other) => Err(other.to_string()),
            None => Err("in no State the API returned".to_string()),
        },
    }
}

/// `value`, unless it is the stream `default`.
fn unless(value: Option<Scalar>, default: Scalar) -> Option<Scalar> {
    value.filter(|v| *v != default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_frontend::live::{LiveQueueData, Region, load};
    use sqsguard_model::Index;
    use sqsguard_rules::{Context, Findings, Options, by_code};

    const QUEUE: &str = "arn:aws:sqs:us-east-1:123456789012:orders";

    fn sqs024(m: EventSourceMappingConfiguration) -> Vec<String> {
        let mut read = Region::default();
        let url = "https://sqs.us-east-1.amazonaws.com/123456789012/orders";
        let attributes = [("QueueArn".to_string(), QUEUE.to_string())].into_iter().collect();
        read.queues.push(LiveQueueData { url: url.into(), attributes, ..Default::default() });
        read.mappings.push(read_mapping(&m));
        let model = load(&read, "us-east-1", 3600).model;
        let (index, options) = (Index::new(&model), Options::default());
        let cx = Context { model: &model, index: &index, options: &options };
        let mut findings = Findings::default();
        (by_code("SQS024").expect("in the catalog").check)(&cx, &mut findings);
        findings.into_vec().into_iter().map(|f| f.message.clone()).collect()
    }

    fn read_mapping(m: &EventSourceMappingConfiguration) -> Mapping {
        read(m, QUEUE)
    }

    fn mapping() -> aws_sdk_lambda::types::builders::EventSourceMappingConfigurationBuilder {
        EventSourceMappingConfiguration::builder().uuid("u-1").state("Enabled").batch_size(10)
    }

    #[test]
    fn a_live_stream_parameter_is_read_unless_at_its_stream_default() {
        let found = sqs024(mapping().maximum_retry_attempts(2).bisect_batch_on_function_error(true).build());
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("MaximumRetryAttempts 2"), "{found:?}");
        let defaults = mapping()
            .maximum_retry_attempts(-1)
            .maximum_record_age_in_seconds(-1)
            .bisect_batch_on_function_error(false)
            .parallelization_factor(1)
            .tumbling_window_in_seconds(0)
            .build();
        assert!(sqs024(defaults).is_empty(), "what the API may answer for a parameter never set");
        assert!(sqs024(mapping().starting_position("LATEST".into()).build()).is_empty(), "not read live");
    }
}
