//! Flat patterns matched without a tree-sitter query.
//!
//! A language whose pattern files are all flat (one node kind, its
//! negated fields, its captures, and conditions on the text of the node or
//! of its fields) is searched here, by one walk over the tree, instead of
//! by a compiled query: compiling even a query of flat patterns costs
//! tree-sitter a fixed analysis of the grammar's whole parse table (0.7
//! ms for Python, 1.8 ms for TypeScript, and some 700 pages of memory
//! touched), on every run that reads the language, and buys a flat pattern
//! nothing. The patterns are the same text, in tree-sitter's query syntax:
//! `(call) @call`, `((new_expression !arguments) @source (#field-match?
//! @source "constructor" "^Date$"))`. A language with one nested pattern
//! is compiled as a query (`lang`). A node matches as tree-sitter would
//! match it: named, of the kind (any of the grammar's symbols of that
//! name), in the order of a walk (a node before its children, its patterns
//! in the order written).

use tree_sitter::{Language, Node};

/// One flat pattern: the kinds it matches, the fields a node must not
/// have, the names it captures the node as, and its conditions.
pub(crate) struct Flat {
    negated: Vec<String>,
    captures: Vec<String>,
    conditions: Vec<Condition>,
}

/// A condition on a matched node, as tree-sitter's predicates say it.
enum Condition {
    /// `#match?`: the node's text matches (searched).
    Match(regex::bytes::Regex),
    /// `#eq?`: the node's text is this.
    Eq(String),
    /// `#any-of?`: the node's text is one of these.
    AnyOf(Vec<String>),
    /// `#field-match?`: the text of the node's child in the field matches.
    FieldMatch(String, regex::bytes::Regex),
}

/// A language's flat patterns, each with the index of the file it came
/// from, and by kind (the patterns of each of the grammar's symbols, by
/// its id).
pub(crate) struct Patterns {
    patterns: Vec<(usize, Flat)>,
    by_kind: Vec<Vec<usize>>,
}

#[derive(Debug, PartialEq)]
enum Token {
    Open,
    Close,
    Word(String),
    Capture(String),
    Negated(String),
    Predicate(String),
    Text(String),
    /// Anything else (a field's name, `_`, an anchor, a quantifier, an
    /// alternation): not a flat pattern.
    Other,
}

fn tokens(source: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    let mut chars = source.chars().peekable();
    let word = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        let mut w = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '?' | '!') {
                w.push(c);
                chars.next();
            } else {
                break;
            }
        }
        w
    };
    while let Some(&c) = chars.peek() {
        match c {
            ';' => while chars.next_if(|&c| c != '\n').is_some() {},
            c if c.is_whitespace() => {
                chars.next();
            }
            '(' | ')' => {
                chars.next();
                out.push(if c == '(' { Token::Open } else { Token::Close });
            }
            '@' | '!' | '#' => {
                chars.next();
                let w = word(&mut chars);
                out.push(match c {
                    '@' => Token::Capture(w),
                    '!' => Token::Negated(w),
                    _ => Token::Predicate(w),
                });
            }
            '"' => {
                chars.next();
                let mut s = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some('n') => s.push('\n'),
                            Some('t') => s.push('\t'),
                            Some('r') => s.push('\r'),
                            Some('0') => s.push('\0'),
                            Some(e) => s.push(e),
                            None => return Err("a string is not closed".into()),
                        },
                        Some(c) => s.push(c),
                        None => return Err("a string is not closed".into()),
                    }
                }
                out.push(Token::Text(s));
            }
            c if c.is_alphanumeric() || c == '_' => {
                let w = word(&mut chars);
                let field = chars.next_if_eq(&':').is_some();
                out.push(if field || w == "_" { Token::Other } else { Token::Word(w) });
            }
            _ => {
                chars.next();
                out.push(Token::Other);
            }
        }
    }
    Ok(out)
}

/// The flat patterns of `files` (each file's text, in order) against
/// `grammar`; `Ok(None)` when a pattern is not flat, or names a node kind
/// or a field this reader does not find in the grammar (the language is
/// then compiled as a query, which says what is wrong); an error for a
/// string not closed, a bad regex or a `#field-match?` not written as
/// `@node "field" "regex"`.
pub(crate) fn parse(grammar: &Language, files: &[&str]) -> Result<Option<Patterns>, String> {
    let mut patterns = Vec::new();
    let mut by_kind: Vec<Vec<usize>> = vec![Vec::new(); grammar.node_kind_count()];
    for (file, source) in files.iter().enumerate() {
        let tokens = tokens(source)?;
        let mut rest = tokens.as_slice();
        while !rest.is_empty() {
            let Some((kind, flat, after)) = pattern(rest)? else { return Ok(None) };
            rest = after;
            let ids: Vec<u16> = (0..grammar.node_kind_count() as u16)
                .filter(|&id| {
                    grammar.node_kind_is_named(id)
                        && grammar.node_kind_is_visible(id)
                        && grammar.node_kind_for_id(id) == Some(kind.as_str())
                })
                .collect();
            if ids.is_empty() {
                return Ok(None);
            }
            let fields = flat.negated.iter().chain(flat.conditions.iter().filter_map(|c| match c {
                Condition::FieldMatch(f, _) => Some(f),
                _ => None,
            }));
            if fields.into_iter().any(|f| grammar.field_id_for_name(f.as_str()).is_none()) {
                return Ok(None);
            }
            for id in ids {
                if let Some(of) = by_kind.get_mut(usize::from(id)) {
                    of.push(patterns.len());
                }
            }
            patterns.push((file, flat));
        }
    }
    Ok(Some(Patterns { patterns, by_kind }))
}

type Parsed<'t> = Option<(String, Flat, &'t [Token])>;

/// One pattern at the start of `tokens`: `(kind !field...) @c...` alone
/// or in parentheses with its conditions; `None` when it is not flat.
fn pattern(tokens: &[Token]) -> Result<Parsed<'_>, String> {
    use Token::{Capture, Close, Negated, Open, Predicate, Word};
    let (grouped, mut rest) = match tokens {
        [Open, Open, rest @ ..] => (true, rest),
        [Open, rest @ ..] => (false, rest),
        _ => return Ok(None),
    };
    let Some((Word(kind), after)) = rest.split_first() else { return Ok(None) };
    let kind = kind.clone();
    rest = after;
    let mut flat = Flat { negated: Vec::new(), captures: Vec::new(), conditions: Vec::new() };
    while let Some((Negated(field), after)) = rest.split_first() {
        flat.negated.push(field.clone());
        rest = after;
    }
    let Some((Close, after)) = rest.split_first() else { return Ok(None) };
    rest = after;
    while let Some((Capture(name), after)) = rest.split_first() {
        flat.captures.push(name.clone());
        rest = after;
    }
    if flat.captures.is_empty() {
        return Ok(None);
    }
    if grouped {
        while let [Open, Predicate(name), after @ ..] = rest {
            let end = after.iter().position(|t| *t == Close).ok_or("a condition is not closed")?;
            let Some(condition) = condition(name, &after[..end], &flat.captures)? else { return Ok(None) };
            flat.conditions.push(condition);
            rest = &after[end + 1..];
        }
        let Some((Close, after)) = rest.split_first() else { return Ok(None) };
        rest = after;
    }
    Ok(Some((kind, flat, rest)))
}

/// A condition on the node the pattern captures; `None` for one this
/// reader does not evaluate (the language is then compiled as a query).
fn condition(name: &str, args: &[Token], captures: &[String]) -> Result<Option<Condition>, String> {
    let regex = |r: &str| regex::bytes::Regex::new(r).map_err(|e| format!("#{name} {r}: {e}"));
    let [Token::Capture(capture), rest @ ..] = args else { return Ok(None) };
    if !captures.contains(capture) {
        return Ok(None);
    }
    let texts: Option<Vec<&String>> =
        rest.iter().map(|t| if let Token::Text(s) = t { Some(s) } else { None }).collect();
    let Some(texts) = texts else { return Ok(None) };
    Ok(match (name, texts.as_slice()) {
        ("match?", [r]) => Some(Condition::Match(regex(r)?)),
        ("eq?", [s]) => Some(Condition::Eq((*s).clone())),
        ("any-of?", values) if !values.is_empty() => {
            Some(Condition::AnyOf(values.iter().map(|v| (*v).clone()).collect()))
        }
        ("field-match?", [field, r]) => Some(Condition::FieldMatch((*field).clone(), regex(r)?)),
        ("field-match?", _) => return Err("#field-match? takes @node \"field\" \"regex\"".into()),
        _ => None,
    })
}

impl Flat {
    fn holds(&self, node: Node<'_>, text: &[u8]) -> bool {
        let of = |n: Node<'_>| text.get(n.start_byte()..n.end_byte()).unwrap_or_default();
        self.negated.iter().all(|f| node.child_by_field_name(f).is_none())
            && self.conditions.iter().all(|c| match c {
                Condition::Match(r) => r.is_match(of(node)),
                Condition::Eq(s) => of(node) == s.as_bytes(),
                Condition::AnyOf(values) => values.iter().any(|v| of(node) == v.as_bytes()),
                Condition::FieldMatch(field, r) => node.child_by_field_name(field).is_some_and(|f| r.is_match(of(f))),
            })
    }
}

impl Patterns {
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.patterns.len()
    }

    /// The file of pattern `index`.
    #[cfg(test)]
    pub(crate) fn file(&self, index: usize) -> Option<usize> {
        self.patterns.get(index).map(|(file, _)| *file)
    }

    /// Each node under `root` (itself included) that a pattern of a file
    /// `wanted` matches, with the pattern's file and captures, in the
    /// order of a walk.
    pub(crate) fn each<'tree>(
        &self,
        root: Node<'tree>,
        text: &[u8],
        wanted: impl Fn(usize) -> bool,
        mut each: impl FnMut(usize, &[String], Node<'tree>),
    ) {
        let mut cursor = root.walk();
        loop {
            let node = cursor.node();
            if node.is_named()
                && let Some(indices) = self.by_kind.get(usize::from(node.kind_id()))
            {
                for (file, flat) in indices.iter().filter_map(|&i| self.patterns.get(i)) {
                    if wanted(*file) && flat.holds(node, text) {
                        each(*file, &flat.captures, node);
                    }
                }
            }
            if cursor.goto_first_child() || cursor.goto_next_sibling() {
                continue;
            }
            loop {
                if !cursor.goto_parent() {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
            }
        }
    }
}
