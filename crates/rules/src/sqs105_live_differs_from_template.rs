//! SQS105 (drift): a setting the rules read differs between a template and
//! the live resource it deploys to. No model alone shows it: `sqsguard
//! drift` (`sqsguard_audit::drift`) joins the two and makes these findings; the
//! rule's check, run on one model, finds nothing.

use super::{Context, Findings};

rule! {
    code: "SQS105",
    name: "live-differs-from-template",
    severity: Warning,
    summary: "A setting the rules read differs between the template and the live resource it deploys to (drift)",
    kind: Live,
    check: check,
}

/// One model is either a template or an account: nothing to compare.
fn check(_: &Context<'_>, _: &mut Findings) {}
