//! A handler read from its file: whether it returns batch item failures,
//! and how its response is spelt. Its body is the named function and what
//! it calls in the same file, transitively; a return of what an unread
//! function returns makes the answer unknown, never "no".

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use super::lang::Language;
use super::program::{DefAt, Program};
use super::unit::Unit;
use super::wrapped;
use sqsguard_model::FunctionIdx;
use sqsguard_model::code::{Handler, Reports};
use sqsguard_source::Span;

use super::response::{read_keys, utility_words};

/// The most definitions a handler's body is followed into.
const MAX_BODY: usize = 5000;

/// The handler `function` of `unit` alone (for Go, empty: the function
/// the file passes to `lambda.Start`), as the handler of function `index`:
/// what it imports is not read.
pub fn read(unit: &Unit, function: &str, index: FunctionIdx) -> Result<Handler, String> {
    let path = unit.source.path.clone();
    let mut units = super::program::Units::new();
    units.insert(path.clone(), Ok(unit.clone()));
    let overlay = sqsguard_source::Overlay::default();
    let mut program = Program::closed(&mut units, &overlay, Path::new(""));
    read_in(&mut program, &path, function, index)
}

/// The handler `function` of `file` (for Go, empty: the function its
/// package passes to `lambda.Start`), as the handler of function `index`.
/// The file is loaded in `program`; what it imports is loaded as the body
/// is followed.
pub(crate) fn read_in(
    program: &mut Program<'_>,
    file: &Path,
    function: &str,
    index: FunctionIdx,
) -> Result<Handler, String> {
    let language =
        program.unit(file).map(|u| u.language).ok_or_else(|| format!("{} was not read", super::shown(file)))?;
    let name = if language == Language::Go { wrapped::started(program, file)? } else { function.to_string() };
    let found = program.lookup(file, &name, false);
    let Some(start) = found.into_iter().max_by_key(|(f, i)| program.unit(f).is_some_and(|u| u.defs[*i].is_function))
    else {
        return Err(wrapped::re_exported(program, file, &name)
            .unwrap_or_else(|| format!("{} defines no `{name}`", super::shown(file))));
    };
    // `exports.handler = handler`: the name it is bound to, followed; a
    // decorator is part of the body, or unread.
    let (start, mut behind) = match wrapped::follow(program, start.clone()) {
        Ok(at) => (at, None),
        Err(why) => (start, Some(why)),
    };
    let (decorators, unread_decorator) = wrapped::decorators(program, &start);
    behind = behind.or(unread_decorator);
    let (mut body, mut resolved) = reachable(program, start.clone());
    for decorator in decorators {
        let (more, names) = reachable(program, decorator);
        body.extend(more.into_iter().filter(|d| !body.contains(d)).collect::<Vec<_>>());
        resolved.extend(names);
    }
    let program = &*program;
    let unit_of = |f: &Path| program.unit(f);
    let (def_file, def_index) = &start;
    let def_unit = unit_of(def_file).ok_or("unreachable: the handler's file is parsed")?;
    let def = &def_unit.defs[*def_index];
    // Each file of the body, in the order it was reached, with the spans
    // of the body in it.
    let mut files: Vec<(&PathBuf, Vec<Span>)> = Vec::new();
    for (f, i) in &body {
        let Some(unit) = unit_of(f) else { continue };
        let span = unit.defs[*i].span;
        match files.iter_mut().find(|(g, _)| *g == f) {
            Some((_, spans)) => spans.push(span),
            None => files.push((f, vec![span])),
        }
    }
    let mut handler = Handler {
        function: index,
        language: def_unit.language,
        origin: def_unit.origin(def.name_span),
        reports: Reports::No,
        misspelt: Vec::new(),
        wrong_identifiers: Vec::new(),
        raises: Vec::new(),
    };
    let mut yes = utility(program, &files, file, def_file);
    let body: Vec<(&Unit, &[Span])> =
        files.iter().filter_map(|(f, spans)| Some((unit_of(f)?, spans.as_slice()))).collect();
    read_keys(&body, &mut yes, &mut handler);
    handler.raises = body.iter().flat_map(|(unit, spans)| super::raises::on_failure_path(unit, spans)).collect();
    // Behind code that was not read (a decorator, a wrapper), even a body
    // that returns batch item failures may not be what Lambda gets.
    handler.reports = match (yes, behind) {
        (_, Some(why)) => Reports::Unknown(why),
        (Some((origin, how)), None) => Reports::Yes { origin, how },
        (None, None) => match unread(program, &start, &files, &resolved) {
            Some(why) => Reports::Unknown(why),
            // What was left unread may return them.
            None if program.capped => Reports::Unknown(format!(
                "`{}` reaches more than {} files or {} syntax nodes of code, which sqsguard does not all read",
                def.name,
                super::program::MAX_FILES,
                super::program::MAX_UNIT_NODES
            )),
            None => Reports::No,
        },
    };
    Ok(handler)
}

/// A batch utility in the handler's body, or set up outside every
/// function of the handler's file (a processor made at the top of the
/// file, middy's import; and of the file the template names, when it
/// re-exports the handler): the body's own first.
fn utility(
    program: &Program<'_>,
    files: &[(&PathBuf, Vec<Span>)],
    file: &Path,
    def_file: &Path,
) -> Option<(sqsguard_model::Origin, String)> {
    for (f, spans) in files {
        let Some(unit) = program.unit(f) else { continue };
        let inside = |span: Span| spans.iter().any(|d| d.start <= span.start && span.end <= d.end);
        if let Some((span, what)) = unit.utilities.iter().find(|(s, _)| inside(*s)) {
            return Some((unit.origin(*span), utility_words(unit.language, what)));
        }
    }
    let tops = if file == def_file { vec![file] } else { vec![def_file, file] };
    let mut found = None;
    for top in tops {
        let Some(unit) = program.unit(top).filter(|_| found.is_none()) else { continue };
        let in_a_function = |span: Span| {
            unit.defs.iter().any(|d| d.is_function && d.span.start <= span.start && span.end <= d.span.end)
        };
        if let Some((span, what)) = unit.utilities.iter().find(|(s, _)| !in_a_function(*s)) {
            found = Some((unit.origin(*span), utility_words(unit.language, what)));
        }
    }
    found
}

/// The definitions the handler's body reaches through calls by name, the
/// handler's own first, across the files its names come from; and the
/// names called in each file that were found.
fn reachable(program: &mut Program<'_>, start: DefAt) -> (Vec<DefAt>, HashSet<(PathBuf, String)>) {
    let mut seen: HashSet<(PathBuf, Span)> = HashSet::new();
    if let Some(unit) = program.unit(&start.0) {
        seen.insert((start.0.clone(), unit.defs[start.1].span));
    }
    let mut body = vec![start];
    let mut resolved = HashSet::new();
    let mut next = 0;
    while next < body.len() && body.len() < MAX_BODY {
        let (file, index) = body[next].clone();
        next += 1;
        let Some(unit) = program.unit(&file) else { continue };
        let d = &unit.defs[index];
        let from = unit.calls.partition_point(|(s, _)| s.start < d.span.start);
        let mut callees: Vec<String> =
            unit.calls[from..].iter().take_while(|(s, _)| s.start < d.span.end).map(|(_, c)| c.clone()).collect();
        callees.sort();
        callees.dedup();
        for callee in callees {
            let found = program.lookup(&file, &callee, true);
            // A name bound to what a package makes (`const middy =
            // require(...)`) is no function read.
            if found.iter().any(|(f, i)| program.unit(f).is_some_and(|u| u.defs[*i].is_function)) {
                resolved.insert((file.clone(), callee));
            }
            for (f, i) in found {
                let Some(span) = program.unit(&f).map(|u| u.defs[i].span) else { continue };
                if seen.insert((f.clone(), span)) {
                    body.push((f, i));
                }
            }
        }
    }
    (body, resolved)
}

/// Why what the handler returns is not known: it is bound to what a call
/// of unread code makes (`middy(main)`), or returns what an unread function
/// returns.
fn unread(
    program: &Program<'_>,
    (def_file, def_index): &DefAt,
    files: &[(&PathBuf, Vec<Span>)],
    resolved: &HashSet<(PathBuf, String)>,
) -> Option<String> {
    let unit: &Unit = program.unit(def_file)?;
    let def = &unit.defs[*def_index];
    let read = |file: &PathBuf, callee: &str| resolved.contains(&(file.clone(), callee.to_string()));
    if !def.is_function {
        let first = unit
            .calls
            .iter()
            .find(|(s, callee)| def.span.start <= s.start && s.end <= def.span.end && !read(def_file, callee));
        if let Some((_, callee)) = first {
            return Some(format!("`{}` is what `{callee}` makes, which sqsguard does not read", def.name));
        }
    }
    for (f, spans) in files {
        let Some(u) = program.unit(f) else { continue };
        let inside = |span: Span| spans.iter().any(|d| d.start <= span.start && span.end <= d.end);
        if let Some((_, callee)) = u.returns.iter().find(|(s, callee)| inside(*s) && !read(f, callee)) {
            return Some(format!("`{}` returns what `{callee}` returns, which sqsguard does not read", def.name));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    fn handler(language: Language, name: &str, text: &str) -> Handler {
        let source = SourceFile::new("app", text.to_string());
        let unit = Unit::parse(&source, language).unwrap();
        read(&unit, name, 0).unwrap()
    }

    fn yes(h: &Handler) -> bool {
        matches!(h.reports, Reports::Yes { .. })
    }

    #[test]
    fn a_python_handler_returns_failures_through_a_helper() {
        let h = handler(
            Language::Python,
            "handler",
            "def handler(event, context):\n    return respond([])\n\ndef respond(failed):\n    return {\"batchItemFailures\": [{\"itemIdentifier\": i} for i in failed]}\n",
        );
        assert!(yes(&h), "{:?}", h.reports);
    }

    #[test]
    fn the_aws_snippet_shape_reports_by_subscript() {
        let h = handler(
            Language::Python,
            "lambda_handler",
            "def lambda_handler(event, context):\n    failures = []\n    response = {}\n    for r in event['Records']:\n        try:\n            pass\n        except Exception:\n            failures.append({'itemIdentifier': r['messageId']})\n    response['batchItemFailures'] = failures\n    return response\n",
        );
        assert!(yes(&h), "{:?}", h.reports);
        assert!(h.wrong_identifiers.is_empty() && h.misspelt.is_empty());
    }

    #[test]
    fn a_handler_that_returns_nothing_says_no() {
        let h = handler(
            Language::Python,
            "handler",
            "def handler(event, context):\n    for r in event['Records']:\n        print(r['body'])\n",
        );
        assert!(matches!(h.reports, Reports::No), "{:?}", h.reports);
    }

    #[test]
    fn returning_what_unread_code_returns_is_unknown() {
        let h = handler(
            Language::Python,
            "handler",
            "from lib import run\n\ndef handler(event, context):\n    return run(event)\n",
        );
        assert!(matches!(h.reports, Reports::Unknown(_)), "{:?}", h.reports);
    }

    #[test]
    fn misspelt_keys_and_wrong_identifiers_are_found() {
        let h = handler(
            Language::JavaScript,
            "handler",
            "export const handler = async (event) => {\n  const BatchItemFailures = [];\n  return { BatchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.receiptHandle })) };\n};\n",
        );
        assert_eq!(h.misspelt.len(), 1, "{:?}", h.misspelt);
        assert_eq!(h.misspelt[0].written, "BatchItemFailures");
        assert_eq!(h.wrong_identifiers.len(), 1);
        assert_eq!(h.wrong_identifiers[0].from, "r.receiptHandle");
    }

    #[test]
    fn javascript_shorthand_and_middy() {
        let h = handler(
            Language::JavaScript,
            "handler",
            "exports.handler = async (event) => {\n  const batchItemFailures = [];\n  return { batchItemFailures };\n};\n",
        );
        assert!(yes(&h));
        let m = handler(
            Language::TypeScript,
            "handler",
            "import middy from '@middy/core';\nimport sqsPartialBatchFailure from '@middy/sqs-partial-batch-failure';\nconst main = async (event: any) => Promise.allSettled([]);\nexport const handler = middy(main).use(sqsPartialBatchFailure());\n",
        );
        assert!(yes(&m), "{:?}", m.reports);
        let wrapped = handler(
            Language::JavaScript,
            "handler",
            "import middy from '@middy/core';\nconst main = async () => {};\nexport const handler = middy(main);\n",
        );
        assert!(matches!(wrapped.reports, Reports::Unknown(_)), "{:?}", wrapped.reports);
    }

    #[test]
    fn go_and_java_response_types() {
        let go = handler(
            Language::Go,
            "",
            "package main\n\nimport (\n\t\"github.com/aws/aws-lambda-go/events\"\n\t\"github.com/aws/aws-lambda-go/lambda\"\n)\n\nfunc handle(ev events.SQSEvent) (events.SQSEventResponse, error) {\n\tvar f []events.SQSBatchItemFailure\n\tfor _, m := range ev.Records {\n\t\tf = append(f, events.SQSBatchItemFailure{ItemIdentifier: m.ReceiptHandle})\n\t}\n\treturn events.SQSEventResponse{BatchItemFailures: f}, nil\n}\n\nfunc main() { lambda.Start(handle) }\n",
        );
        assert!(yes(&go), "{:?}", go.reports);
        assert_eq!(go.wrong_identifiers.len(), 1);
        let java = handler(
            Language::Java,
            "handleRequest",
            "class H implements RequestHandler<SQSEvent, SQSBatchResponse> {\n  public SQSBatchResponse handleRequest(SQSEvent e, Context c) {\n    List<SQSBatchResponse.BatchItemFailure> f = new ArrayList<>();\n    for (SQSEvent.SQSMessage m : e.getRecords()) { f.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId())); }\n    return new SQSBatchResponse(f);\n  }\n}\n",
        );
        assert!(yes(&java), "{:?}", java.reports);
        assert!(java.wrong_identifiers.is_empty(), "{:?}", java.wrong_identifiers);
    }

    use super::super::program::write_files as write;

    fn read_handler(root: &Path, file: &Path, language: Language, function: &str) -> sqsguard_model::code::Handler {
        let overlay = sqsguard_source::Overlay::default();
        let mut units = crate::program::Units::new();
        let mut program = Program::new(&mut units, &overlay, root, file.parent().unwrap().to_path_buf());
        program.load(file, language).unwrap();
        match language {
            Language::Go => program.go_package(file),
            Language::Java => program.java_chain(file),
            _ => {}
        }
        read_in(&mut program, file, function, 0).unwrap()
    }

    #[test]
    fn a_go_handler_is_found_across_its_package() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write(
            &root,
            &[
                (
                    "main.go",
                    "package main\n\nimport \"github.com/aws/aws-lambda-go/lambda\"\n\nfunc main() { lambda.Start(handle) }\n",
                ),
                (
                    "handle.go",
                    "package main\n\nfunc handle(ev events.SQSEvent) error {\n\tfor _, m := range ev.Records {\n\t\twork(m.Body)\n\t}\n\treturn nil\n}\n",
                ),
                (
                    "work.go",
                    "package main\n\nfunc work(body string) {\n\t_ = map[string]any{\"batchItemFailure\": body}\n}\n",
                ),
                ("work_test.go", "package main\n\nfunc work(body string) {}\n"),
            ],
        );
        let h = read_handler(&root, &root.join("main.go"), Language::Go, "");
        assert!(h.origin.location().is_some());
        assert_eq!(h.misspelt.len(), 1, "work.go is read: {:?}", h.misspelt);
        assert!(matches!(h.reports, sqsguard_model::code::Reports::No), "{:?}", h.reports);
    }

    #[test]
    fn a_java_handler_inherits_handle_request() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        write(
            &root,
            &[
                (
                    "Orders.java",
                    "public class Orders extends Base<String> {\n  protected void process(SQSEvent.SQSMessage m) { failures.add(new SQSBatchResponse.BatchItemFailure(m.getBody())); }\n}\n",
                ),
                (
                    "Base.java",
                    "public abstract class Base<T> {\n  public Object handleRequest(SQSEvent e, Context c) {\n    for (SQSEvent.SQSMessage m : e.getRecords()) { process(m); }\n    return null;\n  }\n  protected abstract void process(SQSEvent.SQSMessage m);\n}\n",
                ),
            ],
        );
        let h = read_handler(&root, &root.join("Orders.java"), Language::Java, "handleRequest");
        assert!(h.origin.location().is_some());
        assert_eq!(h.wrong_identifiers.len(), 1, "the subclass's process is the base's: {:?}", h.wrong_identifiers);
    }
}
