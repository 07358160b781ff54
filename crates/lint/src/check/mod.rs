//! What runs on every model a front-end built, files and live alike: the
//! config's payload declarations, the rules with the config's options,
//! then suppressions; each finding left gets its fix from the front-end's
//! writer, once. Files the front-end could not read become SQS000.

mod suppress;

use crate::config::Config;
use sqsguard_finding::{Finding, Note};
use sqsguard_frontend::Loaded;

pub use sqsguard_cdk::Relocated;
use sqsguard_model::{Model, PayloadDecl};
use sqsguard_rules as rules;

pub use suppress::{Key, stale};

/// The findings of one model, after suppressions.
#[derive(Clone, Debug, Default)]
pub struct Checked {
    pub findings: Vec<Finding>,
    /// Findings silenced by a suppression.
    pub suppressed: usize,
    /// The front-end's notes, and suppressions without a reason or naming
    /// no rule.
    pub notes: Vec<Note>,
    /// Suppression rules that silenced something, and those that did not
    /// (stale unless another model of the run used them: see [`stale`]).
    pub used: Vec<Key>,
    pub unused: Vec<(Key, Note)>,
}

/// Check what a front-end loaded.
pub fn check(loaded: Loaded, config: &Config) -> Checked {
    check_keeping(loaded, config, &mut |_| Relocated::default()).0
}

/// Check what a front-end loaded, and keep the model checked (with the
/// config's payload declarations): what `sqsguard graph` draws.
/// `relocate` moves the findings to where they are written, before
/// suppressions: a CDK app's synthesized template's, to the constructs of
/// the app's source ([`sqsguard_cdk::relocate`]), whose comments then
/// suppress them. A fix it gives a finding is kept.
pub(crate) fn check_keeping(
    loaded: Loaded,
    config: &Config,
    relocate: &mut dyn FnMut(&mut Vec<Finding>) -> Relocated,
) -> (Checked, Model) {
    let Loaded { mut model, mut suppressions, mut notes, broken, mut writer, .. } = loaded;
    declare_payloads(&mut model, config);
    let mut findings = rules::check(&model, &config.options);
    // The one place `--select`, `--ignore` and the config's lists and
    // severities apply: what is not kept here never reaches a suppression,
    // a fix or a report.
    findings.retain(|f| config.filter.keeps(f.code()));
    // A CDK user knows the construct, not the logical ID CDK made of it.
    for f in &mut findings {
        if let Some(path) = model.construct_paths.get(&f.resource) {
            f.context.construct = Some(path.clone());
        }
    }
    notes.extend(rules::unrepresentable_numbers(&model));
    notes.extend(rules::unresolved_links(&model));
    let relocated = relocate(&mut findings);
    notes.extend(relocated.notes);
    suppressions.extend(relocated.suppressions);
    let applied = suppress::apply(&model, findings, suppressions, &relocated.declared, &config.filter);
    let mut findings = applied.findings;
    for f in findings.iter_mut().filter(|f| f.autofix.is_none()) {
        f.autofix = f.remedy.as_ref().map(|r| writer.fix(r));
    }
    // A file that could not be read has nothing a suppression could be on.
    let unreadable = broken.into_iter().map(|b| rules::unparsable(&b.file, b.span, b.message));
    findings.extend(unreadable.filter(|f| config.filter.keeps(f.code())));
    for f in &mut findings {
        f.severity = config.severity_of(f.code(), f.severity);
    }
    notes.extend(applied.notes);
    let checked =
        Checked { findings, suppressed: applied.suppressed, notes, used: applied.used, unused: applied.unused };
    (checked, model)
}

/// `.sqsguard.yaml` `payloads:` come before Metadata and tags (docs/configuration.md:
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
            queue.payload = Some(Box::new(PayloadDecl {
                payload: rule.payload.clone(),
                origin: rule.origin.clone(),
                source: ".sqsguard.yaml payloads",
            }));
        }
    }
}
