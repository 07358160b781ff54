//! What SQS207's readers share ([`super::received`], [`super::received_uses`],
//! [`super::received_into`]): what is followed for one receive, the words
//! its uses are known by (the parts of a message that cannot delete it,
//! the methods and functions that carry the messages or only read them),
//! and how a name that holds them is followed to its uses.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::*;

/// A use is harmless, or where the messages may go.
pub(super) type Step = Result<(), String>;

/// What is followed for one receive.
pub(super) struct Flow<'a> {
    /// Every identifier of the function, by name.
    pub(super) uses: HashMap<&'a str, Vec<Node<'a>>>,
    /// The names that hold the messages, their list or a receipt handle.
    pub(super) names: HashSet<&'a str>,
    /// Uses still to follow.
    pub(super) pending: Vec<Node<'a>>,
    /// Functions handed the messages by an iterator: what they return goes
    /// back to it.
    pub(super) callbacks: HashSet<usize>,
    /// The functions whose names are followed: the receive's, and those of
    /// the file the messages are passed to ([`super::received_into`]).
    pub(super) scopes: Vec<Node<'a>>,
    pub(super) functions: HashSet<usize>,
}

impl Flow<'_> {
    /// Whether `node` is inside a function already followed.
    pub(super) fn within(&self, node: Node<'_>) -> bool {
        self.scopes.iter().any(|s| s.start_byte() <= node.start_byte() && node.end_byte() <= s.end_byte())
    }
}

/// A part of a value read: an attribute, a property, a key, an index, a
/// field, in every grammar read.
pub(super) const ACCESSES: &[&str] = &[
    "attribute",
    "member_expression",
    "subscript",
    "subscript_expression",
    "selector_expression",
    "index_expression",
    "field_access",
    "array_access",
];

/// The parts of a message (or of a receive's response) that cannot delete
/// it, as keys, properties or getters are written (lowercase, without
/// `_` or a `get` prefix).
pub(super) const PARTS: &[&str] = &[
    "body",
    "messageid",
    "md5ofbody",
    "md5ofmessageattributes",
    "attributes",
    "messageattributes",
    "length",
    "size",
    "len",
    "count",
    "isempty",
    "hasmessages",
    "ispresent",
];

/// Methods whose result carries what they are called on (or its
/// elements): getters, promises and futures, copies.
pub(super) const GETTERS: &[&str] = &[
    "get",
    "messages",
    "receipthandle",
    "promise",
    "result",
    "join",
    "stream",
    "tolist",
    "collect",
    "iterator",
    "items",
    "values",
    "copy",
    "slice",
    "pop",
    "popleft",
    "first",
    "orelse",
    "orelsethrow",
    "orelseget",
    "catch",
    "finally",
];

/// Methods that hand each element to the function they are given: its
/// parameters are the messages.
pub(super) const ITERATORS: &[&str] = &[
    "foreach",
    "map",
    "filter",
    "flatmap",
    "find",
    "some",
    "every",
    "then",
    "thenaccept",
    "thenapply",
    "thencompose",
    "whencomplete",
    "peek",
    "sorted",
    "sort",
];

/// Functions whose result carries their argument: conversions, copies,
/// `Promise.all` of what the messages were mapped to.
pub(super) const CONVERSIONS: &[&str] = &[
    "str",
    "repr",
    "list",
    "tuple",
    "sorted",
    "reversed",
    "enumerate",
    "iter",
    "next",
    "dumps",
    "stringify",
    "string",
    "tostring",
    "stringvalue",
    "sprintf",
    "format",
    "valueof",
    "aslist",
    "copy",
    "deepcopy",
    "all",
    "allsettled",
];

/// Functions that read their argument and return nothing of it.
pub(super) const TESTS: &[&str] =
    &["len", "bool", "isinstance", "type", "hasattr", "boolean", "isarray", "isnull", "nonnull"];

/// Methods of a message that change its visibility (boto3's resource
/// `Message.change_visibility`).
pub(super) const VISIBILITY: &[&str] = &["changevisibility", "changemessagevisibility"];

impl<'a> Reader<'a> {
    /// Every identifier within `scope`, by name.
    pub(super) fn identifiers(&self, scope: Node<'a>) -> HashMap<&'a str, Vec<Node<'a>>> {
        let mut uses: HashMap<&'a str, Vec<Node<'a>>> = HashMap::new();
        let mut stack = vec![scope];
        while let Some(n) = stack.pop() {
            if matches!(
                n.kind(),
                "identifier" | "shorthand_property_identifier" | "shorthand_property_identifier_pattern"
            ) && !self.is_member_name(n)
            {
                uses.entry(self.text_of(n)).or_default().push(n);
            }
            for i in 0..n.named_child_count() {
                stack.extend(n.named_child(i as u32));
            }
        }
        uses
    }

    /// The messages are in `name` (an identifier where it is bound): follow
    /// each of its uses.
    pub(super) fn taint(&self, name: Node<'a>, flow: &mut Flow<'a>) {
        let text = self.text_of(name);
        if text == "_" || !flow.names.insert(text) {
            return;
        }
        if let Some(uses) = flow.uses.get(text) {
            flow.pending.extend(uses.iter().copied());
        }
    }

    /// The first line of a node's text, for a reason.
    pub(super) fn first_line(&self, node: Node<'a>) -> &'a str {
        self.text_of(node).lines().next().unwrap_or_default().trim()
    }
}

/// A key, property or method as compared with [`PARTS`] and the method
/// lists: unquoted, lowercase, without `_` and a `get` prefix.
pub(super) fn plain(written: &str) -> String {
    let unquoted = unquote(written);
    let lower: String = unquoted.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase();
    match lower.strip_prefix("get") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => lower,
    }
}

/// Whether a binary operator compares (its result is a boolean).
pub(super) fn is_comparison(op: &str) -> bool {
    matches!(
        op,
        "==" | "!=" | "===" | "!==" | "<" | ">" | "<=" | ">=" | "in" | "not in" | "is" | "is not" | "instanceof"
    )
}
