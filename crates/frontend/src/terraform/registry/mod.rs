//! Registry modules modelled from their documented inputs, so that
//! `module "q" { source = "terraform-aws-modules/sqs/aws" ... }` is linted
//! without downloading the module: the resources it would create, with the
//! module's defaults, located at the arguments that set them (or at the
//! `module` block when an input is absent).
//!
//! Modelled: terraform-aws-modules/sqs/aws (queue, its DLQ with
//! `create_dlq`, and the queue policies of either: `policy` of the oldest
//! versions, `create_queue_policy` with `queue_policy_statements` and the
//! policy documents of later ones) and terraform-aws-modules/lambda/aws
//! (function and its `event_source_mapping` entries). An input of the SQS
//! module that the model does not read and that may matter, or a value of
//! one it cannot read, is a note naming the input.
//!
//! Each module's model has its file (`sqs`, `lambda`); both read the
//! call's inputs through `call`.

mod call;
mod lambda;
mod sqs;

use std::collections::HashMap;

use crate::value::R;
use call::{Modelled, Module};
use sqsguard_model::ModuleSource;
use sqsguard_source::{Source, Span};

/// The resources and outputs of a known registry module, `None` for any
/// other source.
pub(crate) fn model(
    source: &ModuleSource,
    prefix: &str,
    args: &HashMap<String, R>,
    file: &Source,
    header: Span,
) -> Option<Modelled> {
    let m = |source| Module { source, prefix, args, file, header };
    let ModuleSource::Registry(name) = source else { return None };
    match name.as_str() {
        SQS => Some(m(SQS).sqs()),
        LAMBDA => Some(m(LAMBDA).lambda()),
        _ => None,
    }
}

pub use sqsguard_model::module::{LAMBDA, SQS};

/// Whether a module `source` is terraform-aws-modules/sqs/aws (whose
/// outputs include each URL's ARN twin).
pub(crate) fn is_sqs_module(source: &str) -> bool {
    ModuleSource::parse(source).is_registry(SQS)
}
