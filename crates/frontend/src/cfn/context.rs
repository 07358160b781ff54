//! What every resource reader of a template shares: the file, the
//! resolver, and the [`Linker`] of the template's queues and functions.

use super::resolve::{R, Resolver, Text};
use super::template::{Resource, Template};
use crate::convert::{to_block, to_bool, to_f64, to_int, to_name, to_string, to_string_list};
use crate::link::Linker;
use crate::value::values_at;
use sqsguard_model::{Attr, Dialect, Field, Name, Origin, ReadFields, ReadLinks, Target, Value, Via, When};
use sqsguard_source::{Source, Span};

pub(crate) struct Ctx<'t, 'a> {
    pub file: Source,
    pub template: &'t Template<'a>,
    pub resolver: Resolver<'t, 'a>,
    /// The model index of the first queue SAM creates (they follow the
    /// template's own queues, in `template.sam_queues` order).
    sam_queue_base: usize,
    linker: Linker,
}

pub(crate) const QUEUE: &str = "AWS::SQS::Queue";
pub(crate) const FUNCTION: &str = "AWS::Lambda::Function";
pub use super::template::SAM_FUNCTION;

impl<'t, 'a> Ctx<'t, 'a> {
    /// Index queues and functions (in template order) so references to them
    /// resolve wherever they appear.
    #[cfg(test)]
    pub(crate) fn new(file: Source, template: &'t Template<'a>) -> Self {
        Self::with_resolver(file, template, Resolver::new(template))
    }

    /// [`Ctx::new`], resolving with the stage's values (see
    /// [`Resolver::for_stage`]).
    pub(crate) fn for_stage(
        file: Source,
        template: &'t Template<'a>,
        stage: &'t crate::stage::Stage,
        given: &'t std::collections::HashMap<Span, std::sync::Arc<str>>,
    ) -> Self {
        Self::with_resolver(file, template, Resolver::for_stage(template, stage, given))
    }

    fn with_resolver(file: Source, template: &'t Template<'a>, resolver: Resolver<'t, 'a>) -> Self {
        // `Ref` of an AWS::SQS::Queue is its URL, as is `Fn::GetAtt Q.QueueUrl`.
        let mut linker = Linker::new(Dialect::CloudFormation.name(Field::QueueName), &["Ref", "QueueUrl"]);
        for res in &template.resources {
            let name_of = |field: Field| {
                let key = Dialect::CloudFormation.name(field);
                res.properties.and_then(|p| p.get(key)).map(|n| resolver.resolve(n))
            };
            match res.kind {
                QUEUE => {
                    linker.add_queue(res.id, name_of(Field::QueueName).as_ref().and_then(R::text));
                }
                FUNCTION | SAM_FUNCTION => {
                    linker.add_function(res.id, name_of(Field::FunctionName).as_ref().and_then(R::text));
                }
                _ => {}
            }
        }
        // SAM's queues follow the template's, so references to
        // `<Function><Event>Queue` (a policy on it, say) resolve.
        let sam_queue_base = template.resources.iter().filter(|r| r.kind == QUEUE).count();
        for created in &template.sam_queues {
            linker.add_queue(&created.id, None);
        }
        Ctx { file, template, resolver, sam_queue_base, linker }
    }

    /// Register a function declared outside `Resources` (a Serverless
    /// Framework function), after the template's own: its index in the
    /// model follows theirs.
    pub(crate) fn add_function(&mut self, id: &str, name: Option<&Text>) -> usize {
        self.linker.add_function(id, name)
    }

    /// The model index of the queue SAM creates for `function`'s SNS event
    /// `event`, if it creates one.
    pub(crate) fn sam_queue(&self, function: &str, event: &str) -> Option<usize> {
        let k = self.template.sam_queues.iter().position(|q| q.function == function && q.event == event)?;
        Some(self.sam_queue_base + k)
    }

    pub(crate) fn origin(&self, span: Span) -> Origin {
        Origin::file(&self.file, span)
    }

    /// The resolved Properties of a resource.
    pub(crate) fn properties(&self, res: &Resource<'_>) -> Option<R> {
        res.properties.map(|p| self.resolver.resolve(p))
    }

    /// A field of `map` under its CloudFormation name; see [`crate::fields::attr`].
    pub(crate) fn attr<T>(
        &self,
        map: Option<&R>,
        field: Field,
        absent_at: Span,
        conv: impl Fn(&R) -> Value<T>,
    ) -> Attr<T> {
        crate::fields::attr(&self.file, map, Dialect::CloudFormation.name(field), absent_at, conv)
    }

    /// The fields of `props` (a resource's Properties, a SAM event's),
    /// absent ones located at `at`.
    pub(crate) fn fields<'c>(&'c self, props: Option<&'c R>, at: Span) -> Properties<'c, 't, 'a> {
        Properties { ctx: self, props, at }
    }

    /// A property that is not in the field table (alarm settings, SAM's
    /// event `Queue`).
    pub(crate) fn attr_named<T>(
        &self,
        map: Option<&R>,
        key: &str,
        absent_at: Span,
        conv: impl Fn(&R) -> Value<T>,
    ) -> Attr<T> {
        crate::fields::attr(&self.file, map, key, absent_at, conv)
    }

    pub(crate) fn values_at<'r>(&self, r: &'r R, path: &[&str]) -> Vec<(When, &'r R)> {
        values_at(r, path)
    }

    pub(crate) fn attr_of<T>(&self, found: Vec<(When, &R)>, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        crate::fields::attr_of(&self.file, found, conv)
    }

    /// The template's queues and functions, as references link to them.
    pub(crate) fn linker(&self) -> &Linker {
        &self.linker
    }

    pub(crate) fn queue_target(&self, r: &R) -> Value<Target> {
        self.linker.queue_target(r)
    }

    pub(crate) fn queue_via(&self, r: &R) -> Value<Via> {
        self.linker.queue_via(r)
    }

    pub(crate) fn queue_name_target(&self, r: &R) -> Value<Target> {
        self.linker.queue_name_target(r)
    }

    /// What a function reference names, following an AWS::Lambda::Alias or
    /// Version to its function.
    pub(crate) fn function_target(&self, r: &R) -> Value<Target> {
        let via = r.text().and_then(Text::reference).and_then(|(res, _)| self.template.resource(res));
        if let Some(alias) = via.filter(|a| matches!(a.kind, "AWS::Lambda::Alias" | "AWS::Lambda::Version"))
            && let Some(function) = alias.properties.and_then(|p| p.get("FunctionName"))
        {
            let function = self.resolver.resolve(function);
            // An alias names its function directly; don't follow chains.
            if function.text().and_then(Text::reference).is_none_or(|(res, _)| res != alias.id) {
                return self.linker.function_target(&function);
            }
        }
        self.linker.function_target(r)
    }
}

/// A resource's Properties (or a SAM event's), read by CloudFormation names.
pub(crate) struct Properties<'c, 't, 'a> {
    ctx: &'c Ctx<'t, 'a>,
    props: Option<&'c R>,
    /// The resource's key: where absent attributes are reported.
    at: Span,
}

impl Properties<'_, '_, '_> {
    /// A field, inside the map of the field the table places it in
    /// (`ScalingConfig.MaximumConcurrency`).
    pub(super) fn get<T>(&self, field: Field, conv: impl Fn(&R) -> Value<T>) -> Attr<T> {
        let name = |f| Dialect::CloudFormation.name(f);
        match field.within() {
            Some(outer) => {
                crate::fields::nested_attr(&self.ctx.file, self.props, name(outer), name(field), self.at, conv)
            }
            None => self.ctx.attr(self.props, field, self.at, conv),
        }
    }
}

impl ReadFields for Properties<'_, '_, '_> {
    fn int(&self, field: Field) -> Attr<i64> {
        self.get(field, to_int)
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        self.get(field, to_bool)
    }

    fn text(&self, field: Field) -> Attr<String> {
        self.get(field, to_string)
    }

    fn name(&self, field: Field) -> Attr<Name> {
        self.get(field, to_name)
    }

    fn list(&self, field: Field) -> Attr<Vec<String>> {
        self.get(field, to_string_list)
    }

    fn number(&self, field: Field) -> Attr<f64> {
        self.get(field, to_f64)
    }

    fn block(&self, field: Field) -> Attr<bool> {
        self.get(field, to_block)
    }
}

impl ReadLinks for Properties<'_, '_, '_> {
    fn queue(&self, field: Field) -> Attr<Target> {
        self.get(field, |r| self.ctx.queue_target(r))
    }

    fn queue_via(&self, field: Field) -> Attr<Via> {
        self.get(field, |r| self.ctx.queue_via(r))
    }
}
