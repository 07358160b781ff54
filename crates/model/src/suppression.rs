//! A suppression as the front-ends find it: a comment
//! `# sqsguard:ignore SQS004 reason`, or CloudFormation Metadata
//! `sqsguard: {ignore: [{rule: SQS004, reason: ...}]}`. Which rules it
//! names is read against the rule catalog when `check` applies it.

use super::Origin;

#[derive(Clone, Debug)]
pub struct Suppression {
    pub written: Written,
    /// Where it is written.
    pub origin: Origin,
    pub scope: Scope,
}

/// What a suppression says, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Written {
    /// A comment's text after `sqsguard:ignore`: codes or rule names, then
    /// the reason (`SQS004,short-polling: drained by hand`).
    Comment(String),
    /// Metadata: the codes or names listed, and the reason given.
    Listed { rules: Vec<String>, reason: Option<String> },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// A comment: what is declared on, or located on, this 1-based line of
    /// the comment's file.
    Line(usize),
    /// Metadata: the resource with this logical ID.
    Resource(String),
    /// A comment whose run of comment lines ends at a blank line or at the
    /// end of the file: it applies to nothing (and is told so).
    Nowhere,
}
