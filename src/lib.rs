//! sqsguard: keeps AWS SQS pipelines correct.
//!
//! Layers, each importing only from the ones above it in this list (a test,
//! `tests/it/layers.rs`, holds the same list and fails on anything else):
//!
//! 1. [`source`]: files, spans, locations.
//! 2. [`syntax`]: spanned YAML/JSON trees and durations.
//! 3. [`model`]: the one normalized model (queues, mappings, functions,
//!    alarms, policies), its field table and index.
//! 4. [`finding`]: what a rule reports, and the fix it proposes.
//! 5. [`error`]: what can fail.
//! 6. [`frontend`]: CloudFormation/SAM, Serverless, Terraform (HCL and
//!    plan JSON) and live data, each one function into a
//!    [`frontend::Loaded`] model, with the writer that turns a remedy
//!    into edits of the trees it parsed.
//! 7. [`rules`]: the catalog, one rule per file.
//! 8. [`config`], which reads `.sqsguard.yaml`.
//! 9. [`check`]: rules and suppressions over what a front-end loaded,
//!    and each finding's fix.
//! 10. [`outcome`]: what a run gives; [`fingerprint`]: a finding's
//!     identity; [`discover`]: which files a lint reads; [`graph`]: the
//!     pipeline of checked models as a picture.
//! 11. [`baseline`]: findings recorded to be let through.
//! 12. [`session`]: one run's settings and inputs, ready for the commands.
//! 13. [`lint`], [`audit`] and [`generate`]: the commands.
//! 14. `drift` (feature `audit`): the templates' model joined with the
//!     audit's, and what differs.
//! 15. [`fix`]: the passes of `--fix` over lints, the diff and the write.
//! 16. [`report`]: every output format.
//! 17. [`server`]: the checks as a Language Server, for editors.
//! 18. [`cli`]: arguments, the session, errors and exit statuses.

pub mod source;
pub mod syntax;

pub mod model;

pub mod finding;

pub mod error;

pub mod frontend;

pub mod rules;

pub mod config;

pub mod check;

pub mod discover;
pub mod fingerprint;
pub mod graph;
pub mod outcome;
pub mod owners;

pub mod baseline;

pub mod session;

#[cfg(feature = "audit")]
pub mod audit;
pub mod generate;
pub mod lint;

#[cfg(feature = "audit")]
pub mod drift;

pub mod fix;

pub mod report;

pub mod server;

pub mod cli;
