//! Mermaid rendered as GitHub would draw it: by mermaid-cli (tests/mermaid,
//! which tests/run.sh installs) in Debian's Chromium.

use std::path::Path;
use std::process::Command;

use crate::common::{missing, root};

/// Renders `mermaid` to SVG and returns it, failing the test when
/// mermaid-cli rejects it; None (said loudly, a failure under CI) when
/// mermaid-cli or Chromium is not installed.
pub fn render(mermaid: &str, name: &str) -> Option<String> {
    let mmdc = root().join("tests/mermaid/node_modules/.bin/mmdc");
    if !mmdc.exists() || !Path::new("/usr/bin/chromium").exists() {
        missing("tests/mermaid/node_modules (npm ci --prefix tests/mermaid) or Debian's chromium");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join(format!("{name}.mmd"));
    let output = dir.path().join(format!("{name}.svg"));
    std::fs::write(&input, mermaid).unwrap();
    let out = Command::new(&mmdc)
        .arg("--puppeteerConfigFile")
        .arg(root().join("tests/mermaid/puppeteer.json"))
        .arg("--quiet")
        .arg("-i")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .unwrap();
    assert!(out.status.success(), "mermaid-cli rejects {name}:\n{}\n{mermaid}", String::from_utf8_lossy(&out.stderr));
    let svg = std::fs::read_to_string(&output).unwrap();
    assert!(svg.contains("<svg") && !svg.contains("Syntax error"), "{name}: {svg:.300}");
    Some(svg)
}
