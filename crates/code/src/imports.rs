//! Where a unit's names come from: the imports pattern's matches read into
//! [`Import`]s. Imports written as statements (`import`, `from ... import`,
//! `export ... from`, Go's and Java's) are spelt out in the pattern files;
//! a CommonJS `require("./lib")` is matched once, as the call, and what it
//! binds is read here from where the call stands: the same shapes written
//! as patterns cost the query compiler about 15 ms for JavaScript and
//! twice that for TypeScript (docs/speed.md).

use tree_sitter::Node;

use super::fields::{self, named_children as named};
use super::query::Match;

/// Where a name of another file comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The module as written (`pkg.mod`, `.mod`, `./lib`; in Java the
    /// class extended).
    pub source: String,
    pub binding: Binding,
}

/// What an import binds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// The module's `name`, bound here to `local`.
    Name { name: String, local: String },
    /// The whole module, bound to a name (`import * as m`, `import pkg.mod`).
    Module(String),
    /// Every name of the module (`export * from`, `from m import *`, the
    /// methods of a class extended).
    Every,
}

/// The imports a match of the imports pattern names, added to `imports`
/// (once each); the Go package clause sets `package`.
pub(crate) fn read(m: &Match<'_, '_>, imports: &mut Vec<Import>, package: &mut Option<String>) {
    if let Some(clause) = m.node("package") {
        *package = Some(m.text(clause));
        return;
    }
    if let Some(statement) = ["from_import", "module_import", "es_import", "es_export"].iter().find_map(|c| m.node(c)) {
        for (source, binding) in statement_bindings(statement) {
            let binding = match binding {
                Bound::Name(name, local) => Binding::Name { name: m.text(name), local: m.text(local) },
                Bound::Module(local) => Binding::Module(m.text(local)),
                Bound::Every => Binding::Every,
            };
            let import = Import { source: m.text(source), binding };
            if !imports.contains(&import) {
                imports.push(import);
            }
        }
        return;
    }
    let source = m.node("source").or_else(|| m.node("required").and_then(fields::required_module));
    let Some(source) = source.map(|n| m.text(n)) else { return };
    let bindings = if let Some(call) = m.node("required") {
        required(call, m)
    } else if m.node("star").is_some() {
        vec![Binding::Every]
    } else if let Some(local) = m.node("namespace") {
        vec![Binding::Module(m.text(local))]
    } else if let Some(name) = m.node("name").map(|n| m.text(n)) {
        let local = m.node("alias").map_or_else(|| name.clone(), |a| m.text(a));
        vec![Binding::Name { name, local }]
    } else {
        Vec::new()
    };
    for binding in bindings {
        let import = Import { source: source.clone(), binding };
        if !imports.contains(&import) {
            imports.push(import);
        }
    }
}

/// A [`Binding`] by the nodes it names.
#[derive(Clone, Copy)]
enum Bound<'t> {
    Name(Node<'t>, Node<'t>),
    Module(Node<'t>),
    Every,
}

/// What an import statement binds, each with the node of the module it
/// names, in the order written (the statement is matched whole, its parts
/// read here: spelt out in the patterns, the shapes cost the query
/// compiler 1.5 ms for Python, 6 for JavaScript):
/// - Python `from M import a, b as c, *`, `import a.b, c as d`;
/// - JavaScript `import d, { a, b as c }, * as n from "M"` and
///   `export { a, b as c }, * from "M"`.
fn statement_bindings(statement: Node<'_>) -> Vec<(Node<'_>, Bound<'_>)> {
    let mut found: Vec<(Node<'_>, Bound<'_>)> = Vec::new();
    match statement.kind() {
        "import_from_statement" => {
            let Some(source) = statement.child_by_field_name("module_name").filter(|s| s.is_named()) else {
                return found;
            };
            let mut cursor = statement.walk();
            let names: Vec<Node<'_>> = statement.children_by_field_name("name", &mut cursor).collect();
            for name in names {
                match name.kind() {
                    "dotted_name" => found.push((source, Bound::Name(name, name))),
                    "aliased_import" => {
                        if let (Some(n), Some(a)) =
                            (field(name, "name", "dotted_name"), field(name, "alias", "identifier"))
                        {
                            found.push((source, Bound::Name(n, a)));
                        }
                    }
                    _ => {}
                }
            }
            if named(statement).iter().any(|c| c.kind() == "wildcard_import") {
                found.push((source, Bound::Every));
            }
        }
        "import_statement" if statement.child_by_field_name("source").is_none() => {
            let mut cursor = statement.walk();
            let names: Vec<Node<'_>> = statement.children_by_field_name("name", &mut cursor).collect();
            for name in names {
                match name.kind() {
                    "dotted_name" => found.push((name, Bound::Module(name))),
                    "aliased_import" => {
                        if let (Some(n), Some(a)) =
                            (field(name, "name", "dotted_name"), field(name, "alias", "identifier"))
                        {
                            found.push((n, Bound::Module(a)));
                        }
                    }
                    _ => {}
                }
            }
        }
        "import_statement" | "export_statement" => {
            let Some(string) = field(statement, "source", "string") else { return found };
            let mut bound: Vec<Bound<'_>> = Vec::new();
            for part in named(statement) {
                match part.kind() {
                    "import_clause" => {
                        for c in named(part) {
                            match c.kind() {
                                "identifier" => bound.push(Bound::Module(c)),
                                "namespace_import" => bound.extend(
                                    named(c).into_iter().filter(|i| i.kind() == "identifier").map(Bound::Module),
                                ),
                                "named_imports" => bound.extend(specifiers(named(c), "import_specifier")),
                                _ => {}
                            }
                        }
                    }
                    "export_clause" => bound.extend(specifiers(named(part), "export_specifier")),
                    _ => {}
                }
            }
            let mut cursor = statement.walk();
            if statement.kind() == "export_statement" && statement.children(&mut cursor).any(|c| c.kind() == "*") {
                bound.push(Bound::Every);
            }
            let sources: Vec<Node<'_>> = named(string).into_iter().filter(|f| f.kind() == "string_fragment").collect();
            for source in sources {
                found.extend(bound.iter().map(|&b| (source, b)));
            }
        }
        _ => {}
    }
    found
}

/// The child of `node` in `field`, when it is a `kind`.
fn field<'t>(node: Node<'t>, field: &str, kind: &str) -> Option<Node<'t>> {
    node.child_by_field_name(field).filter(|c| c.kind() == kind)
}

/// The names `{ a, b as c }` imports or exports: an identifier, renamed
/// to an identifier or not.
fn specifiers<'t>(children: Vec<Node<'t>>, kind: &str) -> Vec<Bound<'t>> {
    children
        .into_iter()
        .filter(|s| s.kind() == kind)
        .filter_map(|s| {
            let name = s.child_by_field_name("name").filter(|n| n.kind() == "identifier")?;
            match s.child_by_field_name("alias") {
                None => Some(Bound::Name(name, name)),
                Some(alias) if alias.kind() == "identifier" => Some(Bound::Name(name, alias)),
                Some(_) => None,
            }
        })
        .collect()
}

/// What a `require(...)` call binds, from where it stands:
/// - `const lib = require(...)`: the module;
/// - `const { f, g: h } = require(...)`: `f` as `f`, `g` as `h`;
/// - `const h = require(...).g`, `exports.h = require(...).g`: `g` as `h`;
/// - `module.exports = require(...)`: every name.
///
/// Anything else (`require(...)` passed along, called, spread) binds
/// nothing this reader follows.
fn required(call: Node<'_>, m: &Match<'_, '_>) -> Vec<Binding> {
    let Some(parent) = call.parent() else { return Vec::new() };
    let is = |field: &str, node: Node<'_>| parent.child_by_field_name(field).is_some_and(|n| n.id() == node.id());
    match parent.kind() {
        "variable_declarator" if is("value", call) => match parent.child_by_field_name("name") {
            Some(name) if name.kind() == "identifier" => vec![Binding::Module(m.text(name))],
            Some(pattern) if pattern.kind() == "object_pattern" => destructured(pattern, m),
            _ => Vec::new(),
        },
        "member_expression" if is("object", call) => {
            let Some(name) = parent.child_by_field_name("property").filter(|p| p.kind() == "property_identifier")
            else {
                return Vec::new();
            };
            let name = m.text(name);
            bound_to(parent, m).map(|local| vec![Binding::Name { name, local }]).unwrap_or_default()
        }
        "assignment_expression" if is("right", call) => {
            let left = parent.child_by_field_name("left").filter(|l| l.kind() == "member_expression");
            let object = left.and_then(|l| l.child_by_field_name("object")).filter(|o| o.kind() == "identifier");
            let property = left.and_then(|l| l.child_by_field_name("property"));
            match (object, property) {
                (Some(o), Some(p))
                    if p.kind() == "property_identifier" && m.text(o) == "module" && m.text(p) == "exports" =>
                {
                    vec![Binding::Every]
                }
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// The names `const { f, g: h } = require(...)` binds.
fn destructured(pattern: Node<'_>, m: &Match<'_, '_>) -> Vec<Binding> {
    let mut cursor = pattern.walk();
    pattern
        .named_children(&mut cursor)
        .filter_map(|child| match child.kind() {
            "shorthand_property_identifier_pattern" => {
                let name = m.text(child);
                Some(Binding::Name { local: name.clone(), name })
            }
            "pair_pattern" => {
                let key = child.child_by_field_name("key").filter(|k| k.kind() == "property_identifier")?;
                let value = child.child_by_field_name("value").filter(|v| v.kind() == "identifier")?;
                Some(Binding::Name { name: m.text(key), local: m.text(value) })
            }
            _ => None,
        })
        .collect()
}

/// The local name `require(...).g` is bound to: `const h = ...` or
/// `exports.h = ...` (any object's property).
fn bound_to(member: Node<'_>, m: &Match<'_, '_>) -> Option<String> {
    let parent = member.parent()?;
    let is = |field: &str| parent.child_by_field_name(field).is_some_and(|n| n.id() == member.id());
    match parent.kind() {
        "variable_declarator" if is("value") => {
            parent.child_by_field_name("name").filter(|n| n.kind() == "identifier").map(|n| m.text(n))
        }
        "assignment_expression" if is("right") => parent
            .child_by_field_name("left")
            .filter(|l| l.kind() == "member_expression")?
            .child_by_field_name("property")
            .filter(|p| p.kind() == "property_identifier")
            .map(|p| m.text(p)),
        _ => None,
    }
}
