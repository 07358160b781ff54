//! The walk of the flat patterns against tree-sitter's query of the same
//! files: the same matches, in the same order.

use super::flat::parse;
use crate::lang::{self, Compiled};
use sqsguard_model::code::Language as Lang;
use streaming_iterator::StreamingIterator;
use tree_sitter::Node;
use tree_sitter::{Parser, QueryCursor};

type Found = Vec<(usize, Vec<String>, std::ops::Range<usize>)>;

/// Each match of the language's patterns on `text`, by the walk.
fn walked(language: Lang, root: Node<'_>, text: &[u8]) -> Found {
    let Some(Compiled::Flat(flat)) = lang::compiled(language) else { panic!("{language:?} is not flat") };
    let mut found = Vec::new();
    flat.each(root, text, |_| true, |file, names, node| found.push((file, names.to_vec(), node.byte_range())));
    found
}

/// Each match of the same pattern files compiled as a tree-sitter query.
fn queried(language: Lang, root: Node<'_>, text: &[u8]) -> Found {
    let (query, of, checks) = lang::as_query(language).unwrap();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(&query, root, text);
    let mut found = Vec::new();
    while let Some(m) = matches.next() {
        if !checks[m.pattern_index].iter().all(|c| c.holds(m.captures(), text)) {
            continue;
        }
        let file = lang::PATTERNS.iter().position(|p| *p == of[m.pattern_index]).unwrap();
        let node = m.captures()[0].node;
        assert!(m.captures().iter().all(|c| c.node.id() == node.id()), "a flat pattern captures one node");
        let names = m.captures().iter().map(|c| query.capture_names()[c.index as usize].to_string()).collect();
        found.push((file, names, node.byte_range()));
    }
    found
}

fn files(dir: &std::path::Path, exts: &[&str], out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, exts, out);
        } else if path.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e)) {
            out.push(path);
        }
    }
}

/// Shapes of both languages, broken code among them (each language's
/// parser reads each: what it does not understand is an ERROR node).
const SAMPLES: &[&str] = &[
    "import os, a.b as c\nfrom .m import (x, y as z)\nfrom m import *\n@batch_processor(record_handler=h)\ndef f(event):\n    r = dict(a=1, **k)\n    r['k'] = os.environ.get('X') or os.getenv('Y')\n    return await g(time.time(), uuid4())\nhandler = f\nx: int\nclass C:\n    def m(self): return self.f()()\n",
    "def broken(:\n  x = = 1\n  sqs.send_message(QueueUrl=os.environ['Q'])\n",
    "import d, { a, b as c } from './m';\nimport * as n from \"@middy/sqs-partial-batch-failure\";\nexport { a as e, f } from './x';\nexport * from './y';\nconst { A, B } = process.env;\nconst q = process.env['Q'] ?? process?.env.R;\nexports.handler = async (e) => await main(e);\nclass K { m() { return new Date; } }\nnew Date(); new Date(1); new m.F(); records.map(processRecord, other);\nsqs.sendMessage({}).promise(); client.send(new SendMessageCommand({}));\n",
    "const x = {a: 1, 'b': 2, c, [d]: 3};\nfunction (( {\n  v4(); Math.random(); new BatchProcessor(EventType.SQS);\n",
];

/// The walk finds what tree-sitter's query finds, in the same order, on
/// every code file of the rules' fixtures and the examples.
#[test]
fn the_walk_matches_what_the_query_matches() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (language, exts) in [
        (Lang::Python, &["py"][..]),
        (Lang::JavaScript, &["js", "mjs", "cjs"][..]),
        (Lang::TypeScript, &["ts"][..]),
        (Lang::Tsx, &["tsx", "ts"][..]),
    ] {
        let mut paths = Vec::new();
        for dir in ["tests/rules", "examples", "crates/code/tests"] {
            files(&root.join(dir), exts, &mut paths);
        }
        assert!(!paths.is_empty(), "{language:?}: no files");
        let mut parser = Parser::new();
        parser.set_language(&lang::grammar(language)).unwrap();
        let samples = paths.into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
        let inline = SAMPLES.iter().map(|s| ("a sample".to_string(), s.to_string()));
        for (path, text) in samples.chain(inline) {
            let tree = parser.parse(&text, None).unwrap();
            let (walked, queried) = (
                walked(language, tree.root_node(), text.as_bytes()),
                queried(language, tree.root_node(), text.as_bytes()),
            );
            assert!(!walked.is_empty() || text.trim().is_empty(), "{path}: nothing matched");
            assert_eq!(walked, queried, "{language:?} {path}");
        }
    }
}

#[test]
fn a_pattern_that_is_not_flat_is_left_to_the_query() {
    let python = lang::grammar(Lang::Python);
    let flat = |text: &str| parse(&python, &[text]).map(|p| p.is_some());
    assert_eq!(
        flat("(call) @c ((subscript !value) @s (#field-match? @s \"value\" \"^x$\") (#eq? @s \"x\"))"),
        Ok(true)
    );
    assert_eq!(flat("(call function: (identifier) @f) @c"), Ok(false));
    assert_eq!(flat("(call (identifier) @f)"), Ok(false));
    assert_eq!(flat("((call) @c (#not-eq? @c \"f()\"))"), Ok(false));
    assert_eq!(flat("(no_such_node) @c"), Ok(false));
    assert_eq!(flat("((call !no_such_field) @c)"), Ok(false));
    assert_eq!(flat("(call) @c\n(_) @any"), Ok(false));
    assert!(flat("((call) @c (#field-match? @c \"function\" \"(\"))").is_err());
    assert!(flat("((call) @c (#field-match? @c \"^f$\"))").is_err());
}
