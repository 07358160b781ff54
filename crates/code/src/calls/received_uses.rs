//! The uses of received messages that SQS207's reader ([`super::received`])
//! knows by their words ([`super::received_flow`]): a method called on
//! them, a call they are an argument of, and how a name, a pattern or a Go
//! list of values binds them.

use tree_sitter::Node;

use super::received_flow::*;
use super::*;
use crate::kinds::FUNCTIONS;

impl<'a> Reader<'a> {
    /// A method called on the messages (`name`, plain): `Ok(true)` when its
    /// result holds nothing of them, `Ok(false)` when it carries them.
    pub(super) fn method(&self, name: &str, call: Node<'a>, flow: &mut Flow<'a>) -> Result<bool, String> {
        if VISIBILITY.contains(&name) || PARTS.contains(&name) {
            return Ok(true);
        }
        let args = call.child_by_field_name("arguments");
        // `m.get("Body")`: a part that cannot delete.
        if name == "get"
            && let Some(key) = args.and_then(|a| a.named_child(0))
            && PARTS.contains(&plain(self.text_of(key)).as_str())
        {
            return Ok(true);
        }
        if GETTERS.contains(&name) {
            return Ok(false);
        }
        if ITERATORS.contains(&name) {
            self.callbacks(call, true, flow)?;
            return Ok(false);
        }
        Err(format!("its method `{name}` is called"))
    }

    /// The functions written in a call's arguments are handed the messages:
    /// their parameters hold them. For an iterator (`strict`), a function
    /// named instead (`forEach(handle)`) is code that was not followed.
    pub(super) fn callbacks(&self, call: Node<'a>, strict: bool, flow: &mut Flow<'a>) -> Step {
        let Some(args) = call.child_by_field_name("arguments") else { return Ok(()) };
        for i in 0..args.named_child_count() {
            let Some(arg) = args.named_child(i as u32) else { continue };
            if FUNCTIONS.contains(&arg.kind()) {
                flow.callbacks.insert(arg.id());
                let params = arg.child_by_field_name("parameters").or_else(|| arg.child_by_field_name("parameter"));
                match params {
                    // Node's `(err, data)`: the error holds no message.
                    Some(params) if !strict && params.named_child_count() > 1 => {
                        for i in 1..params.named_child_count() {
                            if let Some(p) = params.named_child(i as u32) {
                                self.bind(p, true, flow)?;
                            }
                        }
                    }
                    Some(params) => self.bind(params, true, flow)?,
                    None => {}
                }
            } else if strict
                && matches!(arg.kind(), "identifier" | "method_reference" | "member_expression" | "attribute")
            {
                return Err(format!("it is handed to `{}`", self.text_of(arg)));
            }
        }
        Ok(())
    }

    /// The messages are an argument of a call.
    pub(super) fn argument(&self, args: Node<'a>, arg: Node<'a>, flow: &mut Flow<'a>) -> Step {
        if self.logs(args) {
            return Ok(());
        }
        let Some(call) = args.parent() else { return Err("it is an argument".to_string()) };
        // As written before its arguments: `process`, `pool.submit`, `new Job`.
        let callee = self.text.get(call.start_byte()..args.start_byte()).unwrap_or_default().trim();
        let callee = callee.strip_prefix("new ").unwrap_or(callee).trim();
        let last = plain(callee.rsplit(['.', ':']).next().unwrap_or(callee));
        if TESTS.contains(&last.as_str()) {
            return Ok(());
        }
        if CONVERSIONS.contains(&last.as_str()) {
            flow.pending.push(call);
            return Ok(());
        }
        if self.passed_to_function(call, arg, callee, flow).is_some() {
            return Ok(());
        }
        Err(format!("it is passed to `{callee}`"))
    }

    /// The messages are bound to `target` (a name, or a pattern of names):
    /// each name holds them. A field, an element or a name declared outside
    /// the function (`declares` false) is where other code may read them.
    pub(super) fn bind(&self, target: Node<'a>, declares: bool, flow: &mut Flow<'a>) -> Step {
        match target.kind() {
            "identifier" if declares || self.text_of(target) == "_" => {
                self.taint(target, flow);
                Ok(())
            }
            "identifier" => Err(format!("it is kept in `{}`, declared outside its function", self.text_of(target))),
            kind if ACCESSES.contains(&kind) => Err(format!("it is kept in `{}`", self.text_of(target))),
            _ => {
                let mut stack = vec![target];
                while let Some(n) = stack.pop() {
                    match n.kind() {
                        "identifier" | "shorthand_property_identifier_pattern" => self.taint(n, flow),
                        // A default value or a type is not a name bound.
                        "type_annotation" | "type_identifier" | "generic_type" => {}
                        kind if ACCESSES.contains(&kind) => {
                            return Err(format!("it is kept in `{}`", self.text_of(n)));
                        }
                        _ => {
                            for i in 0..n.named_child_count() {
                                stack.extend(n.named_child(i as u32));
                            }
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Whether `name` is declared in the function followed (a JavaScript
    /// `let`/`const`, a Go `var` or `:=`, a Java local, a parameter): an
    /// assignment to a name that is not changes what other code reads.
    pub(super) fn declared(&self, name: &str, at: Node<'a>, flow: &Flow<'a>) -> bool {
        // In the function the assignment is in, not in another one followed.
        let mut function = at;
        while let Some(p) = function.parent() {
            function = p;
            if FUNCTIONS.contains(&p.kind()) {
                break;
            }
        }
        let inside = |u: &Node<'a>| function.start_byte() <= u.start_byte() && u.end_byte() <= function.end_byte();
        flow.uses.get(name).is_some_and(|uses| {
            uses.iter().filter(|u| inside(u)).any(|u| {
                u.parent().is_some_and(|p| {
                    let kind = p.kind();
                    (kind == "variable_declarator" || kind == "var_spec")
                        && p.child_by_field_name("name").is_some_and(|n| n.id() == u.id())
                        || kind.contains("parameter")
                        || kind == "expression_list"
                            && p.parent().is_some_and(|s| {
                                s.kind() == "short_var_declaration"
                                    && s.child_by_field_name("left").is_some_and(|l| l.id() == p.id())
                            })
                })
            })
        })
    }

    /// Go: the messages in a list of values: `out, err := client.ReceiveMessage(...)`
    /// binds the first name; `a, b := x, y` the name at the same place.
    pub(super) fn go_list(&self, list: Node<'a>, node: Node<'a>, flow: &mut Flow<'a>) -> Step {
        let Some(stmt) = list.parent() else { return Err("it is in a list".to_string()) };
        let side = |field: &str| stmt.child_by_field_name(field);
        if side("left").is_some_and(|l| l.id() == list.id()) {
            return Ok(());
        }
        match stmt.kind() {
            "short_var_declaration" | "assignment_statement" | "var_spec" | "range_clause" => {
                let left = side("left").or_else(|| side("name"));
                let Some(left) = left else { return Err("it is assigned".to_string()) };
                let at = (0..list.named_child_count())
                    .find(|i| list.named_child(*i as u32).is_some_and(|c| c.id() == node.id()));
                let at = if list.named_child_count() == 1 { 0 } else { at.unwrap_or(0) };
                let target = if left.kind() == "expression_list" { left.named_child(at as u32) } else { Some(left) };
                let Some(target) = target else { return Err("it is assigned".to_string()) };
                let declares = stmt.kind() != "assignment_statement" || self.declared(self.text_of(target), stmt, flow);
                self.bind(target, declares, flow)
            }
            "return_statement" => Err("it is returned".to_string()),
            _ => Err(format!("it is used in `{}`", self.first_line(stmt))),
        }
    }
}
