//! The resources of the CloudFormation stacks `drift --stack` names, with
//! their physical IDs (a queue's URL, a mapping's UUID, a function's name):
//! ListStackResources, paginated and read-only, with the credentials,
//! Region and endpoint every other call of the audit uses.

use aws_sdk_cloudformation::error::{DisplayErrorContext, ProvideErrorMetadata};

use super::options::Options;
use super::sdk::loader;
use sqsguard_finding::error::Error;

/// One resource of a stack, as CloudFormation lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StackResource {
    pub stack: String,
    pub logical_id: String,
    /// `AWS::SQS::Queue`, ...
    pub kind: String,
    /// `None` while CloudFormation has not made it (or failed to).
    pub physical_id: Option<String>,
    /// `CREATE_COMPLETE`, ...
    pub status: String,
}

/// Every resource of every stack named, in the first Region asked (else
/// the profile's). A stack that cannot be listed (it does not exist in
/// that Region, access is denied, CloudFormation cannot be reached) stops
/// the run with one line naming the stack and what AWS said: it was named
/// on the command line, and joining nothing under it would quietly fall
/// back to names, or compare nothing.
pub(crate) fn stack_resources(opts: &Options, stacks: &[String]) -> Result<Vec<StackResource>, Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Aws(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(read(opts, stacks)).map_err(Error::Aws)
}

async fn read(opts: &Options, stacks: &[String]) -> Result<Vec<StackResource>, String> {
    let chain = loader(opts, None).load().await;
    let region = match (opts.regions.first(), chain.region()) {
        (Some(r), _) => r.clone(),
        (None, Some(r)) => r.to_string(),
        (None, None) => return Err("no AWS Region: pass --region or set AWS_REGION".into()),
    };
    let config = loader(opts, Some(&region)).load().await;
    let client = aws_sdk_cloudformation::Client::new(&config);
    let mut out = Vec::new();
    for stack in stacks {
        let mut pages = client.list_stack_resources().stack_name(stack).into_paginator().send();
        while let Some(page) = pages.next().await {
            let page = page.map_err(|e| {
                let said = match (e.code(), e.message()) {
                    (Some(code), Some(message)) => format!("{code}: {message}"),
                    (Some(code), None) => code.to_string(),
                    _ => DisplayErrorContext(&e).to_string(),
                };
                format!("stack {stack}: CloudFormation ListStackResources in {region} failed ({said})")
            })?;
            for r in page.stack_resource_summaries() {
                out.push(StackResource {
                    stack: stack.clone(),
                    logical_id: r.logical_resource_id().unwrap_or_default().to_string(),
                    kind: r.resource_type().unwrap_or_default().to_string(),
                    physical_id: r.physical_resource_id().filter(|p| !p.is_empty()).map(str::to_string),
                    status: r.resource_status().map_or_else(String::new, |s| s.as_str().to_string()),
                });
            }
        }
    }
    Ok(out)
}
