//! How one evaluated Terraform resource reads as the model's queue,
//! consumer, alarm or policy: its arguments by their Terraform names.

use crate::convert::{to_block, to_bool, to_f64, to_int, to_name, to_string, to_string_list};
use crate::fields::attr;
use crate::link::Linker;
use crate::terraform::eval::Resource;
use crate::value::{R, values_at};
use sqsguard_model::build::Links;
use sqsguard_model::code::{CodePlace, CodeRef};
use sqsguard_model::field::QUEUE_DIMENSION;
use sqsguard_model::{
    Alarm, AlarmMetric, Attr, Consumer, Dialect, Field, Name, Origin, PayloadDecl, Queue, QueuePolicy, ReadFields,
    Redrive, Target, UnknownSource, Value, Via, payload,
};
use sqsguard_source::Span;
use std::path::{Path, PathBuf};

const TF: Dialect = Dialect::Terraform;

pub(super) struct Reader<'a> {
    pub(super) r: &'a Resource,
    pub(super) linker: &'a Linker,
}

impl ReadFields for Reader<'_> {
    fn int(&self, field: Field) -> Attr<i64> {
        self.field(field, to_int)
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        self.field(field, to_bool)
    }

    fn text(&self, field: Field) -> Attr<String> {
        self.field(field, to_string)
    }

    fn name(&self, field: Field) -> Attr<Name> {
        self.field(field, to_name)
    }

    fn list(&self, field: Field) -> Attr<Vec<String>> {
        self.field(field, to_string_list)
    }

    fn number(&self, field: Field) -> Attr<f64> {
        self.field(field, to_f64)
    }

    /// Not written as a block but beside a `dynamic` block, which may be
    /// it (its type is not kept): unknown, never absent.
    fn block(&self, field: Field) -> Attr<bool> {
        let mut attr = self.field(field, to_block);
        if let Some((at, _)) = self.r.props.entry("dynamic") {
            for alt in attr.alts.iter_mut().filter(|a| matches!(a.value, Value::Absent)) {
                alt.value = Value::Unknown("a dynamic block".into());
                alt.origin = self.origin(at);
            }
        }
        attr
    }
}

impl Reader<'_> {
    pub(super) fn origin(&self, span: Span) -> Origin {
        Origin::file(&self.r.source, span)
    }

    /// A field of the table, by its Terraform name, inside the block of
    /// the field the table places it in (`scaling_config {
    /// maximum_concurrency }`): unknown beside a `dynamic` block, which
    /// may be that block.
    pub(super) fn field<T>(&self, field: Field, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        let Some(outer) = field.within() else { return self.attr(TF.name(field), conv) };
        if self.r.props.entry("dynamic").is_some() {
            return Attr::single(Value::Unknown("a dynamic block".into()), self.origin(self.r.header));
        }
        let (outer, inner) = (TF.name(outer), TF.name(field));
        crate::fields::nested_attr(&self.r.source, Some(&self.r.props), outer, inner, self.r.header, conv)
    }

    /// An argument that is not in the field table (`name_prefix`).
    fn attr<T>(&self, key: &str, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        attr(&self.r.source, Some(&self.r.props), key, self.r.header, conv)
    }

    /// An absent `name` (`name_prefix`, or none) is a name the provider
    /// generates.
    pub(super) fn queue(&self) -> Queue {
        let mut queue = Queue::read(self.r.address.clone(), self.origin(self.r.header), self);
        queue.name_prefix = self.attr("name_prefix", to_string);
        queue.redrive = self.redrive();
        queue.payload = self.payload().map(Box::new);
        queue.key = self.field(Field::KmsMasterKeyId, super::key::key_ref);
        queue.module = self.r.module.clone().map(Box::new);
        queue
    }

    /// `redrive_policy`: `jsonencode({...})`, a JSON string or heredoc.
    pub(super) fn redrive(&self) -> Attr<Redrive> {
        crate::fields::redrive(
            &self.r.source,
            Some(&self.r.props),
            TF,
            self.r.header,
            |v| self.linker.queue_target(v),
            |v| self.linker.queue_via(v),
        )
    }

    /// The `sqsguard:payload` tag.
    fn payload(&self) -> Option<PayloadDecl> {
        let (_, tags) = self.r.props.entry("tags")?;
        let (_, value) = tags.entry(payload::TAG)?;
        Some(PayloadDecl {
            payload: payload::from_tag(value.literal().as_deref()),
            origin: self.origin(value.span),
            source: "tag sqsguard:payload",
        })
    }

    /// The mapping as a consumer when it reads a queue (`None` for a
    /// stream); its unknown sources when what it reads is not known.
    pub(super) fn consumer(&self) -> Result<Option<Consumer>, Vec<UnknownSource>> {
        let queue = self.field(Field::EventSource, |v| self.linker.queue_target(v));
        let queue_via = self.field(Field::EventSource, |v| self.linker.queue_via(v));
        // A queue URL where the ARN belongs still names SQS (SQS018), and
        // so does an `arn:aws:sqs:` ARN whose account or name is unknown.
        let reads_sqs = queue.alts.iter().any(|a| match &a.value {
            Value::Known(Target::Queue(_)) => true,
            Value::Known(Target::External(arn)) => arn.contains(":sqs:"),
            _ => false,
        }) || queue_via.any_known(|v| matches!(v, Via::UrlText(_)))
            || values_at(&self.r.props, &[Dialect::Terraform.name(Field::EventSource)])
                .into_iter()
                .any(|(_, r)| crate::link::is_sqs_arn(r));
        if !reads_sqs {
            let unknown: Vec<UnknownSource> = queue
                .alts
                .iter()
                .filter_map(|a| match &a.value {
                    Value::Unknown(why) => Some(UnknownSource {
                        resource: self.r.address.clone(),
                        origin: a.origin.clone(),
                        why: why.clone(),
                    }),
                    _ => None,
                })
                .collect();
            return if unknown.is_empty() { Ok(None) } else { Err(unknown) };
        }
        let function = self.field(Field::MappingFunction, |v| self.linker.function_target(v));
        let links = Links { queue, queue_via, function };
        Ok(Some(Consumer::read(self.r.address.clone(), self.origin(self.r.header), links, self)))
    }

    /// An alarm: its metrics (plain or `metric_query`), each watching the
    /// queues its `dimensions = { QueueName = ... }` map names.
    pub(super) fn alarm(&self) -> Alarm {
        let metric = |m: &R| {
            let text = |field| match m.entry(TF.name(field)) {
                Some((_, v)) => to_string(v),
                None => Value::Absent,
            };
            // A dimension per instance (`"${each.key}-dlq"`): the alarm's
            // instances watch each of those queues.
            let dimension = m.entry(TF.name(Field::Dimensions)).and_then(|(_, d)| d.entry(QUEUE_DIMENSION));
            let queues: Vec<Value<Target>> = match dimension {
                Some((_, v)) => v.alternatives().into_iter().map(|(_, v)| self.linker.queue_name_target(v)).collect(),
                None => vec![Value::Absent],
            };
            queues.into_iter().map(|queue| AlarmMetric::read(text, queue)).collect::<Vec<_>>()
        };
        let mut metrics = Vec::new();
        if self.r.props.entry(TF.name(Field::MetricName)).is_some() {
            metrics.extend(metric(&self.r.props));
        }
        let query = TF.name(Field::Metrics);
        for (_, m) in values_at(&self.r.props, &[query, "metric"])
            .into_iter()
            .chain(values_at(&self.r.props, &[query, "*", "metric"]))
        {
            metrics.extend(metric(m));
        }
        Alarm::read(self.r.address.clone(), self.origin(self.r.header), metrics, self)
    }

    /// A policy document (jsonencode, JSON string, heredoc) and the queues it applies to.
    pub(super) fn policy(&self, policy: &R, queues: Vec<Value<Target>>) -> QueuePolicy {
        let (statements, unreadable) =
            crate::policy::statements(&self.r.source, policy, &|q| self.linker.queue_target(q));
        QueuePolicy {
            resource: self.r.address.clone(),
            origin: self.origin(self.r.header),
            queues,
            statements,
            unreadable,
        }
    }
}

impl Reader<'_> {
    /// Where an `aws_lambda_function`'s code is: its `handler`, `runtime`
    /// and `environment { variables }`, and the folder or file the
    /// `data "archive_file"` its `filename` (or `source_code_hash`) names
    /// packages (`source_dir`, `source_file`), relative to the module's
    /// folder. A zip built elsewhere, an image or a bucket is not the
    /// repository's code as written: `None`.
    pub(super) fn code(&self, archives: &[&Resource]) -> Option<CodeRef> {
        let props = &self.r.props;
        let (_, handler_value) = props.entry("handler")?;
        let handler = handler_value.literal()?;
        let runtime = props.entry("runtime").and_then(|(_, r)| r.literal());
        let archive = ["filename", "source_code_hash"].iter().find_map(|key| {
            let (_, value) = props.entry(key)?;
            let (resource, _) = value.text()?.reference()?;
            archives.iter().find(|a| a.address == resource).copied()
        })?;
        let place = archive_place(archive)?;
        let env = props
            .entry("environment")
            .and_then(|(_, e)| e.entry("variables"))
            .map(|(_, vars)| crate::link::env_vars(vars, self.linker))
            .unwrap_or_default();
        Some(CodeRef { handler, runtime, place, origin: self.origin(handler_value.span), env })
    }
}

/// What an archive packages: `source_dir` (a folder) or `source_file`,
/// joined to the folder of the module that declares it.
fn archive_place(archive: &Resource) -> Option<CodePlace> {
    let path = |key: &str| archive.props.entry(key).and_then(|(_, v)| v.literal());
    let folder = archive.source.path.parent().unwrap_or(Path::new(""));
    let joined = |p: String| relative_to_cwd(&folder.join(p));
    match (path("source_dir"), path("source_file")) {
        (Some(dir), _) => Some(CodePlace::Folder(joined(dir))),
        (None, Some(file)) => Some(CodePlace::File(joined(file))),
        _ => None,
    }
}

/// `path` relative to the working directory when it is under it (a path
/// built from `path.module` is absolute): findings show paths as given.
fn relative_to_cwd(path: &Path) -> PathBuf {
    let Ok(cwd) = std::env::current_dir() else { return path.to_path_buf() };
    let cwd = cwd.canonicalize().unwrap_or(cwd);
    match path.strip_prefix(&cwd) {
        Ok(rest) if rest.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rest) => rest.to_path_buf(),
        Err(_) => path.to_path_buf(),
    }
}
