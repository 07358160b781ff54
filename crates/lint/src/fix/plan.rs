//! One pass's fixes, combined per file and applied to its text.

use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;

use super::apply;
use sqsguard_finding::{Applicability, Edit, Finding};
use sqsguard_model::Origin;
use sqsguard_source::{Source, Span};

/// Every file's fixes of one pass, ready to apply.
#[derive(Debug, Default)]
pub struct Plan {
    pub files: BTreeMap<PathBuf, FileFix>,
}

/// One file's fixes of one pass.
#[derive(Debug)]
pub struct FileFix {
    /// The file as it was linted.
    pub file: Source,
    /// Its text with the fixes applied.
    pub text: String,
    /// The findings fixed, as indices into the findings the plan was made
    /// from.
    pub fixed: Vec<usize>,
    /// The edits made: each one's span in the linted text and the length
    /// of what replaced it.
    pub edits: Vec<(Span, usize)>,
}

/// The fixes `--fix` applies to `findings` (with `unsafe_too`, the
/// unsafe ones as well), combined per file. Two fixes of one place keep
/// the larger number (SQS001 for two consumers of a queue); fixes that
/// overlap otherwise keep the first, and the next pass sees the rest.
pub fn plan(findings: &[Finding], unsafe_too: bool) -> Plan {
    let broken: HashSet<&PathBuf> = findings
        .iter()
        .filter(|f| f.is(&sqsguard_rules::UNPARSABLE_FILE.id))
        .filter_map(|f| file_of(&f.origin))
        .collect();
    // File -> its text, the fixes of it (each a list of edits), and
    // the finding each fixes.
    type Fixes = (Source, Vec<Vec<Edit>>, Vec<usize>);
    let mut per_file: BTreeMap<PathBuf, Fixes> = BTreeMap::new();
    for (n, finding) in findings.iter().enumerate() {
        let Some(fix) = finding.fix_edits() else { continue };
        if fix.applicability == Applicability::Unsafe && !unsafe_too {
            continue;
        }
        // A fix edits one file: the file of its value.
        let Some(file) = fix.edits.first().map(|e| e.file.clone()) else { continue };
        if broken.contains(&&file.path) || fix.edits.iter().any(|e| e.file.path != file.path) {
            continue;
        }
        let entry = per_file.entry(file.path.clone()).or_insert_with(|| (file, Vec::new(), Vec::new()));
        entry.1.push(fix.edits.clone());
        entry.2.push(n);
    }
    let files = per_file
        .into_iter()
        .filter_map(|(path, (file, fixes, of))| {
            let applied = apply::apply(&file.text, fixes);
            (applied.text != file.text).then(|| {
                let fixed = applied.fixes.iter().filter_map(|&i| of.get(i).copied()).collect();
                (path, FileFix { file, text: applied.text, fixed, edits: applied.edits })
            })
        })
        .collect();
    Plan { files }
}

fn file_of(origin: &Origin) -> Option<&PathBuf> {
    match origin {
        Origin::File { file, .. } => Some(&file.path),
        Origin::Live(_) => None,
    }
}
