//! Writes the rule catalog, `$OUT_DIR/catalog.rs`, from the files
//! `crates/rules/src/sqsNNN_name.rs`: a module for each and `ALL`, every rule in
//! code order. Adding a rule is adding its file (and its page,
//! `rules/SQSNNN.md`); there is no list to keep.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs, io};

fn main() -> io::Result<()> {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").map_err(io::Error::other)?).join("src");
    // A directory: Cargo reruns this when any file in it changes, is added
    // or removed.
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut rules = Vec::new();
    for entry in fs::read_dir(&dir)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else { continue };
        let Some(module) = name.strip_suffix(".rs").filter(|m| is_rule_file(m)) else { continue };
        rules.push((module.to_string(), path.clone()));
    }
    // `sqs001_...` sorts as `SQS001` does.
    rules.sort();
    for pair in rules.windows(2) {
        if pair[0].0[..6] == pair[1].0[..6] {
            let message = format!("two rule files share a code: {} and {}", pair[0].0, pair[1].0);
            return Err(io::Error::other(message));
        }
    }
    let mut out = String::from("// Written by build.rs from the files crates/rules/src/sqsNNN_*.rs.\n\n");
    for (module, path) in &rules {
        let path = path.to_str().ok_or_else(|| io::Error::other(format!("{} is not UTF-8", path.display())))?;
        let _ = writeln!(out, "#[path = {path:?}]\nmod {module};");
    }
    out.push_str("\n/// Every rule, in code order.\npub static ALL: &[&Rule] = &[\n");
    for (module, _) in &rules {
        let _ = writeln!(out, "    &{module}::RULE,");
    }
    out.push_str("];\n");
    fs::write(Path::new(&env::var("OUT_DIR").map_err(io::Error::other)?).join("catalog.rs"), out)
}

/// `sqs001_visibility_timeout_below_6x`: `sqs`, three digits, `_`, then a
/// name in lower case: a module name, and the code's file.
fn is_rule_file(module: &str) -> bool {
    let bytes = module.as_bytes();
    module.len() > 7
        && module.starts_with("sqs")
        && bytes[3..6].iter().all(u8::is_ascii_digit)
        && bytes[6] == b'_'
        && bytes[7..].iter().all(|&b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}
