//! What a flat pattern leaves to the reader: the fields of the node it
//! captured. A pattern that spells a shape out below an expression costs
//! the query compiler half a millisecond to a few, every run that reads the
//! language (docs/speed.md, "Compiling the patterns"), so the patterns of
//! `rules/code/` match such nodes by kind and text, and these read the
//! name, key or variable from the node's own fields, the same node the
//! spelt-out pattern captured.

use tree_sitter::Node;

/// The name a call calls: `f` of `f(...)`, and the last part of
/// `obj.f(...)` (Python's attribute, JavaScript's member, Go's selector);
/// none for any other callee (`f()()`, `handlers[k]()`). The calls and
/// returns patterns capture the call alone and leave this to the reader:
/// the same shape spelt out in a pattern costs the query compiler about a
/// millisecond for each pattern it appears in (docs/speed.md).
pub(crate) fn callee_name(call: Node<'_>) -> Option<Node<'_>> {
    // `new F(...)` and `new m.F(...)` name their class the same way.
    let function = call.child_by_field_name("function").or_else(|| call.child_by_field_name("constructor"))?;
    let (field, kind) = match function.kind() {
        "identifier" => return Some(function),
        "attribute" => ("attribute", "identifier"),
        "member_expression" => ("property", "property_identifier"),
        "selector_expression" => ("field", "field_identifier"),
        _ => return None,
    };
    function.child_by_field_name(field).filter(|name| name.kind() == kind)
}

/// The calls a match of the calls pattern is, each with the name it
/// calls: `@call` and its `@callee`, or the call's own
/// ([`callee_name`]); `new F(...)`, the class when it is a name
/// (`new m.F(...)` is not read as a call); a function passed by name
/// (`@call` an argument list: `records.map(processRecord)`), each name
/// passed.
pub(crate) fn calls<'t>(call: Option<Node<'t>>, callee: Option<Node<'t>>) -> Vec<(Node<'t>, Node<'t>)> {
    let Some(call) = call else { return Vec::new() };
    if let Some(callee) = callee {
        return vec![(call, callee)];
    }
    match call.kind() {
        "new_expression" => call
            .child_by_field_name("constructor")
            .filter(|c| c.kind() == "identifier")
            .map(|c| (call, c))
            .into_iter()
            .collect(),
        "arguments" => {
            named_children(call).into_iter().filter(|a| a.kind() == "identifier").map(|a| (call, a)).collect()
        }
        _ => callee_name(call).map(|c| (call, c)).into_iter().collect(),
    }
}

/// The name a Python decorator applies: `d` of `@d` and of `@d(...)`; none
/// for `@m.d` and other expressions.
pub(crate) fn decorated_name(decorator: Node<'_>) -> Option<Node<'_>> {
    let applied = decorator.named_child(0)?;
    match applied.kind() {
        "identifier" => Some(applied),
        "call" => applied.child_by_field_name("function").filter(|f| f.kind() == "identifier"),
        _ => None,
    }
}

/// The module a `require(...)` call names: the text of its first
/// argument when that is a string.
pub(crate) fn required_module(call: Node<'_>) -> Option<Node<'_>> {
    let first = call.child_by_field_name("arguments")?.named_child(0).filter(|a| a.kind() == "string")?;
    let mut cursor = first.walk();
    first.named_children(&mut cursor).find(|c| c.kind() == "string_fragment")
}

/// The module an `import ... from "M"` statement names: the text of its
/// string.
pub(crate) fn imported_module(statement: Node<'_>) -> Option<Node<'_>> {
    let source = statement.child_by_field_name("source").filter(|s| s.kind() == "string")?;
    named_children(source).into_iter().find(|c| c.kind() == "string_fragment")
}

/// The name an assignment defines: `h` of `exports.h = ...` and
/// `module.exports.h = ...` (the property assigned); none when the target
/// is not a property.
pub(crate) fn assigned_name(assignment: Node<'_>) -> Option<Node<'_>> {
    let left = assignment.child_by_field_name("left").filter(|l| l.kind() == "member_expression")?;
    left.child_by_field_name("property").filter(|p| p.kind() == "property_identifier")
}

/// The name a definition the definitions pattern captures defines, read
/// from its fields: the name of a function or method (`def f`, `function
/// f`, `const f = ...`, `f() {}` in a class), of the function a Python
/// decorated definition decorates, of a Python assignment at the module's
/// top level (`handler = wrap(main)`), of `exports.h = ...`
/// ([`assigned_name`]); none for another name (a destructuring, a computed
/// or private method name) or a Python assignment below the top level.
pub(crate) fn defined_name(def: Node<'_>) -> Option<Node<'_>> {
    const NAMES: &[&str] = &["identifier", "property_identifier"];
    match def.kind() {
        "decorated_definition" => {
            defined_name(def.child_by_field_name("definition").filter(|d| d.kind() == "function_definition")?)
        }
        "assignment_expression" => assigned_name(def),
        "assignment" => {
            let statement = def.parent().filter(|p| p.kind() == "expression_statement")?;
            statement.parent().filter(|p| p.kind() == "module")?;
            def.child_by_field_name("left").filter(|l| l.kind() == "identifier")
        }
        _ => def.child_by_field_name("name").filter(|n| NAMES.contains(&n.kind())),
    }
}

/// The names a binding the assignments pattern captures binds, each with
/// its value and whether the name is a property of the value (`const { A
/// } = process.env`): `x = v` (Python and JavaScript), `const x = v`,
/// `const { A, B } = v`; none for another target (`o.k = v`, `[a] = v`)
/// or a declaration without a value.
pub(crate) fn bindings(node: Node<'_>) -> Vec<(Node<'_>, Node<'_>, bool)> {
    let (name, value) = match node.kind() {
        "assignment" | "assignment_expression" => (node.child_by_field_name("left"), node.child_by_field_name("right")),
        "variable_declarator" => (node.child_by_field_name("name"), node.child_by_field_name("value")),
        _ => return Vec::new(),
    };
    let (Some(name), Some(value)) = (name, value.filter(|v| v.is_named())) else { return Vec::new() };
    match name.kind() {
        "identifier" => vec![(name, value, false)],
        "object_pattern" if node.kind() == "variable_declarator" => named_children(name)
            .into_iter()
            .filter(|c| c.kind() == "shorthand_property_identifier_pattern")
            .map(|c| (c, value, true))
            .collect(),
        _ => Vec::new(),
    }
}

/// What a method call is called on: `obj` of `obj.f(...)` (Python's
/// attribute, JavaScript's member, Go's selector); none for a plain
/// function's call or a constructor's.
pub(crate) fn callee_object(call: Node<'_>) -> Option<Node<'_>> {
    let function = call.child_by_field_name("function")?;
    let field = match function.kind() {
        "attribute" | "member_expression" => "object",
        "selector_expression" => "operand",
        _ => return None,
    };
    function.child_by_field_name(field)
}

/// The variable an environment read the env-reads pattern captures as
/// `@env_read` names: the string key of Python's `environ["X"]` and
/// JavaScript's `process.env["X"]`, the first argument of
/// `environ.get("X")` / `getenv("X")` when it is a string, the property of
/// `process.env.X`.
pub(crate) fn env_variables(read: Node<'_>) -> Vec<Node<'_>> {
    match read.kind() {
        "subscript" => strings(read, "subscript", "string_content"),
        "subscript_expression" => strings(read, "index", "string_fragment"),
        "member_expression" => {
            read.child_by_field_name("property").filter(|p| p.kind() == "property_identifier").into_iter().collect()
        }
        "call" => {
            let first = read.child_by_field_name("arguments").and_then(|a| a.named_child(0));
            let Some(string) = first.filter(|f| f.kind() == "string") else { return Vec::new() };
            let mut cursor = string.walk();
            string.named_children(&mut cursor).filter(|c| c.kind() == "string_content").collect()
        }
        _ => Vec::new(),
    }
}

/// The keys a node the response-keys pattern captures as `@written`
/// writes, each with the value written when there is one:
/// - a Python subscript: each string key (`r["k"]`, its text without
///   quotes), with the value assigned when the subscript is the target of
///   an assignment (`r["k"] = v`);
/// - a dictionary's or an object's pair: its key (a name, or the text of a
///   string without quotes) and its value;
/// - a Python call (of `dict`, which the pattern checks): each keyword
///   argument, with its value (`dict(batchItemFailures=[])`);
/// - a JavaScript assignment: `o.k = v` and `o["k"] = v`.
pub(crate) fn written_keys(node: Node<'_>) -> Vec<(Node<'_>, Option<Node<'_>>)> {
    match node.kind() {
        "subscript" => {
            let assigned = node.parent().filter(|p| {
                p.kind() == "assignment" && p.child_by_field_name("left").is_some_and(|l| l.id() == node.id())
            });
            let value = assigned.and_then(|a| a.child_by_field_name("right"));
            strings(node, "subscript", "string_content").into_iter().map(|k| (k, value)).collect()
        }
        // `{"k": v}`, `{k: v}`: the key, a name or each part of a string's text.
        "pair" => {
            let key = node.child_by_field_name("key");
            let (Some(key), Some(value)) = (key, node.child_by_field_name("value").filter(|v| v.is_named())) else {
                return Vec::new();
            };
            let keys = match key.kind() {
                "property_identifier" => vec![key],
                "string" => named_children(key)
                    .into_iter()
                    .filter(|c| c.kind() == "string_content" || c.kind() == "string_fragment")
                    .collect(),
                _ => Vec::new(),
            };
            keys.into_iter().map(|k| (k, Some(value))).collect()
        }
        // `dict(k=v, ...)`: each keyword argument.
        "call" => {
            let Some(args) = node.child_by_field_name("arguments").filter(|a| a.kind() == "argument_list") else {
                return Vec::new();
            };
            let mut cursor = args.walk();
            let keywords: Vec<Node<'_>> =
                args.named_children(&mut cursor).filter(|a| a.kind() == "keyword_argument").collect();
            keywords
                .into_iter()
                .filter_map(|k| {
                    let name = k.child_by_field_name("name").filter(|n| n.kind() == "identifier")?;
                    Some((name, Some(k.child_by_field_name("value")?)))
                })
                .collect()
        }
        "assignment_expression" => {
            let (Some(left), Some(value)) = (node.child_by_field_name("left"), node.child_by_field_name("right"))
            else {
                return Vec::new();
            };
            let keys = match left.kind() {
                "member_expression" => left
                    .child_by_field_name("property")
                    .filter(|p| p.kind() == "property_identifier")
                    .into_iter()
                    .collect(),
                "subscript_expression" => strings(left, "index", "string_fragment"),
                _ => Vec::new(),
            };
            keys.into_iter().map(|k| (k, Some(value))).collect()
        }
        _ => Vec::new(),
    }
}

/// The calls a return returns: the call a return statement returns, or an
/// arrow function's expression body is, awaited or not (`return f()`,
/// `return await f()`, `() => f()`).
pub(crate) fn returned_calls(node: Node<'_>) -> Vec<Node<'_>> {
    const CALLS: &[&str] = &["call", "call_expression"];
    const AWAITS: &[&str] = &["await", "await_expression"];
    let returned = match node.kind() {
        "arrow_function" => node.child_by_field_name("body").into_iter().collect(),
        _ => named_children(node),
    };
    returned
        .into_iter()
        .flat_map(|r| match r.kind() {
            k if CALLS.contains(&k) => vec![r],
            k if AWAITS.contains(&k) => named_children(r).into_iter().filter(|c| CALLS.contains(&c.kind())).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// The named children of `node`, in order.
pub(crate) fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// The `content` children of the strings in `parent`'s `field`.
fn strings<'t>(parent: Node<'t>, field: &str, content: &str) -> Vec<Node<'t>> {
    let mut cursor = parent.walk();
    let fields: Vec<Node<'t>> =
        parent.children_by_field_name(field, &mut cursor).filter(|s| s.kind() == "string").collect();
    fields
        .into_iter()
        .flat_map(|s| {
            let mut inner = s.walk();
            s.named_children(&mut inner).filter(|c| c.kind() == content).collect::<Vec<_>>()
        })
        .collect()
}
