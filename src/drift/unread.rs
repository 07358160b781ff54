//! What the audit could not read, so that drift says a template resource
//! it did not see live "could not be read" (with why), never "missing
//! live": a queue whose attributes were refused, or answered without
//! them, may well be there. And SQS105 is named blind wherever a read it
//! compares failed.

use crate::audit::collect::Skipped;
use crate::outcome::Unaudited;
use crate::rules::LiveInput;

/// The reads whose data drift compares: a failure of one blinds SQS105.
const COMPARED: &[LiveInput] = &[
    LiveInput::QueueAttributes,
    LiveInput::EventSourceMappings,
    LiveInput::FunctionConfiguration,
    LiveInput::FunctionConcurrency,
];

/// The failed reads of one drift run.
#[derive(Default)]
pub struct Unread {
    /// Why an account-Region was not read at all (the first such).
    whole: Option<String>,
    /// Queues whose attributes were not read: (name, why).
    queues: Vec<(String, String)>,
    /// Why the event source mappings were not listed.
    mappings: Option<String>,
}

impl Unread {
    pub fn of(unaudited: &[Unaudited], skipped: &[Skipped]) -> Self {
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
    /// if a read that could have found it failed.
    pub fn queue(&self, fits: impl Fn(&str) -> bool) -> Option<String> {
        let queue = || self.queues.iter().find(|(name, _)| fits(name)).map(|(_, why)| why.clone());
        self.whole.clone().or_else(queue)
    }

    /// The queue at the end of `url` (a stack's physical ID), not read.
    pub fn queue_at(&self, url: &str) -> Option<String> {
        let name = super::names::last_part(url);
        self.queue(|n| n == name)
    }

    /// Why the live mappings were not all read, if so.
    pub fn mappings(&self) -> Option<String> {
        self.whole.clone().or_else(|| self.mappings.clone())
    }
}

/// SQS105 among the rules a partial read blinded, where one of the reads
/// drift compares failed.
pub fn blind_sqs105(unaudited: &mut [Unaudited]) {
    let code = crate::rules::LIVE_DIFFERS.id.code;
    for gap in unaudited.iter_mut().filter(|g| g.partial) {
        let compared = gap.apis.iter().any(|api| COMPARED.iter().any(|input| input.read_by(api)));
        if compared && !gap.rules.iter().any(|r| r == code) {
            gap.rules.push(code.to_string());
            gap.rules.sort();
        }
    }
}
