//! KMS keys a queue may be encrypted with, and what their key policies
//! allow: the key of a queue fed by SNS, EventBridge or S3 must let that
//! service generate data keys and decrypt.

use super::{Origin, Statement};

/// Which key a queue's `KmsMasterKeyId` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyRef {
    /// `alias/aws/sqs` (or its ARN): the AWS managed key for SQS, whose
    /// policy cannot be changed to grant a service principal.
    AwsManaged,
    /// A key of the analysed files, by logical ID or address (an alias
    /// of the files is followed to its key).
    Resource(String),
    /// Anything else: a key outside the analysed files.
    Other(String),
}

/// A customer managed key of the analysed files.
#[derive(Clone, Debug)]
pub struct Key {
    /// Logical ID or address.
    pub resource: String,
    pub origin: Origin,
    /// Its key policy's statements (none written: the default key policy,
    /// which lets the account's principals use the key and no service).
    pub statements: Vec<Statement>,
    /// Why some of the policy could not be read (unknown: no finding).
    pub unreadable: Option<String>,
}

/// `alias/aws/sqs` or an ARN ending in it.
pub fn is_aws_managed(text: &str) -> bool {
    text == AWS_MANAGED_ALIAS || text.ends_with(&format!(":{AWS_MANAGED_ALIAS}"))
}

/// The AWS managed key for SQS.
pub const AWS_MANAGED_ALIAS: &str = "alias/aws/sqs";
