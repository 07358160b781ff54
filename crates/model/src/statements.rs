//! A policy's statements indexed by the source their condition names, so
//! SQS019 reads, for each producer, only the statements that may allow it.

use std::collections::HashMap;

use super::Value;
use super::policy::{Delivery, SOURCE_ARN, SourceId, Statement, Verdict};

/// A policy's statements, indexed by the one source their condition
/// names, so that many producers against many statements cost their sum,
/// not their product: a statement whose only condition is `aws:SourceArn`
/// with exact values can allow only the sources it names.
pub struct Indexed<'m> {
    by_source: HashMap<&'m SourceId, Vec<&'m Statement>>,
    /// Statements keyed by a resource, and by text: against a source of
    /// the other kind they are unknown, so they are all read then.
    by_resource: Vec<&'m Statement>,
    by_text: Vec<&'m Statement>,
    rest: Vec<&'m Statement>,
}

impl<'m> Indexed<'m> {
    pub fn new(statements: &'m [Statement]) -> Self {
        let mut index =
            Indexed { by_source: HashMap::new(), by_resource: Vec::new(), by_text: Vec::new(), rest: Vec::new() };
        for s in statements {
            let exact = |v: &Value<SourceId>| match v {
                Value::Known(SourceId::Resource(_)) => true,
                Value::Known(SourceId::Text(t)) => !t.contains(['*', '?']),
                _ => false,
            };
            match s.conditions.as_slice() {
                [c] if c.key == SOURCE_ARN && !c.values.is_empty() && c.values.iter().all(exact) => {
                    let (mut resource, mut text) = (false, false);
                    for v in &c.values {
                        let Value::Known(id) = v else { continue };
                        index.by_source.entry(id).or_default().push(s);
                        match id {
                            SourceId::Resource(_) => resource = true,
                            SourceId::Text(_) => text = true,
                        }
                    }
                    if resource {
                        index.by_resource.push(s);
                    }
                    if text {
                        index.by_text.push(s);
                    }
                }
                _ => index.rest.push(s),
            }
        }
        index
    }

    /// Whether the statements allow the delivery: the ones that may.
    pub fn grants(&self, d: &Delivery<'_>) -> Verdict {
        let mut v = Verdict::NotAllowed;
        let mut read = |list: &[&Statement]| {
            for s in list {
                v = std::mem::replace(&mut v, Verdict::NotAllowed).or(s.grants(d));
            }
        };
        read(&self.rest);
        match d.source {
            Value::Known(id) => {
                read(self.by_source.get(id).map_or(&[][..], Vec::as_slice));
                match id {
                    SourceId::Resource(_) => read(&self.by_text),
                    SourceId::Text(_) => read(&self.by_resource),
                }
            }
            _ => {
                read(&self.by_resource);
                read(&self.by_text);
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::tests::{delivery, statement};
    use crate::policy::{Condition, Principal};

    #[test]
    fn the_index_answers_as_reading_every_statement_does() {
        let sns = Principal::Service("sns.amazonaws.com".into());
        let on = |values: Vec<Value<SourceId>>| Condition { key: SOURCE_ARN.into(), values };
        let res = |n: &str| Value::Known(SourceId::Resource(n.into()));
        let text = |t: &str| Value::Known(SourceId::Text(t.into()));
        let statements = vec![
            statement(vec![sns.clone()], &["sqs:SendMessage"], vec![on(vec![res("A"), res("B")])]),
            statement(vec![sns.clone()], &["sqs:SendMessage"], vec![on(vec![text("arn:aws:sns:r:1:c")])]),
            statement(vec![sns.clone()], &["sqs:SendMessage"], vec![on(vec![text("arn:aws:sns:*:1:w*")])]),
            statement(vec![sns.clone()], &["sqs:ReceiveMessage"], vec![]),
        ];
        let index = Indexed::new(&statements);
        let sources = [
            res("A"),
            res("B"),
            res("Z"),
            text("arn:aws:sns:r:1:c"),
            text("arn:aws:sns:r:1:wide"),
            text("arn:aws:sns:r:1:other"),
            Value::Unknown("later".into()),
        ];
        for source in &sources {
            let d = delivery(source);
            let naive = statements.iter().fold(Verdict::NotAllowed, |v, s| v.or(s.grants(&d)));
            assert_eq!(index.grants(&d), naive, "{source:?}");
        }
    }
}
