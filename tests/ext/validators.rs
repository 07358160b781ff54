//! The generator's output against the real validators: cfn-lint, checkov
//! (CloudFormation and Terraform), python-hcl2 and `terraform validate`
//! with the real AWS provider. tests/run.sh installs the Python tools into
//! .venv (SQSGUARD_VENV); terraform and its offline provider come with the
//! machine. Where a tool is missing the test says so loudly and, under CI,
//! fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{missing, venv_tool};
use serde_json::Value;

/// Failed checkov checks that may remain, on the Lambda function (and its
/// log group) the generator emits when the spec names none and on an `s3`
/// producer's bucket; docs/generate.md says why each does not apply. No
/// other check may fail, and none on an SQS queue, queue policy, alarm or
/// event source mapping.
const DOCUMENTED: &[&str] = &[
    "CKV_AWS_115",
    "CKV_AWS_116",
    "CKV_AWS_117",
    "CKV_AWS_158",
    "CKV_AWS_272",
    "CKV_AWS_18",
    "CKV_AWS_144",
    "CKV_AWS_145",
    "CKV2_AWS_61",
];

fn generated(ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = walk(&common::root().join("examples/generate"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    out.sort();
    assert!(!out.is_empty());
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() { out.extend(walk(&p)) } else { out.push(p) }
    }
    out
}

#[test]
fn cfn_lint_finds_no_error_or_warning() {
    let Some(cfn_lint) = venv_tool("cfn-lint") else { return missing("cfn-lint") };
    let mut templates = generated("yaml");
    templates.retain(|p| p.parent().is_some_and(|d| d.ends_with("cloudformation")));
    templates.extend(generated("json"));
    let out = Command::new(cfn_lint).args(&templates).output().unwrap();
    assert!(
        out.status.success(),
        "cfn-lint:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn checkov_fails_nothing_on_sqs_alarm_or_mapping_resources() {
    let Some(checkov) = venv_tool("checkov") else { return missing("checkov") };
    let out = Command::new(checkov)
        .args([
            "-d",
            "examples/generate",
            "--framework",
            "cloudformation",
            "terraform",
            "-o",
            "json",
            "--quiet",
            "--skip-download",
        ])
        .current_dir(common::root())
        .env("BC_SKIP_MAPPING", "TRUE")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let doc: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("checkov JSON ({e}):\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    let reports = match doc {
        Value::Array(reports) => reports,
        single => vec![single],
    };
    let mut undocumented = BTreeSet::new();
    let mut ran = 0;
    for report in &reports {
        ran += report["summary"]["passed"].as_u64().unwrap_or(0) + report["summary"]["failed"].as_u64().unwrap_or(0);
        for failed in report["results"]["failed_checks"].as_array().into_iter().flatten() {
            let id = failed["check_id"].as_str().unwrap_or_default();
            let resource = failed["resource"].as_str().unwrap_or_default();
            let sqs_side =
                ["SQS", "sqs", "CloudWatch::Alarm", "metric_alarm", "EventSourceMapping", "event_source_mapping"]
                    .iter()
                    .any(|k| resource.contains(k));
            if sqs_side || !DOCUMENTED.contains(&id) {
                undocumented
                    .insert(format!("{id} on {resource} ({})", failed["file_path"].as_str().unwrap_or_default()));
            }
        }
    }
    assert!(ran > 50, "checkov ran only {ran} checks");
    assert!(
        undocumented.is_empty(),
        "checkov failures that are not documented in docs/generate.md:\n{undocumented:#?}"
    );
}

#[test]
fn python_hcl2_parses_every_terraform_file() {
    let Some(python) = venv_tool("python") else { return missing("python-hcl2") };
    for tf in generated("tf") {
        let out = Command::new(&python)
            .args(["-c", "import hcl2, sys; hcl2.load(open(sys.argv[1]))"])
            .arg(&tf)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {}", tf.display(), String::from_utf8_lossy(&out.stderr));
    }
}

/// `terraform validate` of every module in `dirs` with the offline AWS
/// provider, and with `fmt` also `terraform fmt -check` of each. Says
/// loudly and checks nothing when terraform or its provider is missing.
///
/// The modules are validated as the children of one root that calls each
/// of them (`module "m0" { source = "./m0" }`, a required variable given a
/// placeholder of its type): validate checks the whole configuration, every
/// child's resources against the provider's schema. One init and one
/// validate, where a root for each module started the 700 MB provider once
/// a module (about 3.4 s of CPU each, 19 modules in this file's tests).
/// What terraform checks of a root module only is not checked of them:
/// outputs that refer to sensitive or ephemeral values without saying so,
/// and `backend` or `cloud` blocks (a warning in a child). None of these
/// modules has any of those.
fn terraform_validate(dirs: &[PathBuf], fmt: bool) {
    if Command::new("terraform").arg("version").output().is_err() {
        return missing("terraform");
    }
    let Some(plugins) = common::terraform_plugin_dir() else { return missing("the offline hashicorp/aws provider") };
    let work = tempfile::tempdir().unwrap();
    let tf = |dir: &Path, args: &[&str]| {
        Command::new("terraform").args(args).current_dir(dir).env("TF_CLI_CONFIG_FILE", "/dev/null").output().unwrap()
    };
    let mut root = String::new();
    for (i, dir) in dirs.iter().enumerate() {
        let name = format!("m{i}");
        let child = work.path().join(&name);
        std::fs::create_dir(&child).unwrap();
        copy_tree(dir, &child);
        root.push_str(&format!("# {}\nmodule \"{name}\" {{\n  source = \"./{name}\"\n", dir.display()));
        for (variable, placeholder) in required_variables(dir) {
            root.push_str(&format!("  {variable} = {placeholder}\n"));
        }
        root.push_str("}\n\n");
        if fmt {
            let fmt = tf(&child, &["fmt", "-check", "-no-color"]);
            assert!(
                fmt.status.success(),
                "{} is not terraform-fmt canonical: {}",
                dir.display(),
                String::from_utf8_lossy(&fmt.stdout)
            );
        }
    }
    std::fs::write(work.path().join("main.tf"), &root).unwrap();
    let init =
        tf(work.path(), &["init", "-backend=false", "-input=false", &format!("-plugin-dir={}", plugins.display())]);
    assert!(init.status.success(), "init:\n{root}\n{}", String::from_utf8_lossy(&init.stderr));
    let validate = tf(work.path(), &["validate", "-no-color"]);
    // The root's comments say which module each `mN` is.
    assert!(validate.status.success(), "{root}\n{}", String::from_utf8_lossy(&validate.stderr));
}

/// The variables of the module in `dir` that have no default, each with
/// a value of its type to be called with (HCL and JSON syntax).
fn required_variables(dir: &Path) -> Vec<(String, &'static str)> {
    let placeholder = |variable: &str, ty: &str| match ty.trim() {
        // (A variable of no type takes any value.)
        "string" | "any" | "" => "\"sqsguard-validate\"",
        "number" => "1",
        "bool" => "false",
        other => panic!("{}: give required variable {variable} of type {other} a placeholder", dir.display()),
    };
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let (path, name) = (e.path(), e.file_name().to_string_lossy().into_owned());
        let text = || std::fs::read_to_string(&path).unwrap();
        if name.ends_with(".tf") {
            let body = hcl::parse(&text()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for block in body.blocks().filter(|b| b.identifier() == "variable") {
                let Some(variable) = block.labels().first().map(|l| l.as_str().to_string()) else { continue };
                let attribute = |key: &str| block.body().attributes().find(|a| a.key() == key);
                if attribute("default").is_none() {
                    let ty = attribute("type").map(|a| hcl::format::to_string(a.expr()).unwrap()).unwrap_or_default();
                    let value = placeholder(&variable, &ty);
                    out.push((variable, value));
                }
            }
        } else if name.ends_with(".tf.json") {
            let doc: Value = serde_json::from_str(&text()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            for (variable, declared) in doc["variable"].as_object().into_iter().flatten() {
                if declared.get("default").is_none() {
                    let value = placeholder(variable, declared["type"].as_str().unwrap_or_default());
                    out.push((variable.clone(), value));
                }
            }
        }
    }
    // (An override file may declare a variable again.)
    out.sort();
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn terraform_validate_accepts_every_generated_module() {
    let mut dirs: Vec<PathBuf> = generated("tf").iter().filter_map(|p| p.parent().map(Path::to_path_buf)).collect();
    dirs.dedup();
    terraform_validate(&dirs, true);
}

#[test]
fn terraform_validate_accepts_the_json_fixture_twins() {
    // The twins are made at test time from the HCL modules
    // (tests/common/terraform_json.rs): one of each construct the JSON
    // front-end reads: nested blocks, count, a local module call, a module
    // split over files, an override file, heredocs, an
    // aws_iam_policy_document's nested blocks; and a module with a
    // tfvars JSON file, whose main.tf.json is what is validated (terraform
    // validate reads no tfvars).
    let twins = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = [
        "SQS001/terraform/bad",
        "SQS001/terraform/bad_count_index",
        "SQS001/terraform/bad_module_input",
        "SQS001/terraform/bad_split_module",
        "SQS001/terraform/bad_tfvars_json",
        "SQS001/terraform/good_override_file",
        "SQS007/terraform/bad_heredoc",
        "SQS017/terraform/bad_heredoc_policy",
        "SQS019/terraform/good_policy_document",
    ]
    .iter()
    .map(|module| {
        let twin = twins.path().join(module.replace('/', "-"));
        common::terraform_json::write_twin(&common::rules_dir().join(module), &twin);
        twin
    })
    .collect();
    terraform_validate(&dirs, false);
}

/// SQS019's Terraform fixes (`tests/fixtures/fix/sqs019-*.tf.fixed` and
/// `.tf.json.fixed`: a statement appended to a `jsonencode` policy or an
/// `aws_iam_policy_document`) give modules terraform accepts and `terraform
/// fmt` leaves as they are.
#[test]
fn terraform_validate_accepts_the_fixed_sqs019_modules() {
    let fix = common::root().join("tests/fixtures/fix");
    let scratch = tempfile::tempdir().unwrap();
    let mut dirs = Vec::new();
    for e in std::fs::read_dir(&fix).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(fixture) = name.strip_suffix(".fixed").filter(|s| s.starts_with("sqs019-")) else { continue };
        let main = match fixture.strip_suffix(".tf.json") {
            Some(_) => "main.tf.json",
            None if fixture.ends_with(".tf") => "main.tf",
            None => continue,
        };
        let dir = scratch.path().join(fixture);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(e.path(), dir.join(main)).unwrap();
        dirs.push(dir);
    }
    dirs.sort();
    assert!(dirs.len() >= 5, "the SQS019 Terraform fixtures are gone: {dirs:?}");
    terraform_validate(&dirs, true);
}

/// The audit's member-account role (docs/audit.md, "Auditing many accounts"):
/// sqsguard lints it clean, cfn-lint reports nothing, checkov fails nothing.
#[test]
fn the_audit_role_template_passes_sqsguard_cfn_lint_and_checkov() {
    let template = "examples/iam/audit-member-role.yaml";
    let out = common::sqsguard(&["lint", template, "--format", "json", "--fail-on", "info"]);
    assert_eq!(out.status.code(), Some(0), "{}", common::stdout(&out));
    let doc: Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    assert_eq!(doc["summary"]["files"], 1, "the template is linted, not skipped");
    let Some(cfn_lint) = venv_tool("cfn-lint") else { return missing("cfn-lint") };
    let out = Command::new(cfn_lint).arg(template).current_dir(common::root()).output().unwrap();
    assert!(out.status.success(), "cfn-lint:\n{}", String::from_utf8_lossy(&out.stdout));
    let Some(checkov) = venv_tool("checkov") else { return missing("checkov") };
    let out = Command::new(checkov)
        .args(["-f", template, "--framework", "cloudformation", "-o", "json", "--quiet", "--skip-download"])
        .current_dir(common::root())
        .env("BC_SKIP_MAPPING", "TRUE")
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["summary"]["passed"].as_u64().unwrap() > 0, "{doc}");
    assert_eq!(doc["summary"]["failed"], 0, "{doc}");
}
