//! Stages and environments: `--stage` and `--param` (Serverless
//! Framework), `--parameter-overrides` and `--samconfig`/`--config-env`
//! (CloudFormation/SAM). A value given for the run is linted in place of
//! the file's default, the finding says where it came from, no fix edits
//! it, and bad input stops the run with one line and exit 2.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test says what it expects by failing

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

/// A Serverless service whose function timeout is chosen by the stage
/// (5 s in dev, 60 s in prod) or by `${param:timeout}` (default 5), read
/// by a queue with a 40 s VisibilityTimeout: clean in dev, SQS002 in prod.
const SERVICE: &str = "service: jobs
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
  other:
    handler: h.other
    timeout: ${param:timeout, 5}
    events:
      - sqs:
          arn: !GetAtt Others.Arn
          functionResponseType: ReportBatchItemFailures
resources:
  Resources:
    Jobs:
      Type: AWS::SQS::Queue
      Properties:
        VisibilityTimeout: 40
        ReceiveMessageWaitTimeSeconds: 20
    Others:
      Type: AWS::SQS::Queue
      Properties:
        VisibilityTimeout: 40
        ReceiveMessageWaitTimeSeconds: 20
";

/// A SAM function whose Timeout is a parameter (default 5) and a queue
/// with a 40 s VisibilityTimeout: clean as written, SQS002 with Timeout=900.
const SAM: &str = "AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Parameters:
  Timeout:
    Type: Number
    Default: 5
  Visibility:
    Type: Number
    Default: 40
Resources:
  Worker:
    Type: AWS::Serverless::Function
    Properties:
      Handler: h.main
      Runtime: python3.12
      Timeout: !Ref Timeout
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: !GetAtt Jobs.Arn
            FunctionResponseTypes: [ReportBatchItemFailures]
  Jobs:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: !Ref Visibility
      ReceiveMessageWaitTimeSeconds: 20
";

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sqsguard")).args(args).current_dir(dir).env("NO_COLOR", "1").output().unwrap()
}

/// `--format json --select SQS001,SQS002` in `dir`, with `extra`: the
/// findings as (rule, resource, message).
fn findings(dir: &Path, file: &str, extra: &[&str]) -> Vec<(String, String, String)> {
    let mut args = vec!["lint", file, "--format", "json", "--select", "SQS001,SQS002", "--fail-on", "never"];
    args.extend_from_slice(extra);
    let out = run(dir, &args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let s = |k: &str| f[k].as_str().unwrap().to_string();
            (s("rule"), s("resource"), s("message"))
        })
        .collect()
}

fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn the_stage_chooses_the_values_and_the_finding_says_so() {
    let dir = folder(&[("serverless.yml", SERVICE)]);
    assert_eq!(findings(dir.path(), "serverless.yml", &[]), [], "dev: 5 s functions, 40 s queues");
    let prod = findings(dir.path(), "serverless.yml", &["--stage", "prod"]);
    assert_eq!(prod.len(), 1, "{prod:?}");
    let (rule, resource, message) = &prod[0];
    assert_eq!((rule.as_str(), resource.as_str()), ("SQS002", "Jobs"));
    assert!(message.contains("60 s timeout of function worker"), "{message}");
    assert!(message.ends_with("(timeout from --stage prod)"), "{message}");
    // A stage the file has no value for leaves the timeout unknown: no guess.
    assert_eq!(findings(dir.path(), "serverless.yml", &["--stage", "qa"]), []);
}

#[test]
fn a_param_sets_its_variable_over_the_default() {
    let dir = folder(&[("serverless.yml", SERVICE)]);
    let found = findings(dir.path(), "serverless.yml", &["--param", "timeout=30"]);
    assert_eq!(found.len(), 1, "{found:?}");
    let (rule, resource, message) = &found[0];
    assert_eq!((rule.as_str(), resource.as_str()), ("SQS001", "Others"), "30 s x 6 > 40 s, 40 s > 30 s");
    assert!(message.ends_with("(timeout from --param timeout=30)"), "{message}");
    // Another key's --param changes nothing.
    assert_eq!(findings(dir.path(), "serverless.yml", &["--param", "other=30"]), []);
}

#[test]
fn the_stage_is_provider_stage_too() {
    let service =
        SERVICE.replace("  runtime: python3.12\n", "  runtime: python3.12\n  stage: ${opt:stage, 'dev'}\n").replace(
            "timeout: ${self:custom.timeouts.${sls:stage}}",
            "timeout: ${self:custom.timeouts.${self:provider.stage}}",
        );
    let dir = folder(&[("serverless.yml", &service)]);
    assert_eq!(findings(dir.path(), "serverless.yml", &[]), []);
    let prod = findings(dir.path(), "serverless.yml", &["--stage", "prod"]);
    assert_eq!(prod.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["SQS002"], "{prod:?}");
}

#[test]
fn parameter_overrides_win_over_defaults_in_either_spelling() {
    let dir = folder(&[("template.yaml", SAM)]);
    assert_eq!(findings(dir.path(), "template.yaml", &[]), []);
    for args in [
        &["--parameter-overrides", "Timeout=900"][..],
        &["--parameter-overrides", "Env=prod", "Timeout=900"],
        &["--parameter-overrides", "ParameterKey=Timeout,ParameterValue=900"],
        &["--parameter-overrides", "Timeout=1", "--parameter-overrides", "Timeout=900"],
    ] {
        let found = findings(dir.path(), "template.yaml", args);
        assert_eq!(found.len(), 1, "{args:?}: {found:?}");
        let (rule, resource, message) = &found[0];
        assert_eq!((rule.as_str(), resource.as_str()), ("SQS002", "Jobs"), "{args:?}");
        assert!(message.ends_with("(Timeout from --parameter-overrides Timeout=900)"), "{message}");
    }
    // The queue's own value overridden: both sides come from the command line.
    let found = findings(dir.path(), "template.yaml", &["--parameter-overrides", "Timeout=10", "Visibility=30"]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].2.ends_with(
            "(VisibilityTimeout from --parameter-overrides Visibility=30; Timeout from --parameter-overrides Timeout=10)"
        ),
        "{}",
        found[0].2
    );
}

#[test]
fn a_samconfig_environment_gives_parameter_values() {
    let samconfig = "version = 0.1\n[default.deploy.parameters]\nparameter_overrides = \"Timeout=5\"\n\
                     [prod.global.parameters]\nparameter_overrides = \"Timeout=3\"\n\
                     [prod.deploy.parameters]\nparameter_overrides = \"Timeout=900\"\n";
    let dir = folder(&[("template.yaml", SAM), ("samconfig.toml", samconfig)]);
    assert_eq!(findings(dir.path(), "template.yaml", &["--samconfig", "samconfig.toml"]), []);
    let prod = findings(dir.path(), "template.yaml", &["--samconfig", "samconfig.toml", "--config-env", "prod"]);
    assert_eq!(prod.len(), 1, "{prod:?}");
    assert!(prod[0].2.ends_with("(Timeout from samconfig.toml (prod) Timeout=900)"), "{}", prod[0].2);
    // The command line wins over the file.
    let both = ["--samconfig", "samconfig.toml", "--config-env", "prod", "--parameter-overrides", "Timeout=5"];
    assert_eq!(findings(dir.path(), "template.yaml", &both), []);
    // YAML, as the SAM CLI also reads it, and a list of overrides.
    let yaml = "version: 0.1\nprod:\n  deploy:\n    parameters:\n      parameter_overrides:\n        - Timeout=900\n";
    std::fs::write(dir.path().join("samconfig.yaml"), yaml).unwrap();
    let prod = findings(dir.path(), "template.yaml", &["--samconfig", "samconfig.yaml", "--config-env", "prod"]);
    assert_eq!(prod.len(), 1, "{prod:?}");
}

#[test]
fn a_value_from_the_command_line_is_never_fixed() {
    // The queue's VisibilityTimeout is overridden: nothing in the file to edit.
    let dir = folder(&[("template.yaml", SAM)]);
    let fix = ["--select", "SQS001,SQS002", "--fix", "--unsafe-fixes"];
    let out = run(
        dir.path(),
        &[&["lint", "template.yaml"], &fix[..], &["--parameter-overrides", "Timeout=10", "Visibility=30"]].concat(),
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("template.yaml")).unwrap(), SAM, "{}", stderr(&out));
    assert_eq!(out.status.code(), Some(1), "the finding remains");
    // Without the override the same finding (default 30 instead) is fixable
    // in the Parameter's Default, under --unsafe-fixes: the override is what
    // kept the fix away.
    let sam30 = SAM.replace("Default: 40", "Default: 30");
    std::fs::write(dir.path().join("template.yaml"), &sam30).unwrap();
    let out =
        run(dir.path(), &[&["lint", "template.yaml"], &fix[..], &["--parameter-overrides", "Timeout=10"]].concat());
    assert_ne!(std::fs::read_to_string(dir.path().join("template.yaml")).unwrap(), sam30, "{}", stderr(&out));
    // A Serverless value chosen by --stage is not edited either.
    let service = SERVICE
        .replace(
            "VisibilityTimeout: 40\n        ReceiveMessageWaitTimeSeconds: 20\n    Others",
            "VisibilityTimeout: ${self:custom.vt.${sls:stage}}\n        ReceiveMessageWaitTimeSeconds: 20\n    Others",
        )
        .replace("custom:\n", "custom:\n  vt:\n    dev: 40\n    prod: 30\n");
    let dir = folder(&[("serverless.yml", &service)]);
    let out = run(dir.path(), &[&["lint", "serverless.yml"], &fix[..], &["--stage", "prod"]].concat());
    assert_eq!(std::fs::read_to_string(dir.path().join("serverless.yml")).unwrap(), service, "{}", stderr(&out));
    assert!(common::stdout(&out).contains("SQS002"), "{}", common::stdout(&out));
}

#[test]
fn a_parameter_no_template_declares_is_a_warning_not_an_error() {
    let other = "AWSTemplateFormatVersion: '2010-09-09'\nResources:\n  Q:\n    Type: AWS::SQS::Queue\n";
    let dir = folder(&[("template.yaml", SAM), ("other.yaml", other)]);
    let out =
        run(dir.path(), &["lint", ".", "--select", "SQS002", "--parameter-overrides", "Timeout=900", "Tiemout=9"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "sqsguard: warning: --parameter-overrides Tiemout=9: no linted template declares a parameter Tiemout"
        ),
        "{err}"
    );
    assert!(!err.contains("Timeout=900: no linted"), "{err}");
}

#[test]
fn bad_stage_input_is_one_line_and_exit_2() {
    let dir = folder(&[
        ("template.yaml", SAM),
        ("broken.toml", "[prod.deploy.parameters\n"),
        ("ok.toml", "[prod.deploy.parameters]\nparameter_overrides = \"Timeout=9\"\n"),
        ("bad-value.toml", "[default.deploy.parameters]\nparameter_overrides = \"Timeout\"\n"),
    ]);
    let cases: &[(&[&str], &str)] = &[
        (&["--samconfig", "broken.toml"], "broken.toml: line 1: "),
        (&["--samconfig", "missing.toml"], "missing.toml: "),
        (
            &["--samconfig", "ok.toml", "--config-env", "qa"],
            "ok.toml: no environment `qa` (--config-env); the file has: prod",
        ),
        (&["--samconfig", "bad-value.toml"], "bad-value.toml (default) Timeout: expected KEY=VALUE"),
        (&["--parameter-overrides", "Timeout"], "--parameter-overrides Timeout: expected KEY=VALUE"),
        (&["--param", "=3"], "--param =3: expected KEY=VALUE"),
        (&["--stage", ""], "--stage needs a stage name"),
    ];
    for (extra, said) in cases {
        let mut args = vec!["lint", "template.yaml", "--format", "json"];
        args.extend_from_slice(extra);
        let out = run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(out.stdout.is_empty(), "{extra:?}: nothing linted");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(err.starts_with("sqsguard: ") && err.contains(said), "{extra:?}: {err}");
    }
    // --config-env without a samconfig: clap's usage error.
    let out = run(dir.path(), &["lint", "template.yaml", "--config-env", "prod"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_override_outside_allowed_values_is_a_note() {
    let sam = SAM.replace(
        "    Type: Number\n    Default: 5\n",
        "    Type: Number\n    Default: 5\n    AllowedValues: [5, 10]\n",
    );
    let dir = folder(&[("template.yaml", &sam)]);
    let out = run(dir.path(), &["lint", "template.yaml", "--format", "json", "--parameter-overrides", "Timeout=900"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let notes = doc["notes"].to_string();
    assert!(
        notes.contains("parameter Timeout allows only 5, 10, so CloudFormation would refuse this value"),
        "{notes}"
    );
}

#[test]
fn the_config_names_a_stage_and_the_command_line_wins() {
    let dir = folder(&[("serverless.yml", SERVICE), (".sqsguard.yaml", "stage: prod\n")]);
    let prod = findings(dir.path(), "serverless.yml", &[]);
    assert_eq!(prod.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["SQS002"], "{prod:?}");
    assert!(prod[0].2.ends_with("(timeout from stage: prod of .sqsguard.yaml)"), "{}", prod[0].2);
    assert_eq!(findings(dir.path(), "serverless.yml", &["--stage", "dev"]), []);
    std::fs::write(dir.path().join(".sqsguard.yaml"), "stage: ''\n").unwrap();
    let out = run(dir.path(), &["lint", "serverless.yml"]);
    assert_eq!(out.status.code(), Some(2), "an empty stage is an invalid config: {}", stderr(&out));
}

#[test]
fn a_parameter_without_default_becomes_known_and_json_keeps_its_shape() {
    let sam = SAM.replace("    Type: Number\n    Default: 5\n", "    Type: Number\n");
    let dir = folder(&[("template.yaml", &sam)]);
    assert_eq!(findings(dir.path(), "template.yaml", &[]), [], "unknown: no guess");
    let found = findings(dir.path(), "template.yaml", &["--parameter-overrides", "Timeout=900"]);
    assert_eq!(found.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["SQS002"], "{found:?}");
    // The same keys, at the top and in a finding, with an override or without.
    let keys = |extra: &[&str]| {
        let sam = SAM.replace("Default: 40", "Default: 3");
        std::fs::write(dir.path().join("template.yaml"), &sam).unwrap();
        let out = run(dir.path(), &[&["lint", "template.yaml", "--format", "json"][..], extra].concat());
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let names = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        (names(&doc), names(&doc["findings"][0]), names(&doc["summary"]))
    };
    assert_eq!(keys(&[]), keys(&["--parameter-overrides", "Timeout=900", "--stage", "prod"]));
}

#[test]
fn any_rule_whose_value_was_given_says_so() {
    // A queue no Lambda reads (SQS006 leaves those to Lambda's own long polling).
    let sam = SAM.replace("Parameters:\n", "Parameters:\n  Wait:\n    Type: Number\n    Default: 20\n")
        + "  Polled:\n    Type: AWS::SQS::Queue\n    Properties:\n      ReceiveMessageWaitTimeSeconds: !Ref Wait\n";
    let dir = folder(&[("template.yaml", &sam)]);
    let out = run(dir.path(), &["lint", "template.yaml", "--format", "json", "--select", "SQS006"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["findings"].as_array().unwrap().len(), 0, "20 s as written");
    let args = ["lint", "template.yaml", "--format", "json", "--select", "SQS006", "--parameter-overrides", "Wait=0"];
    let doc: serde_json::Value = serde_json::from_slice(&run(dir.path(), &args).stdout).unwrap();
    let message = doc["findings"][0]["message"].as_str().unwrap();
    assert!(message.ends_with(" (ReceiveMessageWaitTimeSeconds from --parameter-overrides Wait=0)"), "{message}");
}
