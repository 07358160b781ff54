//! SQS000: a file that looks like infrastructure but cannot be read or parsed.
//!
//! Reported by the file loader (see `crate::lint`), not by a model check: a
//! file that never became a model has nothing for rules to read.

use super::Rule;
use crate::finding::Severity;

pub static RULE: Rule = Rule {
    code: "SQS000",
    name: "unparsable-file",
    severity: Severity::Error,
    summary: "An infrastructure file could not be read or parsed",
    live_only: false,
    doc: include_str!("../../rules/SQS000.md"),
    check: |_, _, _| {},
};
