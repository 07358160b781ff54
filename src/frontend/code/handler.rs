//! A handler read from its file: whether it returns batch item failures,
//! and how its response is spelt. Its body is the named function and what
//! it calls in the same file, transitively; a return of what an unread
//! function returns makes the answer unknown, never "no".

use std::collections::HashSet;

use super::lang::Language;
use super::unit::{Def, Unit};
use crate::model::code::{Handler, Misspelt, Reports, WrongIdentifier};
use crate::model::{FunctionIdx, Origin};
use crate::source::Span;

const BATCH_ITEM_FAILURES: &str = "batchItemFailures";
const ITEM_IDENTIFIER: &str = "itemIdentifier";

/// The handler `function` of `unit` (for Go, empty: the function the file
/// passes to `lambda.Start`), as the handler of function `index`.
pub fn read(unit: &Unit, function: &str, index: FunctionIdx) -> Result<Handler, String> {
    let name = if unit.language == Language::Go { started(unit)? } else { function.to_string() };
    let def = unit
        .defs_named(&name)
        .max_by_key(|d| d.is_function)
        .ok_or_else(|| format!("{} defines no `{name}`", super::shown(&unit.source.path)))?;
    let body = reachable(unit, def);
    let inside = |span: Span| body.iter().any(|d| d.span.start <= span.start && span.end <= d.span.end);
    let origin = |span: Span| Origin::file(&unit.source, span);
    let mut handler = Handler {
        function: index,
        language: unit.language,
        origin: origin(def.name_span),
        reports: Reports::No,
        misspelt: Vec::new(),
        wrong_identifiers: Vec::new(),
    };
    let mut yes: Option<(Span, String)> = None;
    // A batch utility in the handler's body, or set up outside every
    // function (a processor made at the top of the file, middy's import).
    let in_a_function =
        |span: Span| unit.defs.iter().any(|d| d.is_function && d.span.start <= span.start && span.end <= d.span.end);
    if let Some((span, what)) = unit.utilities.iter().find(|(s, _)| inside(*s) || !in_a_function(*s)) {
        yes = Some((*span, utility_words(unit.language, what)));
    }
    for key in unit.keys.iter().filter(|k| inside(k.span)) {
        match classify(unit.language, &key.text) {
            Some(Key::Failures) => {
                yes.get_or_insert((key.span, format!("a `{BATCH_ITEM_FAILURES}` key")));
            }
            Some(Key::Identifier) => {
                if let Some((span, value)) = &key.value
                    && !from_message_id(value)
                {
                    handler.wrong_identifiers.push(WrongIdentifier { origin: origin(*span), from: value.clone() });
                }
            }
            Some(Key::Misspelt(meant)) => {
                handler.misspelt.push(Misspelt { origin: origin(key.span), written: key.text.clone(), meant });
            }
            None => {}
        }
    }
    handler.reports = match yes {
        Some((span, how)) => Reports::Yes { origin: origin(span), how },
        None => match unread(unit, def, &body) {
            Some(why) => Reports::Unknown(why),
            None => Reports::No,
        },
    };
    Ok(handler)
}

/// The function a Go `main` passes to `lambda.Start`.
fn started(unit: &Unit) -> Result<String, String> {
    let starts = unit.calls.iter().filter(|(_, callee)| callee == "Start" || callee == "StartWithOptions");
    for (start, _) in starts {
        // The arguments passed by name inside that call.
        let passed = unit.calls.iter().filter(|(s, _)| start.start < s.start && s.end <= start.end);
        if let Some(name) = passed.map(|(_, n)| n).find(|n| unit.defs_named(n).next().is_some()) {
            return Ok(name.clone());
        }
    }
    Err(format!("{} passes no function of its own to lambda.Start", super::shown(&unit.source.path)))
}

/// The definitions the handler's body reaches through calls by name, the
/// handler's own first.
fn reachable<'a>(unit: &'a Unit, def: &'a Def) -> Vec<&'a Def> {
    let mut seen: HashSet<Span> = HashSet::from([def.span]);
    let mut body = vec![def];
    let mut next = 0;
    while let Some(d) = body.get(next).copied() {
        next += 1;
        let from = unit.calls.partition_point(|(s, _)| s.start < d.span.start);
        for (_, callee) in unit.calls[from..].iter().take_while(|(s, _)| s.start < d.span.end) {
            for called in unit.defs_named(callee) {
                if seen.insert(called.span) {
                    body.push(called);
                }
            }
        }
    }
    body
}

/// Why what the handler returns is not known: it is bound to what a call
/// of unread code makes (`middy(main)`), or returns what an unread function
/// returns.
fn unread(unit: &Unit, def: &Def, body: &[&Def]) -> Option<String> {
    let local = |name: &str| unit.defs_named(name).next().is_some();
    if !def.is_function {
        let first =
            unit.calls.iter().find(|(s, callee)| def.span.start <= s.start && s.end <= def.span.end && !local(callee));
        if let Some((_, callee)) = first {
            return Some(format!("`{}` is what `{callee}` makes, which sqsguard does not read", def.name));
        }
    }
    let inside = |span: Span| body.iter().any(|d| d.span.start <= span.start && span.end <= d.span.end);
    unit.returns
        .iter()
        .find(|(s, callee)| inside(*s) && !local(callee))
        .map(|(_, callee)| format!("`{}` returns what `{callee}` returns, which sqsguard does not read", def.name))
}

enum Key {
    Failures,
    Identifier,
    Misspelt(&'static str),
}

/// What a key written in a response means.
fn classify(language: Language, key: &str) -> Option<Key> {
    match language {
        // The SDK's types spell the fields; only what fills them matters.
        // A map's string keys are spelt by the code, as in Python.
        Language::Go => match key.strip_prefix('"').and_then(|k| k.strip_suffix('"')) {
            Some(text) => classify(Language::Python, text),
            None => (key == "ItemIdentifier").then_some(Key::Identifier),
        },
        Language::Java => {
            let last = key.rsplit('.').next().unwrap_or(key);
            (last == "BatchItemFailure" || key.ends_with("temIdentifier")).then_some(Key::Identifier)
        }
        _ => {
            if key == BATCH_ITEM_FAILURES {
                Some(Key::Failures)
            } else if key == ITEM_IDENTIFIER {
                Some(Key::Identifier)
            } else if near(key, BATCH_ITEM_FAILURES) {
                Some(Key::Misspelt(BATCH_ITEM_FAILURES))
            } else if near(key, ITEM_IDENTIFIER) {
                Some(Key::Misspelt(ITEM_IDENTIFIER))
            } else {
                None
            }
        }
    }
}

/// `written` means `meant` but is spelt otherwise: another case, `_` or
/// `-` between the words, or one letter wrong, missing, extra or swapped.
fn near(written: &str, meant: &str) -> bool {
    let plain = |s: &str| s.chars().filter(|c| !matches!(c, '_' | '-' | ' ')).collect::<String>().to_ascii_lowercase();
    let (w, m) = (plain(written), plain(meant));
    w == m || strsim::damerau_levenshtein(&w, &m) <= 1
}

/// Whether an `itemIdentifier` is (or may be) the record's message ID: it
/// is wrong only when it visibly is something else.
fn from_message_id(value: &str) -> bool {
    let plain: String =
        value.chars().filter(|c| !matches!(c, '_' | '"' | '\'')).collect::<String>().to_ascii_lowercase();
    if plain.contains("messageid") {
        return true;
    }
    let wrong = plain.contains("receipthandle")
        || plain.contains("md5ofbody")
        || plain.ends_with("body")
        || plain.ends_with("body]")
        || plain.ends_with("body()")
        || plain.ends_with("getbody()")
        || value.trim().chars().all(|c| c.is_ascii_digit())
        || matches!(plain.trim(), "i" | "index" | "idx" | "n");
    !wrong
}

fn utility_words(language: Language, what: &str) -> String {
    match (language, what) {
        (_, "@middy/sqs-partial-batch-failure") => "middy's sqs-partial-batch-failure middleware".to_string(),
        (Language::Go | Language::Java, _) => format!("an {what}"),
        _ => format!("Powertools' {what}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

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

    #[test]
    fn near_spellings() {
        assert!(near("BatchItemFailures", BATCH_ITEM_FAILURES));
        assert!(near("batch_item_failures", BATCH_ITEM_FAILURES));
        assert!(near("itemIdentifer", ITEM_IDENTIFIER));
        assert!(!near("itemIds", ITEM_IDENTIFIER));
        assert!(!near("statusCode", BATCH_ITEM_FAILURES));
    }
}
