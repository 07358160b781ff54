//! sqsguard: keeps AWS SQS pipelines correct.
//!
//! Layers, each importing only from the ones above it in this list (a test,
//! `tests/it/layers.rs`, holds the same list and fails on anything else):
//!
//! 1. [`source`]: files, spans, locations.
//! 2. [`syntax`]: spanned YAML/JSON trees and durations.
//! 3. [`model`]: the one normalized model (queues, mappings, functions,
//!    alarms, policies), its field table and index.
//! 4. [`edit`]: a fix as a recipe of edit operations, and the writer that
//!    carries each operation out in the trees a front-end parsed.
//! 5. [`finding`]: what a rule reports, and the fix it proposes.
//! 6. [`error`]: what can fail.
//! 7. [`frontend`]: CloudFormation/SAM, Serverless, Terraform (HCL and
//!    plan JSON) and live data, each one function into a
//!    [`frontend::Loaded`] model, with the trees it parsed in an
//!    [`edit::Writer`].
//! 8. [`rules`]: the catalog, one rule per file.
//! 9. [`config`], which reads `.sqsguard.yaml`.
//! 10. [`check`]: rules and suppressions over what a front-end loaded,
//!     and each finding's fix.
//! 11. [`outcome`]: what a run gives; [`fingerprint`]: a finding's
//!     identity; [`discover`]: which files a lint reads; [`graph`]: the
//!     pipeline of checked models as a picture.
//! 12. [`baseline`]: findings recorded to be let through.
//! 13. [`session`]: one run's settings and inputs, ready for the commands.
//! 14. [`lint`], [`audit`] and [`generate`]: the commands.
//! 15. `drift` (feature `audit`): the templates' model joined with the
//!     audit's, and what differs.
//! 16. [`fix`]: the passes of `--fix` over lints, the diff and the write.
//! 17. [`report`]: every output format.
//! 18. [`server`]: the checks as a Language Server, for editors.
//! 19. [`cli`]: arguments, the session, errors and exit statuses.

pub mod source;
pub mod syntax;

pub mod model;

pub mod edit;

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
