//! Registry modules modelled from their documented inputs, so that
//! `module "q" { source = "terraform-aws-modules/sqs/aws" ... }` is linted
//! without downloading the module: the resources it would create, with the
//! module's defaults, located at the arguments that set them (or at the
//! `module` block when an input is absent).
//!
//! Modelled: terraform-aws-modules/sqs/aws (queue, its DLQ with
//! `create_dlq`, and the queue policies of either: `policy` of the oldest
//! versions, `create_queue_policy` with `queue_policy_statements` and the
//! policy documents of later ones) and terraform-aws-modules/lambda/aws
//! (function and its `event_source_mapping` entries). An input of the SQS
//! module that the model does not read and that may matter, or a value of
//! one it cannot read, is a note naming the input.
//!
//! Each module's model has its file (`sqs`, `lambda`); both read the
//! call's inputs through `call`.

mod call;
mod lambda;
mod sqs;

use std::collections::HashMap;

use crate::frontend::value::R;
use crate::source::{Source, Span};
use call::{Modelled, Module};

/// The resources and outputs of a known registry module, `None` for any
/// other source.
pub fn model(source: &str, prefix: &str, args: &HashMap<String, R>, file: &Source, header: Span) -> Option<Modelled> {
    let m = |source| Module { source, prefix, args, file, header };
    match registry_name(source)?.as_str() {
        SQS => Some(m(SQS).sqs()),
        LAMBDA => Some(m(LAMBDA).lambda()),
        _ => None,
    }
}

/// The registry name of a module source: `terraform-aws-modules/sqs/aws`
/// for the registry address (with or without its host, a `//subdir`) and
/// for the module's own GitHub repository in the forms Terraform takes
/// (`git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0`,
/// `github.com/terraform-aws-modules/terraform-aws-sqs`,
/// `git@github.com:terraform-aws-modules/terraform-aws-sqs.git`).
fn registry_name(source: &str) -> Option<String> {
    let source = source.trim();
    let git = source.strip_prefix("git::").unwrap_or(source);
    let git = git.split('?').next().unwrap_or(git);
    let repository = ["https://github.com/", "ssh://git@github.com/", "git@github.com:", "github.com/"]
        .iter()
        .find_map(|host| git.strip_prefix(host));
    if let Some(path) = repository {
        let path = path.split("//").next().unwrap_or(path).trim_end_matches('/');
        let path = path.strip_suffix(".git").unwrap_or(path);
        let (owner, repo) = path.split_once('/')?;
        let name = repo.strip_prefix("terraform-aws-")?;
        return Some(format!("{owner}/{name}/aws"));
    }
    let source = source.trim_start_matches("registry.terraform.io/");
    Some(source.split("//").next().unwrap_or(source).to_string())
}

/// The SQS module, as [`crate::model::ModuleCall::source`] names it.
pub const SQS: &str = crate::model::ModuleCall::SQS;
const LAMBDA: &str = "terraform-aws-modules/lambda/aws";

/// Whether a module `source` is terraform-aws-modules/sqs/aws (whose
/// outputs include each URL's ARN twin).
pub fn is_sqs_module(source: &str) -> bool {
    registry_name(source).as_deref() == Some(SQS)
}

#[cfg(test)]
mod tests {
    use super::registry_name;

    #[test]
    fn the_modules_git_repository_is_the_registry_module() {
        for source in [
            "terraform-aws-modules/sqs/aws",
            "registry.terraform.io/terraform-aws-modules/sqs/aws",
            "terraform-aws-modules/sqs/aws//modules/x",
            "git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0",
            "git::https://github.com/terraform-aws-modules/terraform-aws-sqs?ref=v3.5.0",
            "github.com/terraform-aws-modules/terraform-aws-sqs",
            "git@github.com:terraform-aws-modules/terraform-aws-sqs.git",
            "git::ssh://git@github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.0.0",
        ] {
            assert_eq!(registry_name(source).as_deref(), Some("terraform-aws-modules/sqs/aws"), "{source}");
        }
        assert_eq!(registry_name("./modules/queue").as_deref(), Some("./modules/queue"));
        assert_eq!(registry_name("git::https://github.com/acme/queues.git"), None);
    }
}
