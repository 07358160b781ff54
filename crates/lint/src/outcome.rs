//! What a run gives, lint or audit: the findings and notes, and the counts
//! every output format ends with.

use std::borrow::Cow;

use sqsguard_finding::{Finding, Note, Severity};
use sqsguard_model::Origin;

/// The result of linting a set of paths, or of an audit.
#[derive(Debug, Default)]
pub struct Outcome {
    pub findings: Vec<Finding>,
    /// Files linted (audit: queues read).
    pub files: usize,
    /// Files seen and not linted (not a template, or not yet supported).
    pub skipped: usize,
    /// Lint only: each of the `skipped` files and why, for `--show-skipped`.
    pub skips: Vec<Skip>,
    /// Files named on the command line that may be infrastructure and were
    /// not linted (each has a note): they fail the run like a finding
    /// (docs/lint.md: fail closed).
    pub unlinted: Vec<String>,
    pub notes: Vec<Note>,
    /// Findings silenced by a suppression (not in `findings`).
    pub suppressed: usize,
    /// With `--baseline`: findings the baseline records (not in `findings`).
    pub baselined: Option<usize>,
    /// With `--baseline`: recorded findings the run looked for and did
    /// not find (each said in a note).
    pub stale_baseline: Option<usize>,
    /// Audit only: AWS operations sent.
    pub api_calls: Option<usize>,
    /// Audit only: the (account, Region) pairs it set out to read.
    pub account_regions: Option<usize>,
    /// Audit only: the operations sent with each account's credentials.
    pub api_calls_by_account: std::collections::BTreeMap<String, usize>,
    /// Audit only: the (account, Region) pairs that were not read, or read
    /// only in part. They fail the run: a partial audit never looks clean.
    pub unaudited: Vec<Unaudited>,
    /// Audit only, with `--shard`: which slice of what this run is.
    pub shard: Option<ShardOf>,
    /// The display path of every file linted (`files` of them), sorted:
    /// reporters that list clean files too (JUnit) need their names.
    pub linted: Vec<String>,
    /// Lint only: Parameter values given for the run that no linted
    /// template declares (each template ignores the others'; a value none
    /// declares is likely a typo, said on standard error).
    pub undeclared: Vec<sqsguard_frontend::stage::Given>,
    /// Lint only: the files that fixes would edit and `--fix` does not
    /// write, and why (outside the paths linted, a symbolic link,
    /// read-only). Their findings' fixes are not offered.
    pub unwritable: std::collections::BTreeMap<std::path::PathBuf, &'static str>,
}

impl Outcome {
    /// What every run ends with: each note once, and findings in file
    /// order.
    pub fn finish(&mut self) {
        // A module's file is read once per caller: say each note once.
        let mut seen = std::collections::HashSet::new();
        self.notes.retain(|n| {
            let at = match &n.origin {
                Origin::File { .. } => n.origin.location().map(|l| (l.file, l.line, l.column)),
                // A live note is its account's and Region's.
                Origin::Live(live) => Some((format!("{:?}/{:?}/{}", live.account, live.region, live.id), 0, 0)),
            };
            seen.insert((at, n.message.clone()))
        });
        // Each finding's key made once, its words composed once (a CDK
        // construct used by every stack is one place for hundreds of
        // findings, told apart by their words), then the findings put in
        // its order.
        let order = {
            let keys: Vec<_> = self.findings.iter().map(|f| (sort_key(f), f.full_message())).collect();
            let mut order: Vec<usize> = (0..keys.len()).collect();
            order.sort_by(|&a, &b| keys[a].cmp(&keys[b]));
            order
        };
        let mut slots: Vec<Option<Finding>> = std::mem::take(&mut self.findings).into_iter().map(Some).collect();
        self.findings = order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)).collect();
    }

    /// Whether a finding is at or above `threshold`, a file named on the
    /// command line went unlinted, or an audit left a pair unread (the exit
    /// status).
    pub fn fails(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| {
            !self.unlinted.is_empty() || !self.unaudited.is_empty() || self.findings.iter().any(|f| f.severity >= t)
        })
    }
}

/// A file read and not linted, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    /// Its display path.
    pub file: String,
    pub why: String,
}

/// `--shard I/N` of an audit: the slice, and a digest of the whole list it
/// was cut from, so `report merge` can tell the slices of one audit.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardOf {
    pub index: usize,
    pub count: usize,
    /// What was sliced (`pairs`, or `accounts` with `--regions all`) and
    /// the digest of its sorted list.
    pub of: String,
    pub digest: String,
}

/// An (account, Region) pair the audit could not read, or read in part.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Unaudited {
    /// `None`: the credentials' own account, when it was not learnt.
    pub account: Option<String>,
    pub region: String,
    /// Some of it was read: the findings of the rest are reported.
    pub partial: bool,
    /// What went wrong, in AWS's words where it gave some.
    pub reason: String,
    /// Partial: the operations that failed, and the rules blind without
    /// them (no finding of theirs comes from the missing data).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apis: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
}

impl Unaudited {
    /// A pair not read at all, and why.
    pub fn whole(account: Option<String>, region: &str, reason: String) -> Self {
        Unaudited { account, region: region.to_string(), partial: false, reason, apis: Vec::new(), rules: Vec::new() }
    }
}

impl std::fmt::Display for Unaudited {
    /// `account 111111111111 in us-east-1: not audited: AccessDenied: ...`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.account {
            Some(a) => write!(f, "account {a} in {}", self.region)?,
            None => write!(f, "{}", self.region)?,
        }
        if self.partial {
            write!(f, ": read in part ({})", self.reason)?;
            if !self.rules.is_empty() {
                write!(f, "; blind: {}", self.rules.join(", "))?;
            }
            Ok(())
        } else {
            write!(f, ": not audited ({})", self.reason)
        }
    }
}

/// File order: by path, offset and rule, then the words as printed;
/// live findings by account, Region, then resource. Borrowed, not
/// copied: a large plan has a hundred thousand findings.
fn sort_key(f: &Finding) -> (Cow<'_, str>, usize, &'static str) {
    match &f.origin {
        Origin::File { file, span } => (file.path.to_string_lossy(), span.start, f.code()),
        Origin::Live(live) => {
            let place = format!(
                "{}\u{0}{}\u{0}{}",
                live.account.as_deref().unwrap_or_default(),
                live.region.as_deref().unwrap_or_default(),
                live.id
            );
            (Cow::Owned(place), 0, f.code())
        }
    }
}
