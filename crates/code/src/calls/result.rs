//! What becomes of a batch call's result (dropped, kept unread, read), and
//! whose code a call is.

use tree_sitter::Node;

use super::*;

impl<'a> Reader<'a> {
    /// What becomes of a batch call's result.
    pub(super) fn result(&self, call: Node<'a>) -> ResultUse {
        let mut node = call;
        // JavaScript v3: the command's result is what `send` returns.
        if call.kind() == "new_expression" {
            match self.sent(call) {
                Some(send) => node = send,
                None => return ResultUse::Unknown,
            }
        }
        for _ in 0..16 {
            let Some(parent) = node.parent() else { return ResultUse::Unknown };
            match parent.kind() {
                "await" | "await_expression" | "parenthesized_expression" | "as_expression" | "non_null_expression" => {
                    node = parent;
                }
                // `.promise()`, `.join()`, `.get()`: the same result, later.
                "member_expression" | "method_invocation" | "attribute"
                    if parent
                        .child_by_field_name("property")
                        .or_else(|| parent.child_by_field_name("name"))
                        .or_else(|| parent.child_by_field_name("attribute"))
                        .is_some_and(|p| matches!(self.text_of(p), "promise" | "join" | "get" | "result"))
                        && parent.child_by_field_name("object").is_some_and(|o| o.id() == node.id()) =>
                {
                    node = if parent.kind() == "member_expression" {
                        match parent.parent() {
                            Some(p) if matches!(p.kind(), "call_expression") => p,
                            _ => return ResultUse::Checked,
                        }
                    } else {
                        parent
                    };
                }
                "expression_statement" => return ResultUse::Discarded,
                "assignment" | "assignment_expression" | "variable_declarator" => {
                    let target = parent.child_by_field_name("left").or_else(|| parent.child_by_field_name("name"));
                    return match target {
                        Some(t) if t.kind() == "identifier" => self.failed_read(self.text_of(t), call),
                        Some(t) if t.kind() == "object_pattern" => {
                            if self.text_of(t).contains("Failed") {
                                ResultUse::Checked
                            } else {
                                ResultUse::FailedUnread
                            }
                        }
                        _ => ResultUse::Checked,
                    };
                }
                // Go: `out, err := client.SendMessageBatch(...)`.
                "expression_list" => {
                    let Some(stmt) = parent.parent() else { return ResultUse::Unknown };
                    match stmt.kind() {
                        "short_var_declaration" | "assignment_statement" => {
                            let first = stmt.child_by_field_name("left").and_then(|l| l.named_child(0));
                            return match first.map(|f| self.text_of(f)) {
                                Some("_") => ResultUse::Discarded,
                                Some(name) => self.failed_read(name, call),
                                None => ResultUse::Unknown,
                            };
                        }
                        _ => return ResultUse::Checked,
                    }
                }
                _ => return ResultUse::Checked,
            }
        }
        ResultUse::Unknown
    }

    /// The `send(...)` call a v3 command is sent with: the command passed
    /// directly, or a name bound to it passed in the same function.
    pub(super) fn sent(&self, command: Node<'a>) -> Option<Node<'a>> {
        let is_send = |call: Node<'a>| {
            call.kind() == "call_expression"
                && call
                    .child_by_field_name("function")
                    .and_then(|f| f.child_by_field_name("property"))
                    .is_some_and(|p| self.text_of(p) == "send")
        };
        let parent = command.parent()?;
        if parent.kind() == "arguments" {
            let call = parent.parent()?;
            return is_send(call).then_some(call);
        }
        if parent.kind() != "variable_declarator" && parent.kind() != "assignment_expression" {
            return None;
        }
        let name = parent.child_by_field_name("name").or_else(|| parent.child_by_field_name("left"))?;
        let name = self.text_of(name);
        let scope = self.innermost(command.start_byte());
        let root = self.unit.tree.root_node();
        let (from, to) = scope.map_or((0, self.text.len()), |s| (s.start, s.end));
        let mut stack = vec![root.descendant_for_byte_range(from, to)?];
        while let Some(n) = stack.pop() {
            if n.start_byte() > command.end_byte()
                && is_send(n)
                && n.child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                    .is_some_and(|a| self.text_of(a) == name)
            {
                return Some(n);
            }
            for i in (0..n.named_child_count()).rev() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        None
    }

    /// Whether the result bound to `name` by `call` has its `Failed` list
    /// read (or leaves the function) after it.
    pub(super) fn failed_read(&self, name: &str, call: Node<'a>) -> ResultUse {
        const READS: &[&str] = &[
            ".Failed",
            "?.Failed",
            "[\"Failed\"]",
            "['Failed']",
            ".get(\"Failed\"",
            ".get('Failed'",
            ".failed()",
            ".getFailed()",
            ".hasFailed()",
        ];
        let scope = self.innermost(call.start_byte());
        let (from, to) = scope.map_or((call.end_byte(), self.text.len()), |s| (call.end_byte(), s.end));
        let root = self.unit.tree.root_node();
        let Some(within) = root.descendant_for_byte_range(from.min(to), to) else { return ResultUse::Unknown };
        // The node that holds the whole rest of the function.
        let mut within = within;
        while within.end_byte() < to || within.start_byte() > call.start_byte() {
            match within.parent() {
                Some(p) => within = p,
                None => break,
            }
        }
        let mut stack = vec![within];
        while let Some(n) = stack.pop() {
            if n.start_byte() >= from && n.kind() == "identifier" && self.text_of(n) == name {
                let rest = self.text.get(n.end_byte()..).unwrap_or_default();
                let rest: String = rest.chars().take(24).filter(|c| !c.is_whitespace()).collect();
                // A read that is only printed or logged is no check: the
                // failed entries are still lost. Look for another read.
                if READS.iter().any(|r| rest.starts_with(r)) && !self.only_logged(n) {
                    return ResultUse::Checked;
                }
                if let Some(p) = n.parent() {
                    let leaves = match p.kind() {
                        // Printed or logged whole, it is not read.
                        "argument_list" | "arguments" => !self.logs(p),
                        "return_statement"
                        | "pair"
                        | "keyword_argument"
                        | "shorthand_property_identifier"
                        | "list"
                        | "array"
                        | "yield" => true,
                        "expression_list" => p.parent().is_some_and(|g| g.kind() == "return_statement"),
                        _ => false,
                    };
                    if leaves {
                        return ResultUse::Checked;
                    }
                }
            }
            if n.kind() == "shorthand_property_identifier" && self.text_of(n) == name && n.start_byte() >= from {
                return ResultUse::Checked;
            }
            for i in 0..n.named_child_count() {
                if let Some(c) = n.named_child(i as u32) {
                    stack.push(c);
                }
            }
        }
        ResultUse::FailedUnread
    }

    /// Whether the read of `Failed` that starts at `name` (the result's
    /// name) is only printed or logged: an argument of a logging call, or
    /// the condition of an `if` (with no `else`) or the list of a `for`
    /// whose body does nothing but log (no retry, no raise, no return).
    fn only_logged(&self, name: Node<'a>) -> bool {
        /// Expressions the read can sit in on its way to a statement.
        const EXPRESSION: &[&str] = &[
            "call",
            "call_expression",
            "method_invocation",
            "attribute",
            "member_expression",
            "subscript",
            "subscript_expression",
            "selector_expression",
            "index_expression",
            "field_access",
            "parenthesized_expression",
            "comparison_operator",
            "binary_expression",
            "binary_operator",
            "boolean_operator",
            "unary_expression",
            "not_operator",
            "optional_chain",
            "interpolation",
            "string",
            "template_substitution",
            "template_string",
        ];
        let mut node = name;
        for _ in 0..16 {
            let Some(parent) = node.parent() else { return false };
            let is = |field: &str| parent.child_by_field_name(field).is_some_and(|c| c.id() == node.id());
            match parent.kind() {
                "argument_list" | "arguments" if self.logs(parent) => return true,
                // An `if` with an `else`/`elif` may handle the failures in
                // that branch (`if not failed: log() else: raise`): a check.
                "if_statement" => {
                    return is("condition")
                        && parent.child_by_field_name("alternative").is_none()
                        && parent.child_by_field_name("consequence").is_some_and(|b| self.only_logs(b));
                }
                "for_statement" | "for_in_statement" | "enhanced_for_statement" => {
                    // The list iterated: Python's and JavaScript's `right`,
                    // Java's `value`, Go's range clause.
                    let list = is("right") || is("value") || node.kind() == "range_clause";
                    return list && parent.child_by_field_name("body").is_some_and(|b| self.only_logs(b));
                }
                // Go: `for _, f := range out.Failed`.
                "range_clause" if is("right") => node = parent,
                kind if kind == "argument_list" || kind == "arguments" || EXPRESSION.contains(&kind) => node = parent,
                _ => return false,
            }
        }
        false
    }

    /// Whether a block (or a single statement) does nothing but print or
    /// log: each statement a logging call, `pass`, `continue` or a comment.
    fn only_logs(&self, body: Node<'a>) -> bool {
        let mut logged = false;
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            match n.kind() {
                "block" | "statement_block" | "statement_list" => {
                    for i in 0..n.named_child_count() {
                        if let Some(c) = n.named_child(i as u32) {
                            stack.push(c);
                        }
                    }
                }
                "expression_statement" => {
                    let arguments = n.named_child(0).and_then(|call| call.child_by_field_name("arguments"));
                    if !arguments.is_some_and(|a| self.logs(a)) {
                        return false;
                    }
                    logged = true;
                }
                "comment" | "line_comment" | "block_comment" | "pass_statement" | "continue_statement"
                | "empty_statement" => {}
                _ => return false,
            }
        }
        logged
    }

    /// Whether `arguments` are those of a call that prints or logs them
    /// (`print`, `console.log`, `LOGGER.info`, `log.Printf`, `fmt.Println`,
    /// `System.out.println`).
    pub(super) fn logs(&self, arguments: Node<'a>) -> bool {
        const LOGGING: &[&str] = &[
            "print",
            "println",
            "printf",
            "print_r",
            "log",
            "info",
            "debug",
            "warn",
            "warning",
            "error",
            "trace",
            "fatal",
            "exception",
            "critical",
            "infof",
            "debugf",
            "warnf",
            "errorf",
            "fatalf",
        ];
        let Some(call) = arguments.parent() else { return false };
        let callee = call.child_by_field_name("function").or_else(|| call.child_by_field_name("name"));
        let Some(callee) = callee else { return false };
        let text = self.text_of(callee);
        let last = text.rsplit(['.', ':']).next().unwrap_or(text).to_ascii_lowercase();
        LOGGING.contains(&last.as_str())
    }

    /// The function (and class) a call is in, as written: `poll`,
    /// `Worker.run`, `-` at the top level.
    pub(super) fn enclosing(&self, call: Node<'a>) -> String {
        let mut function: Option<String> = None;
        let mut class: Option<String> = None;
        let mut at = call.parent();
        while let Some(n) = at {
            let name = |field: &str| n.child_by_field_name(field).map(|x| self.text_of(x).to_string());
            match n.kind() {
                "function_definition"
                | "function_declaration"
                | "generator_function_declaration"
                | "method_definition"
                | "constructor_declaration"
                    if function.is_none() =>
                {
                    function = name("name");
                }
                "method_declaration" if function.is_none() => {
                    function = name("name");
                    // Go: the receiver's type.
                    if let Some(receiver) = n.child_by_field_name("receiver") {
                        let t = self.text_of(receiver);
                        let t = t.trim_matches(['(', ')']).split_whitespace().last().unwrap_or_default();
                        class = Some(t.trim_start_matches('*').to_string());
                    }
                }
                "arrow_function" | "function_expression" | "function" if function.is_none() => {
                    if let Some(p) = n.parent()
                        && p.kind() == "variable_declarator"
                    {
                        function = p.child_by_field_name("name").map(|x| self.text_of(x).to_string());
                    }
                }
                "class_definition"
                | "class_declaration"
                | "class"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                    if function.is_some() && class.is_none() =>
                {
                    class = name("name");
                }
                _ => {}
            }
            at = n.parent();
        }
        match (class, function) {
            (Some(c), Some(f)) => format!("{c}.{f}"),
            (None, Some(f)) => f,
            _ => "-".to_string(),
        }
    }
}
