//! Terraform plan JSON (`terraform show -json plan.out`) into the model.
//!
//! `planned_values` gives each resource instance (root and child modules)
//! with its values; values only known after apply (ARNs, queue URLs, the
//! redrive policy that embeds a DLQ's ARN) are listed in
//! `resource_changes[].change.after_unknown`, and `configuration` says
//! which references produce them, so a mapping still links to its queue
//! and a redrive policy to its DLQ. An unknown attribute that the
//! configuration does not set at all is absent, not unknown. Findings point
//! into the plan file.
//!
//! Plans of real estates run to hundreds of megabytes, so the document is
//! never built as a tree, and a large one is never held beside its model.
//! It is read in two passes:
//! 1. serde reads the whole text once into the few structures of `doc`,
//!    borrowing every value it does not need to understand yet as raw text
//!    (which also gives its byte offset). What this pass keeps is an
//!    [`Index`]: the SQS and Lambda resources with the byte ranges of their
//!    values, their names, and what is only known after apply. A plan
//!    larger than a template's limit is read from disk here, and its text
//!    freed when the pass ends (`index`).
//! 2. The `configuration` and then the resources' values, a chunk at a
//!    time, are taken again by their byte ranges (re-read from disk for a
//!    large plan), and each resource is read into the model, keeping only
//!    the attributes the readers look at (`values`).
//!
//! So memory grows with the SQS and Lambda part of a plan, not with the
//! file (`benches/plan.sh`).

mod doc;
mod index;
mod values;

use std::borrow::Cow;

use crate::loaded::{Broken, Loaded};
use index::Index;
use sqsguard_source::{Source, SourceFile, Span, plain_io_error, text_of};

/// The plan in `file`: `None` when it is not a plan document, `Some(Err)`
/// when it is one that cannot be read (truncated, say). A plan too large
/// to hold beside its model ([`SourceFile::unread`]) is read from its path.
pub(crate) fn load(file: &Source) -> Option<Result<Loaded, Broken>> {
    if file.is_detached() {
        return load_unread(file);
    }
    let text = file.text.as_str();
    if !looks_like_plan(text) {
        return None;
    }
    let index = match Index::read(text, file) {
        Ok(index) => index?,
        Err(broken) => return Some(Err(broken)),
    };
    Some(index.loaded(file, |span: Span| Ok(Cow::Borrowed(text.get(span.start..span.end).unwrap_or_default()))))
}

/// Cheap: a plan is a JSON object with these two keys.
fn looks_like_plan(text: &str) -> bool {
    text.trim_start().starts_with('{') && text.contains("\"format_version\"") && text.contains("\"planned_values\"")
}

/// A plan read from disk: whole for the first pass, then by ranges.
fn load_unread(file: &Source) -> Option<Result<Loaded, Broken>> {
    let broken = |file: &Source, at: usize, message: String| {
        Some(Err(Broken { file: file.clone(), span: Span::new(at, at), message }))
    };
    let path = &file.path;
    // Stamped before it is read: a change while it is read shows too.
    let (stamp, bytes) = match Stamp::of(path).and_then(|stamp| Ok((stamp, read_whole(path)?))) {
        Ok(read) => read,
        Err(e) => return broken(file, 0, format!("cannot read file: {}", plain_io_error(&e))),
    };
    let text = match text_of(bytes) {
        Ok(text) => text,
        Err(e) => {
            let lossy = SourceFile::new(path.clone(), e.text);
            return broken(&SourceFile::detached(&lossy), e.at, e.message);
        }
    };
    if !looks_like_plan(&text) {
        return None;
    }
    let full = SourceFile::new(path.clone(), text);
    let located = SourceFile::detached(&full);
    let index = match Index::read(&full.text, &full) {
        Ok(index) => index?,
        Err(b) => return broken(&located, b.span.start, b.message),
    };
    drop(full);
    Some(index.loaded(&located, |span: Span| stamp.read(path, span).map(Cow::Owned)))
}

/// The whole of a large plan, read in pieces by the pool's threads at
/// once: the copy out of the page cache and the page faults of a fresh
/// 200 MB buffer were 150 ms of one core, the other idle.
fn read_whole(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    #[cfg(unix)]
    {
        let file = std::fs::File::open(path)?;
        let len = usize::try_from(file.metadata()?.len()).map_err(std::io::Error::other)?;
        read_pieces(file, len)
    }
    #[cfg(not(unix))]
    std::fs::read(path)
}

/// `file`, of `len` bytes when it was looked at: a file that got shorter
/// since is an error that says so; one that grew is read to its end, as
/// `fs::read` would. (A change in place is the second pass's [`Stamp`]'s
/// to see.)
#[cfg(unix)]
fn read_pieces(mut file: std::fs::File, len: usize) -> std::io::Result<Vec<u8>> {
    use rayon::prelude::*;
    use std::io::Read as _;
    use std::os::unix::fs::FileExt as _;
    const PIECE: usize = 8 << 20;
    // Zeroed by the system, not written: fresh pages of this size.
    let mut bytes = vec![0; len];
    bytes
        .par_chunks_mut(PIECE)
        .enumerate()
        .try_for_each(|(i, piece)| file.read_exact_at(piece, (i * PIECE) as u64))
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => {
                std::io::Error::other("the file got shorter while it was read; lint it again")
            }
            _ => e,
        })?;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(len as u64))?;
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What tells that a file changed between the two passes.
#[derive(PartialEq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(path: &std::path::Path) -> std::io::Result<Stamp> {
        let meta = std::fs::metadata(path)?;
        Ok(Stamp { len: meta.len(), modified: meta.modified().ok() })
    }

    /// The bytes of `span`, unless the file changed since it was stamped.
    fn read(&self, path: &std::path::Path, span: Span) -> Result<String, String> {
        use std::io::{Read as _, Seek as _};
        let changed = || "the file changed while it was read; lint it again".to_string();
        let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
        if Stamp::of(path).ok().as_ref() != Some(self) {
            return Err(changed());
        }
        let mut bytes = vec![0; span.len()];
        f.seek(std::io::SeekFrom::Start(span.start as u64))
            .and_then(|_| f.read_exact(&mut bytes))
            .map_err(|e| format!("cannot read file: {}", plain_io_error(&e)))?;
        String::from_utf8(bytes).map_err(|_| changed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    #[test]
    fn a_truncated_plan_is_broken_where_it_ends() {
        let text = r#"{"format_version": "1.2", "planned_values": {"root_module": {"resources": [{"address": "#;
        let file = SourceFile::new("plan.json", text.to_string());
        let Some(Err(broken)) = load(&file) else { panic!("not broken") };
        assert!(broken.message.contains("EOF"), "{}", broken.message);
        assert_eq!(broken.span.start, text.len());
    }

    #[test]
    fn a_plan_that_changes_between_the_passes_is_not_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.json");
        std::fs::write(&path, "{\"a\": 1}").unwrap();
        let stamp = Stamp::of(&path).unwrap();
        assert_eq!(stamp.read(&path, Span::new(1, 4)).unwrap(), "\"a\"");
        std::fs::write(&path, "{\"a\": 12}").unwrap();
        let e = stamp.read(&path, Span::new(1, 4)).unwrap_err();
        assert!(e.contains("changed while it was read"), "{e}");
    }

    #[test]
    #[cfg(unix)]
    fn a_large_file_is_read_whole_in_its_order() {
        // Pieces of 8 MiB: two whole ones and a part, each byte its own
        // offset's, so a piece read into the wrong place shows.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.json");
        let bytes: Vec<u8> = (0..(17usize << 20) + 12_345).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_whole(&path).unwrap() == bytes);
        // Looked at when it was longer: it got shorter, and says so.
        let open = || std::fs::File::open(&path).unwrap();
        let e = read_pieces(open(), bytes.len() + 1).unwrap_err();
        assert!(e.to_string().contains("got shorter while it was read"), "{e}");
        // Looked at when it was shorter: it grew, and is read to its end.
        assert!(read_pieces(open(), (9 << 20) + 1).unwrap() == bytes);
        std::fs::write(&path, b"").unwrap();
        assert!(read_whole(&path).unwrap().is_empty());
    }

    #[test]
    fn other_json_is_not_a_plan() {
        let file = SourceFile::new("x.json", r#"{"AWSTemplateFormatVersion": "2010-09-09"}"#.to_string());
        assert!(load(&file).is_none());
    }
}
