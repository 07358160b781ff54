//! The documentation says what the code does: the README's rule table is
//! the catalog, every Bad/Good example of a rule page lints as it says, and
//! the pages (README.md, CONTRIBUTING.md, docs/, rules/) name only what
//! exists and show commands that run as shown (tests/common/pages.rs reads
//! them).

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;
use crate::common::pages;

use pages::{Block, Page};

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
    let dir = common::scratch();
    let mut checked = 0;
    for rule in sqsguard::rules::ALL
        .iter()
        .filter(|r| matches!(r.kind, sqsguard::rules::Kind::Template | sqsguard::rules::Kind::Code))
    {
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
            if rule.kind == sqsguard::rules::Kind::Code {
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
    for rule in sqsguard::rules::ALL.iter().filter(|r| r.kind != sqsguard::rules::Kind::Live) {
        let page = std::fs::read_to_string(common::root().join("rules").join(format!("{}.md", rule.id.code))).unwrap();
        let section = page.split("## In a serverless.yml").nth(1).map(|rest| rest.split("\n## ").next().unwrap_or(""));
        assert!(
            section.is_some_and(|s| s.trim().len() > 40),
            "rules/{}.md needs a `## In a serverless.yml` section",
            rule.id.code
        );
    }
}

/// The README's example frame is what `lint` prints for that finding.
#[test]
fn the_readme_example_frame_is_what_lint_prints() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let frame = readme.split("```text\n").nth(1).and_then(|rest| rest.split("\n```").next()).expect("the frame");
    let out = common::sqsguard(&["lint", "examples/cloudformation/legacy-worker.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        common::stdout(&out).contains(frame),
        "README.md's example frame is stale; lint prints:\n{}",
        common::stdout(&out)
    );
}

/// Where a page points a reader (a link, a heading of another page, a
/// file of the repository named in inline code or a shell block) exists.
#[test]
fn every_link_and_repository_path_a_page_names_exists() {
    let root = common::root();
    let pages = pages::all(root);
    let mut broken = Vec::new();
    for page in &pages {
        let dir = page.path.parent().unwrap();
        for (n, target) in page.links() {
            let (file, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let file = if file.is_empty() { page.path.clone() } else { dir.join(file) };
            if !root.join(&file).exists() {
                broken.push(format!("{}: {target}: no such file", page.at(n)));
            } else if !anchor.is_empty() && file.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(root.join(&file)).unwrap();
                if !(Page { path: file, text }).anchors().iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {target}: no such heading", page.at(n)));
                }
            }
        }
        let shell = page.blocks().into_iter().filter(Block::is_shell).flat_map(|b| {
            b.commands()
                .into_iter()
                .flat_map(|(n, line, _)| pages::words(&line).unwrap_or_default().into_iter().map(move |w| (n, w)))
        });
        for (n, word) in page.inline_code().into_iter().chain(shell) {
            if let Some(path) = repository_path(&word)
                && !root.join(path).exists()
            {
                broken.push(format!("{}: `{path}`: no such file", page.at(n)));
            }
        }
    }
    assert!(broken.is_empty(), "pages point at what does not exist:\n{}", broken.join("\n"));
}

/// `word` as a path of this repository (`tests/run.sh`, `crates/rules/src/`), when
/// it is one and names no placeholder (`rules/CODE.md`, `*.tf`) nor what
/// tests/run.sh installs (`node_modules`).
fn repository_path(word: &str) -> Option<&str> {
    const ROOTS: &[&str] = &[
        "src/",
        "tests/",
        "docs/",
        "rules/",
        "schemas/",
        "examples/",
        "benches/",
        "templates/",
        "editors/",
        ".github/",
        ".ci/",
    ];
    const PLACEHOLDERS: &[&str] = &["*", "<", "{", "...", "CODE", "LANG", "NAME", "TARGET", "VERSION", "node_modules"];
    let path = word.trim_start_matches('(').trim_end_matches([',', '.', ':', ';', ')']);
    let path = path.split_once(':').map_or(path, |(p, _)| p);
    // `src/index.js` is as often a user's handler as this crate's source.
    let ours = !path.starts_with("src/") || path.ends_with(".rs") || path.ends_with('/');
    (ours && ROOTS.iter().any(|r| path.starts_with(r)) && !PLACEHOLDERS.iter().any(|p| path.contains(p)))
        .then_some(path)
}

/// Every `sqsguard` command a page shows on files of this repository runs
/// with the exit status its kind allows, and prints what a `console` block
/// shows after it. Commands on files a reader has (`template.yaml`,
/// `infra/`) are not run; nor is one that lints the whole repository (`.`).
/// What a command would write goes to a temporary folder instead, and
/// `--fix` becomes `--diff`.
#[test]
fn every_command_a_page_shows_on_repository_files_runs_as_shown() {
    let root = common::root();
    let scratch = common::scratch();
    let mut ran = 0;
    let mut failed = Vec::new();
    for page in pages::all(root) {
        for block in page.blocks().into_iter().filter(Block::is_shell) {
            for (n, line, shown) in block.commands() {
                let Some(args) = pages::words(&line).and_then(|w| runnable(&w, root, scratch.path())) else {
                    continue;
                };
                let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
                    .args(&args)
                    .current_dir(root)
                    .env("NO_COLOR", "1")
                    .env_remove("FORCE_COLOR")
                    .env_remove("CLICOLOR_FORCE")
                    .env_remove("COLUMNS")
                    .output()
                    .unwrap();
                ran += 1;
                let allowed: &[i32] = if args[0] == "lint" { &[0, 1] } else { &[0] };
                let stdout = common::stdout(&out);
                if !out.status.code().is_some_and(|c| allowed.contains(&c)) {
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    failed.push(format!("{}: `{line}` exits {:?}:\n{stderr}", page.at(n), out.status.code()));
                } else if !shown.is_empty() && !pages::shows(&shown, &stdout) {
                    failed.push(format!("{}: `{line}` prints something else:\n{stdout}", page.at(n)));
                }
            }
        }
    }
    assert!(failed.is_empty(), "commands the pages show do not run as shown:\n\n{}", failed.join("\n\n"));
    assert!(ran >= 5, "only {ran} commands were run");
}

/// The arguments to run a command line with, when it is a `sqsguard`
/// command (or `cargo run -- ...`) a test can run here.
fn runnable(words: &[String], root: &std::path::Path, scratch: &std::path::Path) -> Option<Vec<String>> {
    let args = match words {
        [first, rest @ ..] if first == "sqsguard" => rest,
        [cargo, run, rest @ ..] if cargo == "cargo" && run == "run" => {
            &rest[rest.iter().position(|w| w == "--")? + 1..]
        }
        _ => return None,
    };
    let command = args.first()?.as_str();
    if !["lint", "generate", "graph", "explain", "rules", "schema"].contains(&command) {
        return None; // audit, server, report merge: they need an account or a client
    }
    let mut out = Vec::new();
    let mut paths = 0;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--fix" => out.push("--diff".to_string()),
            "--write-baseline" | "--sarif-file" | "--output" => {
                let value = args.next()?;
                out.push(arg.clone());
                out.push(match value.as_str() {
                    "-" => value.clone(),
                    v => scratch.join(std::path::Path::new(v).file_name()?).to_string_lossy().into_owned(),
                });
            }
            "-" | "." | ".." => return None,
            a if !a.starts_with('-') && (a.contains('/') || a.contains('.')) => {
                if !root.join(a).exists() {
                    return None;
                }
                paths += 1;
                out.push(arg.clone());
            }
            _ => out.push(arg.clone()),
        }
    }
    (paths > 0 || !["lint", "generate"].contains(&command)).then_some(out)
}

/// Every `$schema=` comment a page shows names a file the page says how to
/// write (`sqsguard schema config > .sqsguard.schema.json`), never one of
/// this repository that a user's does not have.
#[test]
fn every_schema_comment_names_a_file_the_page_says_how_to_get() {
    for page in pages::all(common::root()) {
        for (at, _) in page.text.match_indices("$schema=") {
            let file: String = page.text[at + "$schema=".len()..].chars().take_while(|c| !c.is_whitespace()).collect();
            let written = page
                .blocks()
                .iter()
                .filter(|b| b.is_shell())
                .flat_map(|b| b.body.clone())
                .any(|l| l.contains("sqsguard schema ") && l.trim_end().ends_with(&format!("> {file}")));
            assert!(
                written,
                "{}: `$schema={file}`: the page never shows `sqsguard schema ... > {file}`",
                page.path.display()
            );
        }
    }
}

/// The `.sqsguard.yaml` and generator spec examples are valid: the config
/// loads, and the spec generates both targets.
#[test]
fn the_config_and_spec_examples_are_valid() {
    let mut checked = 0;
    for page in pages::all(common::root()) {
        for block in page.blocks().into_iter().filter(|b| b.lang == "yaml") {
            let Some(schema) = block.body.first().and_then(|l| l.strip_prefix("# yaml-language-server: $schema="))
            else {
                continue;
            };
            let dir = common::scratch();
            let text = block.body.join("\n") + "\n";
            let at = page.at(block.line);
            if schema == ".sqsguard.schema.json" {
                // The JSON Schemas its payload declarations name.
                for line in &block.body {
                    if let Some(file) = line.trim().strip_prefix("schema: ") {
                        std::fs::create_dir_all(dir.path().join(file).parent().unwrap()).unwrap();
                        std::fs::write(dir.path().join(file), r#"{"type": "object"}"#).unwrap();
                    }
                }
                let path = dir.path().join(".sqsguard.yaml");
                std::fs::write(&path, &text).unwrap();
                if let Err(e) = sqsguard::config::load(&path) {
                    panic!("{at}: the config example does not load: {e:?}");
                }
            } else {
                std::fs::write(dir.path().join("spec.yaml"), &text).unwrap();
                for target in ["cloudformation", "terraform"] {
                    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sqsguard"))
                        .args(["generate", "spec.yaml", "--target", target, "--output", "-"])
                        .current_dir(dir.path())
                        .output()
                        .unwrap();
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    assert!(out.status.success(), "{at}: the spec example does not generate {target}:\n{stderr}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "only {checked} config and spec examples were checked");
}

/// The pages send readers only to what the repository holds: no contract
/// or notes file of the machine the project was written on.
#[test]
fn no_page_cites_a_file_outside_the_repository() {
    for page in pages::all(common::root()) {
        for (n, line) in page.text.lines().enumerate() {
            // The contract files' names in pieces, or tests/it/layers.rs finds them here.
            for outside in ["/work/", "shared/", concat!("CLI", ".md"), concat!("RULES", ".md")] {
                assert!(!line.contains(outside), "{}: cites {outside}: {line}", page.at(n + 1));
            }
        }
    }
}

/// The README is read whole by a newcomer: what sqsguard catches, how to
/// get it, a start per format; the rest is in docs/.
#[test]
fn the_readme_is_under_250_lines() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines < 250, "README.md has {lines} lines: move the detail into docs/");
}
