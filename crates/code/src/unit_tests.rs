//! The bounds `Unit::parse` keeps on what it reads.

use crate::lang::Language;
use crate::unit::Unit;
use sqsguard_source::{Source, SourceFile};

/// `x = ((...(1)...))`, `levels` parentheses deep.
fn nested(levels: usize) -> Source {
    SourceFile::new("nested.py", format!("x = {}1{}\n", "(".repeat(levels), ")".repeat(levels)))
}

/// Code nested deeper than the bound (400 levels) is not read, and says
/// why; code within it is read. The depth is walked only for a tree of
/// more nodes than the bound: this one's 500 levels are some 1,500 nodes.
#[test]
fn code_nested_deeper_than_the_bound_is_not_read() {
    let deep = Unit::parse(&nested(500), Language::Python);
    let why = deep.as_ref().err().map(|e| e.why.clone()).unwrap_or_default();
    assert!(why.contains("nests deeper than 400 levels"), "{why:?}");
    assert!(Unit::parse(&nested(100), Language::Python).is_ok());
}
