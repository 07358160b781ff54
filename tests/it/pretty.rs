//! The pretty report (the default `lint` format) on a handful of fixtures
//! chosen so that each thing it draws is in one snapshot: the code frame
//! with its label naming the resource, or without one when the frame shows
//! the resource's own key; a span over several lines; the excerpt of a
//! line too long to print whole; a message and help wrapped at the width;
//! notes; several findings and severities in one file; a finding in a
//! handler's code; the `[*]` mark and the fixable lines, safe and unsafe.
//! The rules' own snapshots hold the findings without this drawing
//! (`common::findings`), so a change of the reporter touches these only.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

/// (snapshot name, fixture, what its report must draw).
const CASES: [(&str, &str, &[&str]); 5] = [
    (
        "label_help_note_safe_fix",
        "tests/rules/SQS001/sam/bad_sam.yaml",
        &["╰── in OrdersQueue", "  help: ", "\nnote: ", "SQS001 [*] ", "[*] 1 fixable with"],
    ),
    (
        "resource_key_unsafe_fix",
        "tests/rules/SQS004/cloudformation/bad.json",
        &["    ─────────────\n", "1 fixable only with"],
    ),
    ("multi_line_span", "tests/rules/SQS024/cloudformation/bad_destination.yaml", &["╭─▶", "├─▶"]),
    ("every_severity_and_a_long_line", "tests/fixtures/terraform/plan/root_bad/plan.json", &["  × ", "  ⚠ ", "…"]),
    ("handler_code", "tests/rules/SQS204/python/bad", &["│     resp = sqs.receive_message("]),
];

#[test]
fn each_thing_the_pretty_report_draws_has_a_snapshot() {
    for (name, fixture, draws) in CASES {
        let outcome = common::lint(&common::root().join(fixture));
        assert!(!outcome.findings.is_empty(), "{fixture}");
        let text = common::render(&outcome);
        for piece in draws {
            assert!(text.contains(piece), "{fixture} no longer draws {piece:?}; choose another fixture:\n{text}");
        }
        insta::assert_snapshot!(name, text);
    }
}
