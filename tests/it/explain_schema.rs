//! `sqsguard explain` by a rule's code or name, and `sqsguard schema`,
//! which prints the JSON Schemas that users' `$schema` comments point at.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use common::{sqsguard, stdout};

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn explain_takes_a_rules_code_or_name_in_any_case() {
    let page = stdout(&sqsguard(&["explain", "SQS001"]));
    assert!(page.starts_with("# SQS001 visibility-timeout-below-6x\n"), "{page}");
    for other in ["sqs001", "visibility-timeout-below-6x", "Visibility-Timeout-Below-6X", " SQS001 "] {
        let out = sqsguard(&["explain", other]);
        assert_eq!(out.status.code(), Some(0), "{other}: {}", stderr(&out));
        assert_eq!(stdout(&out), page, "{other}");
    }
}

#[test]
fn an_unknown_rule_is_a_usage_error_that_says_what_is_near() {
    for (asked, said) in [
        (
            "visibility-timeout-below-6",
            "sqsguard: no rule is called `visibility-timeout-below-6`: did you mean `visibility-timeout-below-6x`? (`sqsguard rules` lists every code and name)\n",
        ),
        (
            "missing-dql",
            "sqsguard: no rule is called `missing-dql`: did you mean `missing-dlq`? (`sqsguard rules` lists every code and name)\n",
        ),
        (
            "SQS0004",
            "sqsguard: no rule is called `SQS0004`: did you mean `SQS000` or `SQS004`? (`sqsguard rules` lists every code and name)\n",
        ),
        ("frobnicate", "sqsguard: no rule is called `frobnicate` (`sqsguard rules` lists every code and name)\n"),
    ] {
        let out = sqsguard(&["explain", asked]);
        assert_eq!(out.status.code(), Some(2), "{asked}");
        assert_eq!(stderr(&out), said, "{asked}");
        assert_eq!(stdout(&out), "", "{asked}");
    }
}

/// What `schema` prints is the schema sqsguard validates with, byte for
/// byte: a file made from it checks in an editor what sqsguard checks.
#[test]
fn schema_prints_the_schemas_sqsguard_validates_with() {
    for (which, file) in [("config", "schemas/config.schema.json"), ("pipeline", "schemas/pipeline.schema.json")] {
        let out = sqsguard(&["schema", which]);
        assert_eq!(out.status.code(), Some(0), "{which}: {}", stderr(&out));
        assert_eq!(stdout(&out), std::fs::read_to_string(common::root().join(file)).unwrap(), "{which}");
        let parsed: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert!(parsed["$schema"].as_str().unwrap().starts_with("https://json-schema.org/"), "{which}");
    }
    assert_eq!(sqsguard(&["schema"]).status.code(), Some(2));
    assert_eq!(sqsguard(&["schema", "template"]).status.code(), Some(2));
}

/// The `$schema` comments of the files users copy (examples, templates,
/// rule pages) point at a file beside the copy that `sqsguard schema`
/// makes, and say how; never at a path of this repository
/// (`../../schemas/...`) that a user's repository does not have.
#[test]
fn schema_comments_point_at_a_file_the_user_can_make() {
    let root = common::root();
    let mut seen = 0;
    let mut stack = vec![root.join("examples"), root.join("templates"), root.join("rules")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let Some(target) = line.split("yaml-language-server: $schema=").nth(1) else { continue };
                let target = target.trim();
                let which = match target {
                    "config.schema.json" | ".sqsguard.schema.json" => "config",
                    "pipeline.schema.json" => "pipeline",
                    _ => panic!("{}:{}: $schema={target} is no file `sqsguard schema` makes", path.display(), i + 1),
                };
                let how = format!("sqsguard schema {which} > {target}");
                let said = lines.get(i + 1).is_some_and(|l| l.contains(&how));
                assert!(said, "{}:{}: the next line should say `{how}`", path.display(), i + 1);
                seen += 1;
            }
        }
    }
    assert!(seen >= 5, "only {seen} $schema comments were found");
}
