//! A GitHub runner for action.yml, as far as the Action needs one: inputs
//! with their defaults; the expressions `${{ inputs.X }}`, `runner.*`,
//! `github.*` of [`Job`], `steps.ID.outputs.X` and `steps.ID.outcome`;
//! `if:` of `==`/`!=` joined by `&&`; `continue-on-error`; the `run:` steps
//! in bash with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP and
//! GITHUB_WORKSPACE set as a runner sets them; a cache that misses, and an
//! upload to code scanning that records its file or is refused. Anything
//! else in action.yml fails the test, so the Action cannot grow what this
//! does not check.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::common;

pub fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Runs a `run:` script the way a runner's `shell: bash` does.
pub fn bash(script: &str, dir: &Path, env: &[(&str, String)]) -> Output {
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script]).current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// A change to the runner made before the named step runs.
pub type BeforeStep = (&'static str, fn(&Job));

/// The job the Action runs in: what triggered it, and what code scanning
/// makes of an upload. Two runs with one `runner_temp` are two calls of
/// the Action in one job.
pub struct Job {
    pub event: String,
    pub repository: String,
    /// `github.event.pull_request.head.repo.full_name`: empty unless a pull request.
    pub head_repository: String,
    /// Code scanning refuses the upload (no `security-events: write`, no
    /// Advanced Security on a private repository).
    pub upload_refused: bool,
    pub runner_temp: PathBuf,
    pub tool_cache: PathBuf,
    /// Something to do to the runner just before the step of this name
    /// runs (what a test cannot otherwise reach: the installed binary).
    pub before_step: Option<BeforeStep>,
}

impl Job {
    /// A push to the repository's own branch, in a fresh job under `dir`.
    pub fn push(dir: &Path) -> Job {
        let runner_temp = dir.join("runner-temp");
        std::fs::create_dir_all(&runner_temp).unwrap();
        Job {
            event: "push".into(),
            repository: "acme/infra".into(),
            head_repository: String::new(),
            upload_refused: false,
            runner_temp,
            tool_cache: dir.join("tool-cache"),
            before_step: None,
        }
    }
}

/// What running the Action did.
pub struct ActionRun {
    /// The step that failed the job (if one did) and its output.
    pub failed: Option<(String, String)>,
    /// The cache step's `path` and `key`.
    pub cached: Option<(String, String)>,
    /// The SARIF file given to code scanning and its category, when uploaded.
    pub uploaded: Option<(PathBuf, String)>,
    /// Each step's outputs, by id (or name).
    pub outputs: BTreeMap<String, BTreeMap<String, String>>,
    /// The job log: what each step printed, stdout and stderr.
    pub log: String,
    /// What the steps wrote to the job summary.
    pub summary: String,
}

type Outputs = BTreeMap<String, BTreeMap<String, String>>;

#[expect(
    clippy::too_many_lines,
    reason = "runs action.yml's steps as the runner does, in their order: read beside action.yml, one step after another"
)]
pub fn run_action(with: &serde_json::Map<String, Value>, workspace: &Path, job: &Job) -> ActionRun {
    let action = super::yaml("action.yml").unwrap();
    let declared = action["inputs"].as_object().unwrap();
    let mut inputs = BTreeMap::new();
    for (name, spec) in declared {
        let value = with.get(name).map(text).or_else(|| spec.get("default").map(text));
        match value {
            Some(v) => inputs.insert(name.clone(), v),
            None => panic!("input {name} is required and not given"),
        };
    }
    for name in with.keys() {
        assert!(declared.contains_key(name), "action.yml has no input {name}");
    }
    let files = tempfile::tempdir().unwrap();
    let mut run = ActionRun {
        failed: None,
        cached: None,
        uploaded: None,
        outputs: BTreeMap::new(),
        log: String::new(),
        summary: String::new(),
    };
    let mut outcomes: BTreeMap<String, String> = BTreeMap::new();
    let resolve = |expr: &str, outputs: &Outputs, outcomes: &BTreeMap<String, String>| -> String {
        let expr = expr.trim();
        if let Some(name) = expr.strip_prefix("inputs.") {
            return inputs.get(name).cloned().unwrap_or_else(|| panic!("no input {name}"));
        }
        match expr {
            "runner.tool_cache" => return job.tool_cache.display().to_string(),
            "runner.os" => return "Linux".into(),
            "runner.arch" => return "X64".into(),
            "github.event_name" => return job.event.clone(),
            "github.repository" => return job.repository.clone(),
            "github.event.pull_request.head.repo.full_name" => return job.head_repository.clone(),
            _ => {}
        }
        if let Some(rest) = expr.strip_prefix("steps.") {
            if let Some(id) = rest.strip_suffix(".outcome") {
                return outcomes.get(id).cloned().unwrap_or_default();
            }
            let (id, key) = rest.split_once(".outputs.").unwrap_or_else(|| panic!("unknown expression {expr}"));
            return outputs.get(id).and_then(|o| o.get(key)).cloned().unwrap_or_default();
        }
        panic!("this runner does not know the expression {expr}")
    };
    let expand = |s: &str, outputs: &Outputs, outcomes: &BTreeMap<String, String>| -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(start) = rest.find("${{") {
            out.push_str(&rest[..start]);
            let end = rest[start..].find("}}").unwrap() + start;
            out.push_str(&resolve(&rest[start + 3..end], outputs, outcomes));
            rest = &rest[end + 2..];
        }
        out + rest
    };
    let condition = |s: &str, outputs: &Outputs, outcomes: &BTreeMap<String, String>| -> bool {
        s.split("&&").all(|term| {
            let (lhs, negate, rhs) = match term.split_once("!=") {
                Some((l, r)) => (l, true, r),
                None => term.split_once("==").map(|(l, r)| (l, false, r)).expect("an == or != condition"),
            };
            let literal = rhs.trim().strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).expect("a quoted literal");
            (resolve(lhs, outputs, outcomes) == literal) != negate
        })
    };
    for step in action["runs"]["steps"].as_array().unwrap() {
        let name = text(&step["name"]);
        let id = step.get("id").map(text).unwrap_or_else(|| name.clone());
        let may_fail = match step.get("continue-on-error") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => panic!("step {name}: continue-on-error {other} is not true or false"),
        };
        if let Some((before, change)) = job.before_step
            && before == name
        {
            change(job);
        }
        if let Some(cond) = step.get("if")
            && !condition(&text(cond), &run.outputs, &outcomes)
        {
            outcomes.insert(id, "skipped".into());
            continue;
        }
        let (succeeded, printed) = if let Some(uses) = step.get("uses").map(text) {
            let with = |k: &str| expand(&text(&step["with"][k]), &run.outputs, &outcomes);
            if uses.starts_with("actions/cache@") {
                run.cached = Some((with("path"), with("key")));
                run.outputs.insert(id.clone(), BTreeMap::from([("cache-hit".to_string(), "false".to_string())]));
                (true, String::new())
            } else if uses.starts_with("github/codeql-action/upload-sarif@") {
                if job.upload_refused {
                    (false, "Error: Resource not accessible by integration\n".to_string())
                } else {
                    run.uploaded = Some((workspace.join(with("sarif_file")), with("category")));
                    (true, "Uploading code scanning results\n".to_string())
                }
            } else {
                panic!("this runner does not know the action {uses}");
            }
        } else {
            assert_eq!(text(&step["shell"]), "bash", "step {name}");
            let github_output = files.path().join(format!("output-{}", outcomes.len()));
            let step_summary = files.path().join(format!("summary-{}", outcomes.len()));
            std::fs::write(&github_output, "").unwrap();
            std::fs::write(&step_summary, "").unwrap();
            let mut env = vec![
                ("GITHUB_ACTION_PATH", common::root().display().to_string()),
                ("GITHUB_OUTPUT", github_output.display().to_string()),
                ("GITHUB_STEP_SUMMARY", step_summary.display().to_string()),
                ("GITHUB_WORKSPACE", workspace.display().to_string()),
                ("RUNNER_TEMP", job.runner_temp.display().to_string()),
                ("RUNNER_OS", "Linux".into()),
                ("RUNNER_ARCH", "X64".into()),
            ];
            let vars: Vec<(String, String)> = step
                .get("env")
                .and_then(Value::as_object)
                .map(|m| m.iter().map(|(k, v)| (k.clone(), expand(&text(v), &run.outputs, &outcomes))).collect())
                .unwrap_or_default();
            env.extend(vars.iter().map(|(k, v)| (k.as_str(), v.clone())));
            let out = bash(&expand(&text(&step["run"]), &run.outputs, &outcomes), workspace, &env);
            let written = std::fs::read_to_string(&github_output).unwrap();
            let values = written.lines().filter_map(|l| l.split_once('=')).map(|(k, v)| (k.into(), v.into())).collect();
            run.outputs.insert(id.clone(), values);
            run.summary.push_str(&std::fs::read_to_string(&step_summary).unwrap());
            let printed = format!("{}{}", common::stdout(&out), String::from_utf8_lossy(&out.stderr));
            (out.status.success(), printed)
        };
        run.log.push_str(&printed);
        outcomes.insert(id, if succeeded { "success" } else { "failure" }.into());
        if !succeeded && !may_fail {
            run.failed = Some((name, printed));
            break;
        }
    }
    run
}
