//! Values that remember where they came from, and which condition they
//! depend on.
//!
//! Front-ends resolve what they can before rules run. An attribute is an
//! [`Attr`]: one or more alternatives ([`Alt`]), one per branch of a
//! CloudFormation `Fn::If` (or just one when nothing is conditional). Each
//! alternative is [`Value::Known`], [`Value::Unknown`] (cannot be resolved
//! statically: rules skip it, never guess) or [`Value::Absent`] (truly unset:
//! AWS defaults apply).

use std::fmt;
use std::sync::Arc;

use super::Field;
use sqsguard_source::{Location, Source, Span};

/// Where a value or resource came from.
#[derive(Clone, Debug)]
pub enum Origin {
    /// A span in a file that was read.
    File { file: Source, span: Span },
    /// A live AWS resource (boxed: most origins are spans, and a model
    /// holds one at every value).
    Live(Box<Live>),
}

/// A live AWS resource (queue URL, mapping UUID, ARN) in an account and
/// Region.
#[derive(Clone, Debug)]
pub struct Live {
    pub id: String,
    pub account: Option<String>,
    pub region: Option<String>,
    /// What people call it, where the audit knows: a queue's name, a
    /// consumer's function and queue (`jobs-worker on jobs`).
    pub name: Option<String>,
}

impl Origin {
    pub fn live(id: impl Into<String>, account: Option<String>, region: Option<String>) -> Self {
        Origin::Live(Box::new(Live { id: id.into(), account, region, name: None }))
    }
}

impl Origin {
    pub fn file(file: &Source, span: Span) -> Self {
        // A span of a file that a Serverless service includes is that file's.
        match file.included_at(span) {
            Some((included, span)) => Origin::File { file: included.clone(), span },
            None => Origin::File { file: file.clone(), span },
        }
    }

    /// A whole file or folder that was not read (no text to point into).
    pub fn path(path: &std::path::Path) -> Self {
        Origin::File {
            file: sqsguard_source::SourceFile::new(path.to_path_buf(), String::new()),
            span: Span::default(),
        }
    }

    /// The account and Region of a live resource, as far as known.
    pub fn account_region(&self) -> (Option<&str>, Option<&str>) {
        match self {
            Origin::Live(live) => (live.account.as_deref(), live.region.as_deref()),
            Origin::File { .. } => (None, None),
        }
    }

    /// Whether both are the same bytes of the same file: one value read
    /// twice (a Parameter or variable two resources use), which a fix
    /// cannot change for one of them alone.
    pub fn is_same_place(&self, other: &Origin) -> bool {
        match (self, other) {
            (Origin::File { file: a, span: x }, Origin::File { file: b, span: y }) => x == y && a.path == b.path,
            _ => false,
        }
    }

    /// Where it is in its file; `None` for a live resource.
    pub fn location(&self) -> Option<Location> {
        match self {
            Origin::File { file, span } => Some(file.location(*span)),
            Origin::Live(_) => None,
        }
    }
}

/// The branch choices an alternative depends on: `(condition, branch)`.
///
/// A condition written `each.key == "a"` or `count.index == 2` (or
/// `each.key in ["a", "b"]`) picks instances of a Terraform
/// `for_each`/`count` resource: the same key of resources chained by
/// `for_each` is the same instance, so conditions on one of these variables
/// naming no common key cannot both hold.
///
/// Boxed, and `None` when unconditional (almost every value): a model holds
/// one at every alternative of every attribute, and 8 bytes instead of a
/// `Vec`'s 24 take an alternative of a number from 96 bytes to 80, about
/// 24 MB of a 200 MB Terraform plan's model (`benches/plan.sh`). Never
/// `Some` of an empty list, so the derived equality holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct When(Option<Box<Choices>>);

/// The `(condition, branch)` choices of a [`When`].
type Choices = Vec<(Arc<str>, bool)>;

/// The variable and keys of an instance condition (see [`When`]).
pub(crate) fn instance_condition(cond: &str) -> Option<(&'static str, Vec<serde_json::Value>)> {
    ["each.key", "count.index"].into_iter().find_map(|var| {
        let rest = cond.strip_prefix(var)?;
        if let Some(key) = rest.strip_prefix(" == ") {
            return serde_json::from_str(key).ok().map(|k| (var, vec![k]));
        }
        serde_json::from_str(rest.strip_prefix(" in ")?).ok().map(|keys| (var, keys))
    })
}

impl When {
    pub fn always() -> Self {
        When(None)
    }

    pub fn is_always(&self) -> bool {
        self.0.is_none()
    }

    /// The branch choices, in the order they were made.
    pub fn choices(&self) -> &[(Arc<str>, bool)] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }

    fn push(&mut self, cond: Arc<str>, branch: bool) {
        self.0.get_or_insert_with(Box::default).push((cond, branch));
    }

    /// No instance at all: every instance of a `for_each`/`count` variable
    /// was ruled out (the end of a chain of per-instance alternatives),
    /// which no real instance reaches.
    pub fn is_no_instance(&self) -> bool {
        let conds: Vec<_> =
            self.choices().iter().filter_map(|(c, b)| instance_condition(c).map(|(var, _)| (var, *b))).collect();
        conds.iter().any(|(var, b)| !b && !conds.iter().any(|(v, b)| v == var && *b))
    }

    pub fn with(&self, cond: &Arc<str>, branch: bool) -> Self {
        let mut next = self.clone();
        if !next.choices().iter().any(|(c, b)| c == cond && *b == branch) {
            next.push(cond.clone(), branch);
        }
        next
    }

    /// Both sets of choices together, or `None` when they contradict each
    /// other (one needs IsProd true, the other IsProd false).
    pub fn and(&self, other: &When) -> Option<When> {
        let mut out = self.clone();
        for (cond, branch) in other.choices() {
            match out.choices().iter().find(|(c, _)| c == cond) {
                Some((_, b)) if b != branch => return None,
                Some(_) => {}
                None => out.push(cond.clone(), *branch),
            }
        }
        // Two instances of one key variable: `each.key == "a"` and
        // `each.key == "b"` never hold together.
        let chosen: Vec<_> =
            out.choices().iter().filter(|(_, b)| *b).filter_map(|(c, _)| instance_condition(c)).collect();
        if chosen
            .iter()
            .any(|(var, keys)| chosen.iter().any(|(v, ks)| v == var && !ks.iter().any(|k| keys.contains(k))))
        {
            return None;
        }
        Some(out)
    }
}

impl fmt::Display for When {
    /// ` (when condition IsProd is true)`, or nothing when unconditional.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_always() {
            return Ok(());
        }
        // An instance is named by its key; the keys it is not go unsaid.
        let parts: Vec<String> = self
            .choices()
            .iter()
            .filter_map(|(c, b)| match (instance_condition(c), b) {
                (Some((var, keys)), true) => Some(match keys.as_slice() {
                    [key] => format!("{var} is {key}"),
                    _ => {
                        format!("{var} is one of {}", keys.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "))
                    }
                }),
                (Some(_), false) => None,
                (None, b) => Some(format!("condition {c} is {b}")),
            })
            .collect();
        if parts.is_empty() {
            return Ok(());
        }
        write!(f, " (when {})", parts.join(" and "))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Value<T> {
    Known(T),
    /// Cannot be resolved statically; the reason is for humans and debugging.
    Unknown(String),
    /// Not set at all: AWS's default applies.
    Absent,
}

impl<T> Value<T> {
    pub fn known(&self) -> Option<&T> {
        match self {
            Value::Known(v) => Some(v),
            _ => None,
        }
    }

    /// A number as written (`1e400`, `.inf`, `.nan`, 20 digits) that no
    /// model value can hold and no AWS API accepts. It is unknown to every
    /// rule that compares values, and [`Value::unrepresentable`] tells it
    /// from a value only deployment knows: SQS012 reports it where AWS has
    /// a range, a note everywhere else.
    pub fn unrepresentable_number(written: &str) -> Self {
        Value::Unknown(format!("{UNREPRESENTABLE}{written}"))
    }

    /// The number as written, when this is [`Value::unrepresentable_number`].
    pub fn unrepresentable(&self) -> Option<&str> {
        match self {
            Value::Unknown(why) => why.strip_prefix(UNREPRESENTABLE),
            _ => None,
        }
    }
}

/// How an unrepresentable number's reason starts; the number follows.
const UNREPRESENTABLE: &str = "a number beyond what any AWS attribute can hold: ";

impl Value<i64> {
    /// The value, or AWS's default for `field` when it is absent; `None`
    /// when it is unknown (or absent from a field without a default).
    pub fn or_aws_default(&self, field: Field) -> Option<i64> {
        match self {
            Value::Known(v) => Some(*v),
            Value::Absent => field.default(),
            Value::Unknown(_) => None,
        }
    }
}

impl Value<bool> {
    /// The value, or AWS's default for `field` when it is absent.
    pub fn or_aws_default(&self, field: Field) -> Option<bool> {
        match self {
            Value::Known(v) => Some(*v),
            Value::Absent => field.default().map(|d| d != 0),
            Value::Unknown(_) => None,
        }
    }
}

/// One alternative of an attribute.
#[derive(Clone, Debug)]
pub struct Alt<T> {
    pub value: Value<T>,
    /// The value itself, or the resource when the attribute is absent.
    pub origin: Origin,
    pub when: When,
    /// Where the value is written, when that is not where it is used: the
    /// literal of a Terraform variable's default, a `.tfvars` value, a
    /// local or a module argument. A fix changes it there.
    pub written: Option<Arc<Origin>>,
    /// The value was given for the run (`--parameter-overrides`,
    /// `--stage`, `--param`), not read from a file: the input's words,
    /// which findings quote. No fix edits it.
    pub given: Option<Arc<str>>,
}

impl<T> Alt<T> {
    pub fn new(value: Value<T>, origin: Origin, when: When) -> Self {
        Alt { value, origin, when, written: None, given: None }
    }

    /// Where a fix changes the value: where it is written.
    pub fn written_at(&self) -> &Origin {
        self.written.as_deref().unwrap_or(&self.origin)
    }
}

/// An attribute: at least one alternative.
#[derive(Clone, Debug)]
pub struct Attr<T> {
    pub alts: Vec<Alt<T>>,
}

impl<T> Attr<T> {
    pub fn single(value: Value<T>, origin: Origin) -> Self {
        Attr { alts: vec![Alt::new(value, origin, When::always())] }
    }

    pub fn known(value: T, origin: Origin) -> Self {
        Self::single(Value::Known(value), origin)
    }

    pub fn absent(origin: Origin) -> Self {
        Self::single(Value::Absent, origin)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Alt<T>> {
        self.alts.iter()
    }

    /// True when some alternative is set (known or unknown).
    pub fn is_set_somewhere(&self) -> bool {
        self.alts.iter().any(|a| !matches!(a.value, Value::Absent))
    }

    /// True when some alternative is known to satisfy `pred`.
    pub fn any_known(&self, pred: impl Fn(&T) -> bool) -> bool {
        self.alts.iter().any(|a| matches!(&a.value, Value::Known(v) if pred(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unrepresentable_number_is_unknown_and_keeps_its_text() {
        let v: Value<i64> = Value::unrepresentable_number("1e400");
        assert_eq!(v.unrepresentable(), Some("1e400"));
        assert_eq!(v.known(), None);
        assert_eq!(Value::<i64>::Unknown("only known at deploy time".into()).unrepresentable(), None);
        assert_eq!(Value::Known(3).unrepresentable(), None);
    }

    #[test]
    fn an_unconditional_value_holds_no_list() {
        // One pointer in every alternative of every attribute of a model.
        assert_eq!(std::mem::size_of::<When>(), std::mem::size_of::<usize>());
        let c: Arc<str> = Arc::from("IsProd");
        assert!(When::always().is_always() && When::always().choices().is_empty());
        let yes = When::always().with(&c, true);
        assert_eq!(yes.choices(), &[(c.clone(), true)]);
        assert_eq!(yes.with(&c, true), yes, "a choice made twice is one");
        assert_eq!(When::always().and(&When::always()), Some(When::always()));
        assert_ne!(yes, When::always());
    }

    #[test]
    fn contradicting_conditions_do_not_pair() {
        let c: Arc<str> = Arc::from("IsProd");
        let yes = When::always().with(&c, true);
        let no = When::always().with(&c, false);
        assert!(yes.and(&no).is_none());
        assert_eq!(yes.and(&yes), Some(yes.clone()));
        assert_eq!(yes.to_string(), " (when condition IsProd is true)");
        assert_eq!(When::always().to_string(), "");
    }
}
