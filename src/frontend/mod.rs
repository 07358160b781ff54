//! The front-ends: each reads one kind of input into the shared
//! [`Model`], in one function that returns a [`Loaded`].
//!
//! - [`cfn`]: a CloudFormation or SAM template (YAML or JSON);
//! - [`serverless`]: a Serverless Framework service;
//! - [`terraform`]: a folder of `.tf` files (one module, with the local
//!   and registry modules it calls), and [`terraform::plan`]: plan JSON;
//! - [`live`]: what the audit read from an AWS account.
//!
//! What they share to turn values into the model: the resolved value type
//! ([`value`]), conversions to typed values ([`convert`]), linking
//! references to queues and functions ([`link`]), reading attributes with
//! their alternatives ([`attr`]), finding dead-letter targets
//! ([`dead_letter`]), policy documents ([`policy`]), producers
//! ([`producer`]) and suppression comments ([`comment`]). The trees they
//! parsed go to the edit layer ([`crate::edit::Writer`]).

pub mod cfn;
pub mod code;
pub mod comment;
pub mod convert;
pub mod dead_letter;
pub mod link;
pub mod live;
pub mod live_key;
pub mod policy;
pub mod producer;
pub mod serverless;
pub mod stage;
pub mod terraform;
pub mod value;

use std::path::PathBuf;

use crate::finding::Note;
use crate::model::{Alt, Attr, Dialect, Field, Model, Origin, Redrive, Suppression, Target, Value, Via, When};
use crate::source::{Source, Span};
use crate::syntax::{self, Node};
use value::{R, RV};

/// What a front-end gives: the model, and what came with it.
#[derive(Debug, Default)]
pub struct Loaded {
    pub model: Model,
    /// Suppressions written in its files (comments) or declared in its
    /// data (CloudFormation Metadata).
    pub suppressions: Vec<Suppression>,
    /// Things worth knowing that are not findings (a module that was not
    /// analysed).
    pub notes: Vec<Note>,
    /// Files that look like infrastructure but could not be read or parsed.
    pub broken: Vec<Broken>,
    /// Every file read (as given), broken ones included.
    pub files: Vec<PathBuf>,
    /// Terraform: the local module folders called (canonical paths), which
    /// were linted through this caller; Serverless: the files a service
    /// includes with `${file(...)}` that are no service of their own.
    pub called: Vec<PathBuf>,
    /// CloudFormation: the keys of the run's Parameter values
    /// ([`stage::Stage::overrides`]) this template declares.
    pub parameters: Vec<String>,
    /// The trees of the files read, for the fixes of the findings.
    pub writer: crate::edit::Writer,
}

/// A file that could not be read or parsed, and where reading stopped.
#[derive(Clone, Debug)]
pub struct Broken {
    pub file: Source,
    pub span: Span,
    pub message: String,
}

/// A front-end that reads a file's text itself (a plan, too large for a
/// tree): `None` when it is not its kind, `Some(Err)` when it is and
/// cannot be read.
type TextReader = fn(&Source) -> Option<Result<Loaded, Broken>>;

/// A front-end that reads one parsed document, `None` when the document
/// is not its kind.
type DocumentReader = fn(&Source, &Node, &stage::Stage) -> Option<Loaded>;

/// The front-ends for single files, tried in order: a new one is one line
/// here.
const TEXT_READERS: &[TextReader] = &[terraform::plan::load];
const DOCUMENT_READERS: &[DocumentReader] = &[serverless::load, cfn::load];

/// What one YAML or JSON file is.
pub enum Document {
    Loaded(Box<Loaded>),
    /// Parsed, but no front-end's kind (a workflow, a k8s manifest).
    Other,
    /// It does not parse.
    Unparsable(syntax::ParseError),
    /// A front-end knows its kind and cannot read it (a truncated plan).
    Broken(Broken),
}

/// Read `file` with the first front-end that knows its kind: those that
/// read text first, then (parsed as JSON or YAML, by extension or
/// content) those that read a tree, with the values of `stage`.
pub fn document(file: &Source, stage: &stage::Stage) -> Document {
    document_in(file, stage, &crate::source::Overlay::default())
}

/// [`document`], with what `overlay` keeps across runs: an editor's large
/// YAML template is parsed a piece at a time, only the pieces it changed.
pub fn document_in(file: &Source, stage: &stage::Stage, overlay: &crate::source::Overlay) -> Document {
    for read in TEXT_READERS {
        match read(file) {
            Some(Ok(loaded)) => return Document::Loaded(Box::new(loaded)),
            Some(Err(broken)) => return Document::Broken(broken),
            None => {}
        }
    }
    // What is not a plan is a template: past its limit, not parsed.
    let size = file.size() as u64;
    if size > crate::source::MAX_TEMPLATE_BYTES {
        let message = crate::source::too_large(size);
        return Document::Unparsable(syntax::ParseError { message, span: Span::new(0, 0) });
    }
    let parsed = if syntax::is_json(&file.path, &file.text) {
        syntax::json::parse(file)
    } else {
        syntax::yaml::parse_in_pieces(file, overlay)
    };
    let root = match parsed {
        Ok(root) => root,
        Err(e) => return Document::Unparsable(e),
    };
    match DOCUMENT_READERS.iter().find_map(|read| read(file, &root, stage)) {
        Some(mut loaded) => {
            loaded.writer = crate::edit::Writer::template(file, root);
            Document::Loaded(Box::new(loaded))
        }
        None => Document::Other,
    }
}

/// The model of one document front-end, with the suppression comments of
/// its file.
pub(crate) fn loaded_from(file: &Source, model: Model, mut suppressions: Vec<Suppression>) -> Loaded {
    suppressions.extend(comment::scan(file));
    Loaded { model, suppressions, files: vec![file.path.clone()], ..Loaded::default() }
}

/// Attribute `key` of `map` (following conditionals on both levels), read
/// with `conv`. Absent alternatives are located at `absent_at`.
pub fn attr<T>(file: &Source, map: Option<&R>, key: &str, absent_at: Span, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
    let Some(map) = map else {
        return Attr::absent(Origin::file(file, absent_at));
    };
    let value_of = |v: &R| if v.v == RV::NoValue || v.v == RV::Null { Value::Absent } else { conv(v) };
    // Nothing conditional (most values): one alternative, no search for them.
    if !matches!(map.v, RV::If { .. }) {
        match map.entry(key) {
            None => return Attr::absent(Origin::file(file, absent_at)),
            Some((_, v)) if !matches!(v.v, RV::If { .. }) => {
                return Attr { alts: vec![alt_of(file, value_of(v), v, When::always())] };
            }
            Some(_) => {}
        }
    }
    let mut alts = Vec::new();
    for (w, m) in map.alternatives() {
        match m.entry(key) {
            None => alts.push(Alt::new(Value::Absent, Origin::file(file, absent_at), w)),
            Some((_, v)) => {
                for (w2, v) in v.alternatives() {
                    let Some(when) = w.and(&w2) else { continue };
                    alts.push(alt_of(file, value_of(v), v, when));
                }
            }
        }
    }
    Attr { alts }
}

/// Attribute `inner` of the map that attribute `outer` of `map` holds
/// (`ScalingConfig.MaximumConcurrency`), read with `conv`: absent where
/// either is (located at `absent_at`, or at the outer map when only the
/// inner key is missing), unknown where the outer value is no map.
pub fn nested_attr<T>(
    file: &Source,
    map: Option<&R>,
    outer: &str,
    inner: &str,
    absent_at: Span,
    conv: impl Fn(&R) -> Value<T>,
) -> Attr<T> {
    let holder = attr(file, map, outer, absent_at, |r| Value::Known(r.clone()));
    let mut alts = Vec::new();
    for alt in holder.alts {
        match alt.value {
            Value::Known(r) if matches!(r.v, RV::Map(_) | RV::If { .. }) => {
                for a in attr(file, Some(&r), inner, r.span, &conv).alts {
                    if let Some(when) = alt.when.and(&a.when) {
                        alts.push(Alt { when, ..a });
                    }
                }
            }
            Value::Known(r) => {
                let why = format!("{outer} is not a mapping");
                alts.push(Alt::new(Value::Unknown(why), Origin::file(file, r.span), alt.when));
            }
            Value::Unknown(why) => alts.push(Alt::new(Value::Unknown(why), alt.origin, alt.when)),
            Value::Absent => alts.push(Alt::new(Value::Absent, alt.origin, alt.when)),
        }
    }
    Attr { alts }
}

/// An attribute made of values found with [`value::values_at`].
pub fn attr_of<T>(file: &Source, found: Vec<(When, &R)>, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
    Attr { alts: found.into_iter().map(|(when, r)| alt_of(file, conv(r), r, when)).collect() }
}

/// The alternative `value` read from `r`: used where `r` is, written
/// where `r` remembers.
fn alt_of<T>(file: &Source, value: Value<T>, r: &R, when: When) -> Alt<T> {
    Alt { written: r.written.clone(), given: r.given.clone(), ..Alt::new(value, Origin::file(file, r.span), when) }
}

/// A queue's redrive policy (RedrivePolicy in the dialect's words), written
/// as a map or as a JSON string: its deadLetterTargetArn linked with
/// `queue_target`, and how it is written read with `queue_via`.
pub fn redrive(
    file: &Source,
    props: Option<&R>,
    dialect: Dialect,
    absent_at: Span,
    queue_target: impl Fn(&R) -> Value<Target>,
    queue_via: impl Fn(&R) -> Value<Via>,
) -> Attr<Redrive> {
    let key = dialect.name(Field::RedrivePolicy);
    let (target_key, count_key) = (dialect.name(Field::DeadLetterTarget), dialect.name(Field::MaxReceiveCount));
    let raw = attr(file, props, key, absent_at, |r| Value::Known(r.clone()));
    let alts = raw
        .alts
        .into_iter()
        .map(|alt| {
            let value = match alt.value {
                Value::Known(r) => {
                    let map = match &r.v {
                        RV::Map(_) | RV::If { .. } => Some(r.clone()),
                        _ => convert::json_string(&r),
                    };
                    match map {
                        Some(map) => Value::Known(Redrive {
                            target: attr(file, Some(&map), target_key, map.span, &queue_target),
                            target_via: attr(file, Some(&map), target_key, map.span, &queue_via),
                            max_receive_count: attr(file, Some(&map), count_key, map.span, convert::to_int),
                        }),
                        None => Value::Unknown(format!("{key} is only known at deploy time")),
                    }
                }
                Value::Unknown(why) => Value::Unknown(why),
                Value::Absent => Value::Absent,
            };
            Alt { value, origin: alt.origin, when: alt.when, written: alt.written, given: alt.given }
        })
        .collect();
    Attr { alts }
}
