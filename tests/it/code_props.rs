//! Property test: a handler written in any of the styles real handlers
//! take (sync or async, a function, an arrow function, a class's method, an
//! early return, the response built by a helper or assigned key by key) is
//! read for what it returns, so SQS201 fires exactly when it returns batch
//! item failures and its mapping lacks ReportBatchItemFailures, and SQS202
//! exactly when the mapping has the flag and the handler does not report.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use proptest::prelude::*;

/// A Python handler module: its style, and whether it reports.
fn python(style: usize, is_async: bool, early: bool, reports: bool) -> String {
    let def = if is_async { "async def" } else { "def" };
    let response = if reports { "{\"batchItemFailures\": failures}" } else { "{\"statusCode\": 200}" };
    let early_return = if early {
        format!(
            "    if not event.get(\"Records\"):\n        return {}\n",
            if reports { "{\"batchItemFailures\": []}" } else { "None" }
        )
    } else {
        String::new()
    };
    let body = "    failures = []\n    for record in event[\"Records\"]:\n        try:\n            work(record)\n        except Exception:\n            failures.append({\"itemIdentifier\": record[\"messageId\"]})\n";
    let tail = "\n\ndef work(record):\n    print(record[\"body\"])\n";
    match style % 3 {
        // The response written where it is returned.
        0 => format!("{def} handler(event, context):\n{early_return}{body}    return {response}\n{tail}"),
        // Built by a helper.
        1 => format!(
            "{def} handler(event, context):\n{early_return}{body}    return respond(failures)\n\n\ndef respond(failures):\n    return {response}\n{tail}"
        ),
        // Assigned key by key, as AWS's sample does.
        _ => {
            let assign = if reports {
                "    response[\"batchItemFailures\"] = failures\n"
            } else {
                "    response[\"statusCode\"] = 200\n"
            };
            format!(
                "{def} handler(event, context):\n{early_return}{body}    response = {{}}\n{assign}    return response\n{tail}"
            )
        }
    }
}

/// A JavaScript (or TypeScript) handler module.
fn javascript(style: usize, is_async: bool, early: bool, reports: bool) -> String {
    let a = if is_async { "async " } else { "" };
    let response = if reports { "{ batchItemFailures }" } else { "{ statusCode: 200 }" };
    let early_return = if early {
        format!(
            "  if (!event.Records.length) return {};\n",
            if reports { "{ batchItemFailures: [] }" } else { "undefined" }
        )
    } else {
        String::new()
    };
    let body = "  const batchItemFailures = [];\n  for (const record of event.Records) {\n    try {\n      work(record);\n    } catch (e) {\n      batchItemFailures.push({ itemIdentifier: record.messageId });\n    }\n  }\n";
    let tail = "\nfunction work(record) {\n  console.log(record.body);\n}\n";
    match style % 5 {
        0 => format!("export const handler = {a}(event) => {{\n{early_return}{body}  return {response};\n}};\n{tail}"),
        1 => format!("export {a}function handler(event) {{\n{early_return}{body}  return {response};\n}}\n{tail}"),
        2 => format!("exports.handler = {a}function (event) {{\n{early_return}{body}  return {response};\n}};\n{tail}"),
        // A class's method, called from the exported arrow function.
        3 => format!(
            "class Consumer {{\n  {a}handle(event) {{\n{early_return}{body}  return {response};\n  }}\n}}\n\nconst consumer = new Consumer();\nexport const handler = (event) => consumer.handle(event);\n{tail}"
        ),
        // The response built by a helper.
        _ => format!(
            "const respond = (batchItemFailures) => ({response});\n\nexport const handler = {a}(event) => {{\n{early_return}{body}  return respond(batchItemFailures);\n}};\n{tail}"
        ),
    }
}

const TEMPLATE_HEAD: &str = "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\nResources:\n  Jobs:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 180\n  Worker:\n    Type: AWS::Serverless::Function\n    Properties:\n      CodeUri: src/\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn batch_failure_rules_follow_the_handler_and_the_flag(
        language in 0usize..3,
        style in 0usize..5,
        is_async in any::<bool>(),
        early in any::<bool>(),
        reports in any::<bool>(),
        flag in any::<bool>(),
    ) {
        let dir = common::scratch();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        let (file, runtime, handler, code) = match language {
            0 => ("app.py", "python3.12", "app.handler", python(style, is_async, early, reports)),
            1 => ("index.mjs", "nodejs20.x", "index.handler", javascript(style, is_async, early, reports)),
            _ => ("index.ts", "nodejs20.x", "index.handler", javascript(style, is_async, early, reports)),
        };
        std::fs::write(dir.path().join("src").join(file), &code).unwrap();
        let flag_line = if flag { "            FunctionResponseTypes: [ReportBatchItemFailures]\n" } else { "" };
        let template = format!(
            "{TEMPLATE_HEAD}      Handler: {handler}\n      Runtime: {runtime}\n      Timeout: 30\n      Events:\n        Jobs:\n          Type: SQS\n          Properties:\n            Queue: !GetAtt Jobs.Arn\n            BatchSize: 10\n{flag_line}"
        );
        std::fs::write(dir.path().join("template.yaml"), &template).unwrap();
        let outcome = common::lint(dir.path());
        let codes: Vec<&str> = outcome.findings.iter().map(|f| f.code()).collect();
        let unread: Vec<&str> = outcome.notes.iter().map(|n| n.message.as_str()).filter(|m| m.contains("handler")).collect();
        prop_assert!(unread.is_empty(), "{unread:?}\n{code}");
        prop_assert_eq!(codes.contains(&"SQS201"), reports && !flag, "{:?}\n{}", codes, code);
        prop_assert_eq!(codes.contains(&"SQS202"), !reports && flag, "{:?}\n{}", codes, code);
    }
}
