//! From a resource's construct path to where the app's source creates the
//! construct that owns it: its creation stack first, when the app
//! recorded one; else the path's ids, walked from the stack down through
//! the app's own classes.

use std::collections::HashMap;

use sqsguard_model::CdkOwner;

use crate::app::Frame;
use crate::index::{Added, Made};
use crate::lookup::Lookup;

/// The construct that owns a synthesized resource, as the path names it.
pub(crate) struct Owner<'p> {
    /// The ids from the stack (or stage) down to the owner.
    pub(crate) ids: Vec<&'p str>,
    /// The resource is a mapping an `addEventSource` made on the function
    /// the last id names.
    pub(crate) event_source: bool,
    /// The resource's path, for its creation stack.
    pub(crate) resource_path: &'p str,
}

impl<'p> Owner<'p> {
    /// `Stack/Orders/Jobs/Resource`: the queue `Jobs` (an L2's resource is
    /// its `Resource` or `Default` child); `Stack/Orders/Worker/SqsEventSource:
    /// StackOrdersJobs1234ABCD/Resource`: the event source added to
    /// `Worker`.
    pub(crate) fn of(path: &'p str) -> Owner<'p> {
        let mut ids: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        if ids.len() > 1 && matches!(ids.last(), Some(&("Resource" | "Default"))) {
            ids.pop();
        }
        let event_source = ids.last().is_some_and(|id| id.starts_with("SqsEventSource:"));
        if event_source {
            ids.pop();
        }
        Owner { ids, event_source, resource_path: path }
    }
}

/// What kind of construct a class is, for the names of its props: by its
/// own name (`Queue`, `NodejsFunction`, `SqsEventSource`), or the last
/// part of the class `tree.json` names.
fn kind_of(class: &str) -> Option<CdkOwner> {
    match class {
        "Queue" => Some(CdkOwner::Queue),
        "EventSourceMapping" | "SqsEventSource" => Some(CdkOwner::Mapping),
        c if c.ends_with("Function") => Some(CdkOwner::Function),
        _ => None,
    }
}

/// Where a construct was found, or why it was not.
pub(crate) enum Found<'i> {
    At(&'i Made),
    /// Not found, or found more than once: why.
    No(String),
}

/// Construct path to class (`tree.json`), read when a search needs it, or
/// why it could not be read.
pub(crate) type Classes<'i> = &'i dyn Fn() -> Result<&'i HashMap<String, String>, String>;

/// What a construct is looked for in.
pub(crate) struct Source<'i> {
    pub(crate) lookup: &'i Lookup,
    /// The app's own frame of each of the template's resources'
    /// creation stacks, by path.
    pub(crate) traces: &'i HashMap<String, Frame>,
    pub(crate) classes: Classes<'i>,
}

impl<'i> Source<'i> {
    pub(crate) fn locate(&self, owner: &Owner<'_>) -> Found<'i> {
        if let Some(found) = self.by_trace(owner) {
            return Found::At(found);
        }
        let made = match self.by_ids(owner) {
            Ok(made) => made,
            Err(why) => return Found::No(why),
        };
        if !owner.event_source {
            return Found::At(made);
        }
        self.event_source_of(made, owner)
    }

    /// What kind of construct `made` is: by its class, else by the class
    /// `tree.json` names for the owner (an app's own subclass).
    pub(crate) fn kind(&self, owner: &Owner<'_>, made: &Made) -> Option<CdkOwner> {
        if owner.event_source {
            return Some(CdkOwner::Mapping);
        }
        kind_of(&made.class).or_else(|| kind_of(self.fqn(owner)?.rsplit('.').next()?))
    }

    fn fqn(&self, owner: &Owner<'_>) -> Option<&'i str> {
        (self.classes)().ok()?.get(&owner.ids.join("/")).map(String::as_str)
    }

    /// The first frame of the app's own code in the resource's creation
    /// stack, and the construct created there.
    fn by_trace(&self, owner: &Owner<'_>) -> Option<&'i Made> {
        let Frame { file, line, column } = self.traces.get(owner.resource_path)?;
        let (line, column) = (*line, *column);
        let index = self.lookup.file_of_frame(file)?;
        if owner.event_source {
            let added: Vec<&Added> = index.added.iter().filter(|a| (a.lines.0..=a.lines.1).contains(&line)).collect();
            return match added.as_slice() {
                [one] if !index.newer => Some(&one.source),
                _ => None,
            };
        }
        let made: Vec<&Made> = index.made.iter().filter(|m| m.start.line == line).collect();
        let found = match made.as_slice() {
            [one] => Some(*one),
            several => several.iter().copied().find(|m| m.start.column == column),
        }?;
        // The line may hold another construct since the synth: the id the
        // path ends in must be the one written there, else a search.
        match found.id.as_deref() {
            Some(id) => (owner.ids.last() == Some(&id)).then_some(found),
            None => (!index.newer).then_some(found),
        }
    }

    /// The ids of the path, walked down from the stack: each is looked for
    /// in the class the one before created, and anywhere when that class
    /// is not the app's (or creates it in a function of its own).
    fn by_ids(&self, owner: &Owner<'_>) -> Result<&'i Made, String> {
        let classes = (self.classes)().map_err(|why| format!("the assembly has no readable tree.json: {why}"))?;
        let fqn = classes.get(&owner.ids.join("/")).map(String::as_str);
        let mut class: Option<&str> = None;
        let mut found = None;
        for (step, id) in owner.ids.iter().enumerate() {
            let last = step + 1 == owner.ids.len();
            let with_id = self.lookup.with_id(id);
            let in_class: Vec<&Made> =
                with_id.iter().copied().filter(|m| class.is_some() && m.within.as_deref() == class).collect();
            let mut candidates = if in_class.is_empty() { with_id } else { in_class };
            // The owner's class: an app's own subclass of `Queue` is
            // created under its own name, so a candidate of another class
            // is kept when none has the class.
            if last && let Some(wanted) = fqn.and_then(|f| f.rsplit('.').next()) {
                let same: Vec<&Made> = candidates.iter().copied().filter(|m| m.class == wanted).collect();
                if !same.is_empty() {
                    candidates = same;
                }
            }
            match candidates.as_slice() {
                [one] => {
                    class = Some(one.class.as_str());
                    found = Some(*one);
                }
                [] if last => return Err(format!("no construct with the id \"{id}\" was found in the app's source")),
                [] => class = None,
                several if last => {
                    return Err(format!(
                        "the id \"{id}\" is created {} times in the app's source and the path does not tell which",
                        several.len()
                    ));
                }
                _ => class = None,
            }
        }
        let made = found.ok_or_else(|| "the construct path names no construct".to_string())?;
        if made.in_loop {
            return Err(format!("the construct \"{}\" is created in a loop", made.id.as_deref().unwrap_or_default()));
        }
        Ok(made)
    }

    /// The `SqsEventSource` a function was given: `fn.addEventSource(new
    /// SqsEventSource(queue, ...))` on the name the function is bound to,
    /// or its props' `events: [new SqsEventSource(...)]`.
    fn event_source_of(&self, function: &'i Made, owner: &Owner<'_>) -> Found<'i> {
        let in_file = self.lookup.file(function.at).map(|f| f.added.as_slice()).unwrap_or_default();
        let added: Vec<&Added> =
            in_file.iter().filter(|a| function.bound.as_deref() == Some(a.receiver.as_str())).collect();
        let queue_id = owner.resource_path.split('/').find_map(|s| s.strip_prefix("SqsEventSource:"));
        let matching: Vec<&Added> = match added.as_slice() {
            [_] => added,
            _ => added.into_iter().filter(|a| self.feeds(a, queue_id)).collect(),
        };
        match matching.as_slice() {
            [one] => Found::At(&one.source),
            [] => Found::No(format!(
                "the SqsEventSource added to \"{}\" was not found in the app's source",
                function.id.as_deref().unwrap_or_default()
            )),
            _ => {
                Found::No("the function is given more than one SqsEventSource and the path does not tell which".into())
            }
        }
    }

    /// Whether the event source's queue is the construct whose unique id
    /// (the path's ids joined, then a hash) the mapping's id carries.
    fn feeds(&self, added: &Added, queue_id: Option<&str>) -> bool {
        let (Some(queue_id), Some(name)) = (queue_id, added.source.first.as_deref()) else { return false };
        let stem = queue_id.get(..queue_id.len().saturating_sub(8)).unwrap_or_default();
        let made = self.lookup.file(added.source.at).map(|f| f.made.as_slice()).unwrap_or_default();
        made.iter().any(|m| m.bound.as_deref() == Some(name) && m.id.as_deref().is_some_and(|id| stem.ends_with(id)))
    }
}

#[cfg(test)]
mod tests;
