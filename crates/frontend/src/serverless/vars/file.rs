//! `${file(PATH)}` and `${file(PATH):KEY}`: a YAML or JSON file of the
//! service's repository, read whole or at KEY (a dotted path), its own
//! variables resolved against the including service (`${self:...}` is the
//! service's), as the Framework does. PATH is relative to the service's
//! folder. The included file's spans are moved past the service file's
//! end ([`sqsguard_source::SourceFile::with_included`]), so what comes from
//! it is located in it. A file outside the repository, missing, not YAML or
//! JSON, without KEY, or including itself, is unknown with a note naming
//! the expression.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::Resolver;
use sqsguard_source::{Source, SourceFile, Span};
use sqsguard_syntax::{Entry, Kind, Node};

/// Files one service may include at most (a runaway chain stops here).
const MAX_FILES: usize = 256;
/// `${file(...)}` values one service may take at most: each is a copy of
/// (part of) a file, so a service that names a large file over and over
/// stops here rather than fill the memory.
const MAX_USES: usize = 1024;

/// What `${file(...)}` may read and has read for one service.
#[derive(Default)]
pub(super) struct Includes {
    /// The service's folder and its repository (canonical); `None` when
    /// the service has no place on disk (its variables' files are unknown).
    place: Option<(PathBuf, PathBuf)>,
    /// The service file's length: included spans start past it.
    len: usize,
    /// Each file read, with the offset of its spans.
    pub(super) included: Vec<(usize, Source)>,
    /// By canonical path: the file's tree (spans moved), or why it is not read.
    trees: HashMap<PathBuf, Result<Node, String>>,
    /// The files whose values are being resolved (one including itself is a cycle).
    reading: Vec<PathBuf>,
    /// Where an expression was not followed, and why.
    pub(super) notes: Vec<(Span, String)>,
    /// `${file(...)}` values taken so far (see [`MAX_USES`]).
    uses: usize,
}

impl Includes {
    /// For the service file `file`: its folder and the repository it is in.
    pub(super) fn of(file: &SourceFile) -> Includes {
        let dir = match file.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let root = sqsguard_source::repository::repository_of(&dir);
        Includes { place: Some((dir, root)), len: file.size(), ..Includes::default() }
    }

    /// Where the spans of included files start: values from there keep
    /// their place wherever they are used.
    pub(super) fn first_offset(&self) -> usize {
        if self.place.is_some() { self.len + 1 } else { usize::MAX }
    }

    /// The tree of the file at `written` (as the expression writes it), and
    /// its canonical path; why not when it cannot be read.
    fn tree(&mut self, written: &str) -> Result<(PathBuf, Node), String> {
        let Some((dir, root)) = &self.place else { return Err("the service is not a file on disk".into()) };
        let path = sqsguard_source::lexical(&dir.join(written));
        let shown = sqsguard_source::display_path(&path);
        let inside = sqsguard_source::repository::inside(&path, root)
            .map_err(|why| why.trim_end_matches(": it is not read").to_string())?;
        let canonical = inside.canonicalize().map_err(|_| format!("{shown} was not found"))?;
        if let Some(known) = self.trees.get(&canonical) {
            return known.clone().map(|tree| (canonical, tree));
        }
        let tree = self.read(&path, &shown);
        self.trees.insert(canonical.clone(), tree.clone());
        tree.map(|tree| (canonical, tree))
    }

    fn read(&mut self, path: &Path, shown: &str) -> Result<Node, String> {
        let is = |ext: &[&str]| path.extension().is_some_and(|e| ext.iter().any(|x| e.eq_ignore_ascii_case(x)));
        if is(&["js", "cjs", "mjs", "ts"]) {
            return Err(format!("{shown} is code, whose value only running it can tell"));
        }
        if self.included.len() >= MAX_FILES {
            return Err(format!("the service already includes {MAX_FILES} files"));
        }
        let text = sqsguard_source::read_named(path).map_err(|e| format!("{shown} cannot be read: {e}"))?;
        let source = SourceFile::new(path.to_path_buf(), text);
        let parsed = if sqsguard_syntax::is_json(&source.path, &source.text) {
            sqsguard_syntax::json::parse(&source)
        } else {
            sqsguard_syntax::yaml::parse(&source)
        };
        let tree = parsed.map_err(|e| {
            let at = source.position(e.span.start);
            format!("{shown} does not parse (line {}: {})", at.line, e.message)
        })?;
        let offset = SourceFile::next_offset(self.len, &self.included);
        self.included.push((offset, source));
        Ok(shifted(tree, offset))
    }
}

/// `node` with every span moved by `offset`.
fn shifted(node: Node, offset: usize) -> Node {
    let span = Span::new(node.span.start + offset, node.span.end + offset);
    let kind = match node.kind {
        Kind::Seq(items) => Kind::Seq(items.into_iter().map(|i| shifted(i, offset)).collect()),
        Kind::Map(entries) => Kind::Map(
            entries
                .into_iter()
                .map(|e| Entry {
                    key: e.key,
                    key_span: Span::new(e.key_span.start + offset, e.key_span.end + offset),
                    value: shifted(e.value, offset),
                })
                .collect(),
        ),
        other => other,
    };
    Node::new(kind, span)
}

impl Resolver<'_> {
    /// The value of `file(PATH)` or `file(PATH):KEY` (`rest` is what follows
    /// `file(`), with its variables resolved; `None`, and a note unless a
    /// default stands in, when it is not known.
    pub(super) fn file(&mut self, rest: &str, span: Span, has_default: bool) -> Option<Node> {
        let (written, address) = match rest.split_once(')') {
            Some((path, after)) => (path.trim().trim_matches(['\'', '"']), after.trim().strip_prefix(':')),
            None => return None,
        };
        let address = address.map(str::trim).filter(|a| !a.is_empty());
        let expression = match address {
            Some(a) => format!("${{file({written}):{a}}}"),
            None => format!("${{file({written})}}"),
        };
        self.includes.uses += 1;
        let found = if self.includes.uses > MAX_USES {
            Err(format!("the service already takes {MAX_USES} values from files"))
        } else {
            self.includes.tree(written)
        };
        let found = found.and_then(|(canonical, tree)| {
            if self.includes.reading.contains(&canonical) {
                self.cycles += 1;
                return Err(format!("{written} includes itself (a cycle)"));
            }
            let mut node = &tree;
            for key in address.unwrap_or_default().split('.').filter(|k| !k.is_empty()) {
                node = match &node.kind {
                    Kind::Map(_) => node.get(key),
                    Kind::Seq(items) => key.parse::<usize>().ok().and_then(|i| items.get(i)),
                    _ => None,
                }
                .ok_or_else(|| format!("{written} has no {}", address.unwrap_or_default()))?;
            }
            Ok((canonical, node.clone()))
        });
        match found {
            Ok((canonical, node)) => {
                self.includes.reading.push(canonical);
                let value = self.node(&node);
                self.includes.reading.pop();
                Some(value)
            }
            Err(why) => {
                if !has_default {
                    let note = format!("`{expression}` was not read: {why}, so what it gives is unknown");
                    self.includes.notes.push((span, note));
                }
                None
            }
        }
    }
}
