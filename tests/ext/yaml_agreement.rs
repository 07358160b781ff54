//! The YAML reader against PyYAML (the reader of cfn-lint and the SAM
//! CLI): over every YAML file of tests/corpus and tests/fixtures/
//! reliability/yaml, sqsguard parses a file exactly when PyYAML does, but
//! for the documented exceptions below. PyYAML runs once, over all files,
//! from the test venv (SQSGUARD_VENV, tests/run.sh installs it); without it
//! the test says SKIPPED, and fails under CI.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use sqsguard::source::SourceFile;

/// Files on which the two readers may disagree, and why. A disagreement
/// not listed fails the test, and so does an entry that no longer
/// disagrees. Besides these, one class is documented as a whole: a key
/// written twice in a mapping, which PyYAML takes (the last value wins)
/// and sqsguard refuses, as cfn-lint does; there PyYAML must see the
/// duplicate too.
const EXCEPTIONS: &[(&str, &str)] = &[];

/// PyYAML's verdict on each file: a SafeLoader that takes any `!Tag` (the
/// CloudFormation short forms), reading one document, as cfn-lint does.
/// `duplicate`: some mapping of the composed document repeats a key.
const PYYAML: &str = r#"
import json, sys, yaml

class AnyTag(yaml.SafeLoader):
    pass

def any_tag(loader, suffix, node):
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_mapping(node)

AnyTag.add_multi_constructor("!", any_tag)

def duplicate(root):
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in keys:
                        return True
                    keys.add(key.value)
                stack.extend([key, value])
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
    return False

out = {}
for path in json.load(sys.stdin):
    with open(path, "rb") as f:
        data = f.read()
    loader = AnyTag(data)
    try:
        node = loader.get_single_node()
        dup = duplicate(node)
        if node is not None:
            loader.construct_document(node)
        out[path] = {"ok": True, "duplicate": dup}
    except Exception as e:
        out[path] = {"ok": False, "error": " ".join(str(e).split())}
    finally:
        loader.dispose()
print(json.dumps(out))
"#;

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// sqsguard's verdict: `Ok` or the error it reports.
fn sqsguard(path: &Path) -> Result<(), String> {
    let text = String::from_utf8(std::fs::read(path).unwrap()).map_err(|e| format!("not UTF-8: {e}"))?;
    sqsguard::syntax::yaml::parse(&SourceFile::new(path, text)).map(|_| ()).map_err(|e| e.message)
}

#[test]
fn sqsguard_and_pyyaml_agree_on_which_yaml_files_parse() {
    let Some(python) = common::venv_tool("python") else { return common::missing("PyYAML") };
    let root = common::root();
    let mut files = Vec::new();
    yaml_files(&root.join("tests/corpus"), &mut files);
    yaml_files(&root.join("tests/fixtures/reliability/yaml"), &mut files);
    files.sort();
    assert!(files.len() > 150, "only {} YAML files", files.len());

    let mut child = Command::new(python)
        .args(["-c", PYYAML])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let list: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    child.stdin.take().unwrap().write_all(serde_json::to_string(&list).unwrap().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("No module named 'yaml'") {
        return common::missing("PyYAML");
    }
    assert!(out.status.success(), "PyYAML: {stderr}");
    let verdicts: BTreeMap<String, Value> = serde_json::from_slice(&out.stdout).unwrap();

    let mut disagree = Vec::new();
    let mut refused_by_both = 0;
    let mut duplicates = 0;
    let mut excepted = Vec::new();
    for (path, name) in files.iter().zip(&list) {
        let rel = common::relative(path).display().to_string();
        let py = &verdicts[name];
        let (py_ok, py_dup) = (py["ok"] == true, py["duplicate"] == true);
        let ours = sqsguard(path);
        let agreed = match &ours {
            Ok(()) => py_ok && !py_dup,
            Err(e) if e.starts_with("duplicate key") => {
                duplicates += 1;
                py_ok && py_dup
            }
            Err(_) => {
                refused_by_both += usize::from(!py_ok);
                !py_ok
            }
        };
        let listed = EXCEPTIONS.iter().any(|(f, _)| *f == rel);
        if listed {
            excepted.push(rel.clone());
        }
        if agreed == listed {
            let py =
                if py_ok { format!("parses (duplicate key: {py_dup})") } else { format!("refuses: {}", py["error"]) };
            let what = if listed { "listed as an exception but they agree" } else { "disagree" };
            disagree.push(format!("{rel}: {what}\n  sqsguard: {ours:?}\n  PyYAML: {py}"));
        }
    }
    assert!(disagree.is_empty(), "{} file(s):\n{}", disagree.len(), disagree.join("\n"));
    assert_eq!(excepted.len(), EXCEPTIONS.len(), "an exception names a file that is not there: {excepted:?}");
    // The fixtures hold files both refuse and a duplicate key, so each
    // branch above is taken.
    assert!(refused_by_both >= 3, "{refused_by_both}");
    assert!(duplicates >= 1, "{duplicates}");
}

#[test]
fn templates_closing_a_flow_or_quoted_value_at_the_key_column_lint() {
    for name in ["quoted_policy_closes_at_key_column.yaml", "flow_policy_closes_at_key_column.yaml", "bom.yaml"] {
        let path = common::root().join("tests/fixtures/reliability/yaml").join(name);
        let outcome = common::lint(&path);
        assert_eq!(outcome.files, 1, "{name}");
        assert!(outcome.findings.iter().all(|f| f.code() != "SQS000"), "{name}:\n{}", common::render(&outcome));
    }
}

#[test]
fn the_quoted_policy_is_read_as_the_policy_it_holds() {
    // Not only parsed: the policy text is the JSON document, so its
    // statement is read (the queue policy names the queue it allows).
    let path = common::root().join("tests/fixtures/reliability/yaml/quoted_policy_closes_at_key_column.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let root = sqsguard::syntax::yaml::parse(&SourceFile::new(&path, text)).unwrap();
    let doc = root.get("Resources").unwrap().get("OrdersQueuePolicy").unwrap().get("Properties").unwrap();
    let sub = doc.get("PolicyDocument").unwrap().get("Fn::Sub").unwrap().as_str().unwrap();
    let policy: Value = serde_json::from_str(sub).unwrap();
    assert_eq!(policy["Statement"][0]["Resource"], "${OrdersQueue.Arn}");
    let flow = common::root().join("tests/fixtures/reliability/yaml/flow_policy_closes_at_key_column.yaml");
    let text = std::fs::read_to_string(&flow).unwrap();
    let root = sqsguard::syntax::yaml::parse(&SourceFile::new(&flow, text)).unwrap();
    let queue = root.get("Resources").unwrap().get("EventsQueue").unwrap().get("Properties").unwrap();
    let redrive = queue.get("RedrivePolicy").unwrap();
    assert_eq!(redrive.get("maxReceiveCount").unwrap().kind, sqsguard::syntax::Kind::Number("4".into()));
}
