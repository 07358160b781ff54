//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sqsguard::config::Config;
use sqsguard::lint;
use sqsguard::outcome::Outcome;
use sqsguard::report::{self, location, pretty::Style};

// What only some of the tests use, compiled once in each binary.
pub mod faults;
pub mod lsp;
pub mod mermaid;
pub mod model;
pub mod pages;
pub mod rng;
pub mod stdio;
pub mod terraform_json;

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A folder inside the repository (code outside it is refused, and the
/// repository's own files stay untouched), removed when dropped. The
/// folder under it is made here: it does not exist in a checkout whose
/// builds go to another CARGO_TARGET_DIR.
#[allow(dead_code)] // not every test binary makes one
pub fn scratch() -> tempfile::TempDir {
    let base = root().join("target/test-scratch");
    std::fs::create_dir_all(&base).unwrap_or_else(|e| panic!("{}: {e}", base.display()));
    tempfile::tempdir_in(base).unwrap_or_else(|e| panic!("a scratch folder: {e}"))
}

/// The path relative to the crate root, so output and snapshots don't
/// depend on where the repository is checked out.
pub fn relative(path: &Path) -> PathBuf {
    path.strip_prefix(root()).unwrap_or(path).to_path_buf()
}

pub fn lint(path: &Path) -> Outcome {
    lint::lint_paths(&[relative(path)], &Config::default())
}

/// Lint with only the rule `code` selected, as `--select CODE` does.
pub fn lint_only(path: &Path, code: &str) -> Outcome {
    let mut config = Config::default();
    config.filter.select = vec![code.to_string()];
    lint::lint_paths(&[relative(path)], &config)
}

/// What a fixture's snapshot holds: its findings as the linter made them,
/// without any reporter's drawing, so a change of the pretty report
/// touches the reporter's snapshots (tests/it/pretty.rs) and none of the
/// rules'. Each finding is one line with its rule, severity, exact
/// location and resource, then its message, its help, its fix (`safe`,
/// `unsafe`, `none`, or `unfixable: why`) and the resources it is also
/// about; then the notes, and how many files were linted and skipped.
pub fn findings(outcome: &Outcome) -> String {
    let mut out = String::new();
    for f in &outcome.findings {
        out.push_str(&finding_line(f));
        // The words as every reporter shows them: the rule's, with the
        // context the run learned (a stage's override, a CDK construct,
        // what created the queue).
        out.push_str(&format!("  message: {}\n", f.full_message()));
        if !f.fix.is_empty() {
            out.push_str(&format!("  help: {}\n", f.full_fix()));
        }
        let fix = match &f.autofix {
            None => "none".to_string(),
            Some(Ok(fix)) => match fix.applicability {
                sqsguard::finding::Applicability::Safe => "safe".to_string(),
                sqsguard::finding::Applicability::Unsafe => "unsafe".to_string(),
            },
            Some(Err(why)) => format!("unfixable: {}", why.0),
        };
        out.push_str(&format!("  fix: {fix}\n"));
        if !f.related.is_empty() {
            out.push_str(&format!("  related: {}\n", f.related.join(", ")));
        }
    }
    for note in &outcome.notes {
        match note.origin.location() {
            Some(l) => out.push_str(&format!("note: {}:{}:{}: {}\n", l.file, l.line, l.column, note.message)),
            None => out.push_str(&format!("note: {}\n", note.message)),
        }
    }
    out.push_str(&format!(
        "files: {} linted, {} skipped, {} suppressed\n",
        outcome.files, outcome.skipped, outcome.suppressed
    ));
    out
}

/// A finding's first line in the snapshots: `CODE severity
/// file:line:col-end_line:end_col resource`.
fn finding_line(f: &sqsguard::finding::Finding) -> String {
    let l = location(f).expect("file finding");
    format!(
        "{} {} {}:{}:{}-{}:{} {}\n",
        f.code(),
        f.severity.as_str(),
        l.file,
        l.line,
        l.column,
        l.end_line,
        l.end_column,
        f.resource
    )
}

/// The pretty report as a terminal without colours shows it, after one
/// line per finding with its exact location: what the reporter's own
/// snapshots hold, and what a failed assertion prints.
pub fn render(outcome: &Outcome) -> String {
    let mut out = String::new();
    for f in &outcome.findings {
        out.push_str(&finding_line(f));
    }
    out.push('\n');
    out.push_str(&report::pretty::render(outcome, Style { color: false, width: 100, ..Style::default() }));
    out
}

pub fn sqsguard(args: &[&str]) -> Output {
    sqsguard_with(args, "", &[])
}

/// sqsguard in the repository's root with `input` on standard input and
/// `env` set over an environment without the colour and width variables.
pub fn sqsguard_with(args: &[&str], input: &str, env: &[(&str, &str)]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_sqsguard"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("COLUMNS")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sqsguard");
    // A run that does not read standard input may have closed it.
    let _ = child.stdin.take().expect("piped").write_all(input.as_bytes());
    child.wait_with_output().expect("run sqsguard")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The real-world corpus (tests/corpus: its README says where each file
/// comes from, LICENSES/ under which terms).
pub fn corpus() -> PathBuf {
    root().join("tests/corpus")
}

/// The folder holding `registry.terraform.io` with the offline AWS provider
/// (or $TF_PLUGIN_DIR), for `terraform init -plugin-dir`. The working
/// folders of `terraform init` (`.terraform/providers`, some of them
/// other tests' temporary folders, gone any moment) are not it.
pub fn terraform_plugin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TF_PLUGIN_DIR") {
        return Some(dir.into());
    }
    let out = Command::new("find")
        .args(["/", "-maxdepth", "6", "-type", "d", "-name", "registry.terraform.io"])
        .output()
        .ok()?;
    let found = String::from_utf8_lossy(&out.stdout).into_owned();
    let first = found.lines().find(|l| !l.contains("/.terraform/"))?;
    Path::new(first).parent().map(Path::to_path_buf)
}

/// A tool of the project venv that tests/run.sh installs from
/// tests/requirements.txt ($SQSGUARD_VENV, else `<repo>/.venv`).
pub fn venv_tool(name: &str) -> Option<PathBuf> {
    let venv = std::env::var_os("SQSGUARD_VENV").map(PathBuf::from).unwrap_or_else(|| root().join(".venv"));
    let tool = venv.join("bin").join(name);
    tool.exists().then_some(tool)
}

/// The venv of the wheel's tools (maturin, twine) and of the wheels the
/// tests install offline (`find-links/`): tests/run.sh makes it.
pub fn wheel_venv() -> PathBuf {
    std::env::var_os("SQSGUARD_WHEEL_VENV").map(PathBuf::from).unwrap_or_else(|| root().join(".venv-wheel"))
}

/// Says loudly that a test did not run for want of `what`; under CI (env
/// var CI set) that is a failure, so a missing install step cannot pass.
pub fn missing(what: &str) {
    let message = format!("SKIPPED: {what} is not installed (tests/run.sh installs it)");
    eprintln!("\n*** {message} ***\n");
    assert!(std::env::var_os("CI").is_none(), "{message}");
}

/// Says loudly that a test could not run here for a reason no install
/// fixes (running as root, say). Unlike [`missing`], not a failure in CI.
pub fn skipped(why: &str) {
    eprintln!("\n*** SKIPPED: {why} ***\n");
}

/// The per-rule fixtures: `tests/rules/CODE/FRONT_END/`, one folder per
/// front-end (`cloudformation`, `sam`, `serverless`, `terraform`,
/// `terraform-json`, and a code rule's languages), each fixture's
/// snapshots beside it (tests/rules/README.md).
pub fn rules_dir() -> PathBuf {
    root().join("tests/rules")
}

/// The rule a fixture is for: `tests/rules/SQS001/terraform/bad/main.tf`
/// (a file of a module), `.../terraform/bad` (a module or a code
/// project) and `.../cloudformation/bad.yaml` are all SQS001.
pub fn rule_of(path: &Path) -> String {
    let relative =
        path.strip_prefix(rules_dir()).unwrap_or_else(|_| panic!("{} is not in tests/rules", path.display()));
    relative.components().next().expect("a rule's folder").as_os_str().to_string_lossy().into_owned()
}

/// The fixtures of `front_end` whose names start with `kind` (`bad`,
/// `good`), each with its rule, sorted: files, or a module's or project's
/// folder, never a snapshot.
pub fn rule_fixtures(front_end: &str, kind: &str) -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for rule in std::fs::read_dir(rules_dir()).expect("tests/rules").map(|e| e.expect("tests/rules").path()) {
        let Ok(entries) = std::fs::read_dir(rule.join(front_end)) else { continue };
        for path in entries.map(|e| e.expect("a fixture").path()) {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            if name.starts_with(kind) && !name.ends_with(".snap") {
                out.push((rule_of(&path), path));
            }
        }
    }
    out.sort();
    out
}

/// Compares `text` with the snapshot beside `fixture` (a file, or a
/// module's or project's folder): `NAME.snap` for its findings, or
/// `NAME.KIND.snap` (`fixed`, `unsafe_fixed`), NAME being the fixture's
/// file or folder name. A rule's fixtures and what they give are read and
/// reviewed together, and moved together.
pub fn assert_snapshot_beside(fixture: &Path, kind: Option<&str>, text: &str) {
    let folder = fixture.parent().expect("a fixture's folder");
    let name = fixture.file_name().expect("a fixture's name").to_string_lossy();
    let name = match kind {
        Some(kind) => format!("{name}.{kind}"),
        None => name.into_owned(),
    };
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(folder);
    settings.set_prepend_module_to_snapshot(false);
    settings.remove_snapshot_suffix();
    settings.set_input_file(fixture);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// A bad fixture for rule `code` at `path` (a file, or a Terraform module's
/// folder): linted with every rule on, `code` fires, and every other rule
/// that fires is one the fixture declares (see [`declared_others`]), each
/// of them firing. With only `code` selected, only `code` fires. Returns the
/// outcome with every rule on, for its snapshot.
pub fn assert_bad_fixture(path: &Path, code: &str) -> Outcome {
    let outcome = lint(path);
    assert!(
        outcome.findings.iter().any(|f| f.code() == code),
        "{} should raise {code}, got:\n{}",
        path.display(),
        render(&outcome)
    );
    let fired: std::collections::BTreeSet<String> =
        outcome.findings.iter().map(|f| f.code().to_string()).filter(|c| c != code).collect();
    let declared = declared_others(path);
    assert!(
        fired == declared,
        "{}: besides {code}, {:?} fired but the fixture declares {:?} (in its opening comments, `# also: CODE, ...`, \
         or a top-level \"//\": \"also: CODE, ...\" in JSON); make the fixture clean for the other rules or \
         declare them:\n{}",
        path.display(),
        fired,
        declared,
        render(&outcome)
    );
    let alone = lint_only(path, code);
    assert!(!alone.findings.is_empty() && alone.findings.iter().all(|f| f.code() == code), "{}", render(&alone));
    outcome
}

/// The rules besides its own that a bad fixture says it also raises: the
/// codes after `also:` in a `#` comment line of the comments it opens with
/// (YAML, HCL), or in a top-level `"//"` string of a JSON file, up to a `(`
/// that says why: `# also: SQS004, SQS005 (SAM creates that queue)`. A
/// Terraform module's folder declares them in its `main.tf` or
/// `main.tf.json`, a code rule's project in its `template.yaml` (or
/// `serverless.yml`).
pub fn declared_others(path: &Path) -> std::collections::BTreeSet<String> {
    let file = if path.is_dir() {
        // A module, or a code rule's project: its template declares them
        // (a worker's code alone declares nothing).
        let found = ["main.tf", "main.tf.json", "template.yaml", "template.yml", "serverless.yml"]
            .into_iter()
            .map(|name| path.join(name))
            .find(|p| p.is_file());
        let Some(found) = found else { return Default::default() };
        found
    } else {
        path.to_path_buf()
    };
    let text = std::fs::read_to_string(&file).expect("read fixture");
    let comments: Vec<String> = if file.extension().is_some_and(|e| e == "json") {
        // A fixture that is not JSON serde reads (a number out of range,
        // say) declares nothing.
        let doc: Option<serde_json::Value> = serde_json::from_str(&text).ok();
        doc.as_ref().and_then(|d| d.get("//")).and_then(|v| v.as_str()).map(|s| s.to_string()).into_iter().collect()
    } else {
        text.lines().map_while(|l| l.strip_prefix('#')).map(|l| l.to_string()).collect()
    };
    let Some(codes) = comments.iter().find_map(|l| l.trim().strip_prefix("also:")) else { return Default::default() };
    let codes = codes.split('(').next().unwrap_or_default();
    codes.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect()
}

/// A good fixture for rule `code`: linted, and clean with every rule on
/// and with only `code` selected.
pub fn assert_good_fixture(path: &Path, code: &str) {
    for (outcome, rules) in [(lint(path), "every rule"), (lint_only(path, code), "only its rule")] {
        assert!(outcome.files >= 1, "{} was not linted ({rules})", path.display());
        assert!(outcome.findings.is_empty(), "{} with {rules}:\n{}", path.display(), render(&outcome));
    }
}

/// A moto server (the AWS emulator the audit tests run against) on a free
/// loopback port, stopped when dropped.
pub struct Moto {
    child: std::process::Child,
    pub endpoint: String,
}

impl Moto {
    /// Sets up `tests/fixtures/audit/scenario.py ENDPOINT ARGS...` (a
    /// scene such as `problems`, `fifo`, `producers`, `load N`) on this
    /// server.
    pub fn scenario(&self, args: &[&str]) {
        let out = Command::new(venv_tool("python").unwrap())
            .arg(root().join("tests/fixtures/audit/scenario.py"))
            .arg(&self.endpoint)
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "scenario {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh moto server with `env` set for it, or `None` (loudly; a
/// failure under CI) when moto is not installed.
pub fn moto_with(env: &[(&str, &str)]) -> Option<Moto> {
    let Some(server) = venv_tool("moto_server") else {
        missing("moto");
        return None;
    };
    let port = free_port();
    let mut cmd = Command::new(server);
    cmd.args(["-H", "127.0.0.1", "-p", &port.to_string()]).envs(env.iter().copied());
    Some(start_moto(cmd, port))
}

/// moto's server that appends to `log` how many requests it is serving
/// as each starts, each held 40 ms (tests/fixtures/audit/moto_in_flight.py).
pub fn moto_counting_in_flight(log: &Path) -> Option<Moto> {
    let Some(python) = venv_tool("python") else {
        missing("moto");
        return None;
    };
    let port = free_port();
    let mut cmd = Command::new(python);
    cmd.arg(root().join("tests/fixtures/audit/moto_in_flight.py")).arg(port.to_string()).arg(log);
    Some(start_moto(cmd, port))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts `cmd` (a moto server on `port`) and waits until it answers: its
/// port is tried every 10 ms (a connection refused comes back at once), for
/// at most 30 s.
fn start_moto(mut cmd: Command, port: u16) -> Moto {
    let child = cmd.stdout(std::process::Stdio::null()).stderr(std::process::Stdio::null()).spawn().unwrap();
    // Dropped (killed) if it never answers.
    let moto = Moto { child, endpoint: format!("http://127.0.0.1:{port}") };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(std::time::Instant::now() < deadline, "moto did not start");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    moto
}

pub fn moto() -> Option<Moto> {
    moto_with(&[])
}

/// A bad fixture after `sqsguard lint --fix --select CODE` (with
/// `--unsafe-fixes` when one of its fixes is unsafe), for its `.fixed`
/// snapshot: `None` when no finding of `code` has a fix. The fixture (a
/// file or a Terraform module's folder) is fixed in a copy of its folder;
/// the text is every file the fix changed, each after a `--- name` line.
/// Asserts that linting the fixed copy leaves no fixable finding of `code`
/// and no more findings of `code` than had no fix, and that every other
/// rule finds what it found before.
pub fn fixed_fixture(path: &Path, code: &str) -> Option<Fixed> {
    let before = lint_json(path, code);
    let fixable: Vec<&serde_json::Value> = before.iter().filter(|f| f.get("edits").is_some()).collect();
    if fixable.is_empty() {
        return None;
    }
    let unsafe_fixes = fixable.iter().any(|f| f["applicability"] == "unsafe");
    let folder = if path.is_dir() { path } else { path.parent().expect("fixture folder") };
    let copy = tempfile::tempdir().expect("temp dir");
    copy_folder(folder, copy.path());
    let target = copy.path().join(path.strip_prefix(folder).expect("fixture in its folder"));
    let select = format!("--select={code}");
    let mut args = vec!["lint", "--fix", "--fail-on=never", &select];
    if unsafe_fixes {
        args.push("--unsafe-fixes");
    }
    let target_arg = target.to_string_lossy().into_owned();
    args.push(&target_arg);
    let out = sqsguard(&args);
    assert!(out.status.success(), "{}: --fix failed: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    let mut text = String::new();
    for name in files_in(folder) {
        let (old, new) = (std::fs::read(folder.join(&name)).ok(), std::fs::read(copy.path().join(&name)).ok());
        if old != new {
            let new = String::from_utf8(new.unwrap_or_default()).expect("fixed text is UTF-8");
            text.push_str(&format!("--- {}\n{new}", name.display()));
        }
    }
    assert!(!text.is_empty(), "{}: {code} has a fix, but --fix changed nothing", path.display());
    let after = lint_json(&target, code);
    let unfixable = before.len() - fixable.len();
    assert!(
        after.iter().all(|f| f.get("edits").is_none()) && after.len() <= unfixable,
        "{}: after --fix, {code} still reports:\n{after:#?}",
        path.display()
    );
    Some(Fixed { text, unsafe_fixes })
}

/// A fixture's text after `--fix`, and whether that took `--unsafe-fixes`.
pub struct Fixed {
    pub text: String,
    pub unsafe_fixes: bool,
}

impl Fixed {
    /// The snapshot's name: `fixed`, or `unsafe_fixed` when the fix took
    /// `--unsafe-fixes`.
    pub fn name(&self) -> &'static str {
        if self.unsafe_fixes { "unsafe_fixed" } else { "fixed" }
    }
}

/// The findings of `code` in `path` (`lint --format json`, which carries
/// every finding's edits).
fn lint_json(path: &Path, code: &str) -> Vec<serde_json::Value> {
    let select = format!("--select={code}");
    let target = path.to_string_lossy().into_owned();
    let out = sqsguard(&["lint", "--format=json", "--fail-on=never", &select, &target]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let findings = doc["findings"].as_array().cloned().unwrap_or_default();
    findings.into_iter().filter(|f| f["rule"] == code).collect()
}

/// Every file under `dir`, relative to it, sorted; not the snapshots of
/// the fixtures beside one another (`.snap`, and the `.snap.new` and
/// `.pending-snap` insta writes), which are no part of a fixture.
fn files_in(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read fixture folder").flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else if ![".snap", ".snap.new", ".pending-snap"]
                .iter()
                .any(|end| e.file_name().to_string_lossy().ends_with(end))
            {
                out.push(e.path().strip_prefix(dir).expect("under dir").to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn copy_folder(from: &Path, to: &Path) {
    for name in files_in(from) {
        let target = to.join(&name);
        std::fs::create_dir_all(target.parent().expect("parent")).expect("make folder");
        std::fs::copy(from.join(&name), target).expect("copy fixture");
    }
}

/// A Serverless service whose function timeout is chosen by the stage
/// (5 s in dev, 60 s in prod), read by a queue with a 40 s
/// VisibilityTimeout: SQS002 in prod only.
pub const STAGED_SERVICE: &str = "service: jobs
provider:
  name: aws
  runtime: python3.12
custom:
  timeouts:
    dev: 5
    prod: 60
functions:
  worker:
    handler: h.main
    timeout: ${self:custom.timeouts.${sls:stage}}
    events:
      - sqs:
          arn: !GetAtt Jobs.Arn
          functionResponseType: ReportBatchItemFailures
resources:
  Resources:
    Jobs:
      Type: AWS::SQS::Queue
      Properties:
        VisibilityTimeout: 40
        ReceiveMessageWaitTimeSeconds: 20
";

/// The AWS credentials in this process's environment, which the in-process
/// audits set: the tests of a binary share one process, so a test holds
/// this while it sets them and runs the audit with them.
pub fn aws_env() -> std::sync::MutexGuard<'static, ()> {
    static AWS_ENV: std::sync::Mutex<()> = std::sync::Mutex::new(());
    AWS_ENV.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
