//! AWS::SQS::Queue into a model [`Queue`].

use super::context::Ctx;
use super::payload;
use super::resolve::R;
use super::template::Resource;
use crate::frontend::convert::{to_bool, to_int, to_name, to_string};
use crate::model::{Attr, Dialect, Field, Name, Queue, ReadFields};
use crate::source::Span;

pub fn read(ctx: &Ctx<'_, '_>, res: &Resource<'_>) -> Queue {
    let props = ctx.properties(res);
    let props = props.as_ref();
    let at = res.entry.key_span;
    let mut queue = Queue::read(res.id, ctx.origin(at), &Properties { ctx, props, at });
    queue.redrive = crate::frontend::redrive(&ctx.file, props, Dialect::CloudFormation, at, |v| ctx.queue_target(v));
    queue.payload = payload::declared(ctx, res, props);
    queue
}

/// A resource's Properties, read by CloudFormation names.
struct Properties<'c, 't, 'a> {
    ctx: &'c Ctx<'t, 'a>,
    props: Option<&'c R>,
    /// The resource's key: where absent attributes are reported.
    at: Span,
}

impl ReadFields for Properties<'_, '_, '_> {
    fn int(&self, field: Field) -> Attr<i64> {
        self.ctx.attr(self.props, field, self.at, to_int)
    }

    fn boolean(&self, field: Field) -> Attr<bool> {
        self.ctx.attr(self.props, field, self.at, to_bool)
    }

    fn text(&self, field: Field) -> Attr<String> {
        self.ctx.attr(self.props, field, self.at, to_string)
    }

    fn name(&self, field: Field) -> Attr<Name> {
        self.ctx.attr(self.props, field, self.at, to_name)
    }
}
