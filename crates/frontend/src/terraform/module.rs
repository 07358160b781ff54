//! Loading a module: its `.tf` files, then its module calls, recursively.
//! Local modules (`source = "./modules/queue"`) are read from disk with
//! their arguments bound to their variables; known registry modules are
//! modelled from their documented inputs (`registry`); any other source is
//! skipped.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::eval::{Child, File, Scope, labels};
use super::{module_files, read_files, registry};
use crate::loaded::Broken;
use crate::value::R;
use sqsguard_finding::Note;
use sqsguard_model::{ModuleSource, Origin};
use sqsguard_source::{Overlay, Span};

/// Nested module calls followed at most this deep (cycles are cut too).
const MAX_MODULE_DEPTH: usize = 8;

/// Arguments of a module block that are not inputs.
const META: &[&str] = &["source", "version", "count", "for_each", "providers", "depends_on"];

/// What loading a module tree gives.
pub(crate) struct Tree {
    pub scope: Scope,
    /// The distinct `.tf` files read (in this module and the local modules
    /// it calls), by the first path each was reached by, in reading order.
    pub paths: Vec<PathBuf>,
    /// Files that could not be read or parsed.
    pub broken: Vec<Broken>,
    /// The local module folders it called (canonical paths).
    pub called: Vec<PathBuf>,
    /// Module calls that were not analysed, and why.
    pub notes: Vec<Note>,
}

/// Load the module in `dir` with `inputs` bound to its variables.
pub(crate) fn load(dir: &Path, prefix: String, inputs: HashMap<String, R>, overlay: &Overlay) -> Tree {
    let mut files = std::collections::HashSet::new();
    let mut paths = Vec::new();
    let mut broken = Vec::new();
    let mut called = Vec::new();
    let mut notes = Vec::new();
    let mut stack = Vec::new();
    let mut walk = Walk {
        stack: &mut stack,
        files: &mut files,
        paths: &mut paths,
        broken: &mut broken,
        called: &mut called,
        notes: &mut notes,
        overlay,
    };
    let scope = load_at(dir, prefix, inputs, &mut walk);
    Tree { scope, paths, broken, called, notes }
}

/// What the recursive load carries along.
struct Walk<'a> {
    stack: &'a mut Vec<PathBuf>,
    files: &'a mut std::collections::HashSet<PathBuf>,
    paths: &'a mut Vec<PathBuf>,
    broken: &'a mut Vec<Broken>,
    called: &'a mut Vec<PathBuf>,
    notes: &'a mut Vec<Note>,
    overlay: &'a Overlay,
}

/// The module's files in `dir`, with the unsaved texts that stand for
/// files of it; none, with a note, when the folder cannot be listed.
fn module_paths(dir: &Path, walk: &mut Walk<'_>) -> Vec<PathBuf> {
    // A text that stands in for a file not on disk (a new file of an
    // editor, a document read from standard input) is one of the module's.
    let unsaved = walk.overlay.files_in(dir, |p| p.extension().is_some_and(|e| e == "tf") || super::is_tf_json(p));
    match module_files(dir) {
        Ok(mut paths) => {
            paths.extend(unsaved.into_iter().filter(|p| !p.exists()));
            paths.sort();
            paths
        }
        Err(_) if !unsaved.is_empty() => unsaved,
        Err(e) => {
            walk.notes.push(Note {
                origin: Origin::path(dir),
                message: format!(
                    "the Terraform module in {} was not linted: its folder cannot be listed ({e})",
                    dir.display()
                ),
            });
            Vec::new()
        }
    }
}

/// The module blocks of the scope's files: (file, name, source, block).
fn module_calls(scope: &Scope) -> Vec<(usize, String, String, Span)> {
    scope
        .files
        .iter()
        .enumerate()
        .flat_map(|(fi, f)| {
            f.body.blocks().filter(|b| b.ident.as_str() == "module").filter_map(move |b| {
                let [name] = labels(b).try_into().ok()?;
                let source = b.body.get_attribute("source")?.value.as_str()?.to_string();
                Some((fi, name, source, f.span(b, Span::default())))
            })
        })
        .collect()
}

/// Why a local module call is not followed: its folder is missing, it
/// is already being read (a cycle), or the calls are too deep.
fn not_followed(child_dir: &Path, canonical: &Path, stack: &[PathBuf]) -> Option<String> {
    if !child_dir.is_dir() {
        Some(format!("its source folder {} does not exist", normalize(child_dir).display()))
    } else if stack.iter().any(|p| p == canonical) {
        Some("it calls a module that is already being read (a cycle)".to_string())
    } else if stack.len() >= MAX_MODULE_DEPTH {
        Some(format!("modules are followed at most {MAX_MODULE_DEPTH} calls deep"))
    } else {
        None
    }
}

fn load_at(dir: &Path, prefix: String, inputs: HashMap<String, R>, walk: &mut Walk<'_>) -> Scope {
    let paths = module_paths(dir, walk);
    let (files, broken) = read_files(&paths, walk.overlay);
    let mut first_visit = false;
    for p in &paths {
        if walk.files.insert(p.canonicalize().unwrap_or_else(|_| p.clone())) {
            walk.paths.push(p.clone());
            first_visit = true;
        }
    }
    // A module called several times is read each time; its broken files
    // are reported once.
    if first_visit {
        walk.broken.extend(broken);
    }
    let scope = Scope::new(files, prefix, inputs);
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    walk.stack.push(canonical);

    let calls = module_calls(&scope);
    for (fi, name, source, block_span) in dependency_order(calls, &scope) {
        let Some(block) =
            scope.files[fi].body.blocks().find(|b| b.ident.as_str() == "module" && labels(b).first() == Some(&name))
        else {
            continue;
        };
        let args: HashMap<String, R> = block
            .body
            .attributes()
            .filter(|a| !META.contains(&a.key.as_str()))
            .map(|a| {
                let value = scope.for_instances_of(&block.body, fi, |s| s.eval_written(&a.value, fi));
                (a.key.as_str().to_string(), value)
            })
            .collect();
        let child_prefix = format!("{}module.{name}.", scope.prefix);
        let parsed = ModuleSource::parse(&source);
        let child = if let ModuleSource::Local(_) = parsed {
            let child_dir = dir.join(&source);
            let canonical = child_dir.canonicalize().unwrap_or_else(|_| child_dir.clone());
            let skipped = not_followed(&child_dir, &canonical, walk.stack);
            if let Some(why) = skipped {
                if first_visit {
                    walk.notes.push(Note {
                        origin: Origin::file(&scope.files[fi].source, header_span(&scope.files[fi], block, block_span)),
                        message: format!("module.{name} (source \"{source}\") was not analysed: {why}"),
                    });
                }
                continue;
            }
            walk.called.push(canonical);
            let child_scope = load_at(&normalize(&child_dir), child_prefix, args, walk);
            Child::Local { name, scope: Box::new(child_scope) }
        } else {
            let header = header_span(&scope.files[fi], block, block_span);
            match registry::model(&parsed, &child_prefix, &args, &scope.files[fi].source, header) {
                Some((resources, outputs, notes)) => {
                    if first_visit {
                        walk.notes.extend(notes);
                    }
                    Child::Registry { name, resources, outputs }
                }
                None => {
                    if first_visit {
                        walk.notes.push(Note {
                            origin: Origin::file(&scope.files[fi].source, header),
                            message: format!(
                                "module.{name} (source \"{source}\") was not analysed: sqsguard reads local modules and models terraform-aws-modules/sqs/aws and terraform-aws-modules/lambda/aws"
                            ),
                        });
                    }
                    continue;
                }
            }
        };
        scope.children.borrow_mut().push(child);
    }
    walk.stack.pop();
    scope
}

/// Module calls ordered so that a call whose arguments use another call's
/// outputs (`module.dlq.queue_arn`) comes after it; cycles keep file order.
fn dependency_order(calls: Vec<(usize, String, String, Span)>, scope: &Scope) -> Vec<(usize, String, String, Span)> {
    let text = |c: &(usize, String, String, Span)| {
        scope.files[c.0].source.text.get(c.3.start..c.3.end).unwrap_or_default().to_string()
    };
    let deps: Vec<Vec<usize>> = calls
        .iter()
        .map(|c| {
            let body = text(c);
            calls
                .iter()
                .enumerate()
                .filter(|(_, other)| other.1 != c.1 && body.contains(&format!("module.{}.", other.1)))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    let mut order = Vec::with_capacity(calls.len());
    let mut state = vec![0u8; calls.len()]; // 0 new, 1 visiting, 2 done
    fn visit(i: usize, deps: &[Vec<usize>], state: &mut [u8], order: &mut Vec<usize>) {
        if state[i] != 0 {
            return;
        }
        state[i] = 1;
        for &d in &deps[i] {
            visit(d, deps, state, order);
        }
        state[i] = 2;
        order.push(i);
    }
    for i in 0..calls.len() {
        visit(i, &deps, &mut state, &mut order);
    }
    let mut calls: Vec<Option<_>> = calls.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| calls[i].take()).collect()
}

/// `module "name"`: where findings about a module's absent inputs point.
fn header_span(file: &File, block: &hcl_edit::structure::Block, whole: Span) -> Span {
    let end = block.labels.last().map_or(whole.end, |l| file.span(l, whole).end);
    Span::new(whole.start, end.max(whole.start))
}

/// `a/./b/../c` -> `a/c`, so paths in findings read as a person would write them.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.file_name().is_some_and(|n| n != "..") => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
