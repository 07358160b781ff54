//! What the audit could not read, so that drift says a template resource
//! it did not see live "could not be read" (with why), never "missing
//! live": a queue whose attributes were refused, or answered without
//! them, may well be there. And SQS105 is named blind wherever a read it
//! compares failed.

use crate::collect::Skipped;
use sqsguard_lint::outcome::Unaudited;
use sqsguard_rules::LiveInput;

/// The reads whose data drift compares: a failure of one blinds SQS105.
const COMPARED: &[LiveInput] = &[
    LiveInput::QueueAttributes,
    LiveInput::EventSourceMappings,
    LiveInput::FunctionConfiguration,
    LiveInput::FunctionConcurrency,
];

/// The failed reads of one drift run.
#[derive(Default)]
pub(crate) struct Unread {
    /// Why an account-Region was not read at all (the first such).
    whole: Option<String>,
    /// Queues whose attributes were not read: (name, why).
    queues: Vec<(String, String)>,
    /// Why the event source mappings were not listed.
    mappings: Option<String>,
}

impl Unread {
    pub(crate) fn of(unaudited: &[Unaudited], skipped: &[Skipped]) -> Self {
        let whole = unaudited.iter().find(|g| !g.partial).map(|g| format!("{}: {}", g.region, g.reason));
        let queues = skipped
            .iter()
            .filter(|s| s.api == "GetQueueAttributes")
            .map(|s| (super::names::last_part(&s.what).to_string(), format!("{} {}: {}", s.api, s.what, s.why)))
            .collect();
        let mappings =
            skipped.iter().find(|s| s.api == "ListEventSourceMappings").map(|s| format!("{}: {}", s.api, s.why));
        Unread { whole, queues, mappings }
    }

    /// Why a template queue whose name `fits` a live name was not read,
    /// if a read that could have found it failed. `found`: a live queue
    /// that fits was read; then an account-Region not read at all says
    /// nothing of it (it is compared), only a failed read of a queue that
    /// fits does (that one may be the queue meant).
    pub(crate) fn queue(&self, fits: impl Fn(&str) -> bool, found: bool) -> Option<String> {
        let named = self.queues.iter().find(|(name, _)| fits(name)).map(|(_, why)| why.clone());
        if found { named } else { self.whole.clone().or(named) }
    }

    /// The queue at the end of `url` (a stack's physical ID), not found
    /// live: why, if a read failed.
    pub(crate) fn queue_at(&self, url: &str) -> Option<String> {
        let name = super::names::last_part(url);
        self.queue(|n| n == name, false)
    }

    /// Why the live mappings were not all read, if so.
    pub(crate) fn mappings(&self) -> Option<String> {
        self.whole.clone().or_else(|| self.mappings.clone())
    }
}

/// SQS105 among the rules a partial read blinded, where one of the reads
/// drift compares failed.
pub(crate) fn blind_sqs105(unaudited: &mut [Unaudited]) {
    let code = sqsguard_rules::LIVE_DIFFERS.id.code;
    for gap in unaudited.iter_mut().filter(|g| g.partial) {
        let compared = gap.apis.iter().any(|api| COMPARED.iter().any(|input| input.read_by(api)));
        if compared && !gap.rules.iter().any(|r| r == code) {
            gap.rules.push(code.to_string());
            gap.rules.sort();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One Region that could not be read at all does not stop the
    /// comparison of a queue read whole elsewhere; it does explain one
    /// that was not found; a failed read of a queue of its name always
    /// does.
    #[test]
    fn a_region_not_read_explains_only_a_queue_not_found() {
        let unread = Unread {
            whole: Some("eu-west-1: AccessDenied".into()),
            queues: vec![("jobs".into(), "GetQueueAttributes jobs: throttled".into())],
            mappings: None,
        };
        assert_eq!(unread.queue(|n| n == "orders", true), None);
        assert_eq!(unread.queue(|n| n == "orders", false).as_deref(), Some("eu-west-1: AccessDenied"));
        assert_eq!(unread.queue(|n| n == "jobs", true).as_deref(), Some("GetQueueAttributes jobs: throttled"));
    }
}
