//! Where a Terraform module call's code comes from (its `source`): a
//! module of the registry, which sqsguard models when it knows it, a local
//! folder, which it reads, or anything else, which it does not.

/// The registry's SQS module.
pub const SQS: &str = "terraform-aws-modules/sqs/aws";
/// The registry's Lambda module.
pub const LAMBDA: &str = "terraform-aws-modules/lambda/aws";

/// A module call's `source`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModuleSource {
    /// A registry module by its registry name (`terraform-aws-modules/sqs/aws`).
    Registry(String),
    /// A folder relative to the caller's (`./queues`, `../shared`).
    Local(String),
    /// Anything else (an S3 bucket, a Git repository that is no registry
    /// module's): not read.
    Other(String),
}

impl ModuleSource {
    /// What `source` names. A registry address (with or without its host,
    /// a `//subdir`) is a registry module, and so is the module's own
    /// GitHub repository in the forms Terraform takes
    /// (`git::https://github.com/terraform-aws-modules/terraform-aws-sqs.git?ref=v4.2.0`,
    /// `github.com/terraform-aws-modules/terraform-aws-sqs`,
    /// `git@github.com:terraform-aws-modules/terraform-aws-sqs.git`).
    pub fn parse(source: &str) -> Self {
        if source.starts_with("./") || source.starts_with("../") {
            return ModuleSource::Local(source.to_string());
        }
        let trimmed = source.trim();
        let git = trimmed.strip_prefix("git::").unwrap_or(trimmed);
        let git = git.split('?').next().unwrap_or(git);
        let repository = ["https://github.com/", "ssh://git@github.com/", "git@github.com:", "github.com/"]
            .iter()
            .find_map(|host| git.strip_prefix(host));
        if let Some(path) = repository {
            let path = path.split("//").next().unwrap_or(path).trim_end_matches('/');
            let path = path.strip_suffix(".git").unwrap_or(path);
            return match path
                .split_once('/')
                .and_then(|(owner, repo)| Some((owner, repo.strip_prefix("terraform-aws-")?)))
            {
                Some((owner, name)) => ModuleSource::Registry(format!("{owner}/{name}/aws")),
                None => ModuleSource::Other(source.to_string()),
            };
        }
        let address = trimmed.trim_start_matches("registry.terraform.io/");
        let address = address.split("//").next().unwrap_or(address);
        let parts: Vec<&str> = address.split('/').collect();
        if parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && !p.contains(':')) {
            ModuleSource::Registry(address.to_string())
        } else {
            ModuleSource::Other(source.to_string())
        }
    }

    /// Whether this is the registry module `name` (`terraform-aws-modules/sqs/aws`).
    pub fn is_registry(&self, name: &str) -> bool {
        matches!(self, ModuleSource::Registry(n) if n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            assert!(ModuleSource::parse(source).is_registry(SQS), "{source}");
        }
        assert_eq!(ModuleSource::parse("./modules/queue"), ModuleSource::Local("./modules/queue".into()));
        assert!(matches!(ModuleSource::parse("git::https://github.com/acme/queues.git"), ModuleSource::Other(_)));
        assert!(matches!(ModuleSource::parse("s3::https://bucket.s3.amazonaws.com/m.zip"), ModuleSource::Other(_)));
        assert!(!ModuleSource::parse("terraform-aws-modules/lambda/aws").is_registry(SQS));
    }
}
