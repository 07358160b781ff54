//! SQS206: a batch call whose failed entries are never looked at.

use super::helpers::{call_words, queue_words};
use super::{Context, Findings};
use sqsguard_model::code::ResultUse;

rule! {
    code: "SQS206",
    name: "batch-result-unchecked",
    severity: Warning,
    summary: "a SendMessageBatch, DeleteMessageBatch or ChangeMessageVisibilityBatch result whose Failed entries are never read",
    kind: Code,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for call in cx.model.calls.iter().filter(|c| c.operation.is_batch()) {
        let what = match call.result {
            ResultUse::Discarded => "drops its result",
            ResultUse::FailedUnread => "keeps its result but never reads its Failed list",
            ResultUse::Unknown | ResultUse::Checked => continue,
        };
        let queue = queue_words(cx, call).map(|q| format!(" (to {q})")).unwrap_or_default();
        let message = format!(
            "{}{queue} {what}: a batch call succeeds even when some of its entries fail, and those are listed only in the response's Failed entries, so they are lost without an error",
            call_words(call)
        );
        let fix = "read the response's Failed entries and retry, report or raise on them".to_string();
        findings.push(RULE.finding(&call.owner, &call.origin, message, fix));
    }
}
