//! Code written inside another file (a template's `ZipFile` or
//! `InlineCode`): it is parsed on its own, and each place found in it is
//! mapped back, line by line, into the file that holds it.

use sqsguard_source::{Source, Span};

/// Code written inside another file (a template's inline code): where
/// each of its lines starts there, so that what is found in it points into
/// that file.
#[derive(Clone, Debug)]
pub struct Host {
    pub source: Source,
    /// The code's whole text in `source`: where what cannot be placed line
    /// by line points.
    pub at: Span,
    /// For each line of the code, its start in `source`, when the line is
    /// there as written (a YAML block scalar's lines, indented).
    lines: Vec<Option<usize>>,
}

impl Host {
    /// The lines of `text` found in order in `source` within `at`: each
    /// either a whole line after its indentation, or (a one-line value)
    /// anywhere in the span. A line written otherwise (escaped in a JSON
    /// string, folded) and those after it point at the value.
    pub(crate) fn new(source: &Source, at: Span, text: &str) -> Host {
        let written = source.text.get(at.start..at.end).unwrap_or_default();
        let mut lines = Vec::new();
        let mut cursor = 0usize;
        let mut lost = false;
        for line in text.split('\n') {
            let line = line.strip_suffix('\r').unwrap_or(line);
            let found = if lost { None } else { find_line(written, cursor, line) };
            match found {
                Some((start, end)) => {
                    lines.push(Some(at.start + start));
                    cursor = end;
                }
                None => {
                    lost = true;
                    lines.push(None);
                }
            }
        }
        Host { source: source.clone(), at, lines }
    }

    /// An offset of the code, in `source`.
    fn offset(&self, code: &Source, offset: usize) -> Option<usize> {
        let line = code.line_index(offset);
        let column = offset - code.line_offset(line)?;
        Some(self.lines.get(line).copied().flatten()? + column)
    }

    /// A span of the code, in `source`: the code's whole place when it
    /// cannot be placed exactly.
    pub(crate) fn span(&self, code: &Source, span: Span) -> Span {
        match (self.offset(code, span.start), self.offset(code, span.end)) {
            (Some(start), Some(end)) if start <= end => Span::new(start, end),
            _ => Span::new(self.at.start, self.at.start),
        }
    }
}

/// Where `line` is in `written` at or after `from`: the rest of a line
/// after spaces (a block scalar's line), else the first occurrence on the
/// same line as `from` (a one-line value). `(start, end)` of the line
/// found, `end` past its line break.
fn find_line(written: &str, from: usize, line: &str) -> Option<(usize, usize)> {
    let mut at = from;
    let mut first = true;
    while at <= written.len() {
        let rest = written.get(at..)?;
        let len = rest.find('\n').unwrap_or(rest.len());
        let here = &rest[..len];
        let here = here.strip_suffix('\r').unwrap_or(here);
        let next = at + len + 1;
        let indent = here.len() - here.trim_start_matches([' ', '\t']).len();
        if line.is_empty() && here.trim().is_empty() {
            return Some((at + here.len(), next));
        }
        if !line.is_empty() && here.get(indent..) == Some(line) {
            return Some((at + indent, next));
        }
        if first
            && !line.is_empty()
            && let Some(i) = here.find(line)
        {
            return Some((at + i, next));
        }
        first = false;
        if next > written.len() {
            return None;
        }
        at = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    #[test]
    fn inline_code_points_into_its_block_scalar() {
        let template = "Resources:\n  F:\n    Code:\n      ZipFile: |\n        def handler(e, c):\n\n            return {\"BatchItemFailures\": []}\n  G: {}\n";
        let source = SourceFile::new("template.yaml", template.to_string());
        let start = template.find('|').unwrap();
        let end = template.find("  G:").unwrap();
        let code = "def handler(e, c):\n\n    return {\"BatchItemFailures\": []}\n";
        let host = Host::new(&source, Span::new(start, end), code);
        let detached = SourceFile::new("inline", code.to_string());
        let key = code.find("BatchItemFailures").unwrap();
        let mapped = host.span(&detached, Span::new(key, key + 17));
        assert_eq!(&template[mapped.start..mapped.end], "BatchItemFailures");
        let at = source.position(mapped.start);
        assert_eq!((at.line, at.column), (7, 22));
    }

    #[test]
    fn inline_code_written_otherwise_points_at_its_value() {
        let template = "{\"ZipFile\": \"def handler(e, c):\\n    return {}\"}";
        let source = SourceFile::new("template.json", template.to_string());
        let start = template.find("\"def").unwrap();
        let code = "def handler(e, c):\n    return {}";
        let host = Host::new(&source, Span::new(start, template.len() - 1), code);
        let detached = SourceFile::new("inline", code.to_string());
        // The first line is there as written; the second is escaped.
        let def = host.span(&detached, Span::new(4, 11));
        assert_eq!(&template[def.start..def.end], "handler");
        let ret = code.find("return").unwrap();
        assert_eq!(host.span(&detached, Span::new(ret, ret + 6)), Span::new(start, start));
    }
}
