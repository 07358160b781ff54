//! A finding's identity across edits, for baselines and SARIF
//! `partialFingerprints`.
//!
//! A fingerprint is the rule, the file (relative to the working folder,
//! however it was typed; a baseline's relative to the baseline file's
//! folder), the resource and the finding's subject: its
//! message with the numbers taken out (not the digits of names: `Fn2`
//! stays `Fn2`). Line numbers are not
//! part of it, so moving a resource or reformatting the file keeps it;
//! changing a bad value to another bad value (VisibilityTimeout 30 to 40)
//! keeps it too, while a second consumer or another attribute gives a new
//! one.

use sqsguard_finding::Finding;
use sqsguard_model::Origin;

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
    /// The identity, with the file relative to the working folder.
    pub fn of(f: &Finding) -> Self {
        let file = identity_path(f).map(|path| relative_to_cwd(&path)).unwrap_or_default();
        Identity::with_file(f, file)
    }

    /// The identity, with the file given as `file` (`/`-separated).
    pub(crate) fn with_file(f: &Finding, file: String) -> Self {
        let subject = subject(&f.message_for_identity());
        Identity { rule: f.code().to_string(), file, resource: f.resource.clone(), subject }
    }

    /// 16 hex digits of a stable 64-bit hash (FNV-1a) of the parts: the
    /// same in every build and on every platform, unlike std's hasher.
    pub fn hash(&self) -> String {
        stable_hash([&self.rule, &self.file, &self.resource, &self.subject])
    }
}

/// The file a finding's identity names: its own, but for a CDK finding
/// moved from a synthesized template to the app's source, the template
/// (the identity stays the same with `--no-cdk-source`, across this
/// release, and while the source is edited); `None` for a live one.
pub(crate) fn identity_path(f: &Finding) -> Option<std::path::PathBuf> {
    if let Some(at) = f.context.synthesized.as_ref().filter(|at| at.file.ends_with(".template.json")) {
        return Some(std::path::PathBuf::from(&at.file));
    }
    match &f.origin {
        Origin::File { file, .. } => Some(file.path.clone()),
        Origin::Live(_) => None,
    }
}

/// 16 hex digits of FNV-1a over `parts`, each ended by a zero byte: the
/// same in every build and on every platform, unlike std's hasher.
pub fn stable_hash<S: AsRef<str>>(parts: impl IntoIterator<Item = S>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.as_ref().bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// The file relative to the working folder when it is inside it
/// (`$PWD/infra/q.yaml` and `infra/../infra/q.yaml` are `infra/q.yaml`),
/// else as given, normalized.
fn relative_to_cwd(path: &std::path::Path) -> String {
    static CWD: std::sync::OnceLock<Option<std::path::PathBuf>> = std::sync::OnceLock::new();
    let cwd = CWD.get_or_init(|| std::env::current_dir().and_then(|d| d.canonicalize()).ok());
    let relative =
        cwd.as_ref().and_then(|cwd| path.canonicalize().ok()?.strip_prefix(cwd).ok().map(std::path::Path::to_path_buf));
    normalize_path(&relative.unwrap_or_else(|| path.to_path_buf()).to_string_lossy().replace('\\', "/"))
}

/// `path` relative to the canonical folder `base`, `/`-separated, with
/// `..` where it lies outside it (`../shared/q.yaml`): the same string
/// whichever folder sqsguard runs from and however the path was typed.
/// A path that is not on disk (an editor's buffer) is made absolute
/// without `.` and `..`; one with no root in common with `base` (another
/// drive) stays absolute.
pub(crate) fn relative_to(path: &std::path::Path, base: &std::path::Path) -> String {
    use std::path::Component;
    let absolute = absolute(path);
    let common = absolute.components().zip(base.components()).take_while(|(a, b)| a == b).count();
    if common == 0 {
        return normalize_path(&absolute.to_string_lossy().replace('\\', "/"));
    }
    let up = base.components().skip(common).filter(|c| matches!(c, Component::Normal(_))).map(|_| "..".to_string());
    let down = absolute.components().skip(common).map(|c| c.as_os_str().to_string_lossy().into_owned());
    up.chain(down).collect::<Vec<_>>().join("/")
}

/// `path` canonical, or when it is not on disk, absolute without `.` and
/// `..`.
pub(crate) fn absolute(path: &std::path::Path) -> std::path::PathBuf {
    path.canonicalize()
        .unwrap_or_else(|_| sqsguard_source::lexical(&std::env::current_dir().unwrap_or_default().join(path)))
}

/// `./a//b.yaml` and `a/b.yaml` are the same file.
pub fn normalize_path(path: &str) -> String {
    let mut parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if path.starts_with('/') {
        parts.insert(0, "");
    }
    parts.join("/")
}

/// The message with each number replaced by `#`. A run of digits that
/// touches a letter or `_` is part of a name (`Fn2`, `m1_worker`) and stays.
fn subject(message: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphabetic() || c == '_');
    let chars: Vec<char> = message.chars().collect();
    let mut out = String::with_capacity(message.len());
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        let before = start.checked_sub(1).map(|j| chars[j]);
        if word(before) || word(chars.get(i).copied()) {
            out.extend(&chars[start..i]);
        } else {
            out.push('#');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_leave_the_subject_but_names_stay() {
        assert_eq!(subject("VisibilityTimeout 30 s < 60 s of Fn2"), "VisibilityTimeout # s < # s of Fn2");
        assert_eq!(subject("1209600 s = 14 days, 2x m1_worker 0.5"), "# s = # days, 2x m1_worker #.#");
    }

    #[test]
    fn paths_relative_to_a_folder_inside_and_outside_it() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("repo/svc")).unwrap();
        std::fs::create_dir_all(base.join("shared")).unwrap();
        std::fs::write(base.join("repo/svc/t.yaml"), "").unwrap();
        std::fs::write(base.join("shared/q.yaml"), "").unwrap();
        let repo = base.join("repo");
        assert_eq!(relative_to(&base.join("repo/svc/../svc/t.yaml"), &repo), "svc/t.yaml");
        assert_eq!(relative_to(&base.join("shared/q.yaml"), &repo), "../shared/q.yaml");
        assert_eq!(relative_to(&repo.join("svc/gone.yaml"), &repo.join("svc")), "gone.yaml");
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
