//! Serverless Framework variables, resolved as docs/serverless.md says before any
//! value is read: `${self:PATH}` (any path of the file), `${opt:NAME,
//! DEFAULT}`, `${env:...}` and `${param:...}` take their default (never the
//! linting machine's environment; `--param KEY=VALUE` gives `${param:KEY}`),
//! `${sls:stage}`, `${opt:stage}` and `provider.stage` are the `--stage`
//! given, else (the first two) `provider.stage`, else `dev`; a value that
//! depends on `--stage` or `--param` remembers it ([`Resolved::given`]).
//! `${aws:region}` and `${opt:region}` are `provider.region` (else
//! `us-east-1`). Whatever else (`${ssm:...}`, `${aws:accountId}`,
//! `${file(...)}`, a variable without a default) is unknown, written as the
//! [`UNRESOLVED`](crate::cfn::resolve::UNRESOLVED) marker the
//! CloudFormation resolver reads as unknown.
//! Variables resolve recursively; a cycle is unknown, never a hang.
//!
//! `${...}` with no variable source (`${AWS::Region}` inside `Fn::Sub`) is
//! CloudFormation's, and left alone. How a string splits into variables,
//! and the nodes results are written as, is in `parts`.

use std::collections::HashMap;
use std::sync::Arc;

mod file;
mod parts;

use crate::stage::Stage;
use file::Includes;
use parts::{
    Part, SOURCES, is_account_id, is_account_part, moved, pseudo, scalar, split, split_default, text, unresolved,
};
use sqsguard_source::{Source, SourceFile, Span};
use sqsguard_syntax::{Entry, Kind, Node};

pub(crate) use parts::is_unresolved;

/// Deepest chain of variables followed (a default that is a variable, a
/// `self:` path whose value is a variable, ...).
const MAX_CHAIN: usize = 32;
/// Variables resolved in one file at most: a file whose variables fan out
/// (`a: ${self:b}${self:b}`, `b: ${self:c}${self:c}`, ...) stops here, the
/// rest unknown, rather than take minutes.
const MAX_STEPS: usize = 100_000;
/// The longest string a variable may build.
const MAX_TEXT: usize = 64 * 1024;

/// The file with every variable resolved for `stage`; every value keeps
/// the span of the place it is used. `${file(...)}` is unknown: see
/// [`resolve_in`].
pub(crate) fn resolve(root: &Node, stage: &Stage) -> Resolved {
    resolve_with(root, stage, Includes::default())
}

/// [`resolve`] for the service file `file`, whose `${file(...)}` reads the
/// files of its repository (a value from one keeps its place there).
pub(crate) fn resolve_in(root: &Node, stage: &Stage, file: &SourceFile) -> Resolved {
    resolve_with(root, stage, Includes::of(file))
}

fn resolve_with(root: &Node, stage: &Stage, includes: Includes) -> Resolved {
    let mut resolver = Resolver {
        root,
        stage,
        chain: Vec::new(),
        depth: 0,
        steps: 0,
        cycles: 0,
        done: HashMap::new(),
        given: None,
        places: HashMap::new(),
        includes,
    };
    let root = resolver.node(root);
    let Includes { included, notes, .. } = resolver.includes;
    Resolved { root, given: resolver.places, included, notes }
}

/// A service with its variables resolved.
pub(crate) struct Resolved {
    pub root: Node,
    /// The places whose value depends on a value given on the command
    /// line (`--stage`, `--param`), with that input's words.
    pub given: HashMap<Span, Arc<str>>,
    /// The files `${file(...)}` read, each with the offset its spans were
    /// moved to (see [`sqsguard_source::SourceFile::with_included`]).
    pub included: Vec<(usize, Source)>,
    /// Where a `${file(...)}` was not followed, and why.
    pub notes: Vec<(Span, String)>,
}

struct Resolver<'a> {
    root: &'a Node,
    stage: &'a Stage,
    /// The `self:` paths being resolved (a cycle is unknown).
    chain: Vec<String>,
    /// Variables being resolved, one inside the other.
    depth: usize,
    /// Variables resolved so far (see [`MAX_STEPS`]).
    steps: usize,
    /// Cycles met so far: a value resolved without meeting one is the same
    /// wherever it is used, and is kept in `done`.
    cycles: usize,
    /// The value of each `self:` path resolved so far (each is resolved
    /// once), and the command-line input it depends on.
    done: HashMap<String, (Option<Node>, Option<Arc<str>>)>,
    /// The command-line input the value being resolved depends on (the
    /// first one met).
    given: Option<Arc<str>>,
    /// See [`Resolved::given`].
    places: HashMap<Span, Arc<str>>,
    /// What `${file(...)}` may read and has read.
    includes: Includes,
}

impl Resolver<'_> {
    fn node(&mut self, node: &Node) -> Node {
        let kind = match &node.kind {
            Kind::String(s) if s.contains("${") => return self.string(s, node.span),
            Kind::Seq(items) => Kind::Seq(items.iter().map(|i| self.node(i)).collect()),
            Kind::Map(entries) => Kind::Map(
                entries
                    .iter()
                    .map(|e| Entry { key: e.key.clone(), key_span: e.key_span, value: self.node(&e.value) })
                    .collect(),
            ),
            other => other.clone(),
        };
        Node::new(kind, node.span)
    }

    /// A string with variables: the value of the variable when it is the
    /// whole string, else the text with each variable's value in place.
    /// The place remembers a command-line input the value depends on.
    fn string(&mut self, s: &str, span: Span) -> Node {
        let outer = self.given.take();
        let node = self.string_of_parts(s, span);
        if let Some(given) = &self.given {
            self.places.entry(span).or_insert_with(|| given.clone());
        }
        self.given = outer.or(self.given.take());
        node
    }

    fn string_of_parts(&mut self, s: &str, span: Span) -> Node {
        let parts = split(s);
        if let [Part::Variable(inner)] = parts.as_slice()
            && is_account_id(inner)
        {
            return pseudo("Ref", "AWS::AccountId", span);
        }
        if let [Part::Variable(inner)] = parts.as_slice() {
            return match self.variable(inner, span) {
                Some(value) => moved(value, span, self.includes.first_offset()),
                None => unresolved(s, span),
            };
        }
        // `${aws:accountId}` is the deploying account, as CloudFormation's
        // `${AWS::AccountId}`: a string holding it is that `Fn::Sub`, so an
        // ARN built with it still names its queue by the name at its end.
        // Any other `${` in it would mean something else in a Sub.
        let account = parts.iter().any(is_account_part);
        if account && parts.iter().any(|p| matches!(p, Part::Text(t) if t.contains("${"))) {
            return unresolved(s, span);
        }
        let mut text = String::new();
        for part in parts {
            match part {
                Part::Text(t) => text.push_str(t),
                Part::Variable(inner) if is_account_id(inner) => text.push_str("${AWS::AccountId}"),
                Part::Variable(inner) => match self.variable(inner, span).and_then(|v| scalar(&v)) {
                    Some(v) if !(account && v.contains("${")) => text.push_str(&v),
                    _ => return unresolved(s, span),
                },
            }
            if text.len() > MAX_TEXT {
                return unresolved(s, span);
            }
        }
        if account {
            return pseudo("Fn::Sub", &text, span);
        }
        Node::new(Kind::String(text), span)
    }

    /// The value of `inner` (`self:custom.x, 'default'`), `None` when it is
    /// only known at deploy time.
    fn variable(&mut self, inner: &str, span: Span) -> Option<Node> {
        if self.depth >= MAX_CHAIN || self.steps >= MAX_STEPS {
            return None;
        }
        self.depth += 1;
        self.steps += 1;
        let value = self.variable_within_bounds(inner, span);
        self.depth -= 1;
        value
    }

    fn variable_within_bounds(&mut self, inner: &str, span: Span) -> Option<Node> {
        let (primary, default) = match split_default(inner) {
            Some((p, d)) => (p.trim(), Some(d.trim())),
            None => (inner.trim(), None),
        };
        let has_default = default.is_some();
        // A variable in the address (`self:custom.${sls:stage}.name`) first.
        let nested;
        let primary = if primary.contains("${") {
            nested = match self.string(primary, span) {
                Node { kind: Kind::String(s), .. } => s,
                _ => return default.and_then(|d| self.literal_or_variable(d, span)),
            };
            nested.as_str()
        } else {
            primary
        };
        let default = |this: &mut Self| default.and_then(|d| this.literal_or_variable(d, span));
        if let Some(rest) = primary.strip_prefix("file(") {
            return self.file(rest, span, has_default).or_else(|| default(self));
        }
        let (source, address) = primary.split_once(':').unwrap_or((primary, ""));
        match (source, address.trim()) {
            ("self", path) => self.path(path).or_else(|| default(self)),
            // The stage given on the command line, else provider.stage, else dev.
            ("sls" | "opt", "stage") => match self.stage.stage() {
                Some((name, from)) => Some(self.given(name, from, span)),
                None => default(self).or_else(|| self.path("provider.stage")).or_else(|| Some(text("dev", span))),
            },
            ("param", key) => match self.stage.param(key) {
                Some(given) => Some(self.given(&given.value, given.from.clone(), span)),
                None => default(self),
            },
            ("aws" | "opt", "region") => default(self).or_else(|| {
                let region = self.path("provider.region");
                Some(region.unwrap_or_else(|| text("us-east-1", span)))
            }),
            ("opt" | "env", _) => default(self),
            _ => None,
        }
    }

    /// A value given on the command line, as the Framework reads it (a
    /// number is a number).
    fn given(&mut self, value: &str, from: Arc<str>, span: Span) -> Node {
        self.given.get_or_insert(from);
        match value.parse::<f64>() {
            Ok(_) => Node::new(Kind::Number(value.to_string()), span),
            Err(_) => text(value, span),
        }
    }

    /// A default: a variable, a quoted string or a plain word.
    fn literal_or_variable(&mut self, d: &str, span: Span) -> Option<Node> {
        if let Some(inner) = d.strip_prefix("${").and_then(|r| r.strip_suffix('}')) {
            return self.variable(inner, span);
        }
        if SOURCES.iter().any(|s| d.starts_with(s)) {
            // The Framework's older form: `${opt:stage, self:provider.stage}`.
            return self.variable(d, span);
        }
        let unquoted = d
            .strip_prefix('\'')
            .and_then(|r| r.strip_suffix('\''))
            .or_else(|| d.strip_prefix('"').and_then(|r| r.strip_suffix('"')));
        Some(match unquoted {
            Some(s) => text(s, span),
            None if d.parse::<f64>().is_ok() => Node::new(Kind::Number(d.to_string()), span),
            None => text(d, span),
        })
    }

    /// The resolved value at a dotted path of the file (`custom.queue.name`).
    fn path(&mut self, path: &str) -> Option<Node> {
        if self.chain.iter().any(|p| p == path) {
            self.cycles += 1;
            return None;
        }
        // `--stage` is `provider.stage` too.
        if path == "provider.stage"
            && let Some((name, from)) = self.stage.stage()
        {
            return Some(self.given(name, from, Span::default()));
        }
        if let Some((done, given)) = self.done.get(path) {
            if let Some(given) = given {
                self.given.get_or_insert_with(|| given.clone());
            }
            return done.clone();
        }
        let mut node = self.root;
        for key in path.split('.').filter(|k| !k.is_empty()) {
            node = match &node.kind {
                Kind::Map(_) => node.get(key)?,
                Kind::Seq(items) => items.get(key.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        let cycles = self.cycles;
        let outer = self.given.take();
        self.chain.push(path.to_string());
        let value = self.node(node);
        self.chain.pop();
        let given = self.given.take();
        self.given = outer.or_else(|| given.clone());
        // A value that is itself unknown stays unknown.
        let value = (!is_unresolved(&value)).then_some(value);
        // Inside a cycle the value depends on where it was entered from.
        if self.cycles == cycles {
            self.done.insert(path.to_string(), (value.clone(), given));
        }
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;
    use sqsguard_syntax::yaml;

    fn resolved(text: &str, path: &str) -> Node {
        let f = SourceFile::new("serverless.yml", text.to_string());
        let mut node = resolve(&yaml::parse(&f).unwrap(), &Stage::default()).root;
        for key in path.split('.') {
            node = node.get(key).unwrap().clone();
        }
        node
    }

    fn string(node: &Node) -> Option<&str> {
        node.as_str()
    }

    const HEAD: &str = "service: s\nprovider:\n  name: aws\n  region: eu-west-1\ncustom:\n  vt: 60\n  name: jobs\n  a: ${self:custom.b}\n  b: ${self:custom.a}\n";

    #[test]
    fn self_opt_env_sls_and_aws() {
        let y = |v: &str| format!("{HEAD}x: {v}\n");
        assert_eq!(resolved(&y("${self:custom.vt}"), "x").kind, Kind::Number("60".into()));
        assert_eq!(string(&resolved(&y("q-${self:custom.name}-${sls:stage}"), "x")), Some("q-jobs-dev"));
        assert_eq!(string(&resolved(&y("${opt:stage, 'prod'}"), "x")), Some("prod"));
        assert_eq!(string(&resolved(&y("${env:QUEUE, ${self:custom.name}}"), "x")), Some("jobs"));
        assert_eq!(string(&resolved(&y("${aws:region}"), "x")), Some("eu-west-1"));
        assert_eq!(string(&resolved(&y("${opt:stage, self:custom.name}"), "x")), Some("jobs"));
        // CloudFormation's own `${...}` inside Fn::Sub stays as it is.
        assert_eq!(
            string(&resolved(&y("\"arn:${AWS::Partition}:sqs:${self:custom.name}\""), "x")),
            Some("arn:${AWS::Partition}:sqs:jobs")
        );
    }

    #[test]
    fn what_only_deployment_knows_is_unknown_and_cycles_end() {
        let y = |v: &str| format!("{HEAD}x: {v}\n");
        for v in ["${ssm:/path}", "${env:NOPE}", "${self:custom.a}", "q-${self:nope.deeper}", "${file(./x.yml)}"] {
            assert!(is_unresolved(&resolved(&y(v), "x")), "{v}");
        }
    }

    /// The deploying account is CloudFormation's `AWS::AccountId`: an ARN
    /// built with it keeps the rest of its text (the queue's name).
    #[test]
    fn the_account_id_is_the_pseudo_parameter() {
        let y = |v: &str| format!("{HEAD}x: {v}\n");
        let node = resolved(&y("${aws:accountId}"), "x");
        assert_eq!(node.get("Ref").and_then(Node::as_str), Some("AWS::AccountId"));
        let node = resolved(&y("arn:aws:sqs:${aws:region}:${aws:accountId}:${self:service}-jobs"), "x");
        assert_eq!(node.get("Fn::Sub").and_then(Node::as_str), Some("arn:aws:sqs:eu-west-1:${AWS::AccountId}:s-jobs"));
        // With a CloudFormation `${...}` of its own, a Sub would read it: unknown.
        assert!(is_unresolved(&resolved(&y("${aws:accountId}-${AWS::Region}"), "x")));
    }

    #[test]
    fn a_value_from_elsewhere_is_located_where_it_is_used() {
        let text = format!("{HEAD}x: ${{self:custom.vt}}\n");
        let node = resolved(&text, "x");
        assert_eq!(&text[node.span.start..node.span.end], "${self:custom.vt}");
    }
}
