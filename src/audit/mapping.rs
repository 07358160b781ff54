//! A Lambda event source mapping (ListEventSourceMappings) as the live
//! front-end reads it: its settings by field, so a setting of the field
//! table is one line here.

use aws_sdk_lambda::types::EventSourceMappingConfiguration;

use crate::frontend::live::Mapping;
use crate::model::{Field, Scalar};

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
