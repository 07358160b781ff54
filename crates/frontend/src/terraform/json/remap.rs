//! Where each piece of the HCL text written for a `.tf.json` file came
//! from in its JSON, so that spans of the HCL translate back.

use sqsguard_source::Span;

/// Where each piece of the HCL text came from in the JSON text.
#[derive(Clone, Debug, Default)]
pub struct Remap {
    /// In HCL order (which is also JSON order).
    pub(super) pieces: Vec<Piece>,
}

#[derive(Clone, Debug)]
pub(super) struct Piece {
    pub(super) hcl: usize,
    pub(super) hcl_len: usize,
    pub(super) json: usize,
    pub(super) json_len: usize,
}

impl Remap {
    /// The JSON byte offset of HCL byte offset `at`: inside a piece, the
    /// same place in its JSON (its end when the JSON is shorter); between
    /// pieces, the end of the one before.
    fn offset(&self, at: usize) -> usize {
        let next = self.pieces.partition_point(|p| p.hcl <= at);
        let Some(p) = next.checked_sub(1).and_then(|i| self.pieces.get(i)) else {
            return self.pieces.first().map_or(0, |p| p.json);
        };
        let into = at - p.hcl;
        if into >= p.hcl_len { p.json + p.json_len } else { p.json + into.min(p.json_len) }
    }

    pub(crate) fn span(&self, span: Span) -> Span {
        let start = self.offset(span.start);
        Span::new(start, self.offset(span.end).max(start))
    }
}
