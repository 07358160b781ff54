//! The editor server parses a large YAML template a piece at a time
//! (crates/syntax/src/yaml/pieces.rs); the tree must be the whole parse's, spans
//! included, or the whole text must be parsed. Held to that with every
//! piece cut as small as it goes (no size threshold), on every corpus
//! template and example, every prefix of them by line (what an editor
//! holds while a template is typed), and each of them edited as a user
//! would: a value changed, a line deleted, a key repeated.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::PathBuf;
use std::sync::Arc;

use sqsguard::source::{Memo, Overlay, SourceFile};
use sqsguard::syntax::yaml::{parse, try_pieces};

fn templates() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["tests/corpus", "examples"] {
        for entry in ignore::WalkBuilder::new(common::root().join(dir)).standard_filters(false).build() {
            let path = entry.unwrap().into_path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
            if path.is_file() && ["yaml", "yml"].contains(&ext) {
                files.push(path);
            }
        }
    }
    // The CloudFormation and SAM fixtures of every rule.
    for front_end in ["cloudformation", "sam"] {
        for kind in ["bad", "good"] {
            files.extend(
                common::rule_fixtures(front_end, kind)
                    .into_iter()
                    .map(|(_, path)| path)
                    .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml")),
            );
        }
    }
    files.sort();
    files
}

/// Parse `text` in pieces through `overlay` and whole; the same tree, or
/// no pieces. Whether pieces were used.
fn agree(name: &str, text: &str, overlay: &Overlay) -> bool {
    let file = SourceFile::new(name, text.to_string());
    let Some(pieces) = try_pieces(&file, overlay, 0) else { return false };
    match parse(&file) {
        Ok(whole) => assert!(pieces == whole, "{name}: the pieces' tree differs from the whole parse's:\n{text}"),
        Err(e) => panic!("{name}: the pieces made a tree of a text the whole parse refuses ({}):\n{text}", e.message),
    }
    true
}

#[test]
fn pieces_make_the_whole_parses_tree_for_every_prefix_of_every_template() {
    let (mut texts, mut in_pieces) = (0, 0);
    for path in templates() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let name = common::relative(&path).display().to_string();
        // One memo per file, as the server keeps one: each prefix reuses
        // the pieces of the one before.
        let overlay = Overlay::default().with_memo(Arc::new(Memo::default()));
        let mut prefix = String::new();
        for line in text.split_inclusive('\n') {
            prefix.push_str(line);
            texts += 1;
            in_pieces += usize::from(agree(&name, &prefix, &overlay));
        }
    }
    eprintln!("{in_pieces} of {texts} texts made from pieces");
    assert!(texts > 10_000, "only {texts} texts");
    assert!(in_pieces * 2 > texts, "only {in_pieces} of {texts} texts were made from pieces: the test tests little");
}

#[test]
fn edits_as_a_user_makes_them_keep_the_trees_equal() {
    let overlay = Overlay::default().with_memo(Arc::new(Memo::default()));
    let mut in_pieces = 0;
    for path in templates() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let name = common::relative(&path).display().to_string();
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        // Every fourth line: each edit reparses the whole file, so every
        // line would make the test quadratic in a file's length.
        for (i, line) in lines.iter().enumerate().step_by(4) {
            let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            // A digit typed at the end of the line's text.
            edited[i] = format!(
                "{}7{}",
                line.trim_end_matches(['\n', '\r']),
                &line[line.trim_end_matches(['\n', '\r']).len()..]
            );
            in_pieces += usize::from(agree(&name, &edited.concat(), &overlay));
            // The line deleted.
            let mut deleted = lines.clone();
            deleted.remove(i);
            in_pieces += usize::from(agree(&name, &deleted.concat(), &overlay));
            // The line written twice (a key twice: the whole parse refuses
            // it, and the pieces must not make a tree of it).
            let mut twice = lines.clone();
            twice.insert(i, line);
            in_pieces += usize::from(agree(&name, &twice.concat(), &overlay));
        }
    }
    assert!(in_pieces > 500, "only {in_pieces} edited texts were made from pieces");
}

#[test]
fn a_cut_inside_a_quoted_or_flow_value_falls_back_to_the_whole_parse() {
    let overlay = Overlay::default().with_memo(Arc::new(Memo::default()));
    // A quoted scalar and a flow mapping whose lines sit at the keys'
    // column (libyaml, and so cfn-lint, accept both): `  B: 2` is text of
    // the value, not a key; a cut there must not stand.
    let quoted = "Resources:\n  A:\n    Description: 'one\n  B: 2'\n  C: 3\n";
    let flow = "Resources:\n  A: {x: 1,\n  B: 2}\n  C: 3\n";
    for text in [quoted, flow] {
        let file = SourceFile::new("t.yaml", text.to_string());
        let whole = parse(&file).unwrap();
        assert!(whole.get("Resources").unwrap().get("B").is_none());
        if let Some(pieces) = try_pieces(&file, &overlay, 0) {
            assert_eq!(pieces, whole, "{text}");
        }
    }
    // An alias of another piece's anchor: pieces cannot resolve it.
    let aliased = "Resources:\n  A: &tags {x: 1}\n  B: *tags\n";
    let file = SourceFile::new("t.yaml", aliased.to_string());
    assert!(try_pieces(&file, &overlay, 0).is_none());
    assert!(parse(&file).unwrap().get("Resources").unwrap().get("B").unwrap().get("x").is_some());
}
