//! sqsguard: keeps AWS SQS pipelines correct.
//!
//! The code is a cargo workspace, one crate a layer; a crate depends only
//! on the crates above it in this list, and the compiler holds it to that:
//!
//! 1. `sqsguard-source` ([`source`]): files, spans, locations.
//! 2. `sqsguard-syntax` ([`syntax`]): spanned YAML/JSON trees and durations.
//! 3. `sqsguard-model` ([`model`]): the one normalized model (queues,
//!    mappings, functions, alarms, policies), its field table and index.
//! 4. `sqsguard-edit` ([`edit`]): a fix as a recipe of edit operations,
//!    and the writer that carries each operation out in the trees a
//!    front-end parsed.
//! 5. `sqsguard-finding` ([`finding`], [`error`]): what a rule reports and
//!    the fix it proposes; what can fail.
//! 6. `sqsguard-frontend` ([`frontend`]): CloudFormation/SAM, Serverless,
//!    Terraform (HCL, JSON and plans) and live data, each read into a
//!    [`frontend::Loaded`] model, with the trees it parsed in an
//!    [`edit::Writer`]; and what readers share (links, values, comments).
//! 7. `sqsguard-code` ([`code`]): the code reader, a sibling of the template
//!    readers: the Lambda handlers a template names and the SDK calls of
//!    code, on tree-sitter, into the same model.
//! 8. `sqsguard-cdk`: a CDK app's findings moved from its synthesized
//!    templates to the constructs of its source.
//! 9. `sqsguard-rules` ([`rules`]): the catalog, one rule per file.
//! 10. `sqsguard-lint` ([`lint`]): a run's [`config`], the [`check`] of rules
//!     and suppressions, a finding's [`fingerprint`], the [`discover`]y of
//!     files and their [`owners`], the pipeline [`graph`], the [`baseline`],
//!     the [`session`] (one run's settings and inputs), the [`outcome`], the
//!     `lint` command itself and [`fix`] (`--fix`, `--diff`).
//! 11. `sqsguard-generate` ([`generate`]): a pipeline spec into templates.
//! 12. `sqsguard-audit` (`audit` and `drift`, feature `audit`): live queues
//!     read-only, and the estate against its templates.
//! 13. `sqsguard-report` ([`report`]): every output format.
//! 14. `sqsguard-server` ([`server`]): the checks as a Language Server.
//! 15. `sqsguard` (this crate): the command line ([`cli`]): arguments, the
//!     session, errors and exit statuses.
//!
//! The re-exports below keep one path to each layer for the command line
//! and the integration tests (`sqsguard::model::Queue`).

pub use sqsguard_code as code;
pub use sqsguard_edit as edit;
pub use sqsguard_finding as finding;
pub use sqsguard_finding::error;
pub use sqsguard_frontend as frontend;
pub use sqsguard_generate as generate;
pub use sqsguard_lint as lint;
pub use sqsguard_lint::{baseline, check, config, discover, fingerprint, fix, graph, outcome, owners, session};
pub use sqsguard_model as model;
pub use sqsguard_report as report;
pub use sqsguard_rules as rules;
pub use sqsguard_server as server;
pub use sqsguard_source as source;
pub use sqsguard_syntax as syntax;

#[cfg(feature = "audit")]
pub use sqsguard_audit as audit;
#[cfg(feature = "audit")]
pub use sqsguard_audit::drift;

pub mod cli;
