//! Queue policies and their statements, and the one question the producer
//! rules ask of them: does this service, delivering from this source, get
//! `sqs:SendMessage` on this queue?
//!
//! Every part a front-end could not read is unknown, and an unknown part
//! makes the answer unknown (never a finding, never a guess): `NotPrincipal`,
//! `NotResource`, a principal or action only known at deploy time, a
//! condition on anything but the source.

use super::{Origin, QueueIdx, Target, Value, When};

#[derive(Clone, Debug)]
pub struct QueuePolicy {
    pub resource: String,
    pub origin: Origin,
    /// The queues the policy applies to.
    pub queues: Vec<Value<Target>>,
    pub statements: Vec<Statement>,
    /// Why some of the document could not be read (a `Fn::Sub` string, a
    /// data source, JSON that does not parse): its statements are then not
    /// all of it, so "no statement allows" is unknown.
    pub unreadable: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Statement {
    pub origin: Origin,
    pub when: When,
    pub allow: Value<bool>,
    /// Principal is `*` or `{AWS: "*"}`.
    pub public_principal: Value<bool>,
    pub has_condition: bool,
    /// Whom it names (`NotPrincipal`: unknown).
    pub principals: Value<Vec<Principal>>,
    /// What it allows, lower-cased (`sqs:sendmessage`, `sqs:*`, `*`).
    pub actions: Value<Actions>,
    /// The queues it names (absent `Resource`: every queue of the policy).
    pub resources: Value<Vec<Value<Target>>>,
    /// Its conditions, by key.
    pub conditions: Vec<Condition>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Principal {
    /// `*` or `{AWS: "*"}`.
    Anyone,
    /// `{Service: sns.amazonaws.com}`, lower-cased.
    Service(String),
    /// An account, role, user, federated or canonical user.
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Actions {
    /// `NotAction`: everything but the patterns.
    pub not: bool,
    pub patterns: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Condition {
    /// The condition key, lower-cased (`aws:sourcearn`).
    pub key: String,
    /// The values it compares with (any of them matches).
    pub values: Vec<Value<SourceId>>,
}

/// Who a value names, as far as a policy condition can tell: a resource of
/// the analysed files (by logical ID or address), or text (an ARN, maybe
/// with IAM wildcards).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SourceId {
    Resource(String),
    Text(String),
}

/// The keys a condition on the source may use.
pub(crate) const SOURCE_ARN: &str = "aws:sourcearn";
const SOURCE_ACCOUNT: &[&str] = &["aws:sourceaccount", "aws:sourceowner"];

/// The answer to "is this delivery allowed?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allowed,
    NotAllowed,
    /// Something that decides it could not be read: why.
    Unknown(String),
}

impl Verdict {
    /// Allowed if either is; unknown if either is and neither allows.
    pub fn or(self, other: Verdict) -> Verdict {
        match (self, other) {
            (Verdict::Allowed, _) | (_, Verdict::Allowed) => Verdict::Allowed,
            (Verdict::Unknown(w), _) | (_, Verdict::Unknown(w)) => Verdict::Unknown(w),
            _ => Verdict::NotAllowed,
        }
    }

    /// Allowed only if both are.
    fn and(self, other: impl FnOnce() -> Verdict) -> Verdict {
        match self {
            Verdict::Allowed => other(),
            Verdict::NotAllowed => Verdict::NotAllowed,
            Verdict::Unknown(w) => match other() {
                Verdict::NotAllowed => Verdict::NotAllowed,
                _ => Verdict::Unknown(w),
            },
        }
    }
}

/// What asks to deliver: a service principal, from a source.
pub struct Delivery<'a> {
    /// `sns.amazonaws.com`.
    pub principal: &'a str,
    pub source: &'a Value<SourceId>,
    /// The queue delivered to; `None` for a key policy, whose `Resource`
    /// is the key itself whatever it says.
    pub queue: Option<QueueIdx>,
    /// The queue's name, when known, for ARNs written as text.
    pub queue_name: Option<&'a str>,
    /// The action asked for (`sqs:sendmessage`).
    pub action: &'a str,
}

impl Statement {
    /// Whether this statement allows the delivery (Deny statements are not
    /// read: a delivery they block is reported as allowed, never the other
    /// way round).
    pub fn grants(&self, d: &Delivery<'_>) -> Verdict {
        let known = |v: &Value<bool>, what: &str| match v {
            Value::Known(true) => Verdict::Allowed,
            Value::Known(false) | Value::Absent => Verdict::NotAllowed,
            Value::Unknown(w) => Verdict::Unknown(format!("{what}: {w}")),
        };
        known(&self.allow, "Effect")
            .and(|| self.principal_matches(d))
            .and(|| self.action_matches(d.action))
            .and(|| self.resource_matches(d))
            .and(|| self.conditions_match(d))
    }

    fn principal_matches(&self, d: &Delivery<'_>) -> Verdict {
        match &self.principals {
            Value::Known(list) => {
                let hit = list.iter().any(|p| match p {
                    Principal::Anyone => true,
                    Principal::Service(s) => s.eq_ignore_ascii_case(d.principal),
                    Principal::Other => false,
                });
                if hit { Verdict::Allowed } else { Verdict::NotAllowed }
            }
            Value::Absent => Verdict::NotAllowed,
            Value::Unknown(w) => Verdict::Unknown(format!("Principal: {w}")),
        }
    }

    fn action_matches(&self, action: &str) -> Verdict {
        match &self.actions {
            Value::Known(a) => {
                let hit = a.patterns.iter().any(|p| wildcard(p, action, true));
                if hit != a.not { Verdict::Allowed } else { Verdict::NotAllowed }
            }
            Value::Absent => Verdict::NotAllowed,
            Value::Unknown(w) => Verdict::Unknown(format!("Action: {w}")),
        }
    }

    fn resource_matches(&self, d: &Delivery<'_>) -> Verdict {
        let Some(queue) = d.queue else { return Verdict::Allowed };
        match &self.resources {
            Value::Absent => Verdict::Allowed,
            Value::Unknown(w) => Verdict::Unknown(format!("Resource: {w}")),
            Value::Known(list) => {
                let mut verdict = Verdict::NotAllowed;
                for r in list {
                    let one = match r {
                        Value::Known(Target::Queue(q)) if *q == queue => Verdict::Allowed,
                        Value::Known(Target::External(text)) if text.contains(['*', '?']) => match d.queue_name {
                            Some(name) => match text.rsplit(':').next() {
                                Some(last) if wildcard(last, name, false) => Verdict::Allowed,
                                _ => Verdict::NotAllowed,
                            },
                            None => {
                                Verdict::Unknown(format!("Resource {text} against a queue whose name is generated"))
                            }
                        },
                        Value::Known(_) | Value::Absent => Verdict::NotAllowed,
                        Value::Unknown(w) => Verdict::Unknown(format!("Resource: {w}")),
                    };
                    verdict = verdict.or(one);
                }
                verdict
            }
        }
    }

    fn conditions_match(&self, d: &Delivery<'_>) -> Verdict {
        let mut verdict = Verdict::Allowed;
        for c in &self.conditions {
            let one = if c.key == SOURCE_ARN {
                let mut any = Verdict::NotAllowed;
                for v in &c.values {
                    any = any.or(source_matches(v, d.source));
                }
                any
            } else if SOURCE_ACCOUNT.contains(&c.key.as_str()) {
                // The producers of one analysed set are taken to be in the
                // queue's account: the account is rarely written.
                Verdict::Allowed
            } else {
                Verdict::Unknown(format!("a condition on {}", c.key))
            };
            verdict = verdict.and(|| one);
        }
        verdict
    }
}

/// Whether a condition value names the producer.
fn source_matches(condition: &Value<SourceId>, producer: &Value<SourceId>) -> Verdict {
    match (condition, producer) {
        (Value::Known(SourceId::Resource(a)), Value::Known(SourceId::Resource(b))) => {
            if a == b {
                Verdict::Allowed
            } else {
                Verdict::NotAllowed
            }
        }
        (Value::Known(SourceId::Text(pattern)), Value::Known(SourceId::Text(arn))) => {
            if wildcard(pattern, arn, false) {
                Verdict::Allowed
            } else {
                Verdict::NotAllowed
            }
        }
        (Value::Known(SourceId::Text(pattern)), _) if pattern == "*" => Verdict::Allowed,
        (Value::Unknown(w), _) => Verdict::Unknown(format!("aws:SourceArn: {w}")),
        (_, Value::Unknown(w)) => Verdict::Unknown(format!("the producer's ARN: {w}")),
        _ => {
            Verdict::Unknown("aws:SourceArn written as text, the producer by reference (or the other way round)".into())
        }
    }
}

/// IAM's `*` and `?` wildcards; action names compare without case.
pub(crate) fn wildcard(pattern: &str, text: &str, ignore_case: bool) -> bool {
    let mut glob = String::new();
    for c in pattern.chars() {
        match c {
            '*' | '?' => glob.push(c),
            c => glob.push_str(&globset::escape(&c.to_string())),
        }
    }
    globset::GlobBuilder::new(&glob)
        .case_insensitive(ignore_case)
        .literal_separator(false)
        .backslash_escape(true)
        .build()
        .is_ok_and(|g| g.compile_matcher().is_match(text))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn iam_wildcards() {
        assert!(wildcard("sqs:Send*", "sqs:sendmessage", true));
        assert!(wildcard("SQS:*", "sqs:sendmessage", true));
        assert!(wildcard("*", "sqs:sendmessage", true));
        assert!(wildcard("sqs:SendMessag?", "sqs:sendmessage", true));
        assert!(!wildcard("sqs:ReceiveMessage", "sqs:sendmessage", true));
        assert!(!wildcard("arn:aws:sqs:*:*:jobs", "arn:aws:sqs:eu-west-1:1:JOBS", false), "ARNs keep their case");
        assert!(wildcard(
            "arn:aws:sns:*:123456789012:orders-[a]",
            "arn:aws:sns:eu-west-1:123456789012:orders-[a]",
            false
        ));
        assert!(!wildcard("arn:aws:sns:*:*:orders", "arn:aws:sns:eu-west-1:1:payments", false));
    }

    /// An Allow statement with these principals, actions and conditions.
    pub(crate) fn statement(principals: Vec<Principal>, actions: &[&str], conditions: Vec<Condition>) -> Statement {
        Statement {
            origin: Origin::path(std::path::Path::new("t")),
            when: When::always(),
            allow: Value::Known(true),
            public_principal: Value::Known(principals.contains(&Principal::Anyone)),
            has_condition: !conditions.is_empty(),
            principals: Value::Known(principals),
            actions: Value::Known(Actions { not: false, patterns: actions.iter().map(|a| a.to_lowercase()).collect() }),
            resources: Value::Absent,
            conditions,
        }
    }

    /// SNS sending to queue 0 (`jobs`) from `source`.
    pub(crate) fn delivery<'a>(source: &'a Value<SourceId>) -> Delivery<'a> {
        Delivery {
            principal: "sns.amazonaws.com",
            source,
            queue: Some(0),
            queue_name: Some("jobs"),
            action: "sqs:sendmessage",
        }
    }

    #[test]
    fn a_service_principal_or_a_conditioned_star_allows_the_named_source_only() {
        let topic = Value::Known(SourceId::Resource("Topic".into()));
        let sns = Principal::Service("sns.amazonaws.com".into());
        assert_eq!(
            statement(vec![sns.clone()], &["sqs:SendMessage"], vec![]).grants(&delivery(&topic)),
            Verdict::Allowed
        );
        let events = Principal::Service("events.amazonaws.com".into());
        assert_eq!(statement(vec![events], &["sqs:*"], vec![]).grants(&delivery(&topic)), Verdict::NotAllowed);
        let on = |name: &str| Condition {
            key: SOURCE_ARN.into(),
            values: vec![Value::Known(SourceId::Resource(name.into()))],
        };
        let star = |c| statement(vec![Principal::Anyone], &["SQS:Send*"], vec![c]);
        assert_eq!(star(on("Topic")).grants(&delivery(&topic)), Verdict::Allowed);
        assert_eq!(star(on("Other")).grants(&delivery(&topic)), Verdict::NotAllowed);
        let other_key = Condition { key: "aws:securetransport".into(), values: vec![] };
        assert!(matches!(star(other_key).grants(&delivery(&topic)), Verdict::Unknown(_)));
        let not_action = Statement {
            actions: Value::Known(Actions { not: true, patterns: vec!["sqs:deletequeue".into()] }),
            ..statement(vec![sns.clone()], &[], vec![])
        };
        assert_eq!(not_action.grants(&delivery(&topic)), Verdict::Allowed);
        let not_principal =
            Statement { principals: Value::Unknown("NotPrincipal".into()), ..statement(vec![], &["*"], vec![]) };
        assert!(matches!(not_principal.grants(&delivery(&topic)), Verdict::Unknown(_)));
        let deny = Statement { allow: Value::Known(false), ..statement(vec![sns], &["*"], vec![]) };
        assert_eq!(deny.grants(&delivery(&topic)), Verdict::NotAllowed);
    }
}
