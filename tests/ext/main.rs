//! The integration tests that drive external tools tests/run.sh installs:
//! moto (the live audit, drift, organizations), terraform, cfn-lint and
//! checkov, pre-commit, the editors (pytest-lsp, Neovim, VS Code),
//! Graphviz and mermaid-cli, the wheel, the AWS CDK CLI. One binary,
//! linked once (`cargo test --features audit --test ext MODULE::` runs one
//! module); the rest are tests/it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

#[path = "../common/mod.rs"]
mod common;

mod audit;
mod audit_html;
mod audit_words;
mod cdk;
mod drift;
mod graph;
mod lsp;
mod nvim;
mod organization;
mod precommit;
mod precommit_mirror;
mod reliability_audit;
mod validators;
mod vscode;
mod wheel;
mod workflows;
mod yaml_agreement;
