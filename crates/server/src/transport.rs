//! The framing of LSP's base protocol on a byte stream: header lines
//! (`Content-Length: N`, CRLF each, a blank line) and then N bytes of
//! body. lsp-server's own reader ends the connection at the first broken
//! frame; this one says what was wrong and reads on from the next
//! `Content-Length:` header, so only the end of the stream ends it.
//!
//! Its sizes are bounded: a header line is at most [`MAX_HEADER_LINE`]
//! bytes and a body at most [`MAX_BODY`] (a larger Content-Length is a
//! broken frame, skipped without allocating it); scanning for the next
//! header holds one chunk at a time.

use std::io::{ErrorKind, Read};

/// The longest header line read; a longer one is a broken frame.
pub(super) const MAX_HEADER_LINE: usize = 8 * 1024;
/// The largest body read (64 MiB, far past any editor's document); a
/// larger Content-Length is a broken frame.
pub(super) const MAX_BODY: usize = 64 * 1024 * 1024;
/// How much is read from the stream at a time.
const CHUNK: usize = 64 * 1024;
/// What a resynchronisation looks for (compared without case).
const HEADER: &[u8] = b"content-length:";

/// One frame read.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Frame {
    /// A whole body, as its header announced it.
    Body(Vec<u8>),
    /// A broken frame, and why; the next read starts at the next
    /// `Content-Length:` header.
    Broken(String),
    /// The end of the stream.
    End,
}

/// Frames from a byte stream.
pub(super) struct Reader<R> {
    input: R,
    buf: Vec<u8>,
    pos: usize,
    ended: bool,
    /// The last frame was broken: skip to the next header first.
    resync: bool,
}

impl<R: Read> Reader<R> {
    pub(super) fn new(input: R) -> Self {
        Reader { input, buf: Vec::new(), pos: 0, ended: false, resync: false }
    }

    /// The next frame.
    pub(super) fn next_frame(&mut self) -> Frame {
        if self.resync {
            self.resync = false;
            if !self.skip_to_header() {
                return Frame::End;
            }
        }
        match self.frame() {
            Ok(Some(body)) => Frame::Body(body),
            Ok(None) => Frame::End,
            Err(why) => {
                self.resync = true;
                Frame::Broken(why)
            }
        }
    }

    /// Put `bytes` back in front of what is still to be read (a body that
    /// was cut short holds the next message's header).
    pub(super) fn unread(&mut self, bytes: &[u8]) {
        let rest = self.buf.split_off(self.pos);
        self.buf.clear();
        self.buf.extend_from_slice(bytes);
        self.buf.extend(rest);
        self.pos = 0;
        self.resync = false;
    }

    /// Put a line read back, its `\n` too.
    fn unread_line(&mut self, line: &[u8]) {
        let mut bytes = line.to_vec();
        bytes.push(b'\n');
        self.unread(&bytes);
    }

    /// A frame's body; `None` at the end of the stream before a frame.
    fn frame(&mut self) -> Result<Option<Vec<u8>>, String> {
        let mut length = None;
        let mut first = true;
        loop {
            let line = match self.line()? {
                Some(line) => line,
                None if first => return Ok(None),
                None => return Err("the stream ended inside a message's header".to_string()),
            };
            first = false;
            // A line with a header inside it past its start is the junk
            // before that header (a body cut short, a lost line break).
            if let Some(at) = find_header(line.get(1..).unwrap_or_default()) {
                let rest = line[1 + at..].to_vec();
                self.unread_line(&rest);
                return Err(format!("junk before a header: {}", shown(&line[..=at])));
            }
            if let Err(why) = header(&line, &mut length) {
                // Read on from the line's second byte: what follows may
                // be a header.
                self.unread_line(line.get(1..).unwrap_or_default());
                return Err(why);
            }
            if line == b"\r" {
                break;
            }
        }
        let length = length.ok_or_else(|| "a message has no Content-Length header".to_string())?;
        if length > MAX_BODY {
            return Err(format!(
                "a message of {length} bytes is over the {} MiB the server reads: skipped",
                MAX_BODY / (1024 * 1024)
            ));
        }
        while self.buf.len() - self.pos < length {
            if !self.fill()? {
                let got = self.buf.len() - self.pos;
                self.pos = self.buf.len();
                return Err(format!("the stream ended {got} bytes into a body of {length} bytes"));
            }
        }
        let body = self.buf[self.pos..self.pos + length].to_vec();
        self.pos += length;
        Ok(Some(body))
    }

    /// The next line, its `\n` taken off; `None` at the end of the stream
    /// (a last line without `\n` is dropped: it cannot start a frame).
    fn line(&mut self) -> Result<Option<Vec<u8>>, String> {
        let mut searched = 0;
        loop {
            let pending = &self.buf[self.pos..];
            if let Some(i) = pending[searched..].iter().position(|&b| b == b'\n') {
                let end = searched + i;
                let line = (end <= MAX_HEADER_LINE).then(|| pending[..end].to_vec());
                self.pos += end + 1;
                return line.map(Some).ok_or_else(|| format!("a header line is longer than {MAX_HEADER_LINE} bytes"));
            }
            searched = pending.len();
            if searched > MAX_HEADER_LINE {
                self.pos = self.buf.len();
                return Err(format!("a header line is longer than {MAX_HEADER_LINE} bytes"));
            }
            if !self.fill()? {
                self.pos = self.buf.len();
                return Ok(None);
            }
        }
    }

    /// Skip to the next `Content-Length:`, wherever it starts; false when
    /// the stream ends first.
    fn skip_to_header(&mut self) -> bool {
        loop {
            if let Some(i) = find_header(&self.buf[self.pos..]) {
                self.pos += i;
                return true;
            }
            // Keep what could be the start of a header cut by the chunk.
            self.pos = self.pos.max(self.buf.len().saturating_sub(HEADER.len() - 1));
            if !matches!(self.fill(), Ok(true)) {
                return false;
            }
        }
    }

    /// Read more of the stream; false at its end (or when it fails).
    fn fill(&mut self) -> Result<bool, String> {
        if self.ended {
            return Ok(false);
        }
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + CHUNK, 0);
        loop {
            match self.input.read(&mut self.buf[start..]) {
                Ok(0) => {
                    self.buf.truncate(start);
                    self.ended = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.buf.truncate(start + n);
                    return Ok(true);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(start);
                    self.ended = true;
                    return Err(format!("reading the editor's messages failed: {e}"));
                }
            }
        }
    }
}

/// Read one header line (its `\n` taken off): a blank one, a
/// Content-Length (into `length`), or another header (ignored).
fn header(line: &[u8], length: &mut Option<usize>) -> Result<(), String> {
    let Some(line) = line.strip_suffix(b"\r") else {
        return Err(format!("a header line ends in a line feed alone, not CRLF: {}", shown(line)));
    };
    if line.is_empty() {
        return Ok(());
    }
    let text = std::str::from_utf8(line).map_err(|_| format!("a header line is not ASCII: {}", shown(line)))?;
    let token = |name: &str| !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    let Some((name, value)) = text.split_once(':').filter(|(name, _)| token(name)) else {
        return Err(format!("a header line has no `name: value`: {}", shown(line)));
    };
    if name.eq_ignore_ascii_case("content-length") {
        let value = value.trim();
        *length =
            Some(value.parse().map_err(|_| format!("the Content-Length `{}` is not a number", shown_str(value)))?);
    }
    Ok(())
}

fn shown_str(text: &str) -> String {
    let cut: String = text.chars().take(40).collect();
    if cut.len() < text.len() { format!("{cut}...") } else { cut }
}

/// Where the next `Content-Length:` starts in `bytes` (without case).
pub(super) fn find_header(bytes: &[u8]) -> Option<usize> {
    bytes.windows(HEADER.len()).position(|w| w.eq_ignore_ascii_case(HEADER))
}

/// Where the next header starts in `bytes`, or the start of one cut off
/// at their end (`...Content-Le`): what a body read past its message's
/// end holds of the next message.
pub(super) fn find_header_start(bytes: &[u8]) -> Option<usize> {
    find_header(bytes).or_else(|| {
        let longest = (HEADER.len() - 1).min(bytes.len());
        (1..=longest)
            .rev()
            .find(|&n| bytes[bytes.len() - n..].eq_ignore_ascii_case(&HEADER[..n]))
            .map(|n| bytes.len() - n)
    })
}

/// A header line as a log shows it: escaped, and cut at 80 bytes.
fn shown(line: &[u8]) -> String {
    let cut = &line[..line.len().min(80)];
    let text: String = cut.escape_ascii().to_string();
    if cut.len() < line.len() { format!("`{text}`...") } else { format!("`{text}`") }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut reader = Reader::new(input);
        let mut out = Vec::new();
        loop {
            let frame = reader.next_frame();
            let end = frame == Frame::End;
            out.push(frame);
            if end || out.len() > 20 {
                return out;
            }
        }
    }

    fn msg(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    fn broken(frame: &Frame, says: &str) -> bool {
        matches!(frame, Frame::Broken(why) if why.contains(says))
    }

    #[test]
    fn frames_in_a_row_and_other_headers_are_read() {
        let input = format!("{}Content-Type: x\r\ncontent-length:  2\r\n\r\n{{}}{}", msg("[1]"), msg("{}"));
        let got = frames(input.as_bytes());
        assert_eq!(
            got,
            [Frame::Body(b"[1]".to_vec()), Frame::Body(b"{}".to_vec()), Frame::Body(b"{}".to_vec()), Frame::End]
        );
    }

    #[test]
    fn each_broken_frame_is_said_and_the_next_header_read() {
        let good = msg("{}");
        for (bad, says) in [
            ("Content-Type: x\r\n\r\n{}", "no Content-Length"),
            ("Content-Length: ten\r\n\r\n{}", "`ten` is not a number"),
            ("Content-Length: 2\n\n{}", "line feed alone"),
            ("Content-Length 2\r\n\r\n{}", "no `name: value`"),
            ("Content-Length: 99999999999\r\n\r\n{}", "over the 64 MiB"),
            ("Content-Length: -1\r\n\r\n{}", "not a number"),
            ("garbage\r\n", "no `name: value`"),
            ("\r\n", "no Content-Length"),
            ("X: {\"a\": 1}\r\n\r\n", "no Content-Length"),
            ("{\"id\": 1}Content-Length: 2\r\n", "junk before a header"),
            ("Content-Length: 2{}", "junk before"),
            ("Content-Length: 9\r\n{}", "junk before"),
        ] {
            let got = frames(format!("{bad}{good}").as_bytes());
            assert!(broken(&got[0], says), "{bad:?}: {got:?}");
            assert_eq!(got[1..], [Frame::Body(b"{}".to_vec()), Frame::End], "{bad:?}");
        }
    }

    #[test]
    fn a_huge_header_line_is_skipped_in_chunks() {
        let long = format!("X-Junk: {}\r\n\r\n{}", "a".repeat(3 * MAX_HEADER_LINE), msg("{}"));
        let got = frames(long.as_bytes());
        assert!(broken(&got[0], "longer than"), "{got:?}");
        assert_eq!(got[1..], [Frame::Body(b"{}".to_vec()), Frame::End]);
    }

    #[test]
    fn the_end_of_the_stream_inside_a_frame_is_said_then_ends() {
        for (cut, says) in
            [("Content-Length: 10\r\n\r\n{}", "2 bytes into a body of 10"), ("Content-Length: 2\r\n", "inside")]
        {
            let got = frames(cut.as_bytes());
            assert!(broken(&got[0], says), "{cut:?}: {got:?}");
            assert_eq!(got[1..], [Frame::End]);
        }
        assert_eq!(frames(b""), [Frame::End]);
        assert_eq!(frames(b"no header at all"), [Frame::End]);
    }

    #[test]
    fn a_header_cut_across_chunks_is_found() {
        // The junk ends a few bytes into the header, at a chunk's edge.
        let mut input = vec![b'x'; CHUNK - 5];
        input.extend_from_slice(msg("{}").as_bytes());
        let mut reader = Reader::new(&input[..]);
        reader.resync = true;
        assert_eq!(reader.next_frame(), Frame::Body(b"{}".to_vec()));
    }

    #[test]
    fn unread_bytes_are_read_first() {
        let input = msg("{}");
        let mut reader = Reader::new(input.as_bytes());
        reader.unread(msg("[2]").as_bytes());
        assert_eq!(reader.next_frame(), Frame::Body(b"[2]".to_vec()));
        assert_eq!(reader.next_frame(), Frame::Body(b"{}".to_vec()));
        assert_eq!(find_header(b"{\"a\": 1}CONTENT-LENGTH: 3"), Some(8));
        assert_eq!(find_header_start(b"{\"a\": 1}Content-Le"), Some(8));
        assert_eq!(find_header_start(b"{\"a\": 1}"), None);
    }
}
