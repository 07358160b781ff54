//! What stands between a handler's name and the function that answers:
//! a name bound to another name (`exports.handler = handler`), a name
//! re-exported from another module, a Python decorator. Each is followed
//! into code of the repository; behind a package (or anything sqsguard
//! does not read) it is a reason, said in a note, and the handler is not
//! judged. And for Go, the function a `main` passes to `lambda.Start`.

use std::path::Path;

use tree_sitter::Node;

use super::lang::Language;
use super::program::{DefAt, Program};
use super::unit::{Binding, Unit};

/// How many names bound to names are followed.
const MAX_ALIASES: usize = 16;

/// Decorators known to pass the handler's answer through unchanged
/// (Powertools for AWS Lambda's logger, tracer, metrics, event source,
/// parser and idempotency), or to be a batch utility themselves.
const PASS_THROUGH: &[&str] = &[
    "inject_lambda_context",
    "capture_lambda_handler",
    "capture_method",
    "log_metrics",
    "event_source",
    "event_parser",
    "idempotent",
    "idempotent_function",
    "batch_processor",
    "async_batch_processor",
];

/// The syntax node of a definition (the outermost with its span, below
/// the file's own: a file of one statement spans what it holds).
pub(super) fn def_node(unit: &Unit, (start, end): (usize, usize)) -> Option<Node<'_>> {
    let mut node = unit.tree.root_node().descendant_for_byte_range(start, end)?;
    while let Some(parent) = node.parent() {
        if (parent.start_byte(), parent.end_byte()) != (start, end) || parent.parent().is_none() {
            break;
        }
        node = parent;
    }
    ((node.start_byte(), node.end_byte()) == (start, end)).then_some(node)
}

/// The value a name is bound to (`x = value`, `const x = value`).
fn value_of(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "variable_declarator" => node.child_by_field_name("value"),
        "assignment_expression" | "assignment" => node.child_by_field_name("right"),
        "expression_statement" => node.named_child(0).and_then(value_of),
        _ => None,
    }
}

/// Where `name` is imported from in `file` when that module is not read
/// (a package, a path that is not there): the module as written.
pub(super) fn unread_source(program: &mut Program<'_>, file: &Path, name: &str) -> Option<String> {
    let unit = program.unit(file)?;
    let language = unit.language;
    let imports = unit.imports.clone();
    let named = imports.iter().filter(|i| match &i.binding {
        Binding::Name { local, .. } | Binding::Module(local) => local == name,
        Binding::Every => false,
    });
    let every = imports.iter().filter(|i| i.binding == Binding::Every && language != Language::Java);
    for import in named.chain(every) {
        if program.resolve(file, &import.source, language).is_none() {
            return Some(import.source.clone());
        }
    }
    None
}

/// How a module that is not read is said.
pub(super) fn module_words(source: &str) -> String {
    if source.starts_with('.') || source.starts_with('/') {
        format!("`{source}`, which is not found in the code folder")
    } else {
        format!("the package `{source}`, which sqsguard does not read")
    }
}

/// Why `name` is not defined in `file`, when it comes from a module that
/// is not read.
pub(super) fn re_exported(program: &mut Program<'_>, file: &Path, name: &str) -> Option<String> {
    let source = unread_source(program, file, name)?;
    Some(format!("`{name}` is re-exported from {}", module_words(&source)))
}

/// The definition a handler's name stands for: `start` itself when it is
/// a function (or bound to what a call makes), else what the name it is
/// bound to means, followed; why not, when that name comes from code that
/// is not read.
pub(super) fn follow(program: &mut Program<'_>, mut start: DefAt) -> Result<DefAt, String> {
    for _ in 0..MAX_ALIASES {
        let (file, index) = start.clone();
        let Some(unit) = program.unit(&file) else { return Ok(start) };
        let def = &unit.defs[index];
        if def.is_function {
            return Ok(start);
        }
        let (own, span) = (def.name.clone(), (def.span.start, def.span.end));
        let Some(value) = def_node(unit, span).and_then(value_of) else { return Ok(start) };
        let text = |n: Node<'_>| unit.text(super::unit::span(n)).to_string();
        // `handler = process`, or `handler = impl.handler` (a name of a
        // module bound whole): the name, where it comes from, and the
        // name looked up.
        let (name, root, last, called) = match value.kind() {
            "identifier" => (text(value), text(value), text(value), false),
            "attribute" | "member_expression" => {
                let Some(last) =
                    value.child_by_field_name("attribute").or_else(|| value.child_by_field_name("property"))
                else {
                    return Ok(start);
                };
                let mut root = value;
                while let Some(object) = root.child_by_field_name("object") {
                    root = object;
                }
                if root.kind() != "identifier" {
                    return Ok(start);
                }
                (text(value), text(root), text(last), true)
            }
            _ => return Ok(start),
        };
        // A module bound whole: the name is looked up in it.
        let module = unit
            .imports
            .iter()
            .find(|i| called && i.binding == Binding::Module(root.clone()))
            .map(|i| (i.source.clone(), unit.language));
        // `a.b` whose `a` is no module read: `b` is looked up nowhere else
        // (a name of an object the code builds, or of a package, is no
        // function that happens to share its name).
        let found = match module.and_then(|(source, language)| program.resolve(&file, &source, language)) {
            Some(target) => program.lookup(&target, &last, false),
            None if called => Vec::new(),
            None => program.lookup(&file, &last, false),
        };
        let found: Vec<DefAt> = found.into_iter().filter(|d| *d != start).collect();
        let best = found.into_iter().max_by_key(|(f, i)| program.unit(f).is_some_and(|u| u.defs[*i].is_function));
        match best {
            Some(next) => start = next,
            None => {
                return Err(match unread_source(program, &file, &root) {
                    Some(source) => format!("`{own}` is `{name}` of {}", module_words(&source)),
                    None => format!("`{own}` is `{name}`, which sqsguard does not find"),
                });
            }
        }
    }
    // Names bound to names past the limit (or in a circle): not followed,
    // so the body reached is not known to be the handler's.
    Err(format!("the handler is a name bound to names more than {MAX_ALIASES} deep, which sqsguard does not follow"))
}

/// The decorators of a Python handler: the definitions of those written
/// in the code read (followed as part of its body), and why its answer is
/// not known when one is not read.
pub(super) fn decorators(program: &mut Program<'_>, start: &DefAt) -> (Vec<DefAt>, Option<String>) {
    let mut followed = Vec::new();
    let Some(unit) = program.unit(&start.0) else { return (followed, None) };
    let def = &unit.defs[start.1];
    if unit.language != Language::Python {
        return (followed, None);
    }
    let handler = def.name.clone();
    // The function's own definition is found with or without them.
    let node = def_node(unit, (def.span.start, def.span.end))
        .map(|n| n.parent().filter(|p| p.kind() == "decorated_definition").unwrap_or(n));
    let Some(node) = node.filter(|n| n.kind() == "decorated_definition") else {
        return (followed, None);
    };
    let mut written = Vec::new();
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    drop(cursor);
    for decorator in children.into_iter().filter(|c| c.kind() == "decorator") {
        let Some(mut expr) = decorator.named_child(0) else { continue };
        let text = unit.text(super::unit::span(expr)).to_string();
        if expr.kind() == "call"
            && let Some(f) = expr.child_by_field_name("function")
        {
            expr = f;
        }
        let last = match expr.kind() {
            "attribute" => expr.child_by_field_name("attribute"),
            "identifier" => Some(expr),
            _ => None,
        };
        let mut root = expr;
        while let Some(object) = root.child_by_field_name("object") {
            root = object;
        }
        let last = last.map(|l| unit.text(super::unit::span(l)).to_string());
        let root = (root.kind() == "identifier").then(|| unit.text(super::unit::span(root)).to_string());
        written.push((text, last, root));
    }
    let mut why = None;
    for (text, last, root) in written {
        let Some(last) = last else {
            why.get_or_insert(format!("`{handler}` is decorated with `@{text}`, which sqsguard does not read"));
            continue;
        };
        if PASS_THROUGH.contains(&last.as_str()) {
            continue;
        }
        let mut found = program.lookup(&start.0, &last, true);
        found.retain(|(f, i)| program.unit(f).is_some_and(|u| u.defs[*i].is_function));
        if found.is_empty() {
            let from = root.and_then(|r| unread_source(program, &start.0, &r));
            let from = from.map_or_else(String::new, |s| format!(" (from `{s}`)"));
            why.get_or_insert(format!("`{handler}` is decorated with `@{text}`{from}, which sqsguard does not read"));
        }
        followed.extend(found);
    }
    (followed, why)
}

/// The function a Go `main` passes to `lambda.Start`, defined in any file
/// of its package.
pub(super) fn started(program: &mut Program<'_>, file: &Path) -> Result<String, String> {
    let Some(unit) = program.unit(file) else { return Err(format!("{} was not read", super::shown(file))) };
    let mut passed: Vec<String> = Vec::new();
    let starts = unit.calls.iter().filter(|(_, callee)| callee == "Start" || callee == "StartWithOptions");
    for (start, _) in starts {
        // The arguments passed by name inside that call.
        passed.extend(
            unit.calls.iter().filter(|(s, _)| start.start < s.start && s.end <= start.end).map(|(_, n)| n.clone()),
        );
    }
    for name in passed {
        if !program.lookup(file, &name, false).is_empty() {
            return Ok(name);
        }
    }
    Err(format!("{} passes no function of its package to lambda.Start", super::shown(file)))
}
