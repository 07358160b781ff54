//! sqsguard: keeps AWS SQS pipelines correct.
//!
//! Front-ends (`cfn`, later Terraform, plan JSON, Serverless and the live
//! audit) fill one [`model`]; [`rules`] check it; [`report`] prints the
//! [`finding`]s; [`lint`] ties files to all of that.

#[cfg(feature = "audit")]
pub mod audit;
pub mod baseline;
pub mod cfn;
pub mod check;
pub mod cli;
pub mod config;
pub mod discover;
pub mod extract;
pub mod finding;
pub mod fingerprint;
pub mod generate;
pub mod lint;
pub mod model;
pub mod report;
pub mod rules;
pub mod source;
pub mod suppress;
pub mod syntax;
pub mod terraform;
