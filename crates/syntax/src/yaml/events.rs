//! libyaml's parser as an iterator of owned events. libyaml-rs is C in
//! Rust: its functions take raw pointers, and this is the one place that
//! calls them.

use std::ffi::CStr;
use std::marker::PhantomData;
use std::mem::MaybeUninit;

use libyaml_rs as sys;

/// A position libyaml reports: the byte offset into its input.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mark {
    pub index: usize,
}

/// How a scalar is written, as far as the tree cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Plain,
    Quoted,
    /// `|` or `>`.
    Block,
}

pub(crate) enum Event {
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        value: String,
        style: Style,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    MappingEnd,
    Alias {
        anchor: String,
    },
    DocumentEnd,
    StreamEnd,
    /// Stream and document starts.
    Other,
}

/// What libyaml refused, where, and in the middle of what.
pub(crate) struct YamlError {
    pub problem: String,
    pub at: Mark,
    /// The character that stopped the reader (a control character).
    pub value: Option<u32>,
    pub context: Option<(String, Mark)>,
}

pub(crate) struct Events<'input> {
    /// Boxed: libyaml keeps a pointer to the parser for its input.
    parser: Box<MaybeUninit<sys::yaml_parser_t>>,
    initialized: bool,
    input: PhantomData<&'input [u8]>,
}

impl<'input> Events<'input> {
    pub(crate) fn new(input: &'input [u8]) -> Self {
        let mut parser = Box::new(MaybeUninit::<sys::yaml_parser_t>::uninit());
        let p = parser.as_mut_ptr();
        // SAFETY: `p` points to memory for a parser that initialize
        // fills in; the input outlives the parser (`'input`), which
        // reads it through the pointer and length given here.
        let initialized = unsafe {
            let ok = sys::yaml_parser_initialize(p).ok;
            if ok {
                sys::yaml_parser_set_encoding(p, sys::YAML_UTF8_ENCODING);
                sys::yaml_parser_set_input_string(p, input.as_ptr(), input.len() as u64);
            }
            ok
        };
        Events { parser, initialized, input: PhantomData }
    }

    /// The next event and its start and end.
    pub(crate) fn next(&mut self) -> Result<(Event, Mark, Mark), YamlError> {
        if !self.initialized {
            let at = Mark { index: 0 };
            return Err(YamlError { problem: "out of memory".into(), at, value: None, context: None });
        }
        let p = self.parser.as_mut_ptr();
        let mut event = MaybeUninit::<sys::yaml_event_t>::uninit();
        // SAFETY: the parser was initialized; on success libyaml fills
        // in `event`, read here before yaml_event_delete frees what it
        // points to; on failure it sets the parser's error fields.
        unsafe {
            if !sys::yaml_parser_parse(p, event.as_mut_ptr()).ok {
                return Err(error(&*p));
            }
            let e = event.as_mut_ptr();
            let owned = convert(&*e);
            let marks = (mark((*e).start_mark), mark((*e).end_mark));
            sys::yaml_event_delete(e);
            Ok((owned, marks.0, marks.1))
        }
    }
}

impl Drop for Events<'_> {
    fn drop(&mut self) {
        if self.initialized {
            // SAFETY: initialized, and deleted only here, once.
            unsafe { sys::yaml_parser_delete(self.parser.as_mut_ptr()) }
        }
    }
}

fn mark(m: sys::yaml_mark_t) -> Mark {
    Mark { index: usize::try_from(m.index).unwrap_or(usize::MAX) }
}

/// A NUL-terminated string of libyaml's, or `None` for a null pointer.
///
/// SAFETY: `s` is null or points to a NUL-terminated string.
unsafe fn text(s: *const u8) -> Option<String> {
    // SAFETY: as the caller promises.
    (!s.is_null()).then(|| unsafe { CStr::from_ptr(s.cast()) }.to_string_lossy().into_owned())
}

/// SAFETY: `e` is an event libyaml produced and has not freed.
unsafe fn convert(e: &sys::yaml_event_t) -> Event {
    // SAFETY: each arm reads the union field of its event type.
    unsafe {
        match e.type_ {
            sys::YAML_SCALAR_EVENT => {
                let s = e.data.scalar;
                let value = if s.value.is_null() {
                    String::new()
                } else {
                    let len = usize::try_from(s.length).unwrap_or(0);
                    String::from_utf8_lossy(std::slice::from_raw_parts(s.value, len)).into_owned()
                };
                let style = match s.style {
                    sys::YAML_PLAIN_SCALAR_STYLE => Style::Plain,
                    sys::YAML_LITERAL_SCALAR_STYLE | sys::YAML_FOLDED_SCALAR_STYLE => Style::Block,
                    _ => Style::Quoted,
                };
                Event::Scalar { anchor: text(s.anchor), tag: text(s.tag), value, style }
            }
            sys::YAML_SEQUENCE_START_EVENT => {
                let s = e.data.sequence_start;
                Event::SequenceStart { anchor: text(s.anchor), tag: text(s.tag) }
            }
            sys::YAML_MAPPING_START_EVENT => {
                let m = e.data.mapping_start;
                Event::MappingStart { anchor: text(m.anchor), tag: text(m.tag) }
            }
            sys::YAML_ALIAS_EVENT => Event::Alias { anchor: text(e.data.alias.anchor).unwrap_or_default() },
            sys::YAML_SEQUENCE_END_EVENT => Event::SequenceEnd,
            sys::YAML_MAPPING_END_EVENT => Event::MappingEnd,
            sys::YAML_DOCUMENT_END_EVENT => Event::DocumentEnd,
            sys::YAML_STREAM_END_EVENT => Event::StreamEnd,
            _ => Event::Other,
        }
    }
}

/// SAFETY: `p` is a parser whose last call failed.
unsafe fn error(p: &sys::yaml_parser_t) -> YamlError {
    // SAFETY: libyaml's problem and context are static strings or null.
    let (problem, context) = unsafe { (text(p.problem.cast()), text(p.context.cast())) };
    let problem = problem.unwrap_or_else(|| "the YAML reader failed".into());
    if p.error == sys::YAML_READER_ERROR {
        // The reader reports a byte offset and the character, not a mark.
        let at = Mark { index: usize::try_from(p.problem_offset).unwrap_or(usize::MAX) };
        let value = u32::try_from(p.problem_value).ok();
        return YamlError { problem, at, value, context: None };
    }
    let context = context.filter(|c| !c.is_empty()).map(|c| (c, mark(p.context_mark)));
    YamlError { problem, at: mark(p.problem_mark), value: None, context }
}
