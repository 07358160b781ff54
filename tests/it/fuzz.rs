//! Mutation smoke-fuzzing of the parsers and the whole lint pipeline:
//! every corpus template, mangled many ways (YAML/JSON punctuation
//! inserted, slices deleted or duplicated, truncation), must lint or give
//! SQS000 — never panic. Deterministic (fixed seeds), so a failure
//! reproduces; the seed is in the message.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use crate::common::rng;
use rng::Rng;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use sqsguard::source::SourceFile;

const PIECES: &[&str] = &[
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    "-",
    "!",
    "&a",
    "*a",
    "|",
    ">",
    "'",
    "\"",
    "#",
    "%",
    "@",
    "\n",
    "\t",
    " ",
    "!Ref",
    "!GetAtt",
    "!If [",
    "Fn::If",
    "${",
    "}",
    "\\u0000",
    "é",
    "𝄞",
    "<<: *a",
    "---\n",
    "...\n",
    "? ",
    "!!binary",
    "9999999999999999999999",
    "-0x1F",
    ".inf",
];

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1).min(chars.len());
        match rng.below(5) {
            0 | 1 => {
                let piece = PIECES[rng.below(PIECES.len())];
                chars.splice(at..at, piece.chars());
            }
            2 => {
                let end = (at + rng.below(40)).min(chars.len());
                chars.drain(at..end);
            }
            3 => {
                let end = (at + rng.below(80)).min(chars.len());
                let slice: Vec<char> = chars[at..end].to_vec();
                chars.splice(at..at, slice);
            }
            _ => chars.truncate(at),
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mangled_templates_never_panic() {
    let corpus = common::corpus();
    let mut files: Vec<_> = walk(&corpus);
    files.extend(walk(&common::root().join("examples")));
    files.sort();
    assert!(files.len() > 100, "corpus not found at {}", corpus.display());
    let mut rng = Rng(0x5eed_cafe_f00d_d00d);
    let mut runs = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for round in 0..12 {
            let seed = rng.0;
            let mangled = mutate(&text, &mut rng);
            let file = SourceFile::new(path.clone(), mangled);
            let result = catch_unwind(AssertUnwindSafe(|| lint_text(&file)));
            assert!(result.is_ok(), "panic on {} mutation round {round} (rng state {seed:#x})", path.display());
            runs += 1;
        }
    }
    assert!(runs > 2000, "only {runs} mangled templates were linted");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|e| e == "yaml" || e == "yml" || e == "json") {
            out.push(p);
        }
    }
    out
}

/// What `lint` does with one file's text: its front-end, then the rules.
fn lint_text(file: &sqsguard::source::Source) -> Vec<sqsguard::finding::Finding> {
    match sqsguard::frontend::document(file, &Default::default()) {
        sqsguard::frontend::Document::Loaded(loaded) => sqsguard::check::check(*loaded, &Default::default()).findings,
        _ => Vec::new(),
    }
}
