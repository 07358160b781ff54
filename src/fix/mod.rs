//! `lint --fix` and `--diff`: the edits that make a finding go away.
//!
//! A rule says which field of which resource should hold what (a
//! [`Remedy`]); this module turns that into byte-range [`Edit`]s on the
//! file's original text, touching only the bytes it must (docs/lint.md,
//! "Fixes"). The file is parsed again into its spanned tree to find the
//! resource, so the edit keeps the file's style: a scalar keeps its
//! quotes, a new key takes its siblings' indentation, a flow mapping gets
//! `, Key: value`.
//!
//! What is fixed: CloudFormation, SAM and Serverless Framework files
//! (YAML and JSON), Terraform `.tf` and `*.tf.json` (see [`terraform`]):
//! a value written as a literal is replaced, a missing key is added to
//! the resource (inside its `{}` when it has no member yet), and SQS004
//! gets a new dead-letter queue (see [`dead_letter`]). A value behind `!Ref Param` is fixed in the
//! parameter's Default, and a Terraform value where its literal is written
//! (a variable's default, a `.tfvars` value, a local, a module argument:
//! the front-end remembers it, see [`crate::model::Alt::written`]), both
//! as unsafe fixes. SQS013 renames a queue whose name is a literal. Plans
//! (generated output) and values inside a JSON string get no edit: their
//! findings keep their hint.

mod apply;
mod dead_letter;
mod locate;
mod queue_arn;
mod terraform;
mod verify;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

pub use apply::{Written, unified_diff, write_fixed};
pub use verify::check;

use crate::finding::{Applicability, Finding, Remedy, Want};
use crate::model::{Dialect, Origin, Scalar};
use crate::source::{Source, Span};
use crate::syntax::Node;

/// Replace `span` of `file` with `replacement` (an insertion when the
/// span is empty).
#[derive(Clone, Debug)]
pub struct Edit {
    pub file: Source,
    pub span: Span,
    pub replacement: String,
}

/// A finding's fix: its edits and whether `--fix` may apply it alone.
#[derive(Clone, Debug)]
pub struct Fix {
    pub edits: Vec<Edit>,
    pub applicability: Applicability,
}

/// Every file's fixes of one pass, ready to apply.
#[derive(Debug, Default)]
pub struct Plan {
    pub files: BTreeMap<PathBuf, FileFix>,
}

impl Plan {
    /// How many findings the plan fixes.
    pub fn fixed(&self) -> usize {
        self.files.values().map(|f| f.fixed.len()).sum()
    }
}

/// One file's fixes of one pass.
#[derive(Debug)]
pub struct FileFix {
    /// The file as it was linted.
    pub file: Source,
    /// Its text with the fixes applied.
    pub text: String,
    /// The findings fixed, as indices into the findings the plan was made
    /// from.
    pub fixed: Vec<usize>,
    /// The edits made: each one's span in the linted text and the length
    /// of what replaced it.
    pub edits: Vec<(Span, usize)>,
}

/// Computes fixes, parsing each file once.
#[derive(Default)]
pub struct Fixer {
    trees: HashMap<PathBuf, Option<Node>>,
    bodies: HashMap<PathBuf, Option<terraform::Parsed>>,
    /// Module folder -> the resources its files declare.
    modules: HashMap<PathBuf, Option<HashSet<String>>>,
    /// File -> its large maps by key (resources by name).
    keys: HashMap<PathBuf, locate::Keys>,
    /// Module folder -> its calls of terraform-aws-modules/sqs/aws.
    sqs_modules: HashMap<PathBuf, Option<HashSet<String>>>,
}

/// How a file is edited.
#[derive(Clone, Copy)]
enum Format {
    /// CloudFormation, SAM or a Serverless service, YAML or JSON.
    Template,
    /// A `.tf` or `.tfvars` file.
    Hcl,
    /// A `*.tf.json` file.
    TerraformJson,
}

impl Format {
    fn of(file: &Source) -> Format {
        let name = file.path.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        if name.ends_with(".tf") || name.ends_with(".tfvars") {
            Format::Hcl
        } else if name.ends_with(".tf.json") || name.ends_with(".tfvars.json") {
            Format::TerraformJson
        } else {
            Format::Template
        }
    }
}

impl Fixer {
    /// The fix of `finding`, if sqsguard can make one.
    pub fn fix(&mut self, finding: &Finding) -> Option<Fix> {
        let remedy = finding.remedy.as_ref().filter(|r| !r.conditional && r.given.is_none())?;
        let Origin::File { file, span } = &remedy.at else { return None };
        if let Want::DeadLetterQueue { max_receive_count, retention_seconds } = remedy.want {
            let edits = self.dead_letter_queue(file, *span, remedy, max_receive_count, retention_seconds)?;
            return Some(Fix { edits, applicability: remedy.applicability });
        }
        if remedy.want == Want::QueueArn {
            let edit = self.queue_arn(file, *span)?;
            return Some(Fix { edits: vec![edit], applicability: remedy.applicability });
        }
        let renamed;
        let value = match &remedy.want {
            Want::Value(value) => value,
            Want::NameSuffix(suffix, add) => {
                renamed = Scalar::Str(with_suffix(file, *span, suffix, *add)?);
                &renamed
            }
            Want::DeadLetterQueue { .. } | Want::QueueArn => return None,
        };
        let (edit, indirect) = match Format::of(file) {
            Format::Hcl => {
                let body = self.hcl(file)?;
                terraform::hcl(file, body, *span, remedy, value)?
            }
            Format::TerraformJson => {
                let tree = tree_in(&mut self.trees, file, Format::TerraformJson)?;
                let keys = self.keys.entry(file.path.clone()).or_default();
                // The resource, when it is in the file of the value.
                let found = terraform::json_resource(keys, tree, &remedy.resource);
                if remedy.absent {
                    let found = found.filter(|f| f.key_span == *span)?;
                    (locate::insert_member(file, &found.value, Dialect::Terraform.name(remedy.field), value)?, false)
                } else {
                    let inside =
                        found.is_some_and(|f| f.value.span.start <= span.start && span.end <= f.value.span.end);
                    let edit = match keys.node_at(tree, *span) {
                        Some(node) => {
                            Edit { file: file.clone(), span: node.span, replacement: render(file, node, value, true)? }
                        }
                        // A literal of the expression inside a `"${...}"`
                        // string (`maxReceiveCount = 1` in a jsonencode).
                        None => in_template(file, *span, value)?,
                    };
                    (edit, !inside)
                }
            }
            Format::Template => {
                let tree = tree_in(&mut self.trees, file, Format::Template)?;
                let keys = self.keys.entry(file.path.clone()).or_default();
                let json = crate::syntax::is_json(&file.path, &file.text);
                let found = locate::resource(keys, tree, &remedy.resource)?;
                if remedy.absent {
                    (locate::insert(file, found, *span, remedy, value, json)?, false)
                } else {
                    let inside = found.value.span.start <= span.start && span.end <= found.value.span.end;
                    let node = keys.node_at(tree, *span)?;
                    // `!Ref Param`: the value is the parameter's Default.
                    let (node, indirect) = match locate::parameter_default(keys, tree, node) {
                        Some(default) => (default, true),
                        None => (node, !inside),
                    };
                    (
                        Edit { file: file.clone(), span: node.span, replacement: render(file, node, value, json)? },
                        indirect,
                    )
                }
            }
        };
        // A value from a Parameter or variable default (or any value
        // outside the resource) may be shared: changing it is unsafe
        // (docs/lint.md, "Fixing").
        let applicability = if indirect { Applicability::Unsafe } else { remedy.applicability };
        Some(Fix { edits: vec![edit], applicability })
    }

    /// SQS004: a new dead-letter queue and the RedrivePolicy to it.
    fn dead_letter_queue(
        &mut self,
        file: &Source,
        at: Span,
        remedy: &Remedy,
        max_receive_count: i64,
        retention_seconds: i64,
    ) -> Option<Vec<Edit>> {
        if !remedy.absent {
            return None;
        }
        match Format::of(file) {
            Format::Template => {
                let tree = tree_in(&mut self.trees, file, Format::Template)?;
                let keys = self.keys.entry(file.path.clone()).or_default();
                let json = crate::syntax::is_json(&file.path, &file.text);
                let resources = locate::resources_of(keys, tree, &remedy.resource)?;
                let queue = keys.entry(resources, &remedy.resource).filter(|q| q.key_span == at)?;
                dead_letter::template(file, keys, resources, queue, json, max_receive_count, retention_seconds)
            }
            Format::Hcl => {
                let module = file.path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
                // Read once per module, not once per queue: a module of
                // many queues without a DLQ stays linear.
                let declared =
                    self.modules.entry(module.clone()).or_insert_with(|| declared_in_module(&module)).as_ref()?;
                let parsed = self.bodies.entry(file.path.clone()).or_insert_with(|| parse_hcl(file)).as_ref()?;
                dead_letter::hcl(file, parsed, at, max_receive_count, retention_seconds, |address| {
                    declared.contains(address)
                })
            }
            Format::TerraformJson => {
                let module = file.path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
                let declared =
                    self.modules.entry(module.clone()).or_insert_with(|| declared_in_module(&module)).as_ref()?;
                let tree = tree_in(&mut self.trees, file, Format::TerraformJson)?;
                let keys = self.keys.entry(file.path.clone()).or_default();
                dead_letter::terraform_json(
                    file,
                    keys,
                    tree,
                    at,
                    &remedy.resource,
                    max_receive_count,
                    retention_seconds,
                    |address| declared.contains(address),
                )
            }
        }
    }

    /// SQS018: the reference at `span` to a queue's URL made one to its ARN.
    fn queue_arn(&mut self, file: &Source, span: Span) -> Option<Edit> {
        match Format::of(file) {
            Format::Template => {
                let tree = tree_in(&mut self.trees, file, Format::Template)?;
                let keys = self.keys.entry(file.path.clone()).or_default();
                let json = crate::syntax::is_json(&file.path, &file.text);
                queue_arn::template(file, keys.node_at(tree, span)?, json)
            }
            Format::Hcl | Format::TerraformJson => {
                let module = file.path.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
                let calls = self.sqs_modules.entry(module.clone()).or_insert_with(|| sqs_modules_in(&module));
                queue_arn::terraform(file, span, |name| calls.as_ref().is_some_and(|c| c.contains(name)))
            }
        }
    }

    fn hcl(&mut self, file: &Source) -> Option<&terraform::Parsed> {
        self.bodies.entry(file.path.clone()).or_insert_with(|| parse_hcl(file)).as_ref()
    }

    /// The fixes `--fix` applies to `findings` (with `unsafe_too`, the
    /// unsafe ones as well), combined per file. Two fixes of one place keep
    /// the larger number (SQS001 for two consumers of a queue); fixes that
    /// overlap otherwise keep the first, and the next pass sees the rest.
    pub fn plan(&mut self, findings: &[Finding], unsafe_too: bool) -> Plan {
        let broken: HashSet<&PathBuf> =
            findings.iter().filter(|f| f.code == "SQS000").filter_map(|f| file_of(&f.origin)).collect();
        // File -> its text, the fixes of it (each a list of edits), and
        // the finding each fixes.
        type Fixes = (Source, Vec<Vec<Edit>>, Vec<usize>);
        let mut per_file: BTreeMap<PathBuf, Fixes> = BTreeMap::new();
        for (n, finding) in findings.iter().enumerate() {
            let Some(fix) = self.fix(finding) else { continue };
            if fix.applicability == Applicability::Unsafe && !unsafe_too {
                continue;
            }
            // A fix edits one file: the file of its value.
            let Some(file) = fix.edits.first().map(|e| e.file.clone()) else { continue };
            if broken.contains(&&file.path) || fix.edits.iter().any(|e| e.file.path != file.path) {
                continue;
            }
            let entry = per_file.entry(file.path.clone()).or_insert_with(|| (file, Vec::new(), Vec::new()));
            entry.1.push(fix.edits);
            entry.2.push(n);
        }
        let files = per_file
            .into_iter()
            .filter_map(|(path, (file, fixes, of))| {
                let applied = apply::apply(&file.text, fixes);
                (applied.text != file.text).then(|| {
                    let fixed = applied.fixes.iter().filter_map(|&i| of.get(i).copied()).collect();
                    (path, FileFix { file, text: applied.text, fixed, edits: applied.edits })
                })
            })
            .collect();
        Plan { files }
    }
}

/// SQS013: the literal name at `span` with `suffix` added or dropped. A
/// name that is not a plain literal (`!Sub`, `${...}`) gets no fix, nor
/// one that would pass SQS's 80 characters.
fn with_suffix(file: &Source, span: Span, suffix: &str, add: bool) -> Option<String> {
    let text = file.text.get(span.start..span.end)?.trim();
    let name = text.strip_prefix(['"', '\'']).and_then(|t| t.strip_suffix(['"', '\''])).unwrap_or(text);
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
        return None;
    }
    let renamed = if add { format!("{name}{suffix}") } else { name.strip_suffix(suffix)?.to_string() };
    (!renamed.is_empty() && renamed.len() <= 80).then_some(renamed)
}

/// `terraform show -json` output: it starts with its `format_version`.
fn is_plan(text: &str) -> bool {
    let head = text.trim_start();
    let head = head.char_indices().nth(256).map_or(head, |(i, _)| &head[..i]);
    head.starts_with('{') && head.contains("\"format_version\"")
}

/// A `.tf` file parsed once per run, with its resource blocks indexed.
fn parse_hcl(file: &Source) -> Option<terraform::Parsed> {
    crate::frontend::terraform::parse::parse_text(&file.text).ok().map(terraform::Parsed::new)
}

/// `file` parsed as a tree once per run (the fixer keeps `trees`).
fn tree_in<'t>(trees: &'t mut HashMap<PathBuf, Option<Node>>, file: &Source, format: Format) -> Option<&'t Node> {
    trees
        .entry(file.path.clone())
        .or_insert_with(|| {
            // A plan is generated output, never edited: not even parsed
            // into a tree (a plan can be megabytes), nor a file whose
            // text was freed (a large plan).
            if file.text.is_empty() || is_plan(&file.text) {
                return None;
            }
            let tree = if crate::syntax::is_json(&file.path, &file.text) {
                crate::syntax::json::parse(file)
            } else {
                crate::syntax::yaml::parse(file)
            };
            tree.ok().filter(|root| match format {
                Format::Template => locate::is_fixable_document(root),
                Format::TerraformJson | Format::Hcl => true,
            })
        })
        .as_ref()
}

/// The resources (`type.name`) declared in the module of folder `module`
/// (its `.tf` and `.tf.json` files); `None` when a file of it cannot be
/// read or parsed, so nothing can be known to be free.
fn declared_in_module(module: &std::path::Path) -> Option<HashSet<String>> {
    let dir = if module.as_os_str().is_empty() { std::path::Path::new(".") } else { module };
    let mut declared = HashSet::new();
    for entry in std::fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if name.ends_with(".tf") {
            let body = crate::frontend::terraform::parse::parse_text(&crate::source::read_named(&path).ok()?).ok()?;
            for block in body.blocks().filter(|b| b.ident.as_str() == "resource" && b.labels.len() == 2) {
                declared.insert(format!("{}.{}", block.labels[0].as_str(), block.labels[1].as_str()));
            }
        } else if name.ends_with(".tf.json") {
            let doc: serde_json::Value = serde_json::from_str(&crate::source::read_named(&path).ok()?).ok()?;
            // `resource` is an object, or an array of objects, by type, then by name.
            fn members(v: &serde_json::Value) -> Vec<(&String, &serde_json::Value)> {
                match v {
                    serde_json::Value::Object(m) => m.iter().collect(),
                    serde_json::Value::Array(items) => {
                        items.iter().filter_map(serde_json::Value::as_object).flat_map(|m| m.iter()).collect()
                    }
                    _ => Vec::new(),
                }
            }
            for (kind, names) in members(&doc["resource"]) {
                for (resource, _) in members(names) {
                    declared.insert(format!("{kind}.{resource}"));
                }
            }
        }
    }
    Some(declared)
}

/// The names of the calls of terraform-aws-modules/sqs/aws in the `.tf`
/// files of folder `module`; `None` when one cannot be read or parsed.
fn sqs_modules_in(module: &std::path::Path) -> Option<HashSet<String>> {
    let dir = if module.as_os_str().is_empty() { std::path::Path::new(".") } else { module };
    let mut calls = HashSet::new();
    for entry in std::fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        if !path.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".tf")) {
            continue;
        }
        let body = crate::frontend::terraform::parse::parse_text(&crate::source::read_named(&path).ok()?).ok()?;
        for block in body.blocks().filter(|b| b.ident.as_str() == "module" && b.labels.len() == 1) {
            let source = block.body.get_attribute("source").and_then(|s| s.value.as_str());
            if source.is_some_and(crate::frontend::terraform::registry::is_sqs_module) {
                calls.insert(block.labels[0].as_str().to_string());
            }
        }
    }
    Some(calls)
}

fn file_of(origin: &Origin) -> Option<&PathBuf> {
    match origin {
        Origin::File { file, .. } => Some(&file.path),
        Origin::Live(_) => None,
    }
}

/// `value` written where `node` is, in the style of what is there: a
/// quoted scalar stays quoted (`"60"` becomes `"180"`). A mapping or a
/// block sequence is not replaced (its span is not one token).
fn render(file: &Source, node: &Node, value: &Scalar, json: bool) -> Option<String> {
    use crate::syntax::Kind;
    let old = file.text.get(node.span.start..node.span.end)?;
    // The node must be the value itself, not a document that holds it (a
    // RedrivePolicy written as a JSON string points at the whole string).
    let same_kind = match (&node.kind, value) {
        (Kind::Number(_), Scalar::Int(_)) | (Kind::Bool(_), Scalar::Bool(_)) => true,
        (Kind::String(s), Scalar::Int(_)) => s.trim().parse::<i64>().is_ok(),
        (Kind::String(s), Scalar::Bool(_)) => s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false"),
        (Kind::String(_), Scalar::Str(_)) => true,
        (Kind::Seq(_), Scalar::List(_)) => old.starts_with('['),
        _ => false,
    };
    // The bytes replaced must be the value the tree says is there: were
    // the tree's spans and the text ever to disagree (as once over what
    // ends a line), the edit would land in other bytes.
    let unquoted = old.trim().trim_matches(|c| c == '"' || c == '\'');
    let same_text = match &node.kind {
        Kind::Number(n) => unquoted == n.as_str(),
        Kind::Bool(_) => unquoted.eq_ignore_ascii_case("true") || unquoted.eq_ignore_ascii_case("false"),
        Kind::String(s) => unquoted == s.as_str() || old.contains('\\') || old.contains("''"),
        Kind::Seq(_) => old.ends_with(']'),
        Kind::Null | Kind::Map(_) => false,
    };
    if !same_kind || !same_text {
        return None;
    }
    Some(match old.chars().next() {
        Some(q @ ('"' | '\'')) if !matches!(value, Scalar::List(_)) => {
            let text = plain(value);
            if q == '"' { serde_json::to_string(&text).ok()? } else { format!("'{}'", text.replace('\'', "''")) }
        }
        _ => literal(value, json),
    })
}

/// The value as text, unquoted.
fn plain(value: &Scalar) -> String {
    match value {
        Scalar::Int(n) => n.to_string(),
        Scalar::Bool(b) => b.to_string(),
        Scalar::Str(s) => s.clone(),
        Scalar::List(items) => items.join(","),
    }
}

/// The value as a YAML or JSON literal: strings quoted unless YAML reads
/// them plain as the same string; lists in flow style.
fn literal(value: &Scalar, json: bool) -> String {
    match value {
        Scalar::Int(_) | Scalar::Bool(_) => plain(value),
        Scalar::Str(s) if !json && is_plain_yaml(s) => s.clone(),
        Scalar::Str(s) => serde_json::Value::from(s.as_str()).to_string(),
        Scalar::List(items) => serde_json::Value::from(items.clone()).to_string(),
    }
}

/// A string YAML reads back as itself, unquoted: letters, digits and
/// `-_./:` not starting with a digit, `-` or `.`, and not a YAML keyword.
fn is_plain_yaml(s: &str) -> bool {
    let keyword = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"];
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && !keyword.contains(&s.to_ascii_lowercase().as_str())
}

/// The edit of a number or bool literal at `span` inside a string of a
/// `*.tf.json` file: the front-end located it there only where the
/// string's text is the expression's, without escapes.
fn in_template(file: &Source, span: Span, value: &Scalar) -> Option<Edit> {
    let text = file.text.get(span.start..span.end)?;
    let replacement = match value {
        Scalar::Int(n) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit() || b == b'-') => n.to_string(),
        Scalar::Bool(b) if text == "true" || text == "false" => b.to_string(),
        _ => return None,
    };
    Some(Edit { file: file.clone(), span, replacement })
}

fn key(remedy: &Remedy) -> &'static str {
    Dialect::CloudFormation.name(remedy.field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_known_without_being_parsed() {
        assert!(is_plan("{\"format_version\":\"1.2\",\"terraform_version\":\"1.11.0\",\"planned_values\":{}}"));
        assert!(!is_plan("{\"AWSTemplateFormatVersion\": \"2010-09-09\", \"Resources\": {}}"));
        assert!(!is_plan("Resources:\n  format_version: x\n"));
    }

    #[test]
    fn only_literal_names_are_renamed() {
        let name = |text: &str, add: bool| {
            let file = crate::source::SourceFile::new("t.yaml", text.to_string());
            with_suffix(&file, Span::new(0, text.len()), ".fifo", add)
        };
        assert_eq!(name("orders", true).as_deref(), Some("orders.fifo"));
        assert_eq!(name("\"orders.fifo\"", false).as_deref(), Some("orders"));
        assert_eq!(name("'a-b_c'", true).as_deref(), Some("a-b_c.fifo"));
        assert_eq!(name("\"${var.env}-orders\"", true), None);
        assert_eq!(name("!Sub x", true), None);
        assert_eq!(name(".fifo", false), None);
        assert_eq!(name(&"q".repeat(76), true), None, "over 80 characters");
    }

    /// A node whose span does not hold its value gets no edit: the edit
    /// would land in other bytes.
    #[test]
    fn only_the_bytes_of_the_value_are_replaced() {
        use crate::syntax::Kind;
        let file = crate::source::SourceFile::new("t.yaml", "a: 0\nb: 60\nc: 'x'\n".to_string());
        let at = |k, s: usize, e: usize| Node::new(k, Span::new(s, e));
        assert_eq!(render(&file, &at(Kind::Number("0".into()), 3, 4), &Scalar::Int(20), false).as_deref(), Some("20"));
        assert_eq!(render(&file, &at(Kind::Number("0".into()), 8, 10), &Scalar::Int(20), false), None);
        assert_eq!(render(&file, &at(Kind::Number("0".into()), 10, 10), &Scalar::Int(20), false), None);
        let x = at(Kind::String("x".into()), 14, 17);
        assert_eq!(render(&file, &x, &Scalar::Str("y".into()), false).as_deref(), Some("'y'"));
        assert_eq!(render(&file, &at(Kind::String("z".into()), 14, 17), &Scalar::Str("y".into()), false), None);
    }

    #[test]
    fn yaml_plain_strings_stay_unquoted_and_keywords_do_not() {
        assert!(is_plain_yaml("messageGroup"));
        for s in ["yes", "On", "1abc", "-x", "", "a b", "a:b"] {
            assert!(!is_plain_yaml(s), "{s}");
        }
        assert_eq!(literal(&Scalar::Str("no".into()), false), "\"no\"");
        assert_eq!(
            literal(&Scalar::List(vec!["ReportBatchItemFailures".into()]), false),
            "[\"ReportBatchItemFailures\"]"
        );
    }
}
