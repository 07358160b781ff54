//! SQS000: a file that looks like infrastructure but cannot be read or parsed.
//!
//! Reported for what the front-ends could not read (see `sqsguard_lint`), not
//! by a model check: a file that never became a model has nothing for
//! rules to read.

use sqsguard_finding::Finding;
use sqsguard_model::Origin;
use sqsguard_source::{Source, Span};

rule! {
    code: "SQS000",
    name: "unparsable-file",
    severity: Error,
    summary: "An infrastructure file could not be read or parsed",
    kind: Meta,
    check: |_, _| {},
}

/// The finding for `file`, located where reading or parsing stopped.
pub fn finding(file: &Source, span: Span, message: String) -> Finding {
    let fix = "fix the file so it parses (the location is where the parser stopped); other files were still linted";
    RULE.finding(&file.display_path(), &Origin::file(file, span), message, fix.to_string())
}
