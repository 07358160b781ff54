//! SQS105 (drift): a setting the rules read differs between a template and
//! the live resource it deploys to. No model alone shows it: `sqsguard
//! drift` (`crate::drift`) joins the two and makes these findings; the
//! rule's check, run on one model, finds nothing.

use super::{Context, Findings, Rule, RuleId};
use crate::finding::Severity;

pub static RULE: Rule = Rule {
    id: RuleId { code: "SQS105", name: "live-differs-from-template" },
    severity: Severity::Warning,
    summary: "A setting the rules read differs between the template and the live resource it deploys to (drift)",
    milder: None,
    live_only: true,
    needs: &[],
    misled_without: &[],
    options: &[],
    doc: include_str!("../../rules/SQS105.md"),
    check,
};

/// One model is either a template or an account: nothing to compare.
fn check(_: &Context<'_>, _: &mut Findings) {}
