//! What runs on every model a front-end built, files and live alike: the
//! config's payload declarations, the rules with the config's options,
//! then suppressions.

use crate::config::Config;
use crate::finding::{Finding, Note};
use crate::model::{Model, PayloadDecl};
use crate::source::Source;
use crate::{rules, suppress};

/// The findings of one model, after suppressions.
#[derive(Debug, Default)]
pub struct Checked {
    pub findings: Vec<Finding>,
    /// Findings silenced by a suppression.
    pub suppressed: usize,
    /// Suppressions without a reason, or naming no rule.
    pub notes: Vec<Note>,
    /// Suppression rules that silenced something, and those that did not
    /// (stale unless another model of the run used them: see
    /// [`suppress::stale`]).
    pub used: Vec<suppress::Key>,
    pub unused: Vec<(suppress::Key, Note)>,
}

/// Check a model. `sources` are the files it was read from, so that
/// suppressions in a file left with no SQS resource are still seen.
pub fn model(mut model: Model, config: &Config, sources: &[Source]) -> Checked {
    declare_payloads(&mut model, config);
    let findings = rules::check(&model, &config.options);
    let applied = suppress::apply(&model, findings, &config.filter, sources);
    Checked {
        findings: applied.findings,
        suppressed: applied.suppressed,
        notes: applied.notes,
        used: applied.used,
        unused: applied.unused,
    }
}

/// `.sqsguard.yaml` `payloads:` come before Metadata and tags (RULES.md:
/// first match wins, the config first). A queue is matched by its name
/// when that is fully known, and by its logical ID, address or URL.
fn declare_payloads(model: &mut Model, config: &Config) {
    if config.payloads.is_empty() {
        return;
    }
    for queue in &mut model.queues {
        let mut names: Vec<&str> = queue
            .name
            .iter()
            .filter_map(|alt| alt.value.known())
            .filter(|n| !n.text.contains("${"))
            .map(|n| n.text.as_str())
            .collect();
        names.push(&queue.resource);
        if let Some(rule) = config.payload_for(&names) {
            queue.payload = Some(PayloadDecl {
                payload: rule.payload.clone(),
                origin: rule.origin.clone(),
                source: ".sqsguard.yaml payloads",
            });
        }
    }
}
