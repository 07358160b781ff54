//! What every resource reader shares: the file, the resolver, the index of
//! queues and functions for linking, and the conversions from resolved
//! values to model attributes.

use std::collections::HashMap;

use super::resolve::{Part, R, RV, Resolver, Text};
use super::template::{Resource, Template};
use crate::model::{Alt, Attr, FunctionIdx, Name, Origin, QueueIdx, Target, Value, When};
use crate::source::{Source, Span};

pub struct Ctx<'t, 'a> {
    pub file: Source,
    pub template: &'t Template<'a>,
    pub resolver: Resolver<'t, 'a>,
    queue_ids: HashMap<&'a str, QueueIdx>,
    queue_names: HashMap<String, QueueIdx>,
    function_ids: HashMap<&'a str, FunctionIdx>,
    function_names: HashMap<String, FunctionIdx>,
}

pub const QUEUE: &str = "AWS::SQS::Queue";
pub const FUNCTION: &str = "AWS::Lambda::Function";
pub const SAM_FUNCTION: &str = "AWS::Serverless::Function";

impl<'t, 'a> Ctx<'t, 'a> {
    /// Index queues and functions (in template order) so references to them
    /// resolve wherever they appear.
    pub fn new(file: Source, template: &'t Template<'a>) -> Self {
        let resolver = Resolver::new(template);
        let mut ctx = Ctx {
            file,
            template,
            resolver,
            queue_ids: HashMap::new(),
            queue_names: HashMap::new(),
            function_ids: HashMap::new(),
            function_names: HashMap::new(),
        };
        for res in &template.resources {
            let (ids, names, name_key) = match res.kind {
                QUEUE => (&mut ctx.queue_ids, &mut ctx.queue_names, "QueueName"),
                FUNCTION | SAM_FUNCTION => (&mut ctx.function_ids, &mut ctx.function_names, "FunctionName"),
                _ => continue,
            };
            let idx = ids.len();
            ids.insert(res.id, idx);
            // Literal names, and names built from deploy-time parts by
            // their expression (`${AWS::StackName}-dlq`), which only equal
            // the same expression.
            if let Some(name) = res.properties.and_then(|p| p.get(name_key))
                && let Some(text) = ctx.resolver.resolve(name).text()
            {
                names.insert(text.display(), idx);
            }
        }
        ctx
    }

    pub fn origin(&self, span: Span) -> Origin {
        Origin::file(&self.file, span)
    }

    /// The resolved Properties of a resource.
    pub fn properties(&self, res: &Resource<'_>) -> Option<R> {
        res.properties.map(|p| self.resolver.resolve(p))
    }

    /// Attribute `key` of `map` (following `Fn::If` on both levels). Absent
    /// alternatives are located at `absent_at`.
    pub fn attr<T>(&self, map: Option<&R>, key: &str, absent_at: Span, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        let mut alts = Vec::new();
        let Some(map) = map else {
            return Attr::absent(self.origin(absent_at));
        };
        for (w, m) in map.alternatives() {
            match m.entry(key) {
                None => alts.push(Alt { value: Value::Absent, origin: self.origin(absent_at), when: w }),
                Some((_, v)) => {
                    for (w2, v) in v.alternatives() {
                        let Some(when) = w.and(&w2) else { continue };
                        let value = if v.v == RV::NoValue { Value::Absent } else { conv(v) };
                        alts.push(Alt { value, origin: self.origin(v.span), when });
                    }
                }
            }
        }
        Attr { alts }
    }

    /// Every value at `path` under `r`, following `Fn::If`; `*` steps into
    /// each item of a list.
    pub fn values_at<'r>(&self, r: &'r R, path: &[&str]) -> Vec<(When, &'r R)> {
        let mut out = Vec::new();
        collect_at(r, path, When::always(), &mut out);
        out
    }

    /// An attribute made of values found with [`Ctx::values_at`].
    pub fn attr_of<T>(&self, found: Vec<(When, &R)>, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        Attr {
            alts: found
                .into_iter()
                .map(|(when, r)| Alt { value: conv(r), origin: self.origin(r.span), when })
                .collect(),
        }
    }

    /// What a queue reference (ARN, URL, name, `!GetAtt Q.Arn`, `!Ref Q`) names.
    pub fn queue_target(&self, r: &R) -> Value<Target> {
        self.target(r, &self.queue_ids, &self.queue_names, Target::Queue, last_segment)
    }

    /// What a queue *name* names (an alarm's QueueName dimension):
    /// `!GetAtt Q.QueueName` or the name itself. `!Ref Q` is the queue URL
    /// and an ARN is not a name either: they name no queue's metrics.
    pub fn queue_name_target(&self, r: &R) -> Value<Target> {
        let text = match &r.v {
            RV::Str(t) => t,
            RV::Unknown(why) => return Value::Unknown(why.clone()),
            _ => return Value::Unknown("not a queue name".into()),
        };
        if let Some((res, attr)) = text.reference() {
            return match self.queue_ids.get(res) {
                Some(&i) if attr == "QueueName" => Value::Known(Target::Queue(i)),
                _ => Value::Known(Target::External(text.display())),
            };
        }
        match self.queue_names.get(&text.display()) {
            Some(&i) => Value::Known(Target::Queue(i)),
            None if text.literal().is_some() => Value::Known(Target::External(text.display())),
            None => Value::Unknown(format!("{} is only known at deploy time", text.display())),
        }
    }

    /// What a function reference (name, ARN, `!Ref F`, `!GetAtt F.Arn`, an
    /// AWS::Lambda::Alias or Version of a function) names.
    pub fn function_target(&self, r: &R) -> Value<Target> {
        let via = r.text().and_then(Text::reference).and_then(|(res, _)| self.template.resource(res));
        if let Some(alias) = via.filter(|a| matches!(a.kind, "AWS::Lambda::Alias" | "AWS::Lambda::Version"))
            && let Some(function) = alias.properties.and_then(|p| p.get("FunctionName"))
        {
            let function = self.resolver.resolve(function);
            // An alias names its function directly; don't follow chains.
            if function.text().and_then(Text::reference).is_none_or(|(res, _)| res != alias.id) {
                return self.target(
                    &function,
                    &self.function_ids,
                    &self.function_names,
                    Target::Function,
                    function_name,
                );
            }
        }
        self.target(r, &self.function_ids, &self.function_names, Target::Function, function_name)
    }

    fn target(
        &self,
        r: &R,
        ids: &HashMap<&'a str, usize>,
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
        // A name or ARN whose last segment is literal can still be matched.
        match text.0.last() {
            Some(Part::Lit(tail)) => {
                let whole = text.display();
                let name = name_of(if text.0.len() == 1 { &whole } else { tail });
                match names.get(name) {
                    Some(&i) if !name.is_empty() => Value::Known(make(i)),
                    _ if text.literal().is_some() => Value::Known(Target::External(whole)),
                    _ => Value::Unknown(format!("{whole} is only known at deploy time")),
                }
            }
            _ => Value::Unknown(format!("{} is only known at deploy time", text.display())),
        }
    }
}

fn collect_at<'r>(r: &'r R, path: &[&str], when: When, out: &mut Vec<(When, &'r R)>) {
    for (w, v) in r.alternatives() {
        let Some(when) = when.and(&w) else { continue };
        match path.split_first() {
            None => out.push((when, v)),
            Some((&"*", rest)) => {
                if let RV::List(items) = &v.v {
                    for item in items {
                        collect_at(item, rest, when.clone(), out);
                    }
                }
            }
            Some((key, rest)) => {
                if let Some((_, child)) = v.entry(key) {
                    collect_at(child, rest, when, out);
                }
            }
        }
    }
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

pub fn to_int(r: &R) -> Value<i64> {
    match &r.v {
        RV::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Value::Known(*n as i64),
        RV::Str(t) => match t.literal().and_then(|s| s.trim().parse::<i64>().ok()) {
            Some(n) => Value::Known(n),
            None => Value::Unknown(format!("{} is not a whole number known before deployment", t.display())),
        },
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a whole number".into()),
    }
}

pub fn to_f64(r: &R) -> Value<f64> {
    match &r.v {
        RV::Num(n) => Value::Known(*n),
        RV::Str(t) => match t.literal().and_then(|s| s.trim().parse::<f64>().ok()) {
            Some(n) => Value::Known(n),
            None => Value::Unknown("not a number known before deployment".into()),
        },
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a number".into()),
    }
}

pub fn to_bool(r: &R) -> Value<bool> {
    match &r.v {
        RV::Bool(b) => Value::Known(*b),
        RV::Str(t) => match t.literal().map(|s| s.to_ascii_lowercase()).as_deref() {
            Some("true") => Value::Known(true),
            Some("false") => Value::Known(false),
            _ => Value::Unknown("not a boolean known before deployment".into()),
        },
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a boolean".into()),
    }
}

pub fn to_string(r: &R) -> Value<String> {
    match (&r.v, r.literal()) {
        (_, Some(s)) => Value::Known(s),
        (RV::Unknown(why), _) => Value::Unknown(why.clone()),
        _ => Value::Unknown("only known at deploy time".into()),
    }
}

pub fn to_name(r: &R) -> Value<Name> {
    match &r.v {
        RV::Str(t) => Value::Known(Name { text: t.display(), suffix_known: t.ends_literal() }),
        RV::Num(_) => Value::Known(Name { text: r.literal().unwrap_or_default(), suffix_known: true }),
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a name".into()),
    }
}

pub fn to_string_list(r: &R) -> Value<Vec<String>> {
    match &r.v {
        RV::List(items) => {
            let mut out = Vec::new();
            for item in items {
                match item.literal() {
                    Some(s) => out.push(s),
                    None => return Value::Unknown("list item only known at deploy time".into()),
                }
            }
            Value::Known(out)
        }
        RV::Unknown(why) => Value::Unknown(why.clone()),
        _ => Value::Unknown("not a list".into()),
    }
}

/// A JSON document written as a string (RedrivePolicy, PolicyDocument) as a
/// resolved map located at the string. A `!Sub` string keeps its references:
/// `{"deadLetterTargetArn": "${Dlq.Arn}"}` still links to the queue Dlq.
pub fn json_string(r: &R) -> Option<R> {
    let text = r.text()?;
    let value: serde_json::Value = serde_json::from_str(&text.display()).ok()?;
    let placeholders: Vec<(String, &Part)> =
        text.0.iter().filter(|p| !matches!(p, Part::Lit(_))).map(|p| (Text(vec![p.clone()]).display(), p)).collect();
    Some(from_json(&value, r.span, &placeholders, 0))
}

fn from_json(v: &serde_json::Value, span: Span, placeholders: &[(String, &Part)], depth: usize) -> R {
    use serde_json::Value as J;
    let v = match v {
        _ if depth > crate::syntax::MAX_DEPTH => RV::Unknown("nested too deeply".into()),
        J::Null => RV::Null,
        J::Bool(b) => RV::Bool(*b),
        J::Number(n) => RV::Num(n.as_f64().unwrap_or(f64::NAN)),
        J::String(s) => RV::Str(with_placeholders(s, placeholders)),
        J::Array(items) => RV::List(items.iter().map(|i| from_json(i, span, placeholders, depth + 1)).collect()),
        J::Object(map) => {
            RV::Map(map.iter().map(|(k, v)| (k.clone(), span, from_json(v, span, placeholders, depth + 1))).collect())
        }
    };
    R { v, span }
}

/// Turn the `${...}` written for references back into those references.
fn with_placeholders(s: &str, placeholders: &[(String, &Part)]) -> Text {
    let mut text = Text::default();
    let mut rest = s;
    'scan: while let Some(at) = rest.find("${") {
        for (shown, part) in placeholders {
            if rest[at..].starts_with(shown.as_str()) {
                text.push(Part::Lit(rest[..at].to_string()));
                text.push((*part).clone());
                rest = &rest[at + shown.len()..];
                continue 'scan;
            }
        }
        text.push(Part::Lit(rest[..at + 2].to_string()));
        rest = &rest[at + 2..];
    }
    text.push(Part::Lit(rest.to_string()));
    text
}
