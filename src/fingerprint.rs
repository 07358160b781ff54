//! A finding's identity across edits, for baselines and SARIF
//! `partialFingerprints`.
//!
//! A fingerprint is the rule, the file, the resource and the finding's
//! subject: its message with the numbers taken out. Line numbers are not
//! part of it, so moving a resource or reformatting the file keeps it;
//! changing a bad value to another bad value (VisibilityTimeout 30 to 40)
//! keeps it too, while a second consumer or another attribute gives a new
//! one.

use crate::finding::Finding;
use crate::model::Origin;

/// The parts a fingerprint is made of, as a baseline file records them.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity {
    pub rule: String,
    /// The file as given, `/`-separated, without a leading `./`; empty for
    /// live findings.
    pub file: String,
    pub resource: String,
    pub subject: String,
}

impl Identity {
    pub fn of(f: &Finding) -> Self {
        let file = match &f.origin {
            Origin::File { file, .. } => normalize_path(&file.display_path()),
            Origin::Live { .. } => String::new(),
        };
        Identity { rule: f.code.to_string(), file, resource: f.resource.clone(), subject: subject(&f.message) }
    }

    /// 16 hex digits of a stable 64-bit hash (FNV-1a) of the parts: the
    /// same in every build and on every platform, unlike std's hasher.
    pub fn hash(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for part in [&self.rule, &self.file, &self.resource, &self.subject] {
            for b in part.bytes().chain([0]) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{h:016x}")
    }
}

/// `./a//b.yaml` and `a/b.yaml` are the same file.
pub fn normalize_path(path: &str) -> String {
    let mut parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if path.starts_with('/') {
        parts.insert(0, "");
    }
    parts.join("/")
}

/// The message with each run of digits replaced by `#`.
fn subject(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_number = false;
    for c in message.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_leave_the_subject_but_names_stay() {
        assert_eq!(subject("VisibilityTimeout 30 s < 60 s of fn2"), "VisibilityTimeout # s < # s of fn#");
    }

    #[test]
    fn paths_are_normalized() {
        assert_eq!(normalize_path("./a//b.yaml"), "a/b.yaml");
        assert_eq!(normalize_path("/abs/./x.tf"), "/abs/x.tf");
    }

    #[test]
    fn the_hash_is_stable_and_depends_on_every_part() {
        let id = Identity { rule: "SQS001".into(), file: "a.yaml".into(), resource: "Q".into(), subject: "s".into() };
        assert_eq!(id.hash().len(), 16);
        // Moving a byte from one part to the next changes the hash.
        let shifted = Identity { rule: "SQS00".into(), file: "1a.yaml".into(), ..id.clone() };
        assert_ne!(id.hash(), shifted.hash());
        // Pinned: a baseline written today must match tomorrow's build.
        // Pinned (computed independently): a baseline written today must
        // match tomorrow's build.
        assert_eq!(id.hash(), "53b5410a7ec46893");
    }
}
