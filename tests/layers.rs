//! The architecture, enforced: each top-level module of `src/` imports only
//! from modules of lower layers (lib.rs explains them), so there is no
//! import cycle and a newcomer can read the code bottom-up. Inside a
//! module, files do not import each other in a circle (see `file_graph`
//! for what counts), and each file is under 400 lines or says why.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Top-level modules by layer, lowest first. A module may use only modules
/// of strictly lower layers.
const LAYERS: &[&[&str]] = &[
    &["source"],
    &["syntax"],
    &["model"],
    &["finding"],
    &["error"],
    &["frontend"],
    &["rules"],
    &["config"],
    &["check"],
    &["outcome", "fingerprint", "discover", "owners", "graph"],
    &["baseline"],
    &["session"],
    &["lint", "audit", "generate"],
    &["drift"],
    &["fix"],
    &["report"],
    &["server"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// The text of Rust code with comments and string and char literals blanked,
/// so that only code can name a module.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#')) && (i == 0 || !is_ident(b[i - 1])) => {
                // A raw string: r"..." or r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                i = text[j + 1..].find(&close).map_or(b.len(), |k| j + 1 + k + close.len());
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') || (b.get(i + 1) == Some(&b'\\')) => {
                // A char literal ('x', '\n', '\''); lifetimes have no closing quote.
                let end = text[i + 1..].find('\'').map_or(b.len(), |k| i + 1 + k);
                let end = if b.get(i + 1) == Some(&b'\\') && b.get(i + 2) == Some(&b'\'') { end + 1 } else { end };
                i = end + 1;
                out.push_str("' '");
            }
            c => {
                out.push(c as char);
                i += 1;
            }
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The top-level modules a piece of code names through `crate::`,
/// `crate::{a, b::c}` groups included.
fn crate_uses(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `mycrate::`
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            let mut first = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => {
                        first = true;
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
                if depth == 1 && first {
                    if is_ident(c as u8) {
                        item.push(c);
                    } else if !item.is_empty() {
                        out.insert(std::mem::take(&mut item));
                        first = false;
                    }
                }
            }
            if !item.is_empty() {
                out.insert(item);
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Module -> the modules it uses, over every file of `src/`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = common::root().join("src");
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap();
            let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
            let module = first.trim_end_matches(".rs").to_string();
            if module == "lib" || module == "main" {
                continue;
            }
            let code = code_only(&std::fs::read_to_string(&path).unwrap());
            let uses = graph.entry(module.clone()).or_default();
            uses.extend(crate_uses(&code).into_iter().filter(|u| *u != module));
        }
    }
    graph
}

#[test]
fn every_module_imports_only_from_lower_layers() {
    let graph = graph();
    let mut wrong = Vec::new();
    for (module, uses) in &graph {
        let Some(mine) = layer_of(module) else {
            wrong.push(format!("src/{module} is in no layer: add it to LAYERS here and to lib.rs"));
            continue;
        };
        for used in uses {
            match layer_of(used) {
                Some(theirs) if theirs < mine => {}
                Some(_) => wrong.push(format!("{module} (layer {mine}) uses {used}, which is not below it")),
                None => wrong.push(format!("{module} uses {used}, which is in no layer")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for layer in LAYERS {
        for module in *layer {
            let known = graph.contains_key(*module) || Path::new(&common::root().join("src").join(module)).exists();
            assert!(known, "LAYERS names {module}, which src/ does not have");
        }
    }
}

#[test]
fn there_is_no_import_cycle() {
    // Implied by the layers, and checked on its own so the message names the cycle.
    let graph = graph();
    fn visit<'a>(
        m: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| *p == m) {
            return Some(path[i..].iter().map(|s| s.to_string()).chain([m.to_string()]).collect());
        }
        if !done.insert(m) {
            return None;
        }
        path.push(m);
        for next in graph.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        let cycle = visit(m, &graph, &mut Vec::new(), &mut done);
        assert!(cycle.is_none(), "import cycle: {}", cycle.unwrap_or_default().join(" -> "));
    }
}

#[test]
fn the_scanner_reads_code_not_comments_or_strings() {
    let code = code_only(
        "use crate::{model::{Field, Value}, source};\n// crate::cli\n/* crate::report */\nlet s = \"crate::lint\";\nlet c = '\"';\nfn f<'a>() { crate::rules::check(); r#\"crate::audit\"#; }\n",
    );
    let uses: Vec<String> = crate_uses(&code).into_iter().collect();
    assert_eq!(uses, ["model", "rules", "source"]);
}

/// Code and docs name only what the repository holds: no comment or page
/// sends a reader to a contract file that lives outside it.
#[test]
fn nothing_cites_a_file_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut stack: Vec<std::path::PathBuf> = ["src", "tests", "docs", "rules", "benches", "editors", "schemas"]
        .iter()
        .map(|d| root.join(d))
        .filter(|d| d.is_dir())
        .collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() && !["fixtures", "corpus", "node_modules", "snapshots"].contains(&name.as_str()) {
                stack.push(path);
            } else if [".rs", ".md", ".sh", ".json", ".yaml"].iter().any(|e| name.ends_with(e)) {
                files.push(path);
            }
        }
    }
    files.push(root.join("README.md"));
    let this = root.join("tests/layers.rs");
    let mut citing = Vec::new();
    for file in files.iter().filter(|f| **f != this) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            if ["RULES.md", "CLI.md"].iter().any(|c| line.contains(c)) {
                citing.push(format!("{}:{}: {}", file.strip_prefix(root).unwrap().display(), n + 1, line.trim()));
            }
        }
    }
    assert!(citing.is_empty(), "cites a file outside the repository:\n{}", citing.join("\n"));
}

/// A file of `src/` and what its code says about modules.
struct FileModule {
    /// `frontend/cfn/resolve.rs`.
    rel: String,
    /// The module path it holds: `src/a/b.rs` and `src/a/b/mod.rs` hold `a::b`.
    path: Vec<String>,
    code: String,
}

/// Every file of `src/` but lib.rs and main.rs, which hold the crate root.
fn file_modules() -> Vec<FileModule> {
    let src = common::root().join("src");
    let mut out = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
            let mut module: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            if module == ["lib"] || module == ["main"] {
                continue;
            }
            let code = code_only(&std::fs::read_to_string(&path).unwrap());
            out.push(FileModule { rel, path: module, code });
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    out
}

/// The modules a file declares as files of their own: `mod x;`.
fn declared_children(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("mod") {
        if at > 0 && is_ident(code.as_bytes()[at - 1]) {
            continue;
        }
        let rest = &code[at + 3..];
        if !rest.starts_with(char::is_whitespace) {
            continue;
        }
        let rest = rest.trim_start();
        let name: String = rest.chars().take_while(|c| is_ident(*c as u8)).collect();
        if !name.is_empty() && rest[name.len()..].trim_start().starts_with(';') {
            out.insert(name);
        }
    }
    out
}

/// The paths a path tree starting at `text` names, each as its segments:
/// `a::b::{c, d::e}` gives `a::b::c` and `a::b::d::e`, and `a::{self}` gives `a`.
fn path_tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let b = text.as_bytes();
    let skip_ws = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut i = skip_ws(0);
    let mut prefix = Vec::new();
    loop {
        if b.get(i) == Some(&b'{') {
            let mut out = Vec::new();
            i += 1;
            loop {
                i = skip_ws(i);
                match b.get(i) {
                    None => return (out, i),
                    Some(b'}') => return (out, i + 1),
                    Some(b',') => i += 1,
                    _ => {
                        let (inner, used) = path_tree(&text[i..]);
                        if used == 0 {
                            return (out, i); // not a path tree after all
                        }
                        for path in inner {
                            let path = if path == ["self"] { vec![] } else { path };
                            out.push(prefix.iter().cloned().chain(path).collect());
                        }
                        i += used;
                    }
                }
            }
        }
        if b.get(i) == Some(&b'*') {
            return (vec![prefix], i + 1);
        }
        let start = i;
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        if i == start {
            return (if prefix.is_empty() { vec![] } else { vec![prefix] }, start);
        }
        prefix.push(text[start..i].to_string());
        let after = skip_ws(i);
        if text[after..].starts_with("::") {
            let next = skip_ws(after + 2);
            if matches!(b.get(next), Some(c) if is_ident(*c) || *c == b'{' || *c == b'*') {
                i = next;
                continue;
            }
        }
        return (vec![prefix], i);
    }
}

/// The module paths a file's code names, each made absolute: through
/// `crate::`, `super::` and `self::` (from the inline module they are
/// written in, so `use super::*` in a file's `mod tests` names the file
/// itself), and through the bare name of a child module the file declares.
fn named_paths(file: &FileModule) -> Vec<Vec<String>> {
    let code = &file.code;
    let b = code.as_bytes();
    let children = declared_children(code);
    let mut out = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new(); // inline `mod x {` and the depth it opened at
    let mut depth = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                depth += 1;
                i += 1;
                continue;
            }
            b'}' => {
                depth -= 1;
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                i += 1;
                continue;
            }
            c if is_ident(c) && (i == 0 || !is_ident(b[i - 1])) => {}
            _ => {
                i += 1;
                continue;
            }
        }
        let word_end = i + code[i..].bytes().take_while(|c| is_ident(*c)).count();
        let word = &code[i..word_end];
        let after_colons = i >= 2 && &code[i - 2..i] == "::";
        if word == "mod" {
            let rest = code[word_end..].trim_start();
            let name: String = rest.chars().take_while(|c| is_ident(*c as u8)).collect();
            if !name.is_empty() && rest[name.len()..].trim_start().starts_with('{') {
                inline.push((name, depth));
            }
            i = word_end;
            continue;
        }
        let starts_path = code[word_end..].trim_start().starts_with("::");
        let before = code[..i].trim_end();
        let prev = before.as_bytes().last().copied();
        // `pub(in crate::a)` says who may see an item, it imports nothing.
        let visibility = before.strip_suffix("in").is_some_and(|b| b.trim_end().ends_with('('));
        if after_colons || !starts_path || visibility || matches!(prev, Some(b'.' | b'$')) && word != "crate" {
            i = word_end;
            continue;
        }
        let here: Vec<String> = file.path.iter().cloned().chain(inline.iter().map(|(n, _)| n.clone())).collect();
        let (paths, used) = path_tree(&code[i..]);
        for path in paths {
            let mut segments = path.into_iter().peekable();
            let mut absolute = match segments.peek().map(String::as_str) {
                Some("crate") => {
                    segments.next();
                    vec![]
                }
                Some("self") => {
                    segments.next();
                    here.clone()
                }
                Some("super") => {
                    let mut base = here.clone();
                    while segments.peek().is_some_and(|s| s == "super") {
                        segments.next();
                        base.pop();
                    }
                    base
                }
                Some(name) if children.contains(name) => file.path.clone(),
                _ => continue,
            };
            absolute.extend(segments);
            out.push(absolute);
        }
        i += used.max(word.len());
    }
    out
}

/// Whether `parent` is the `mod.rs` of a folder that holds `child`, at
/// any depth (`a/mod.rs` holds `a/b.rs`, `a/b/mod.rs` and `a/b/c.rs`).
fn is_ancestor_of(parent: &str, child: &str) -> bool {
    parent.strip_suffix("mod.rs").is_some_and(|folder| child.starts_with(folder) && child != parent)
}

/// File -> the files of the same top-level module it imports. A path names
/// the file holding the longest module prefix of it: `super::context::Ctx`
/// from `frontend/cfn/queue.rs` names `frontend/cfn/context.rs`, and
/// `super::Loaded` names `frontend/mod.rs`. Declaring `mod child;` is not
/// an import, and neither, here, is a `mod.rs` using what is below it
/// (`child::Y`, `terraform::plan::load`): a parent dispatching to its
/// children is what it is for, and almost every `mod.rs` does it while its
/// children use what it defines (`super::Loaded`). So the circles counted
/// are between siblings, and between files of different folders, a child
/// using its parent included: `a/x.rs -> a/mod.rs -> b/y.rs -> a/x.rs` is
/// one, `a/x.rs -> a/mod.rs -> a/x.rs` is not. A
/// method is not an import either: `impl Scope` in `each.rs`, called from
/// `eval/mod.rs`, is not seen (that needs types, not paths).
fn file_graph() -> BTreeMap<String, BTreeSet<String>> {
    file_graph_of(&file_modules())
}

/// [`file_graph`] of these files.
fn file_graph_of(files: &[FileModule]) -> BTreeMap<String, BTreeSet<String>> {
    let by_path: BTreeMap<&[String], &str> = files.iter().map(|f| (f.path.as_slice(), f.rel.as_str())).collect();
    let mut graph = BTreeMap::new();
    for file in files {
        let mut uses = BTreeSet::new();
        for path in named_paths(file) {
            if path.first() != file.path.first() {
                continue; // another top-level module: the layers decide
            }
            let target = (1..=path.len()).rev().find_map(|n| by_path.get(&path[..n]));
            if let Some(target) = target.filter(|t| **t != file.rel && !is_ancestor_of(&file.rel, t)) {
                uses.insert(target.to_string());
            }
        }
        graph.insert(file.rel.clone(), uses);
    }
    graph
}

/// The groups of files that import each other, each with one circle
/// through it spelled out: `a.rs -> b.rs -> a.rs`.
fn file_circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(f) = stack.pop() {
            for next in graph.get(&f).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = graph.keys().map(|f| (f, reach(f))).collect();
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for file in graph.keys() {
        if placed.contains(file) || !reaches[file].contains(file) {
            continue;
        }
        let group: BTreeSet<&String> =
            graph.keys().filter(|g| reaches[file].contains(*g) && reaches[*g].contains(file)).collect();
        placed.extend(group.iter().map(|g| g.to_string()));
        // One circle: the shortest way back to `file`, breadth first.
        let mut back: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([file]);
        'search: while let Some(f) = queue.pop_front() {
            for next in graph.get(f).into_iter().flatten() {
                if next == file {
                    back.insert(file, f);
                    break 'search;
                }
                if group.contains(next) && !back.contains_key(next) {
                    back.insert(next, f);
                    queue.push_back(next);
                }
            }
        }
        let mut circle = vec![file.as_str()];
        let mut at = back[file];
        while at != file {
            circle.push(at);
            at = back[at];
        }
        circle.push(file);
        circle.reverse();
        let names: Vec<&str> = group.iter().map(|g| g.as_str()).collect();
        out.push(format!("{} (group: {})", circle.join(" -> "), names.join(", ")));
    }
    out
}

#[test]
fn files_do_not_import_each_other_in_a_circle() {
    let graph = file_graph();
    let circles = file_circles(&graph);
    assert!(circles.is_empty(), "files import each other:\n{}", circles.join("\n"));
}

/// The front-ends' dispatcher (`frontend/mod.rs`: which front-end reads
/// which file) is used by no front-end: what they share is in files of
/// its own (`loaded.rs`, `fields.rs`, ...), so the parent-uses-children
/// allowance above is not what keeps `frontend/` free of circles.
#[test]
fn no_front_end_imports_the_front_end_dispatcher() {
    let files = file_modules();
    let by_path: BTreeMap<&[String], &str> = files.iter().map(|f| (f.path.as_slice(), f.rel.as_str())).collect();
    let mut users = Vec::new();
    for file in files.iter().filter(|f| f.rel.starts_with("frontend/") && f.rel != "frontend/mod.rs") {
        for path in named_paths(file) {
            let target = (1..=path.len()).rev().find_map(|n| by_path.get(&path[..n]));
            if target == Some(&"frontend/mod.rs") {
                users.push(format!("{} uses {}", file.rel, path.join("::")));
            }
        }
    }
    assert!(users.is_empty(), "front-ends import the dispatcher:\n{}", users.join("\n"));
}

fn file_module(rel: &str, code: &str) -> FileModule {
    let mut path: Vec<String> = rel.trim_end_matches(".rs").split('/').map(str::to_string).collect();
    if path.last().is_some_and(|m| m == "mod") {
        path.pop();
    }
    FileModule { rel: rel.to_string(), path, code: code_only(code) }
}

#[test]
fn the_file_scanner_resolves_paths_as_rust_does() {
    let file = file_module(
        "a/b.rs",
        "mod kid;\nuse super::c::X;\nuse crate::a::{d::Y, e, f::{self, G}};\nuse self::kid::Z;\n\
         fn f(x: T) { kid::run(); super::super::top::T::new(); x.kid::<u8>(); }\n\
         pub(in crate::a) struct S;\n// super::comment\nlet s = \"crate::a::string\";\n\
         #[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::h;\n}\n",
    );
    let named: Vec<String> = named_paths(&file).iter().map(|p| p.join("::")).collect();
    assert_eq!(
        named,
        [
            "a::c::X",
            "a::d::Y",
            "a::e",
            "a::f",
            "a::f::G",
            "a::b::kid::Z",
            "a::b::kid::run",
            "top::T::new",
            "a::b",
            "a::h",
        ]
    );
}

#[test]
fn a_circle_is_named_and_a_parent_using_its_children_is_not_one() {
    let files = [
        // The parent uses its children and its grandchild; they use it.
        file_module("a/mod.rs", "mod x; mod y; mod deep; pub struct P; fn f() { x::go(); deep::more::go(); }"),
        file_module("a/deep/mod.rs", "pub mod more;"),
        file_module("a/deep/more.rs", "use crate::a::P;"),
        file_module("a/x.rs", "use super::P; use super::y::Q;"),
        file_module("a/y.rs", "pub struct Q;"),
        // Another top-level module: for the layers, not this graph.
        file_module("b.rs", "use crate::a::x::go;"),
    ];
    let graph = file_graph_of(&files);
    assert_eq!(graph["a/mod.rs"], BTreeSet::new());
    assert_eq!(graph["a/x.rs"], BTreeSet::from(["a/mod.rs".to_string(), "a/y.rs".to_string()]));
    assert_eq!(graph["b.rs"], BTreeSet::new());
    assert!(file_circles(&graph).is_empty(), "{:?}", file_circles(&graph));

    // Siblings that use each other; and a child using its parent, which
    // reaches it through another folder.
    let files = [
        file_module("a/mod.rs", "mod x; mod y; pub struct P;"),
        file_module("a/x.rs", "use super::y::Q; pub fn go() {}"),
        file_module("a/y.rs", "pub struct Q; fn f() { super::x::go(); }"),
        file_module("t/a/mod.rs", "mod x; pub struct P; fn f() { crate::t::b::g(); }"),
        file_module("t/a/x.rs", "use super::P; pub fn go() {}"),
        file_module("t/b.rs", "pub fn g() { super::a::x::go(); }"),
    ];
    let graph = file_graph_of(&files);
    assert_eq!(
        file_circles(&graph),
        [
            "a/x.rs -> a/y.rs -> a/x.rs (group: a/x.rs, a/y.rs)",
            "t/a/mod.rs -> t/b.rs -> t/a/x.rs -> t/a/mod.rs (group: t/a/mod.rs, t/a/x.rs, t/b.rs)",
        ]
    );
}

/// The longest a file of `src/` may be without saying why.
const MAX_LINES: usize = 400;

/// Whether the file's leading `//!` doc says why it is long: "over 400
/// lines because" and a reason.
fn says_why_it_is_long(text: &str) -> bool {
    let doc: Vec<&str> =
        text.lines().take_while(|l| l.trim_start().starts_with("//!")).map(|l| l.trim_start()[3..].trim()).collect();
    let doc = doc.join(" ");
    doc.find("over 400 lines because").is_some_and(|at| {
        doc[at + "over 400 lines because".len()..].chars().filter(|c| c.is_alphanumeric()).count() >= 3
    })
}

/// Each file of `src/` is under 400 lines, so it can be read whole; one
/// that must be longer says why in its first `//!` lines ("over 400 lines
/// because ..."). None does today.
#[test]
fn every_file_is_under_400_lines_or_says_why() {
    let mut long = Vec::new();
    let crate_root = ["lib.rs", "main.rs"].map(String::from);
    for rel in file_modules().into_iter().map(|f| f.rel).chain(crate_root) {
        let text = std::fs::read_to_string(common::root().join("src").join(&rel)).unwrap();
        let lines = text.lines().count();
        if lines >= MAX_LINES && !says_why_it_is_long(&text) {
            long.push(format!("src/{rel} is {lines} lines: split it, or say why in its //! doc"));
        }
    }
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn a_long_file_says_why_in_its_leading_doc() {
    let why = "//! The evaluator.\n//!\n//! It is over 400 lines because expressions, templates and\n//! traversals are one recursion.\n\nuse x;\n";
    assert!(says_why_it_is_long(why));
    // Across a line break of the doc.
    assert!(says_why_it_is_long("//! It is over 400\n//! lines because one recursion.\n"));
    assert!(!says_why_it_is_long("//! It is over 400 lines because\n"), "no reason given");
    assert!(
        !says_why_it_is_long("//! The evaluator.\nuse x;\n// over 400 lines because of reasons\n"),
        "not in the doc"
    );
    assert!(!says_why_it_is_long("use x;\n"));
}
