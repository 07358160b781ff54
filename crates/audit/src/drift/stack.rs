//! The templates `--stack` holds, joined by the stack's physical IDs
//! (ListStackResources): a queue's is its URL, a mapping's its UUID, a
//! function's its name. A CloudFormation or SAM template is joined this
//! way when any of its queues, mappings or functions has a logical ID in a
//! stack named; its other resources are then not in the stack, which is a
//! note (not compared), as is a resource of the stack no template given
//! declares. No name is guessed: a truncated generated name, an explicit
//! one, or a stack whose name starts another's join the same.
//! A SAM function's SQS event has no mapping logical ID of its own in the
//! model: it is joined through its queue and its function's physical name.

use std::collections::{HashMap, HashSet};

use super::join::{Joined, function_name, live_on, queue_of};
use super::names::last_part;
use crate::stacks::StackResource;
use sqsguard_finding::Note;
use sqsguard_model::{Dialect, Model, Origin, Target, Value};

const QUEUE: &str = "AWS::SQS::Queue";
const MAPPING: &str = "AWS::Lambda::EventSourceMapping";
const FUNCTION: &str = "AWS::Lambda::Function";

/// A queue URL's account and name (`/123456789012/jobs`): the host differs
/// between what CloudFormation records and the endpoint the queues are
/// listed from (a legacy `queue.amazonaws.com`, a test server).
fn queue_key(url: &str) -> Option<(&str, &str)> {
    let mut parts = url.trim_end_matches('/').rsplit('/');
    let name = parts.next()?;
    let account = parts.next()?;
    Some((account, name))
}

/// What the stacks hold, by type and logical ID.
struct Index<'s> {
    by_kind: HashMap<&'s str, HashMap<&'s str, Vec<&'s StackResource>>>,
}

impl<'s> Index<'s> {
    fn of(stacks: &'s [StackResource]) -> Self {
        let mut by_kind: HashMap<&str, HashMap<&str, Vec<&StackResource>>> = HashMap::new();
        for r in stacks {
            by_kind.entry(r.kind.as_str()).or_default().entry(r.logical_id.as_str()).or_default().push(r);
        }
        Index { by_kind }
    }

    fn get(&self, logical: &str, kind: &str) -> &[&'s StackResource] {
        self.by_kind.get(kind).and_then(|l| l.get(logical)).map_or(&[], Vec::as_slice)
    }
}

/// The one physical ID of `logical`, or the note that says why there is none.
fn physical<'s>(index: &Index<'s>, what: &str, logical: &str, kind: &str) -> Result<&'s str, String> {
    match index.get(logical, kind) {
        [] => Err(format!("{what} {logical} of the template is not in the stack named by --stack: not compared")),
        [one] => one.physical_id.as_deref().ok_or_else(|| {
            format!(
                "{what} {logical} is not compared with the live account: stack {} has no physical ID for it ({})",
                one.stack, one.status
            )
        }),
        many => {
            let stacks: Vec<&str> = many.iter().map(|r| r.stack.as_str()).collect();
            Err(format!(
                "{what} {logical} is not compared with the live account: it is in {} stacks named ({}); name one with --stack",
                many.len(),
                stacks.join(", ")
            ))
        }
    }
}

/// Join the templates the stacks hold; mark them in `out.stacked`.
pub(crate) fn join(out: &mut Joined<'_>, stacks: &[StackResource]) {
    let index = Index::of(stacks);
    let (templates, live) = (out.templates, out.live);
    let in_stack = |model: &Model| {
        model.dialect == Dialect::CloudFormation
            && (model.queues.iter().any(|q| !index.get(&q.resource, QUEUE).is_empty())
                || model.consumers.iter().any(|c| !index.get(&c.resource, MAPPING).is_empty())
                || model.functions.iter().any(|f| !index.get(&f.resource, FUNCTION).is_empty()))
    };
    let mut queues: HashMap<(&str, &str), (usize, usize)> = HashMap::new();
    let mut functions: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut mappings: HashMap<&str, (usize, usize)> = HashMap::new();
    for (m, model) in live.iter().enumerate() {
        for (i, q) in model.queues.iter().enumerate() {
            if let Some(key) = queue_key(&q.resource) {
                queues.insert(key, (m, i));
            }
        }
        for (i, f) in model.functions.iter().enumerate() {
            functions.insert(last_part(&f.resource), (m, i));
        }
        for (i, c) in model.consumers.iter().enumerate() {
            mappings.insert(c.resource.as_str(), (m, i));
        }
    }
    let on = live_on(live);
    let mut declared: HashSet<(&str, &str)> = HashSet::new();
    let mut joined_ids: HashSet<&str> = HashSet::new();
    for (t, model) in templates.iter().enumerate() {
        if !in_stack(model) {
            continue;
        }
        out.stacked.insert(t);
        for (tq, q) in model.queues.iter().enumerate() {
            declared.insert((q.resource.as_str(), QUEUE));
            let note = |message: String| Note { origin: q.origin.clone(), message };
            match physical(&index, "queue", &q.resource, QUEUE) {
                Err(why) => out.notes.push(note(why)),
                Ok(url) => match queue_key(url).and_then(|k| queues.get(&k)) {
                    Some(&lq) => {
                        joined_ids.insert(url);
                        out.pair_queue((t, tq), lq);
                    }
                    None => out.notes.push(note(match out.unread.queue_at(url) {
                        Some(why) => format!(
                            "queue {} of the template is not compared: could not read the live queue ({why})",
                            q.resource
                        ),
                        None => format!(
                            "queue {} of the template is missing live: its stack's queue {} is not in the account",
                            q.resource,
                            last_part(url)
                        ),
                    })),
                },
            }
        }
        for (tf, f) in model.functions.iter().enumerate() {
            declared.insert((f.resource.as_str(), FUNCTION));
            match physical(&index, "function", &f.resource, FUNCTION) {
                Ok(name) => {
                    joined_ids.insert(name);
                    // A function is read live only through a mapping: one
                    // with none is said there, if it has one.
                    if let Some(&lf) = functions.get(name) {
                        out.functions.insert((t, tf), lf);
                    }
                }
                Err(why) => out.notes.push(Note { origin: f.origin.clone(), message: why }),
            }
        }
        join_consumers(out, t, &index, &on, &mappings, &mut declared, &mut joined_ids);
    }
    if out.stacked.is_empty() {
        return;
    }
    undeclared(out, stacks, &declared, &joined_ids, &mappings);
}

/// The mappings of template `t` joined by physical ID (a SAM event's
/// through its joined queue and its function); one that is not, a note.
fn join_consumers<'a: 'x, 's: 'x, 'x>(
    out: &mut Joined<'a>,
    t: usize,
    index: &Index<'s>,
    on: &HashMap<(usize, usize), Vec<usize>>,
    mappings: &HashMap<&str, (usize, usize)>,
    declared: &mut HashSet<(&'x str, &'x str)>,
    joined_ids: &mut HashSet<&'x str>,
) {
    let (templates, live) = (out.templates, out.live);
    let model = &templates[t];
    for (tc, c) in model.consumers.iter().enumerate() {
        let note = |message: String| Note { origin: c.origin.clone(), message };
        if !index.get(&c.resource, MAPPING).is_empty() || index.get(&c.resource, FUNCTION).is_empty() {
            declared.insert((c.resource.as_str(), MAPPING));
            match physical(index, "mapping", &c.resource, MAPPING) {
                Err(why) => out.notes.push(note(why)),
                Ok(uuid) => match mappings.get(uuid) {
                    Some(&lc) => {
                        joined_ids.insert(uuid);
                        out.pair_consumer((t, tc), lc);
                    }
                    None => out.notes.push(note(match out.unread.mappings() {
                        Some(why) => format!(
                            "mapping {} of the template is not compared: could not read the live mappings ({why})",
                            c.resource
                        ),
                        None => format!(
                            "mapping {} of the template is missing live: its stack's mapping {uuid} is not in the account",
                            c.resource
                        ),
                    })),
                },
            }
            continue;
        }
        // A SAM event: the live mapping of its joined queue whose
        // function is its function's physical name.
        if let Some(lc) = sam_event(out, (t, tc), index, on) {
            joined_ids.insert(&live[lc.0].consumers[lc.1].resource);
            out.pair_consumer((t, tc), lc);
        } else {
            out.notes.push(note(match out.unread.mappings() {
                Some(why) => format!(
                    "mapping {} of the template is not compared: could not read the live mappings ({why})",
                    c.resource
                ),
                None => format!(
                    "mapping {} of the template is missing live: no live mapping of its queue invokes its function",
                    c.resource
                ),
            }));
        }
    }
}

/// What the stacks hold that no template given declares: a note each (a
/// live mapping named as the audit names it, and said here only).
fn undeclared(
    out: &mut Joined<'_>,
    stacks: &[StackResource],
    declared: &HashSet<(&str, &str)>,
    joined_ids: &HashSet<&str>,
    mappings: &HashMap<&str, (usize, usize)>,
) {
    let live = out.live;
    for r in stacks {
        let what = match r.kind.as_str() {
            QUEUE => "queue",
            MAPPING => "mapping",
            FUNCTION => "function",
            _ => continue,
        };
        let id = r.physical_id.as_deref().unwrap_or_default();
        if declared.contains(&(r.logical_id.as_str(), r.kind.as_str())) || joined_ids.contains(id) {
            continue;
        }
        // A live mapping is named as the audit names it, and said here,
        // not again as a live mapping no template joined.
        let shown = match mappings.get(id) {
            Some(&(m, c)) if r.kind == MAPPING => {
                out.said_consumer((m, c));
                super::names::mapping(&live[m], c)
            }
            _ if what == "queue" => last_part(id).to_string(),
            _ => id.to_string(),
        };
        out.notes.push(Note {
            origin: Origin::live(id, None, None),
            message: format!(
                "{what} {} of stack {} ({shown}) is in no template given: no template resource has its logical ID",
                r.logical_id, r.stack
            ),
        });
    }
}

/// The live mapping of a SAM function's SQS event: on the live queue its
/// queue joined, invoking the live function its function's physical ID names.
fn sam_event(
    out: &Joined<'_>,
    (t, tc): (usize, usize),
    index: &Index<'_>,
    on: &HashMap<(usize, usize), Vec<usize>>,
) -> Option<(usize, usize)> {
    let model = &out.templates[t];
    let (m, lq) = out.live_of((t, queue_of(model, tc)?))?;
    let function = match model.consumers[tc].function.alts.as_slice() {
        [alt] => match &alt.value {
            Value::Known(Target::Function(f)) => &model.functions[*f].resource,
            _ => return None,
        },
        _ => return None,
    };
    let [one] = index.get(function, FUNCTION) else { return None };
    let name = one.physical_id.as_deref()?;
    let matched: Vec<usize> = on
        .get(&(m, lq))?
        .iter()
        .copied()
        .filter(|&lc| function_name(&out.live[m], lc) == Some(name) && !out.consumer_taken((m, lc)))
        .collect();
    match matched.as_slice() {
        [lc] => Some((m, *lc)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_frontend::live::{LiveQueueData, Mapping, Region};

    const SAM: &str = "Transform: AWS::Serverless-2016-10-31
Resources:
  Jobs:
    Type: AWS::SQS::Queue
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      FunctionName: !Sub ${AWS::StackName}-worker
      Handler: app.handler
      Runtime: python3.12
      CodeUri: .
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: !GetAtt Jobs.Arn
  Other:
    Type: AWS::Serverless::Function
    Properties:
      Handler: app.handler
      Runtime: python3.12
      CodeUri: .
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: !GetAtt Jobs.Arn
";

    fn stack_resource(logical: &str, kind: &str, physical: &str) -> StackResource {
        StackResource {
            stack: "app".into(),
            logical_id: logical.into(),
            kind: kind.into(),
            physical_id: Some(physical.into()),
            status: "CREATE_COMPLETE".into(),
        }
    }

    #[test]
    fn a_sam_event_is_the_live_mapping_of_its_queue_invoking_its_functions_physical_name() {
        let file = sqsguard_source::SourceFile::new("template.yaml", SAM.to_string());
        let sqsguard_frontend::Document::Loaded(loaded) = sqsguard_frontend::document(&file, &Default::default())
        else {
            panic!("the template loads")
        };
        let url = "https://sqs.us-east-1.amazonaws.com/123456789012/app-Jobs-1AB";
        let queue_arn = "arn:aws:sqs:us-east-1:123456789012:app-Jobs-1AB";
        let mut read = Region::default();
        let attributes = [("QueueArn".to_string(), queue_arn.to_string())].into_iter().collect();
        read.queues.push(LiveQueueData { url: url.into(), attributes, ..Default::default() });
        // Listed in the other order than the template's, each with its function.
        for (uuid, function) in [("uuid-other", "app-Other-9ZZ"), ("uuid-worker", "app-worker")] {
            let arn = format!("arn:aws:lambda:us-east-1:123456789012:function:{function}");
            read.timeouts.insert(arn.clone(), Some(3));
            read.mappings.push(Mapping {
                uuid: uuid.into(),
                source_arn: queue_arn.into(),
                function_arn: Some(arn),
                settings: [(sqsguard_model::Field::BatchSize, sqsguard_model::Scalar::Int(10))].into_iter().collect(),
                enabled: Ok(true),
            });
        }
        let live = vec![sqsguard_frontend::live::load(&read, "us-east-1", 0).model];
        let templates = vec![loaded.model];
        let stacks = vec![
            stack_resource("Jobs", QUEUE, url),
            stack_resource("Worker", FUNCTION, "app-worker"),
            stack_resource("Other", FUNCTION, "app-Other-9ZZ"),
            stack_resource("WorkerJobs", MAPPING, "uuid-worker"),
            stack_resource("OtherJobs", MAPPING, "uuid-other"),
        ];
        let mut joined = Joined::new(&templates, &live);
        join(&mut joined, &stacks);
        let notes: Vec<&str> = joined.notes.iter().map(|n| n.message.as_str()).collect();
        assert_eq!(notes, Vec::<&str>::new());
        assert_eq!(joined.queues.len(), 1);
        let pairs: Vec<(&str, &str)> = joined
            .consumers
            .iter()
            .map(|p| {
                (templates[0].consumers[p.template.1].resource.as_str(), live[0].consumers[p.live.1].resource.as_str())
            })
            .collect();
        assert_eq!(pairs, vec![("Worker", "uuid-worker"), ("Other", "uuid-other")]);
    }

    #[test]
    fn a_queue_url_is_keyed_by_account_and_name_whatever_its_host() {
        let cfn = queue_key("https://sqs.us-east-1.amazonaws.com/123456789012/app-Jobs-1AB");
        assert_eq!(cfn, queue_key("http://127.0.0.1:5000/123456789012/app-Jobs-1AB"));
        assert_eq!(cfn, Some(("123456789012", "app-Jobs-1AB")));
        assert_ne!(cfn, queue_key("https://queue.amazonaws.com/210987654321/app-Jobs-1AB"));
    }
}
