//! A file whose tree holds other files' trees: a Serverless service that
//! reads `${file(./resources.yml)}`. Each included file's spans are moved
//! past the end of the file (and of the files included before it), so one
//! tree keeps every value's place, and [`SourceFile::included_at`] tells
//! which file a span is really in.

use std::sync::Arc;

use super::{Source, SourceFile, Span};

impl SourceFile {
    /// `file` again, holding the trees of `included`: each `(offset, file)`
    /// says its spans were moved by `offset`, which is past `file`'s end
    /// and past the end of the included file before it.
    pub fn with_included(file: &SourceFile, included: Vec<(usize, Source)>) -> Source {
        Arc::new(SourceFile {
            path: file.path.clone(),
            text: file.text.clone(),
            line_starts: file.line_starts.clone(),
            wide: file.wide.clone(),
            len: file.len,
            lf_text: std::sync::OnceLock::new(),
            has_lone_cr: file.has_lone_cr,
            included,
        })
    }

    /// The included file a span of this file's tree is in, and the span in
    /// it; `None` for a span of this file's own text.
    pub fn included_at(&self, span: Span) -> Option<(&Source, Span)> {
        if span.start <= self.len {
            return None;
        }
        let k = self.included.partition_point(|(offset, _)| *offset <= span.start).checked_sub(1)?;
        let (offset, file) = self.included.get(k)?;
        let start = span.start - offset;
        (start <= file.len).then(|| (file, Span::new(start, span.end.saturating_sub(*offset).max(start))))
    }

    /// The offset the next included file's spans move to: past this file
    /// and the files included so far.
    pub fn next_offset(len: usize, included: &[(usize, Source)]) -> usize {
        included.last().map_or(len, |(offset, file)| offset + file.len) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_span_is_found_in_its_own_file() {
        let main = SourceFile::new("serverless.yml", "resources: ${file(./r.yml)}\n".to_string());
        let r = SourceFile::new("r.yml", "Resources:\n  Q: {Type: AWS::SQS::Queue}\n".to_string());
        let offset = SourceFile::next_offset(main.size(), &[]);
        let whole = SourceFile::with_included(&main, vec![(offset, r.clone())]);
        assert!(whole.included_at(Span::new(3, 9)).is_none());
        let (file, span) = whole.included_at(Span::new(offset + 13, offset + 14)).unwrap();
        assert_eq!((file.path.to_str(), span), (Some("r.yml"), Span::new(13, 14)));
        assert_eq!(file.position(span.start).line, 2);
    }
}
