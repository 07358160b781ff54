//! Linking references to the queues and functions of the model: by
//! resource reference, by literal name, or by the last segment of an ARN or
//! URL.

use foldhash::HashMap;

use super::value::{Part, R, RV, Text};
use sqsguard_model::code::EnvVar;
use sqsguard_model::{FunctionIdx, QueueIdx, Target, Value, Via};

/// The queues and functions of one template or module, by ID and by name.
#[derive(Debug)]
pub(crate) struct Linker {
    queue_ids: HashMap<String, QueueIdx>,
    queue_names: HashMap<String, QueueIdx>,
    function_ids: HashMap<String, FunctionIdx>,
    function_names: HashMap<String, FunctionIdx>,
    /// Queues and functions registered so far (several instances of a
    /// Terraform resource share one ID, so the maps can't count them).
    queues: usize,
    functions: usize,
    /// The reference attribute that yields a queue's name (CloudFormation
    /// `QueueName`, Terraform `name`).
    queue_name_attribute: &'static str,
    /// The reference attributes that yield a queue's URL (CloudFormation
    /// `Ref` and `QueueUrl`, Terraform `id` and `url`).
    queue_url_attributes: &'static [&'static str],
}

impl Linker {
    pub(crate) fn new(queue_name_attribute: &'static str, queue_url_attributes: &'static [&'static str]) -> Self {
        Linker {
            queue_ids: HashMap::default(),
            queue_names: HashMap::default(),
            function_ids: HashMap::default(),
            function_names: HashMap::default(),
            queues: 0,
            functions: 0,
            queue_name_attribute,
            queue_url_attributes,
        }
    }

    /// Register the next queue (indices follow registration order). A name
    /// built from deploy-time parts (`${AWS::StackName}-dlq`) is kept by its
    /// expression, which only equals the same expression. When instances
    /// share an ID, references to it name the first.
    /// A queue with a name per instance (`"jobs-${each.key}"`) is known by
    /// each of them.
    pub(crate) fn add_queue<'t>(&mut self, id: &str, names: impl IntoIterator<Item = &'t Text>) -> QueueIdx {
        let idx = self.queues;
        self.queues += 1;
        self.queue_ids.entry(id.to_string()).or_insert(idx);
        for name in names {
            self.queue_names.insert(name.display(), idx);
        }
        idx
    }

    pub(crate) fn add_function(&mut self, id: &str, name: Option<&Text>) -> FunctionIdx {
        let idx = self.functions;
        self.functions += 1;
        self.function_ids.entry(id.to_string()).or_insert(idx);
        if let Some(name) = name {
            self.function_names.insert(name.display(), idx);
        }
        idx
    }

    /// Register `id` (a Lambda alias or version) as naming the function
    /// `function` refers to, so mappings through the alias reach it.
    pub(crate) fn add_function_alias(&mut self, id: &str, function: &R) {
        if let Value::Known(Target::Function(i)) = self.function_target(function) {
            self.function_ids.entry(id.to_string()).or_insert(i);
        }
    }

    /// What a queue reference (ARN, URL, name, or a reference to the queue
    /// resource) names.
    pub(crate) fn queue_target(&self, r: &R) -> Value<Target> {
        target(r, &self.queue_ids, &self.queue_names, Target::Queue, last_segment)
    }

    /// How a queue reference is written where AWS expects an ARN: through
    /// the URL of a queue of the set, as a URL written out, or otherwise.
    /// It does not change what [`Linker::queue_target`] links.
    pub(crate) fn queue_via(&self, r: &R) -> Value<Via> {
        let text = match &r.v {
            RV::Str(t) => t,
            RV::Unknown(why) => return Value::Unknown(why.clone()),
            _ => return Value::Known(Via::Arn),
        };
        if let Some((res, attr)) = text.reference() {
            if attr.is_empty() && self.queue_ids.contains_key(res) {
                return Value::Unknown(format!("{} names the queue, not which attribute", text.display()));
            }
            return Value::Known(match self.queue_ids.get(res) {
                Some(&queue) if self.queue_url_attributes.contains(&attr) => {
                    Via::UrlReference { queue, attribute: attr.to_string() }
                }
                _ => Via::Arn,
            });
        }
        Value::Known(if is_queue_url(text) { Via::UrlText(text.display()) } else { Via::Arn })
    }

    /// What a function reference (name, ARN, reference) names.
    pub(crate) fn function_target(&self, r: &R) -> Value<Target> {
        target(r, &self.function_ids, &self.function_names, Target::Function, function_name)
    }

    /// What a queue *name* names (an alarm's QueueName dimension): a
    /// reference to the queue's name attribute, or the name itself. A
    /// reference to its URL or ARN names no queue's metrics.
    pub(crate) fn queue_name_target(&self, r: &R) -> Value<Target> {
        let text = match &r.v {
            RV::Str(t) => t,
            RV::Unknown(why) => return Value::Unknown(why.clone()),
            _ => return Value::Unknown("not a queue name".into()),
        };
        if let Some((res, attr)) = text.reference() {
            return match self.queue_ids.get(res) {
                Some(_) if attr.is_empty() => {
                    Value::Unknown(format!("{} names the queue, not which attribute", text.display()))
                }
                Some(&i) if attr == self.queue_name_attribute => Value::Known(Target::Queue(i)),
                _ => Value::Known(Target::External(text.display())),
            };
        }
        match self.queue_names.get(&text.display()) {
            Some(&i) => Value::Known(Target::Queue(i)),
            None if text.literal().is_some() => Value::Known(Target::External(text.display())),
            None => Value::Unknown(format!("{} is only known at deploy time", text.display())),
        }
    }
}

fn target(
    r: &R,
    ids: &HashMap<String, usize>,
    names: &HashMap<String, usize>,
    make: fn(usize) -> Target,
    name_of: fn(&str) -> &str,
) -> Value<Target> {
    let text = match &r.v {
        RV::Str(t) => t,
        RV::Unknown(why) => return Value::Unknown(why.clone()),
        _ => return Value::Unknown("not a reference".into()),
    };
    if let Some((res, _attr)) = text.reference() {
        return match ids.get(res) {
            Some(&i) => Value::Known(make(i)),
            None => Value::Known(Target::External(text.display())),
        };
    }
    let whole = text.display();
    if let Some(&i) = names.get(&whole) {
        return Value::Known(make(i));
    }
    // A name or ARN whose last segment is literal can still be matched.
    match text.0.last() {
        Some(Part::Lit(tail)) => {
            let name = name_of(if text.0.len() == 1 { &whole } else { tail });
            match names.get(name) {
                Some(&i) if !name.is_empty() => Value::Known(make(i)),
                _ if text.literal().is_some() => Value::Known(Target::External(whole)),
                _ => Value::Unknown(format!("{whole} is only known at deploy time")),
            }
        }
        _ => Value::Unknown(format!("{whole} is only known at deploy time")),
    }
}

/// A queue URL, whole or with deploy-time parts: `https://` (or
/// `http://`), a host of SQS (`sqs.<region>.amazonaws.com`, a VPC
/// endpoint's `....sqs.<region>.vpce.amazonaws.com`, the legacy
/// `queue.amazonaws.com`), then a path.
fn is_queue_url(text: &Text) -> bool {
    let Some(Part::Lit(head)) = text.0.first() else { return false };
    let head = head.to_ascii_lowercase();
    if !head.starts_with("https://") && !head.starts_with("http://") {
        return false;
    }
    let whole = text.display().to_ascii_lowercase();
    let rest = whole.split_once("://").map_or("", |(_, rest)| rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let sqs_host = host.starts_with("sqs.") || host.contains(".sqs.") || host.contains("queue.amazonaws.com");
    sqs_host && !path.trim_matches('/').is_empty()
}

/// `arn:aws:sqs:r:a:name` / `https://sqs.../a/name` / `name` -> `name`.
fn last_segment(s: &str) -> &str {
    s.rsplit([':', '/']).next().unwrap_or(s)
}

/// `arn:aws:lambda:r:a:function:name[:alias]` -> `name`.
fn function_name(s: &str) -> &str {
    match s.split_once(":function:") {
        Some((_, rest)) => rest.split(':').next().unwrap_or(rest),
        None => last_segment(s),
    }
}

/// A queue's ARN whose other parts are only known at deploy time
/// (`arn:aws:sqs:${AWS::Region}:${Account}:${QueueName}`, an account from
/// `data.aws_caller_identity`): which queue is unknown, but it is a queue.
pub(crate) fn is_sqs_arn(r: &R) -> bool {
    let Some(text) = r.text() else { return false };
    let Some(Part::Lit(head)) = text.0.first() else { return false };
    let mut fields = head.split(':');
    // The partition may itself be a deploy-time part (`arn:${AWS::Partition}:sqs:`).
    match (fields.next(), fields.next(), fields.next()) {
        (Some("arn"), Some(_), Some("sqs")) => true,
        (Some("arn"), Some(""), None) => {
            matches!(text.0.get(2), Some(Part::Lit(rest)) if rest.starts_with(":sqs:"))
        }
        _ => false,
    }
}

/// The environment variables of a map of them (CloudFormation's
/// `Environment.Variables`, the Framework's `environment`, Terraform's
/// `environment { variables }`), each with the queue it names: a reference
/// to a queue's URL or ARN, or its name.
pub(crate) fn env_vars(vars: &R, linker: &Linker) -> Vec<EnvVar> {
    let RV::Map(entries) = &vars.v else { return Vec::new() };
    entries
        .iter()
        .map(|(name, _, value)| {
            let queue = match linker.queue_target(value) {
                Value::Known(Target::Queue(q)) => Value::Known(Target::Queue(q)),
                other => match linker.queue_name_target(value) {
                    Value::Known(Target::Queue(q)) => Value::Known(Target::Queue(q)),
                    _ => other,
                },
            };
            EnvVar { name: name.clone(), queue }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::Span;

    fn text(parts: Vec<Part>) -> R {
        R::new(RV::Str(Text(parts)), Span::default())
    }

    fn lit(s: &str) -> Part {
        Part::Lit(s.to_string())
    }

    #[test]
    fn a_queue_named_by_its_url_still_links_and_says_so() {
        let mut linker = Linker::new("QueueName", &["Ref", "QueueUrl"]);
        let q = linker.add_queue("Jobs", Some(&Text::lit("jobs")));
        let attr = |a: &str| text(vec![Part::Attr { resource: "Jobs".into(), attribute: a.into() }]);
        for a in ["Ref", "QueueUrl"] {
            assert_eq!(linker.queue_target(&attr(a)), Value::Known(Target::Queue(q)));
            assert_eq!(linker.queue_via(&attr(a)), Value::Known(Via::UrlReference { queue: q, attribute: a.into() }));
        }
        assert_eq!(linker.queue_via(&attr("Arn")), Value::Known(Via::Arn));
        // A reference that names the queue and no attribute (a plan of
        // format 0.1): the queue, and neither an ARN nor a URL.
        assert_eq!(linker.queue_target(&attr("")), Value::Known(Target::Queue(q)));
        assert!(matches!(linker.queue_via(&attr("")), Value::Unknown(_)));
        assert!(matches!(linker.queue_name_target(&attr("")), Value::Unknown(_)));
        // Such a reference to what is no queue of the set is no queue's URL.
        let other = text(vec![Part::Attr { resource: "Topic".into(), attribute: String::new() }]);
        assert_eq!(linker.queue_via(&other), Value::Known(Via::Arn));
        let url = text(vec![lit("https://sqs.us-east-1.amazonaws.com/123456789012/jobs")]);
        assert_eq!(linker.queue_target(&url), Value::Known(Target::Queue(q)));
        assert!(matches!(linker.queue_via(&url), Value::Known(Via::UrlText(_))));
    }

    #[test]
    fn only_sqs_urls_are_queue_urls() {
        let url = |parts: Vec<Part>| is_queue_url(&Text(parts));
        assert!(url(vec![lit("https://sqs.eu-west-1.amazonaws.com/123456789012/jobs")]));
        assert!(url(vec![
            lit("https://sqs."),
            Part::Opaque("AWS::Region".into()),
            lit(".amazonaws.com/"),
            Part::Opaque("AWS::AccountId".into()),
            lit("/jobs"),
        ]));
        assert!(url(vec![lit("https://queue.amazonaws.com/123456789012/jobs")]));
        assert!(url(vec![lit("https://vpce-1a2b.sqs.us-east-1.vpce.amazonaws.com/123456789012/jobs")]));
        assert!(!url(vec![lit("arn:aws:sqs:us-east-1:123456789012:jobs")]));
        assert!(!url(vec![lit("https://sqs.us-east-1.amazonaws.com")]), "no queue in the path");
        assert!(!url(vec![lit("https://example.com/sqs.jobs")]));
        assert!(!url(vec![Part::Opaque("QueueUrl".into())]));
    }
}
