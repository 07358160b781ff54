//! Whose credentials read each account: the caller's own for its account,
//! elsewhere the role named with `--role-name`, assumed once per account
//! through STS (session `sqsguard-audit`, with `--external-id` when
//! given), cached, and assumed again when it has less than five minutes
//! left. Also the two reads that say which accounts there are: the
//! caller's identity and the organization's ACTIVE accounts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use aws_sdk_sqs::config::Credentials;

use super::calls::{CallLog, Counter};
use super::collect::service_reason_or;

/// The session name CloudTrail shows for the audit's calls.
pub(crate) const SESSION_NAME: &str = "sqsguard-audit";

/// Why an account's credentials could not be had.
#[derive(Debug)]
pub(crate) enum Failed {
    /// STS refused (the role does not exist, does not trust the caller,
    /// or the ExternalId does not match).
    Refused(String),
    /// STS could not be reached.
    Unreachable(String),
}

/// The partition of a Region's ARNs: `aws`, `aws-cn`, `aws-us-gov`.
pub(crate) fn partition(region: &str) -> &'static str {
    if region.starts_with("cn-") {
        "aws-cn"
    } else if region.starts_with("us-gov-") {
        "aws-us-gov"
    } else {
        "aws"
    }
}

/// Assumes the audit role in each account, once while it lasts.
pub(crate) struct Assumer {
    base: aws_config::SdkConfig,
    partition: &'static str,
    role_name: String,
    external_id: Option<String>,
    /// Credentials closer to their expiry than this are renewed first
    /// (long enough for the longest pair read with them).
    renew_before: Duration,
    /// Account -> its credentials; one lock per account, so two Regions of
    /// one account wait for one AssumeRole, and other accounts do not.
    cache: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Option<Credentials>>>>>,
}

impl Assumer {
    pub(crate) fn new(
        base: aws_config::SdkConfig,
        partition: &'static str,
        role_name: String,
        external_id: Option<String>,
        renew_before: Duration,
    ) -> Self {
        Assumer { base, partition, role_name, external_id, renew_before, cache: Mutex::new(HashMap::new()) }
    }

    /// The role's ARN in `account`.
    pub(crate) fn role_arn(&self, account: &str) -> String {
        format!("arn:{}:iam::{account}:role/{}", self.partition, self.role_name)
    }

    /// `account`'s credentials; the AssumeRole call is counted by `counter`.
    pub(crate) async fn credentials(&self, account: &str, counter: &Counter) -> Result<Credentials, Failed> {
        let slot = match self.cache.lock() {
            Ok(mut cache) => cache.entry(account.to_string()).or_default().clone(),
            Err(_) => return Err(Failed::Unreachable("the credentials cache is unusable".into())),
        };
        let mut held = slot.lock().await;
        let fresh = |c: &Credentials| c.expiry().is_none_or(|e| e > SystemTime::now() + self.renew_before);
        if let Some(credentials) = held.as_ref().filter(|c| fresh(c)) {
            return Ok(credentials.clone());
        }
        let sts = aws_sdk_sts::Client::from_conf(
            aws_sdk_sts::config::Builder::from(&self.base).interceptor(counter.clone()).build(),
        );
        let arn = self.role_arn(account);
        let sent = sts
            .assume_role()
            .role_arn(&arn)
            .role_session_name(SESSION_NAME)
            .set_external_id(self.external_id.clone())
            .send()
            .await;
        let out = match sent {
            Ok(out) => out,
            Err(e) if e.as_service_error().is_some() => {
                return Err(Failed::Refused(format!("cannot assume {arn}: {}", service_reason_or(&e))));
            }
            Err(e) => return Err(Failed::Unreachable(super::collect::fatal(e))),
        };
        let Some(c) = out.credentials() else {
            return Err(Failed::Refused(format!("cannot assume {arn}: STS returned no credentials")));
        };
        let expiry = SystemTime::try_from(*c.expiration()).ok();
        let credentials = Credentials::new(
            c.access_key_id(),
            c.secret_access_key(),
            Some(c.session_token().to_string()),
            expiry,
            "sqsguard-assume-role",
        );
        *held = Some(credentials.clone());
        Ok(credentials)
    }
}

/// The caller's account (STS GetCallerIdentity: a read, and counted).
pub(crate) async fn caller(base: &aws_config::SdkConfig, log: &Arc<CallLog>) -> Result<String, String> {
    let sts = aws_sdk_sts::Client::from_conf(
        aws_sdk_sts::config::Builder::from(base).interceptor(Counter(log.clone(), None)).build(),
    );
    let out = sts.get_caller_identity().send().await.map_err(|e| {
        format!(
            "cannot tell which account the credentials belong to (sts GetCallerIdentity): {}",
            service_reason_or(&e)
        )
    })?;
    out.account().map(str::to_string).ok_or_else(|| "sts GetCallerIdentity returned no account".to_string())
}

/// The organization's ACTIVE accounts, sorted (organizations ListAccounts,
/// every page; from the management account or a delegated administrator).
pub(crate) async fn organization_accounts(
    base: &aws_config::SdkConfig,
    log: &Arc<CallLog>,
) -> Result<Vec<String>, String> {
    use aws_sdk_organizations::types::{AccountState, AccountStatus};
    let client = aws_sdk_organizations::Client::from_conf(
        aws_sdk_organizations::config::Builder::from(base).interceptor(Counter(log.clone(), None)).build(),
    );
    let mut ids = Vec::new();
    let mut pages = client.list_accounts().into_paginator().send();
    while let Some(page) = pages.next().await {
        let page = page.map_err(|e| {
            format!("cannot list the organization's accounts (organizations ListAccounts): {}", service_reason_or(&e))
        })?;
        for account in page.accounts() {
            // State replaces Status (retired in September 2026); either says ACTIVE.
            let active = match account.state() {
                Some(state) => *state == AccountState::Active,
                None => account.status() == Some(&AccountStatus::Active),
            };
            if let (true, Some(id)) = (active, account.id()) {
                ids.push(id.to_string());
            }
        }
    }
    ids.sort();
    ids.dedup();
    if ids.is_empty() {
        return Err("the organization has no ACTIVE account to audit".into());
    }
    Ok(ids)
}
