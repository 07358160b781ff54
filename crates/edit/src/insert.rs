//! Where a missing key goes in a YAML or JSON tree, and the text that adds
//! it in the style of its siblings: a block mapping's indentation, a flow
//! mapping's `, Key: value`, a JSON member with its comma.

use super::render::{key, literal};
use super::{Edit, Remedy};
use sqsguard_model::Scalar;
use sqsguard_source::lines::ending as line_ending;
use sqsguard_source::{Source, Span, lines};
use sqsguard_syntax::{Entry, Kind, Node};

/// The edit that adds `key: value` to the `Properties` of the resource
/// `found`, when the finding points at the resource's key, or of the SAM
/// event of `found` whose key it points at (an event has a `Type` and
/// `Properties` as a resource has); not of a Lift construct.
pub(crate) fn insert(
    file: &Source,
    found: &Entry,
    at: Span,
    remedy: &Remedy,
    value: &Scalar,
    json: bool,
) -> Option<Edit> {
    if found.key_span != at {
        if let Some(sqs) = serverless_sqs_event(found, at) {
            return insert_serverless(file, sqs, remedy, value);
        }
        let events = found.value.get("Properties")?.get("Events")?.as_map()?;
        let event = events.iter().find(|e| e.key_span == at)?;
        return insert(file, event, at, remedy, value, json);
    }
    found.value.get("Type")?;
    let text = &file.text;
    let value = literal(value, json);
    // The file's line ending.
    let nl = line_ending(text);
    let edit =
        |pos: usize, replacement: String| Some(Edit { file: file.clone(), span: Span::new(pos, pos), replacement });
    match found.value.get("Properties") {
        Some(props) => {
            let Kind::Map(entries) = &props.kind else { return None };
            let Some(last) = entries.last() else {
                return insert_first(file, props, &format!("{}: {value}", quoted_key(remedy, json)?), json);
            };
            if json {
                return edit(
                    last.value.span.end,
                    json_member(text, entries, &format!("\"{}\": {value}", key(remedy)?), nl),
                );
            }
            if text[props.span.start..].starts_with('{') {
                let (at, member) = flow_member(text, props, format!("{}: {value}", key(remedy)?))?;
                return edit(at, member);
            }
            let indent = indent_of(text, entries.first()?.key_span.start)?;
            let (at, end_line) = block_end(text, props_key(found)?.start)?;
            let first = if end_line { nl } else { "" };
            edit(at, format!("{first}{indent}{}: {value}{nl}", key(remedy)?))
        }
        None => {
            let Kind::Map(entries) = &found.value.kind else { return None };
            let first = entries.first()?;
            if json {
                let last = entries.last()?;
                let indent = indent_of(text, first.key_span.start)?;
                return edit(
                    last.value.span.end,
                    format!(",{nl}{indent}\"Properties\": {{\"{}\": {value}}}", key(remedy)?),
                );
            }
            if text[found.value.span.start..].starts_with('{') {
                // A resource written whole as a flow mapping.
                let (at, member) =
                    flow_member(text, &found.value, format!("Properties: {{{}: {value}}}", key(remedy)?))?;
                return edit(at, member);
            }
            let indent = indent_of(text, first.key_span.start)?;
            let step = indent.len().checked_sub(indent_of(text, found.key_span.start)?.len()).filter(|s| *s > 0)?;
            let inner = format!("{indent}{}", " ".repeat(step));
            let (at, end_line) = block_end(text, found.key_span.start)?;
            let first = if end_line { nl } else { "" };
            edit(at, format!("{first}{indent}Properties:{nl}{inner}{}: {value}{nl}", key(remedy)?))
        }
    }
}

/// The `sqs:` event of a Serverless function whose key is at `at`, when
/// it is a mapping (a bare ARN has nowhere to add a setting).
fn serverless_sqs_event(function: &Entry, at: Span) -> Option<&Entry> {
    let events = function.value.get("events")?.as_seq()?;
    let sqs = events.iter().filter_map(|e| e.as_map()).flatten().find(|e| e.key == "sqs" && e.key_span == at)?;
    sqs.value.as_map().is_some().then_some(sqs)
}

/// A setting added to a Serverless `sqs:` event, under its Serverless
/// name; a one-item list is written as the string the Framework takes
/// (`functionResponseType: ReportBatchItemFailures`).
fn insert_serverless(file: &Source, sqs: &Entry, remedy: &Remedy, value: &Scalar) -> Option<Edit> {
    let text = &file.text;
    let name = sqsguard_model::Dialect::Serverless.name(remedy.field?);
    let value = match value {
        Scalar::List(items) if items.len() == 1 => Scalar::Str(items[0].clone()),
        other => other.clone(),
    };
    let value = literal(&value, false);
    let nl = line_ending(text);
    let edit =
        |pos: usize, replacement: String| Some(Edit { file: file.clone(), span: Span::new(pos, pos), replacement });
    if text[sqs.value.span.start..].starts_with('{') {
        let (at, member) = flow_member(text, &sqs.value, format!("{name}: {value}"))?;
        return edit(at, member);
    }
    let Kind::Map(entries) = &sqs.value.kind else { return None };
    let indent = indent_of(text, entries.first()?.key_span.start)?;
    let (at, end_line) = block_end(text, sqs.key_span.start)?;
    let first = if end_line { nl } else { "" };
    edit(at, format!("{first}{indent}{name}: {value}{nl}"))
}

/// `member` added as the last of the YAML flow mapping `node`: where to
/// insert it, and the text (`{}` becomes `{member}`, `{a: 1}` becomes
/// `{a: 1, member}`).
pub(super) fn flow_member(text: &str, node: &Node, member: String) -> Option<(usize, String)> {
    let close = flow_close(text, node)?;
    let before = text[..close].trim_end();
    let sep = match before.chars().last() {
        Some('{') => "",
        Some(',') => " ",
        _ => ", ",
    };
    Some((before.len(), format!("{sep}{member}")))
}

/// The key of `remedy`'s field as the file writes keys.
fn quoted_key(remedy: &Remedy, json: bool) -> Option<String> {
    let key = key(remedy)?;
    Some(if json { format!("\"{key}\"") } else { key.to_string() })
}

/// `member` into the empty mapping `props` (`Properties: {}`), on its
/// line: `{"Key": value}`, `{Key: value}`.
fn insert_first(file: &Source, props: &Node, member: &str, json: bool) -> Option<Edit> {
    let text = &file.text;
    let open = props.span.start + text.get(props.span.start..)?.find('{')?;
    let close = if json { props.span.end.checked_sub(1)? } else { flow_close(text, props)? };
    if text.get(close..close + 1) != Some("}") || !text.get(open + 1..close)?.trim().is_empty() {
        return None;
    }
    Some(Edit { file: file.clone(), span: Span::new(open, close + 1), replacement: format!("{{{member}}}") })
}

/// Where the closing bracket of the flow collection `node` is. The
/// parser's span of a flow collection ends after its last token, before
/// the bracket (and before the brackets of a last child that is a flow
/// collection too), so the bracket is found after those: only blanks,
/// commas and comments may come between.
pub(super) fn flow_close(text: &str, node: &Node) -> Option<usize> {
    let closer = match text[node.span.start..].chars().next()? {
        '{' => '}',
        '[' => ']',
        _ => return None,
    };
    let last = match &node.kind {
        Kind::Map(entries) => entries.last().map(|e| &e.value),
        Kind::Seq(items) => items.last(),
        _ => None,
    };
    let mut pos = match last {
        Some(child) if text[child.span.start..].starts_with(['{', '[']) => flow_close(text, child)? + 1,
        _ => node.span.end,
    };
    loop {
        let rest = &text[pos..];
        let c = rest.chars().next()?;
        match c {
            _ if c == closer => return Some(pos),
            ' ' | '\t' | '\r' | '\n' | ',' => pos += 1,
            '#' => pos = lines::content_end(text, pos),
            _ => return None,
        }
    }
}

/// The edit that adds the member `"name": value` to the JSON object
/// `object` (a `*.tf.json` resource), after its last member, with the
/// first member's indentation and the file's line ending.
pub(crate) fn insert_member(file: &Source, object: &Node, name: &str, value: &Scalar) -> Option<Edit> {
    let Kind::Map(entries) = &object.kind else { return None };
    // Never a second member of one name, whatever the first one holds.
    if entries.iter().any(|e| e.key == name) {
        return None;
    }
    let text = &file.text;
    let nl = line_ending(text);
    let replacement = json_member(text, entries, &format!("\"{name}\": {}", literal(value, true)), nl);
    let at = entries.last()?.value.span.end;
    Some(Edit { file: file.clone(), span: Span::new(at, at), replacement })
}

/// `member` after the last of `entries` (a JSON object that has some): on
/// a line of its own at their indentation, or after a comma on the same
/// line when they share one (`{"A": 1}`).
pub(super) fn json_member(text: &str, entries: &[Entry], member: &str, nl: &str) -> String {
    let pos = entries.first().map_or(0, |first| first.key_span.start);
    let line = lines::line_start(text, pos);
    match text.get(line..pos) {
        // Spaces or tabs, as the file indents.
        Some(indent) if indent.chars().all(|c| c == ' ' || c == '\t') => format!(",{nl}{indent}{member}"),
        _ => format!(", {member}"),
    }
}

/// The whitespace before `pos` on its line, when nothing else is there.
pub(super) fn indent_of(text: &str, pos: usize) -> Option<&str> {
    let start = lines::line_start(text, pos);
    let indent = &text[start..pos];
    indent.chars().all(|c| c == ' ').then_some(indent)
}

/// The `Properties` key of a resource entry.
pub(super) fn props_key(found: &Entry) -> Option<Span> {
    found.value.as_map()?.iter().find(|e| e.key == "Properties").map(|e| e.key_span)
}

/// Where the YAML block under the key at `key` ends: after the last
/// non-blank line indented deeper than the key (comments of the block
/// included), and whether that line must be ended first (the file's last
/// line, without a newline). Read from the text, not from the parser's spans, which
/// may run past a block scalar's trailing blank lines.
pub(super) fn block_end(text: &str, key: usize) -> Option<(usize, bool)> {
    let key_indent = key - lines::line_start(text, key);
    let mut pos = lines::next_line(text, key)?;
    let mut end = pos;
    while pos < text.len() {
        let next = lines::next_line(text, pos).unwrap_or(text.len());
        let line = &text[pos..next];
        let content = line.trim_start_matches(' ');
        let blank = content.trim().is_empty();
        if !blank && line.len() - content.len() <= key_indent {
            break;
        }
        if !blank {
            end = next;
        }
        pos = next;
    }
    Some((end, !lines::ends_with_break(&text[..end])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    /// The closing bracket of each `P` flow mapping, however it ends.
    #[test]
    fn a_flow_mapping_closes_at_its_own_bracket() {
        let cases = [
            ("P: {a: 1}\n", "}"),
            ("P: {a: 1 }  # c\n", "}  # c"),
            ("P: {a: !Ref L, b: {c: 1}}\n", "}"),
            ("P: {a: [1, {b: 2}] }\n", "}"),
            ("P: {a: 1, }\n", "}"),
            ("P: {\n  a: 1,  # one\n  b: 2  # two\n}\n", "}"),
            ("Q: {x: 1}\nP: {}\n", "}"),
        ];
        for (text, rest) in cases {
            let file = SourceFile::new("t.yaml", text.to_string());
            let root = sqsguard_syntax::yaml::parse(&file).unwrap();
            let p = root.get("P").unwrap();
            let close = flow_close(text, p).unwrap_or_else(|| panic!("{text:?}"));
            assert!(text[close..].starts_with(rest), "{text:?}: {:?}", &text[close..]);
            assert_eq!(text[..close].matches('{').count(), text[..=close].matches('}').count(), "{text:?}");
        }
    }
}
