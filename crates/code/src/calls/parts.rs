//! What part of a received message a value reads: the receipt handle a
//! delete or a visibility change is given should be one
//! (`m["ReceiptHandle"]`, `msg.ReceiptHandle`, `message.receiptHandle()`,
//! `message.receipt_handle`), and a message's ID, body or attribute in its
//! place is a call that always fails (SQS208).
//!
//! A part is known from how it is read: a key (`m["MessageId"]`,
//! `m.get("Body")`, Go's `msg.Attributes["SentTimestamp"]`), a property or
//! field (`m.MessageId`, boto3's `message.message_id`), or a Java getter
//! (`message.messageId()`, v1's `getMessageId()`), through Go's `*` and
//! `aws.ToString`, and through names bound to such a read. Anything else
//! (a call, a parameter, a value built) is not known: `None`, never a
//! guess.

use tree_sitter::Node;

use super::*;
use sqsguard_model::code::{MessagePart, PartRead};

impl<'a> Reader<'a> {
    /// The part of a message `node` (a `ReceiptHandle` argument) reads;
    /// `queue_url` is the call's `QueueUrl` as written, which passed as
    /// the handle too is the queue's URL.
    pub(super) fn part_read(&self, node: Node<'a>, queue_url: Option<&str>) -> Option<PartRead> {
        let written = self.text_of(node).trim();
        if queue_url.is_some_and(|url| url.trim() == written) {
            let name = self.origin(unit::span(node));
            return Some(PartRead { part: MessagePart::QueueUrl, name, direct: true });
        }
        self.part_of(node, 0, true)
    }

    fn part_of(&self, node: Node<'a>, steps: usize, direct: bool) -> Option<PartRead> {
        if steps > MAX_STEPS {
            return None;
        }
        let node = self.strip(node);
        let field = |name: &str| node.child_by_field_name(name);
        let (object, key) = match node.kind() {
            "identifier" => {
                let b = self.bound(self.text_of(node), node.start_byte())?;
                return if b.destructure { None } else { self.part_of(b.value, steps + 1, false) };
            }
            // Go: `*msg.ReceiptHandle`.
            "unary_expression" if self.text_of(node).starts_with('*') => {
                return self.part_of(field("operand")?, steps + 1, direct);
            }
            "call" | "call_expression" => {
                let callee = field("function")?;
                let last = self.text_of(callee).rsplit(['.', ':']).next().unwrap_or_default();
                let args = field("arguments")?;
                let one = args.named_child(0).filter(|_| args.named_child_count() == 1)?;
                match last {
                    // Go: `aws.ToString(msg.ReceiptHandle)`, v1's `aws.StringValue`.
                    "ToString" | "StringValue" => return self.part_of(one, steps + 1, direct),
                    // Python: `m.get("ReceiptHandle")`.
                    "get" => (callee.child_by_field_name("object")?, one),
                    _ => return None,
                }
            }
            "subscript" => (field("value")?, field("subscript")?),
            "subscript_expression" => (field("object")?, field("index")?),
            "index_expression" => (field("operand")?, field("index")?),
            "member_expression" => (field("object")?, field("property")?),
            "attribute" => (field("object")?, field("attribute")?),
            "selector_expression" => (field("operand")?, field("field")?),
            "method_invocation" => {
                let args = field("arguments")?;
                match args.named_child_count() {
                    0 => (field("object")?, field("name")?),
                    // `message.attributes().get("SentTimestamp")`.
                    1 if field("name").is_some_and(|n| self.text_of(n) == "get") => {
                        (field("object")?, args.named_child(0)?)
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        let (name, span) = self.key_name(key)?;
        let part = match part_named(name) {
            Some(part) => part,
            // A key of the message's attributes.
            None if self.reads_attributes(object) => MessagePart::Attribute,
            None => return None,
        };
        Some(PartRead { part, name: self.origin(span), direct })
    }

    /// A key as written (a string's text without its quotes, or a name) and
    /// where that text is.
    fn key_name(&self, key: Node<'a>) -> Option<(&'a str, Span)> {
        let written = self.text_of(key);
        let name = match key.kind() {
            "string" | "string_literal" | "interpreted_string_literal" | "raw_string_literal" => {
                self.literal(key)?;
                unquote(written.trim_start_matches(['r', 'b', 'u', 'R', 'B', 'U']))
            }
            "identifier" | "property_identifier" | "field_identifier" => written,
            _ => return None,
        };
        let offset = written.find(name)?;
        let start = key.start_byte() + offset;
        Some((self.text.get(start..start + name.len())?, Span::new(start, start + name.len())))
    }

    /// Whether `node` reads a message's attributes (`m["Attributes"]`,
    /// `msg.MessageAttributes`, `message.attributes()`).
    fn reads_attributes(&self, node: Node<'a>) -> bool {
        let node = self.strip(node);
        let key = match node.kind() {
            "subscript" => node.child_by_field_name("subscript"),
            "subscript_expression" => node.child_by_field_name("index"),
            "member_expression" => node.child_by_field_name("property"),
            "attribute" => node.child_by_field_name("attribute"),
            "selector_expression" => node.child_by_field_name("field"),
            "method_invocation" => node.child_by_field_name("name"),
            _ => None,
        };
        key.and_then(|k| self.key_name(k)).is_some_and(|(name, _)| {
            matches!(plain(name).as_str(), "attributes" | "messageattributes" | "attributesasstrings")
        })
    }
}

/// The part of a message a key, property or getter names, in any
/// language's spelling (`MessageId`, `messageId`, `message_id`,
/// `getMessageId`).
fn part_named(name: &str) -> Option<MessagePart> {
    Some(match plain(name).as_str() {
        "receipthandle" => MessagePart::ReceiptHandle,
        "messageid" => MessagePart::MessageId,
        "body" => MessagePart::Body,
        "md5ofbody" => MessagePart::Md5OfBody,
        "attributes" | "messageattributes" | "attributesasstrings" => MessagePart::Attribute,
        _ => return None,
    })
}

/// A name in lower case without `_` and without a getter's `get`.
fn plain(name: &str) -> String {
    let name = match name.strip_prefix("get") {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest,
        _ => name,
    };
    name.chars().filter(|c| *c != '_').collect::<String>().to_ascii_lowercase()
}
