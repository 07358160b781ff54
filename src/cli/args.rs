//! The arguments, as clap parses them.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use super::formats::{AuditFormat, Format};
use sqsguard_finding::Severity;

#[derive(Parser, Debug)]
#[command(name = "sqsguard", version, about = "Keeps AWS SQS pipelines correct", max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Check CloudFormation, SAM, Serverless Framework and Terraform (HCL, JSON or plan JSON) against the rule catalog.
    Lint(LintArgs),
    /// Turn a pipeline spec into CloudFormation or Terraform that passes every rule.
    Generate(GenerateArgs),
    /// Check live queues, event source mappings and alarms (read-only).
    Audit(AuditArgs),
    /// Compare templates with what is deployed: each setting the rules read that differs is SQS105 (read-only).
    Drift(DriftArgs),
    /// Draw the pipeline (producers, queues, consumers, dead-letter queues, alarms) with its findings.
    Graph(GraphArgs),
    /// Work with reports: `report merge` combines the JSON outputs of audit shards.
    #[command(subcommand)]
    Report(ReportCommand),
    /// List the rule catalog.
    Rules {
        #[arg(long, value_enum, default_value_t = CatalogFormat::Table)]
        format: CatalogFormat,
    },
    /// Serve the checks to an editor: a Language Server (LSP 3.17) on standard input and output.
    Server,
    /// Print a rule's documentation.
    Explain {
        /// A rule's code or name, in any case: SQS001 or visibility-timeout-below-6x.
        code: String,
    },
    /// Print a JSON Schema, for editors: `sqsguard schema config > .sqsguard.schema.json`.
    Schema(SchemaArgs),
}

#[derive(clap::Args, Debug)]
pub(super) struct SchemaArgs {
    /// Which file it describes.
    #[arg(value_enum)]
    pub(super) which: SchemaOf,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SchemaOf {
    /// `.sqsguard.yaml`.
    Config,
    /// A `sqsguard generate` spec.
    Pipeline,
}

#[derive(Subcommand, Debug)]
pub(super) enum ReportCommand {
    /// Merge the `--format json` outputs of `audit --shard I/N` runs into one
    /// report, with the exit status the whole audit would have had.
    Merge {
        /// The JSON documents, one per shard.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = AuditFormat::PRETTY)]
        format: AuditFormat,
        /// Write the report to FILE instead of standard output.
        #[arg(long, value_name = "FILE")]
        output: Option<PathBuf>,
        #[arg(long, value_enum, default_value_t = FailOn::Warning)]
        fail_on: FailOn,
        /// Exit 1 when the shards together found no queue (as audit's).
        #[arg(long)]
        require_queues: bool,
    },
}

/// What a run reads beside its paths, for every command that lints
/// (`lint`, `graph`): the config, variable values, the stage, code or not.
#[derive(clap::Args, Clone, Debug, Default)]
pub(super) struct InputArgs {
    /// The one config file for every file (default: each file's nearest .sqsguard.yaml).
    #[arg(long)]
    pub(super) config: Option<PathBuf>,
    /// Terraform variable values (repeatable), loaded after terraform.tfvars
    /// and *.auto.tfvars, as `terraform plan -var-file`.
    #[arg(long = "var-file", value_name = "FILE")]
    pub(super) var_files: Vec<PathBuf>,
    /// Serverless Framework: the stage read (`${sls:stage}`, `${opt:stage}`, provider.stage).
    #[arg(long, value_name = "NAME")]
    pub(super) stage: Option<String>,
    /// Serverless Framework: `${param:KEY}` (repeatable).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub(super) params: Vec<String>,
    /// CloudFormation/SAM Parameter values, as `sam deploy --parameter-overrides`
    /// takes them (several after the flag, or the flag repeated); they win over --samconfig.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub(super) parameter_overrides: Vec<String>,
    /// The SAM CLI's samconfig.toml (or .yaml): its `parameter_overrides`, as `sam deploy` reads them.
    #[arg(long, value_name = "FILE")]
    pub(super) samconfig: Option<PathBuf>,
    /// The samconfig environment read (default: `default`).
    #[arg(long, value_name = "ENV", requires = "samconfig")]
    pub(super) config_env: Option<String>,
    /// Read the templates only: not the handlers their functions name, nor
    /// the SQS calls of code under the PATHs.
    #[arg(long)]
    pub(super) no_code: bool,
    /// Keep a CDK app's findings in its synthesized templates (`cdk.out`)
    /// instead of at the constructs in the app's source.
    #[arg(long)]
    pub(super) no_cdk_source: bool,
}

#[derive(clap::Args, Debug)]
pub(super) struct LintArgs {
    /// Files or folders (folders are walked respecting .gitignore).
    #[arg(default_value = ".")]
    pub(super) paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Pretty)]
    pub(super) format: Format,
    /// Exit 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub(super) fail_on: FailOn,
    /// Only these rule codes (or code prefixes), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub(super) select: Vec<String>,
    /// Drop these rule codes (or code prefixes), comma-separated.
    #[arg(long, value_delimiter = ',')]
    pub(super) ignore: Vec<String>,
    #[command(flatten)]
    pub(super) input: InputArgs,
    /// Report only findings this baseline does not record.
    #[arg(long, value_name = "FILE")]
    pub(super) baseline: Option<PathBuf>,
    /// Record today's findings in FILE (then `--baseline FILE` fails only on new ones).
    #[arg(long, value_name = "FILE")]
    pub(super) write_baseline: Option<PathBuf>,
    /// Apply every safe fix in place, then report what remains.
    #[arg(long, conflicts_with_all = ["diff", "write_baseline"])]
    pub(super) fix: bool,
    /// Print the fixes as a unified diff; write nothing (exit 1 when there is one).
    #[arg(long, conflicts_with = "write_baseline")]
    pub(super) diff: bool,
    /// With --fix or --diff: also the fixes that need a person's decision
    /// (a shared Parameter default, a handler change, a replaced queue).
    #[arg(long)]
    pub(super) unsafe_fixes: bool,
    /// A count of findings per rule instead of the findings.
    #[arg(long, conflicts_with_all = ["fix", "diff", "write_baseline"])]
    pub(super) statistics: bool,
    /// Print the findings only: no notes, no summary, nothing on standard
    /// error but errors.
    #[arg(long, short = 'q')]
    pub(super) quiet: bool,
    /// The name of the document read from standard input (PATH `-`): it
    /// picks the format and the config, and names the file in findings.
    #[arg(long, value_name = "NAME")]
    pub(super) stdin_filename: Option<PathBuf>,
    /// List the files read and not linted, each with why.
    #[arg(long)]
    pub(super) show_skipped: bool,
    /// Also write the report as SARIF to FILE, whatever --format prints.
    #[arg(long, value_name = "FILE")]
    pub(super) sarif_file: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct GraphArgs {
    /// Files or folders, as `lint` reads them; or an audit's JSON report.
    #[arg(default_value = ".")]
    pub(super) paths: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = GraphFormat::Mermaid)]
    pub(super) format: GraphFormat,
    /// Write the graph to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    /// Draw an audit's `--format json` report instead of templates.
    #[arg(long, value_name = "FILE", conflicts_with = "paths")]
    pub(super) from_audit: Option<PathBuf>,
    #[command(flatten)]
    pub(super) input: InputArgs,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GraphFormat {
    /// A Mermaid flowchart (GitHub renders it in comments and job summaries).
    Mermaid,
    /// Graphviz DOT.
    Dot,
    /// Nodes, edges and notes, for other tools.
    Json,
}

#[derive(clap::Args, Debug)]
pub(super) struct GenerateArgs {
    /// The pipeline spec (YAML; schemas/pipeline.schema.json).
    pub(super) spec: PathBuf,
    #[arg(long, value_enum)]
    pub(super) target: GenTarget,
    /// CloudFormation only: YAML or JSON.
    #[arg(long, value_enum, default_value_t = GenFormat::Yaml)]
    pub(super) format: GenFormat,
    /// A folder to write to, or `-` for standard output.
    #[arg(long, default_value = "-")]
    pub(super) output: PathBuf,
    /// Replace files that already exist.
    #[arg(long)]
    pub(super) force: bool,
    /// A folder of templates (`cloudformation.yaml.hbs`, `main.tf.hbs`, ...)
    /// that replace the built-in ones.
    #[arg(long)]
    pub(super) templates: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct AuditArgs {
    /// Regions to audit (repeatable); default: the credential chain's Region.
    #[arg(long = "region", conflicts_with = "regions")]
    pub(super) region: Vec<String>,
    /// `all`: every Region enabled in each account (account ListRegions,
    /// else the partition's Regions, noting those not enabled).
    #[arg(long, value_parser = ["all"])]
    pub(super) regions: Option<String>,
    /// Accounts to audit: IDs separated by commas, or @FILE (one ID a line,
    /// `#` comments). Needs --role-name for accounts other than the caller's.
    #[arg(long, conflicts_with = "organization")]
    pub(super) accounts: Option<String>,
    /// Every ACTIVE account of the caller's organization (organizations
    /// ListAccounts: the management or a delegated administrator account).
    #[arg(long)]
    pub(super) organization: bool,
    /// The role assumed in each audited account (arn:aws:iam::ACCOUNT:role/NAME).
    #[arg(long)]
    pub(super) role_name: Option<String>,
    /// The ExternalId the role's trust policy asks for.
    #[arg(long, requires = "role_name")]
    pub(super) external_id: Option<String>,
    /// Audit only the I-th of N slices of the sorted (account, Region) pairs.
    #[arg(long, value_name = "I/N")]
    pub(super) shard: Option<String>,
    /// How long one account-Region may take before it is listed as unaudited.
    #[arg(long, default_value = "10m")]
    pub(super) pair_deadline: String,
    /// A named profile of the shared AWS config.
    #[arg(long)]
    pub(super) profile: Option<String>,
    /// Any SQS-compatible endpoint (AWS_ENDPOINT_URL is honoured too).
    #[arg(long)]
    pub(super) endpoint_url: Option<String>,
    /// Only queues whose name starts with this.
    #[arg(long)]
    pub(super) queue_prefix: Option<String>,
    #[arg(long, value_enum, default_value_t = AuditFormat::PRETTY)]
    pub(super) format: AuditFormat,
    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub(super) fail_on: FailOn,
    /// Exit 1 when the audit finds no queue at all (a wrong Region, profile
    /// or --queue-prefix otherwise audits clean).
    #[arg(long)]
    pub(super) require_queues: bool,
    /// CloudWatch window: 30m, 1h, 1d ... (or seconds).
    #[arg(long, default_value = "1h")]
    pub(super) lookback: String,
    /// Requests in flight at once, over every account and Region.
    #[arg(long, default_value_t = 16)]
    pub(super) concurrency: usize,
    /// Attempts of one call, the first included (1: no retry).
    #[arg(long, default_value = "8")]
    pub(super) max_attempts: String,
    /// The most one call may take, retries and the waits between them included.
    #[arg(long, default_value = "30s")]
    pub(super) retry_budget: String,
    /// The config file (default: .sqsguard.yaml in this folder or the nearest above).
    #[arg(long)]
    pub(super) config: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct DriftArgs {
    /// Template files (CloudFormation, SAM, Serverless, plan JSON) and Terraform module folders.
    #[arg(required = true)]
    pub(super) paths: Vec<PathBuf>,
    /// The Region the templates are deployed to.
    #[arg(long)]
    pub(super) region: String,
    /// A named profile of the shared AWS config.
    #[arg(long)]
    pub(super) profile: Option<String>,
    /// Any SQS-compatible endpoint (AWS_ENDPOINT_URL is honoured too).
    #[arg(long)]
    pub(super) endpoint_url: Option<String>,
    /// A CloudFormation stack the templates are deployed as (repeatable):
    /// their resources are joined by the stack's physical IDs.
    #[arg(long = "stack")]
    pub(super) stacks: Vec<String>,
    #[arg(long, value_enum, default_value_t = Format::Pretty)]
    pub(super) format: Format,
    #[arg(long, value_enum, default_value_t = FailOn::Warning)]
    pub(super) fail_on: FailOn,
    /// The config file (default: .sqsguard.yaml in this folder or the nearest above).
    #[arg(long)]
    pub(super) config: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GenTarget {
    Cloudformation,
    Terraform,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum GenFormat {
    Yaml,
    Json,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CatalogFormat {
    Table,
    Json,
    Markdown,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    pub(super) fn threshold(self) -> Option<Severity> {
        match self {
            FailOn::Error => Some(Severity::Error),
            FailOn::Warning => Some(Severity::Warning),
            FailOn::Info => Some(Severity::Info),
            FailOn::Never => None,
        }
    }
}
