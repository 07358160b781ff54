//! The architecture, enforced: each top-level module of `src/` imports only
//! from modules of lower layers (lib.rs explains them), so there is no
//! import cycle and a newcomer can read the code bottom-up.

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
    &["outcome", "fingerprint", "discover"],
    &["baseline"],
    &["session"],
    &["lint", "audit", "generate"],
    &["fix"],
    &["report"],
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
