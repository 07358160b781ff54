//! A spanned document tree shared by the YAML and JSON readers.
//!
//! CloudFormation short-form tags (`!Ref X`, `!GetAtt A.B`, `!Sub ...`) are
//! rewritten to their long form (`{"Ref": "X"}`, `{"Fn::GetAtt": ["A", "B"]}`)
//! while reading, so everything downstream sees one shape. The key of such a
//! rewritten map carries the span of the tag itself.

pub mod duration;
pub mod json;
pub mod schema;
pub mod suggest;
pub mod yaml;

use sqsguard_source::Span;

/// A UTF-8 byte order mark. cfn-lint, PyYAML and `terraform fmt` accept
/// one at the start of a file; the text keeps it (fixes write the file
/// back byte for byte) and each reader steps over it.
pub const BOM: &str = "\u{feff}";

/// Deepest nesting accepted; real templates stay far below it. Deeper input
/// is reported rather than risking the stack of every later tree walk.
pub const MAX_DEPTH: usize = 256;

/// A parsed value with the byte span it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Null,
    Bool(bool),
    /// A number, kept as written so `30` and `"30"` can both be read as
    /// integers and large values keep their digits.
    Number(String),
    String(String),
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

/// One `key: value` pair of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub key_span: Span,
    pub value: Node,
}

/// Why a file could not be read into a tree, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub message: String,
    pub span: Span,
}

impl Node {
    pub fn new(kind: Kind, span: Span) -> Self {
        Node { kind, span }
    }

    pub fn as_map(&self) -> Option<&[Entry]> {
        match &self.kind {
            Kind::Map(entries) => Some(entries),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::Seq(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::String(s) => Some(s),
            _ => None,
        }
    }

    /// The entry for `key` in a map node.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.as_map()?.iter().find(|e| e.key == key)
    }

    /// The value for `key` in a map node.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }

    /// For a single-key map such as `{"Ref": "X"}`: the key and its value.
    pub fn single_entry(&self) -> Option<&Entry> {
        match self.as_map()? {
            [only] => Some(only),
            _ => None,
        }
    }

    /// Number of nodes in this subtree (used to bound alias expansion).
    pub(crate) fn count(&self) -> usize {
        match &self.kind {
            Kind::Seq(items) => 1 + items.iter().map(Node::count).sum::<usize>(),
            Kind::Map(entries) => 1 + entries.iter().map(|e| 1 + e.value.count()).sum::<usize>(),
            _ => 1,
        }
    }
}

/// A key written twice in one mapping, located at the second. Tools
/// disagree on which value wins (most keep the last, sqsguard kept the
/// first, cfn-lint refuses the file), so the file is refused.
pub(crate) fn duplicate_key(key: &str, first_line: usize, second: Span) -> ParseError {
    ParseError {
        message: format!(
            "duplicate key \"{key}\": it is already set on line {first_line}, and a key may appear only once in a mapping"
        ),
        span: second,
    }
}

/// Whether a document is read as JSON: by its extension (`.json`; `.yaml`
/// and `.yml` are YAML even when they start with `{`, a flow mapping),
/// else by its first character. The front-ends and the fixer both ask
/// here, so a file is never parsed one way and edited the other.
pub fn is_json(path: &std::path::Path, text: &str) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("json") => true,
        Some(e) if e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml") => false,
        _ => text.strip_prefix(BOM).unwrap_or(text).trim_start().starts_with('{'),
    }
}

/// The long-form key for a CloudFormation short-form tag, if it is one.
pub(crate) fn intrinsic_for_tag(tag: &str) -> Option<&'static str> {
    Some(match tag {
        "Ref" => "Ref",
        "Condition" => "Condition",
        "GetAtt" => "Fn::GetAtt",
        "Sub" => "Fn::Sub",
        "Join" => "Fn::Join",
        "If" => "Fn::If",
        "Select" => "Fn::Select",
        "Split" => "Fn::Split",
        "FindInMap" => "Fn::FindInMap",
        "ImportValue" => "Fn::ImportValue",
        "Base64" => "Fn::Base64",
        "Cidr" => "Fn::Cidr",
        "GetAZs" => "Fn::GetAZs",
        "Equals" => "Fn::Equals",
        "And" => "Fn::And",
        "Or" => "Fn::Or",
        "Not" => "Fn::Not",
        "Transform" => "Fn::Transform",
        "Length" => "Fn::Length",
        "ToJsonString" => "Fn::ToJsonString",
        "ForEach" => "Fn::ForEach",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_is_json_by_extension_else_by_its_first_character_past_a_byte_order_mark() {
        let p = std::path::Path::new;
        assert!(is_json(p("t.template"), "\u{feff}  {\"Resources\": {}}"));
        assert!(is_json(p("t.template"), "{}"));
        assert!(!is_json(p("t.template"), "\u{feff}Resources: {}"));
        assert!(!is_json(p("t.yaml"), "{}"));
        assert!(is_json(p("t.JSON"), "a: 1"));
    }
}
