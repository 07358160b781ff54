//! The integration tests that need nothing outside the repository: in
//! process, or running the built binary. One binary rather than one per
//! file, so the crate is linked once (`cargo test --test it MODULE::`
//! runs one module). The tests that drive external tools are tests/ext.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

#[path = "../common/mod.rs"]
mod common;

mod action;
mod baseline;
mod cli;
mod code;
mod code_corpus;
mod code_props;
mod code_sdk;
mod code_unread;
mod config;
mod context;
mod corpus;
mod docs;
mod explain_schema;
mod fail_closed;
mod file_modes;
mod fix;
mod fix_props;
mod formats;
mod fuzz;
mod generate;
mod generate_props;
mod generate_spec_errors;
mod hostile;
mod layers;
mod live_rules;
mod monorepo;
mod output;
mod pretty;
mod producers;
mod reliability_files;
mod reliability_output;
mod rules;
mod rules_alone;
mod runner;
mod server;
mod server_fuzz;
mod server_stdio;
mod serverless;
mod stages;
mod suppress;
mod terraform;
mod yaml_pieces;
