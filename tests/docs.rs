//! The documentation says what the code does: the README's rule table is
//! the catalog, and every Bad/Good example of a rule page lints as it says.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

mod common;

#[test]
fn the_readme_rule_table_is_the_catalog() {
    let out = common::sqsguard(&["rules", "--format", "markdown"]);
    assert!(out.status.success());
    let table = common::stdout(&out);
    assert_eq!(table.lines().count(), sqsguard::rules::ALL.len() + 2, "{table}");
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    assert!(
        readme.contains(&table),
        "README.md's rule table differs from `sqsguard rules --format markdown`; paste this in:\n{table}"
    );
}

/// One example of a rule page: the paragraph that introduces it, its
/// template, and the code files that follow it (a fenced block right after
/// the template whose first line is a comment naming the file: `# src/app.py`).
struct Example {
    label: String,
    yaml: String,
    code: Vec<(String, String)>,
}

/// Every fenced YAML block of `page` with the paragraph that introduces it
/// and the code blocks that follow it.
fn examples(page: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut paragraph = String::new();
    let mut follows_block = false;
    let mut lines = page.lines();
    while let Some(line) = lines.next() {
        if let Some(lang) = line.strip_prefix("```") {
            let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            if lang == "yaml" {
                out.push(Example { label: paragraph.clone(), yaml: body.join("\n") + "\n", code: Vec::new() });
                follows_block = true;
            } else if follows_block && let Some(last) = out.last_mut() {
                let named = body.first().and_then(|l| l.strip_prefix("# ").or_else(|| l.strip_prefix("// ")));
                if let Some(name) = named.filter(|n| n.contains('.') && !n.contains(' ')) {
                    last.code.push((name.to_string(), body[1..].join("\n") + "\n"));
                }
            }
            paragraph.clear();
        } else if line.trim().is_empty() {
            // Keep the last paragraph until the next block.
        } else if !line.starts_with(' ') {
            paragraph = line.to_string();
            follows_block = false;
        }
    }
    out
}

#[test]
fn rule_page_examples_lint_as_they_say() {
    let dir = tempfile::tempdir_in(common::root().join("target")).unwrap();
    let mut checked = 0;
    for rule in sqsguard::rules::ALL.iter().filter(|r| !r.live_only && r.id.code != "SQS000") {
        let found = examples(rule.doc);
        let bad = found.iter().filter(|e| e.label.starts_with("Bad")).count();
        let good = found.iter().filter(|e| e.label.starts_with("Good")).count();
        assert!(bad >= 1 && good >= 1, "rules/{}.md needs a Bad and a Good example", rule.id.code);
        for (i, example) in found.iter().enumerate() {
            let label = &example.label;
            // Each example in a folder of its own, with its code beside it.
            let folder = dir.path().join(format!("{}-{i}", rule.id.code));
            std::fs::create_dir_all(&folder).unwrap();
            let path = folder.join("template.yaml");
            std::fs::write(&path, &example.yaml).unwrap();
            for (name, text) in &example.code {
                let file = folder.join(name);
                std::fs::create_dir_all(file.parent().unwrap()).unwrap();
                std::fs::write(file, text).unwrap();
            }
            let linted = if example.code.is_empty() { path.clone() } else { folder.clone() };
            let outcome = sqsguard::lint::lint_paths(std::slice::from_ref(&linted), &Default::default());
            assert!(outcome.files >= 1, "rules/{}.md: `{label}` is not a template", rule.id.code);
            let codes: Vec<&str> = outcome.findings.iter().map(|f| f.code()).collect();
            if label.starts_with("Bad") {
                assert!(codes.contains(&rule.id.code), "rules/{}.md: `{label}` gives {codes:?}", rule.id.code);
            } else if label.starts_with("Good") {
                assert!(codes.is_empty(), "rules/{}.md: `{label}` gives {codes:?}", rule.id.code);
            }
            if rule.is_code_rule() {
                assert!(
                    !example.code.is_empty(),
                    "rules/{}.md: `{label}` has no code after its template",
                    rule.id.code
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 34, "only {checked} examples were checked");
}

#[test]
fn every_template_rule_page_says_what_it_reads_in_a_serverless_yml() {
    for rule in sqsguard::rules::ALL.iter().filter(|r| !r.live_only) {
        let page = std::fs::read_to_string(common::root().join("rules").join(format!("{}.md", rule.id.code))).unwrap();
        let section = page.split("## In a serverless.yml").nth(1).map(|rest| rest.split("\n## ").next().unwrap_or(""));
        assert!(
            section.is_some_and(|s| s.trim().len() > 40),
            "rules/{}.md needs a `## In a serverless.yml` section",
            rule.id.code
        );
    }
}

#[test]
fn the_readme_fixing_example_is_what_diff_prints() {
    let readme = std::fs::read_to_string(common::root().join("docs/lint.md")).unwrap();
    let command = "$ sqsguard lint examples/cloudformation/legacy-worker.yaml --diff\n";
    let shown = readme.split(command).nth(1).and_then(|rest| rest.split("\n```").next()).expect("the example");
    let out = common::sqsguard(&["lint", "examples/cloudformation/legacy-worker.yaml", "--diff"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(common::stdout(&out).trim_end(), shown, "docs/lint.md's --diff example is stale");
}

#[test]
fn the_readme_fixable_count_is_what_lint_prints() {
    let readme = std::fs::read_to_string(common::root().join("docs/lint.md")).unwrap();
    let shown = readme
        .split("ends with\na count:\n\n```text\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the example");
    let out = common::sqsguard(&["lint", "examples/cloudformation/legacy-worker.yaml"]);
    let printed = common::stdout(&out);
    let tail: Vec<&str> = printed.trim_end().lines().rev().take(2).collect();
    assert_eq!(format!("{}\n{}", tail[1], tail[0]), shown, "docs/lint.md's fixable count is stale");
}
