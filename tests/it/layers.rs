//! The architecture, enforced. The compiler holds each layer to the crates
//! below it (a crate cannot name one it does not depend on, and cargo
//! refuses a cycle); this holds the order itself, so that no crate takes a
//! dependency on a sibling or a higher layer that would still compile: the
//! layers are the list in `src/lib.rs`, and each crate of `crates/` depends
//! only on crates listed before it. Each Rust file is under 400 lines or
//! says why.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;

/// The workspace's crates by layer, lowest first, as `src/lib.rs` lists
/// them. A crate may depend only on crates of strictly lower layers.
const LAYERS: &[&str] = &[
    "sqsguard-source",
    "sqsguard-syntax",
    "sqsguard-model",
    "sqsguard-edit",
    "sqsguard-finding",
    "sqsguard-frontend",
    "sqsguard-code",
    "sqsguard-cdk",
    "sqsguard-rules",
    "sqsguard-lint",
    "sqsguard-generate",
    "sqsguard-audit",
    "sqsguard-report",
    "sqsguard-server",
    "sqsguard",
];

/// The workspace crates a manifest depends on (`sqsguard-x.workspace =
/// true` or `sqsguard-x = { ... }`), normal, build and dev dependencies
/// alike; not the root's `[workspace.dependencies]`, which declares them
/// all for the members.
fn workspace_dependencies(manifest: &str) -> Vec<String> {
    let mut deps = Vec::new();
    let mut in_dependencies = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            let header = line.trim_matches(|c| c == '[' || c == ']');
            in_dependencies = header.ends_with("dependencies") && !header.starts_with("workspace.");
            continue;
        }
        if !in_dependencies {
            continue;
        }
        let name = line.split(['.', '=', ' ']).next().unwrap_or("");
        if name.starts_with("sqsguard-") {
            deps.push(name.to_string());
        }
    }
    deps
}

#[test]
fn every_crate_depends_only_on_lower_layers() {
    let root = common::root();
    let mut manifests = vec![("sqsguard".to_string(), root.join("Cargo.toml"))];
    for entry in std::fs::read_dir(root.join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let name = format!("sqsguard-{}", dir.file_name().unwrap().to_string_lossy());
        manifests.push((name, dir.join("Cargo.toml")));
    }
    let mut wrong = Vec::new();
    for (name, manifest) in &manifests {
        let Some(layer) = LAYERS.iter().position(|l| l == name) else {
            wrong.push(format!("{name} is in no layer: add it to LAYERS and to src/lib.rs"));
            continue;
        };
        let text = std::fs::read_to_string(manifest).unwrap();
        for dep in workspace_dependencies(&text) {
            match LAYERS.iter().position(|l| *l == dep) {
                Some(at) if at < layer => {}
                _ => wrong.push(format!("{name} depends on {dep}, which is not below it")),
            }
        }
    }
    assert_eq!(manifests.len(), LAYERS.len(), "a crate of LAYERS has no folder under crates/");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_manifest_reader_finds_each_kind_of_dependency() {
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nserde.workspace = true\nsqsguard-model.workspace = true\n\
                    sqsguard-edit = { workspace = true, optional = true }\n\n[dev-dependencies]\nsqsguard-rules.workspace = true\n\n\
                    [target.'cfg(unix)'.dependencies]\nsqsguard-source.workspace = true\n\n[workspace.dependencies]\nsqsguard-all = { path = \"crates/all\" }\n";
    assert_eq!(
        workspace_dependencies(manifest),
        ["sqsguard-model", "sqsguard-edit", "sqsguard-rules", "sqsguard-source"]
    );
}

/// Code and docs name only what the repository holds: no comment or page
/// sends a reader to a contract file that lives outside it.
#[test]
fn nothing_cites_a_file_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut stack: Vec<std::path::PathBuf> =
        ["src", "crates", "tests", "docs", "rules", "benches", "editors", "schemas"]
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
    let this = root.join("tests/it/layers.rs");
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

/// The longest a Rust file may be without saying why.
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

/// Each Rust file of the workspace is under 400 lines, so it can be read
/// whole; one that must be longer says why in its first `//!` lines ("over
/// 400 lines because ...").
#[test]
fn every_file_is_under_400_lines_or_says_why() {
    let root = common::root();
    let mut long = Vec::new();
    let mut stack = vec![root.join("src"), root.join("crates")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let lines = text.lines().count();
                if lines >= MAX_LINES && !says_why_it_is_long(&text) {
                    let rel = path.strip_prefix(root).unwrap().display();
                    long.push(format!("{rel} is {lines} lines: split it, or say why in its //! doc"));
                }
            }
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
