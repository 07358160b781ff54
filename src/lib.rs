//! sqsguard: keeps AWS SQS pipelines correct.
//!
//! Layers, each importing only from the ones above it in this list (a test,
//! `tests/layers.rs`, fails on anything else):
//!
//! 1. [`source`]: files, spans, locations; [`syntax`]: spanned YAML/JSON
//!    trees and durations.
//! 2. [`model`]: the one normalized model (queues, mappings, functions,
//!    alarms, policies), its field table and index; [`finding`]: what a
//!    rule reports; [`error`]: what can fail.
//! 3. [`frontend`]: CloudFormation/SAM, Terraform (HCL and plan JSON) and
//!    live data, each one function into a [`frontend::Loaded`] model.
//! 4. [`rules`]: the catalog, one rule per file.
//! 5. [`config`], which reads `.sqsguard.yaml`.
//! 6. [`check`]: rules and suppressions over what a front-end loaded;
//!    [`outcome`]: what a run gives; [`fingerprint`]: a finding's identity.
//! 7. [`lint`] (with [`discover`] and [`baseline`]), [`audit`] and
//!    [`generate`]: the commands.
//! 8. [`report`]: every output format.
//! 9. [`cli`]: arguments, errors and exit statuses.

pub mod source;
pub mod syntax;

pub mod finding;
pub mod model;

pub mod error;

pub mod frontend;

pub mod rules;

pub mod config;

pub mod check;
pub mod fingerprint;
pub mod outcome;

#[cfg(feature = "audit")]
pub mod audit;
pub mod baseline;
pub mod discover;
pub mod generate;
pub mod lint;

pub mod report;

pub mod cli;
