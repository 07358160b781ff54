//! The [`Writer`]: a [`Remedy`]'s operations turned into [`Edit`]s of the
//! tree a front-end parsed, touching only the bytes it must, so the edit
//! keeps the file's style: a scalar keeps its quotes, a new key takes its
//! siblings' indentation, a flow mapping gets `, Key: value`.
//!
//! Each front-end hands back, with its model, a [`Writer`] holding the
//! trees it parsed (a template's YAML or JSON tree, a module's hcl-edit
//! bodies and `*.tf.json` trees, its variables files) and what it knows of
//! each Terraform module folder (the resources it declares, its calls of
//! the registry SQS module). Nothing is read or parsed again: check asks
//! the writer once per finding, and the fix travels on the finding
//! ([`Finding::autofix`](sqsguard_finding::Finding::autofix)).
//!
//! What is fixed: CloudFormation, SAM and Serverless Framework files
//! (YAML and JSON), Terraform `.tf` and `*.tf.json` (see [`super::terraform`]).
//! [`Op::Set`] replaces a value written as a literal, or adds a missing
//! key to the resource (inside its `{}` when it has no member yet). A
//! value behind `!Ref Param` is set in the parameter's Default, and a
//! Terraform value where its literal is written (a variable's default, a
//! `.tfvars` value, a local, a module argument: the front-end remembers
//! it, see [`sqsguard_model::Alt::written`]), both as unsafe fixes. Plans
//! (generated output) and values inside a JSON string get no edit: their
//! findings keep their hint.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use hcl_edit::structure::Body;

use super::locate::{self, Keys, is_fixable_document};
use super::statement_terraform;
use super::{Applicability, Edit, Fix, NewQueue, NewResource, Op, Remedy, Statement, Unfixable};
use super::{
    add_resource, add_resource_terraform, code, insert, remove, render, retarget, statement, terraform, within,
};
use sqsguard_model::{Dialect, Origin, Scalar};
use sqsguard_source::{Source, Span};
use sqsguard_syntax::Node;

/// A value in one branch of a condition.
const CONDITIONAL: Unfixable =
    Unfixable("the value is one branch of a condition: changing it changes what the condition means");
/// A value from `--stage`, `--param` or `--parameter-overrides`.
const GIVEN: Unfixable = Unfixable("the value was given for this run, not written in a file");
const LIVE: Unfixable = Unfixable("the value is read from the account, not from a file");
const NOT_HELD: Unfixable = Unfixable("the file is not edited (a plan is generated output)");
const CANNOT: Unfixable =
    Unfixable("the value is not written where sqsguard can replace it (an expression, or a value inside a string)");

/// One file's tree, as its front-end parsed it.
enum Tree {
    /// A CloudFormation or SAM template, or a Serverless service.
    Template { root: Node, json: bool },
    /// A `.tf` or `.tfvars` file.
    Hcl(terraform::Parsed),
    /// A `*.tf.json` or `.tfvars.json` file.
    Json(Node),
}

struct Held {
    file: Source,
    tree: Tree,
    /// Its large maps by key, built as fixes ask (resources by name).
    keys: Keys,
}

/// What the fixes that add a resource or rename a reference must know of
/// a Terraform module folder.
#[derive(Debug, Default)]
struct Module {
    /// `type.name` of every resource its files declare; `None` when a file
    /// of it could not be parsed, so no name can be known to be free.
    declared: Option<HashSet<String>>,
    /// Its calls of terraform-aws-modules/sqs/aws, by name.
    sqs_calls: HashSet<String>,
}

/// The trees of one front-end's files, ready to turn remedies into edits.
#[derive(Default)]
pub struct Writer {
    files: HashMap<PathBuf, Held>,
    modules: HashMap<PathBuf, Module>,
}

impl std::fmt::Debug for Writer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut files: Vec<&PathBuf> = self.files.keys().collect();
        files.sort();
        f.debug_struct("Writer").field("files", &files).field("modules", &self.modules).finish()
    }
}

impl Writer {
    /// The writer of a template or a Serverless service parsed as `root`;
    /// an empty one when the document is neither (nothing to edit).
    pub fn template(file: &Source, root: Node) -> Writer {
        let mut writer = Writer::default();
        if is_fixable_document(&root) {
            let json = sqsguard_syntax::is_json(&file.path, &file.text);
            writer.hold(file, Tree::Template { root, json });
        }
        writer
    }

    /// A `.tf` or `.tfvars` file parsed as `body`.
    pub fn add_hcl(&mut self, file: &Source, body: Body) {
        self.hold(file, Tree::Hcl(terraform::Parsed::new(body)));
    }

    /// A `*.tf.json` or `.tfvars.json` file parsed as `root`.
    pub fn add_json(&mut self, file: &Source, root: Node) {
        self.hold(file, Tree::Json(root));
    }

    /// What the module in `folder` declares (`None` when a file of it did
    /// not parse) and the names of its calls of the registry SQS module.
    pub fn add_module(&mut self, folder: &Path, declared: Option<HashSet<String>>, sqs_calls: HashSet<String>) {
        self.modules.entry(folder.to_path_buf()).or_insert(Module { declared, sqs_calls });
    }

    fn hold(&mut self, file: &Source, tree: Tree) {
        // A plan is never edited, nor a file whose text was freed.
        if !file.text.is_empty() {
            self.files.entry(file.path.clone()).or_insert(Held { file: file.clone(), tree, keys: Keys::default() });
        }
    }

    /// The fix of `remedy`, or why there is none: every operation of its
    /// recipe, or none.
    pub fn fix(&mut self, remedy: &Remedy) -> Result<Fix, Unfixable> {
        if remedy.conditional {
            return Err(CONDITIONAL);
        }
        if remedy.given.is_some() {
            return Err(GIVEN);
        }
        let Origin::File { file, span } = &remedy.at else { return Err(LIVE) };
        let span = *span;
        // A fix of code renames what is written at the span, in the text
        // the origin carries: no tree is held for code (a worker's text is
        // kept no longer than its findings need it).
        if let [Op::Rename { to }] = remedy.ops.as_slice() {
            let edit = code::rename(file, span, to).ok_or(CANNOT)?;
            return Ok(Fix { edits: vec![edit], applicability: remedy.applicability });
        }
        let folder = file.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let Writer { files, modules } = self;
        let module = modules.get(&folder);
        let held = files.get_mut(&file.path).ok_or(NOT_HELD)?;
        let mut fix = Fix { edits: Vec::new(), applicability: remedy.applicability };
        for op in &remedy.ops {
            let (edits, indirect) = apply(held, module, span, remedy, op).ok_or(CANNOT)?;
            fix.edits.extend(edits);
            // A value from a Parameter or variable default (or any value
            // outside the resource) may be shared: changing it is unsafe
            // (docs/fixing.md).
            if indirect {
                fix.applicability = Applicability::Unsafe;
            }
        }
        if fix.edits.is_empty() {
            return Err(CANNOT);
        }
        Ok(fix)
    }
}

/// The edits of one operation in `held`, and whether they lie outside the
/// resource (then the fix is unsafe).
fn apply(held: &mut Held, module: Option<&Module>, span: Span, remedy: &Remedy, op: &Op) -> Option<(Vec<Edit>, bool)> {
    let Held { file, tree, keys } = held;
    let one = |edit: Option<Edit>| edit.map(|e| (vec![e], false));
    match op {
        // Code's operation, which no template has (see `Writer::fix`).
        Op::Rename { .. } => None,
        Op::Set(value) => value_edit(file, tree, keys, span, remedy, value).map(|(e, indirect)| (vec![e], indirect)),
        Op::Replace { old, new } => {
            if render::literal_at(file, span)? != old.as_str() {
                return None;
            }
            value_edit(file, tree, keys, span, remedy, new).map(|(e, indirect)| (vec![e], indirect))
        }
        Op::AddResource(NewResource::Queue(new)) => {
            add_queue(file, tree, keys, module, span, remedy, new).map(|e| (e, false))
        }
        Op::RetargetToArn => one(match tree {
            Tree::Template { root, json } => keys.node_at(root, span).and_then(|n| retarget::template(file, n, *json)),
            Tree::Hcl(_) | Tree::Json(_) => {
                retarget::terraform(file, span, |name| module.is_some_and(|m| m.sqs_calls.contains(name)))
            }
        }),
        Op::SetWithin { map, value } => one(match tree {
            Tree::Template { root, json } => {
                let node = match keys.node_at(root, span) {
                    Some(node) => node,
                    // The resource's key (or a SAM event's): its Properties.
                    None => locate::properties_at(keys, root, &remedy.resource, span)?,
                };
                let (outer, inner) = (Dialect::CloudFormation.name(*map), Dialect::CloudFormation.name(remedy.field?));
                within::within(file, node, *json, outer, inner, value)
            }
            Tree::Hcl(parsed) => {
                let (outer, inner) = (Dialect::Terraform.name(*map), Dialect::Terraform.name(remedy.field?));
                within::hcl_block(file, parsed, span, outer, inner, value)
            }
            Tree::Json(_) => None,
        }),
        // Only a literal goes: a reference or an expression (`!Ref P`,
        // `var.w`, `${self:custom.w}`) would leave what it reads unused,
        // and is the author's. A literal is a word, a number or a
        // timestamp: `TRIM_HORIZON`, `2`, `2024-01-01T00:00:00Z`.
        Op::Remove
            if !render::literal_at(file, span)?.chars().all(|c| c.is_ascii_alphanumeric() || "-_:".contains(c)) =>
        {
            None
        }
        Op::Remove => {
            let field = remedy.field?;
            one(match tree {
                Tree::Template { root, .. } => {
                    remove::node(file, keys.node_at(root, span)?, root, |k| remove::names(field, k))
                }
                Tree::Hcl(parsed) => remove::hcl(file, parsed, span, |k| remove::names(field, k)),
                Tree::Json(root) => remove::node(file, keys.node_at(root, span)?, root, |k| remove::names(field, k)),
            })
        }
        Op::AppendStatement(Statement { service, source, sid, policy }) => {
            let grant = statement::Grant { queue: &remedy.resource, service: *service, source, sid };
            // Declared in the module (nothing is when a file of it did not parse).
            let known = |a: &str| module.and_then(|m| m.declared.as_ref()).is_some_and(|d| d.contains(a));
            one(match (&*tree, policy) {
                (Tree::Template { root, json: false }, None) => {
                    let resources = locate::resources_of(keys, root, &remedy.resource)?;
                    let queue = keys.entry(resources, &remedy.resource).filter(|q| q.key_span == span)?;
                    statement::new_policy(file, keys, resources, queue, &grant)
                }
                (Tree::Template { root, json }, Some(policy)) => {
                    locate::resource(keys, root, policy).and_then(|p| statement::add_statement(file, p, &grant, *json))
                }
                (Tree::Hcl(parsed), None) => {
                    let declared = module.and_then(|m| m.declared.as_ref())?;
                    statement::hcl(file, parsed, span, &grant, |a| declared.contains(a))
                }
                (Tree::Hcl(parsed), Some(p)) => statement_terraform::append(file, parsed, span, &grant, p, known),
                (Tree::Json(root), Some(p)) => {
                    statement_terraform::append_json(file, keys, root, span, &grant, p, known)
                }
                _ => None,
            })
        }
    }
}

/// The edit that writes `value` for `remedy`, and whether it lies outside
/// the resource (a Parameter's Default, a variable's): then it is unsafe.
fn value_edit(
    file: &Source,
    tree: &Tree,
    keys: &mut Keys,
    span: Span,
    remedy: &Remedy,
    value: &Scalar,
) -> Option<(Edit, bool)> {
    match tree {
        Tree::Hcl(parsed) => terraform::hcl(file, parsed, span, remedy, value),
        Tree::Json(root) => {
            // The resource, when it is in the file of the value.
            let found = terraform::json_resource(keys, root, &remedy.resource);
            if remedy.absent {
                let found = found.filter(|f| f.key_span == span)?;
                let name = Dialect::Terraform.name(remedy.field?);
                return Some((insert::insert_member(file, &found.value, name, value)?, false));
            }
            let inside = found.is_some_and(|f| f.value.span.start <= span.start && span.end <= f.value.span.end);
            let edit = match keys.node_at(root, span) {
                Some(node) => {
                    Edit { file: file.clone(), span: node.span, replacement: render::render(file, node, value, true)? }
                }
                // A literal of the expression inside a `"${...}"` string
                // (`maxReceiveCount = 1` in a jsonencode).
                None => render::in_template(file, span, value)?,
            };
            Some((edit, !inside))
        }
        Tree::Template { root, json } => {
            let found = locate::resource(keys, root, &remedy.resource)?;
            if remedy.absent {
                return Some((insert::insert(file, found, span, remedy, value, *json)?, false));
            }
            let inside = found.value.span.start <= span.start && span.end <= found.value.span.end;
            let node = keys.node_at(root, span)?;
            // `!Ref Param`: the value is the parameter's Default.
            let (node, indirect) = match locate::parameter_default(keys, root, node) {
                Some(default) => (default, true),
                None => (node, !inside),
            };
            let replacement = render::render(file, node, value, *json)?;
            Some((Edit { file: file.clone(), span: node.span, replacement }, indirect))
        }
    }
}

/// A new queue and the remedy's field (its RedrivePolicy) pointing at it.
fn add_queue(
    file: &Source,
    tree: &Tree,
    keys: &mut Keys,
    module: Option<&Module>,
    at: Span,
    remedy: &Remedy,
    new: &NewQueue,
) -> Option<Vec<Edit>> {
    if !remedy.absent {
        return None;
    }
    match tree {
        Tree::Template { root, json } => {
            let resources = locate::resources_of(keys, root, &remedy.resource)?;
            let queue = keys.entry(resources, &remedy.resource).filter(|q| q.key_span == at)?;
            add_resource::template(file, keys, resources, queue, *json, new)
        }
        Tree::Hcl(parsed) => {
            let declared = module?.declared.as_ref()?;
            add_resource_terraform::hcl(file, parsed, at, new, |a| declared.contains(a))
        }
        Tree::Json(root) => {
            let declared = module?.declared.as_ref()?;
            let taken = |a: &str| declared.contains(a);
            add_resource_terraform::terraform_json(file, keys, (root, at), &remedy.resource, new, taken)
        }
    }
}

#[cfg(test)]
#[path = "writer_tests.rs"]
mod tests;
