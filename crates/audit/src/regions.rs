//! `--regions all`: the Regions enabled in an account. Asked of the account
//! itself (account ListRegions, ENABLED and ENABLED_BY_DEFAULT, with the
//! account's own credentials); where that is refused or not served, the
//! partition's Regions, and a Region that then refuses the credentials as
//! an opt-in Region does is noted as not enabled, not listed as unaudited.

use aws_sdk_account::types::RegionOptStatus;

use super::calls::Counter;

/// The commercial Regions of each partition, from the endpoint data of the
/// AWS SDK for Rust (the `regions` of partitions.json in aws-sdk-sqs 1.119;
/// the `*-global` pseudo-Regions left out).
const AWS: &[&str] = &[
    "af-south-1",
    "ap-east-1",
    "ap-east-2",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-southeast-5",
    "ap-southeast-6",
    "ap-southeast-7",
    "ca-central-1",
    "ca-west-1",
    "eu-central-1",
    "eu-central-2",
    "eu-north-1",
    "eu-south-1",
    "eu-south-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "il-central-1",
    "me-central-1",
    "me-south-1",
    "mx-central-1",
    "sa-east-1",
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
];
const AWS_CN: &[&str] = &["cn-north-1", "cn-northwest-1"];
const AWS_US_GOV: &[&str] = &["us-gov-east-1", "us-gov-west-1"];

/// Every Region of `partition` (see [`super::assume::partition`]).
pub(crate) fn of_partition(partition: &str) -> &'static [&'static str] {
    match partition {
        "aws-cn" => AWS_CN,
        "aws-us-gov" => AWS_US_GOV,
        _ => AWS,
    }
}

/// The Regions enabled in the account whose credentials `config` holds,
/// sorted; `Err` says why the account would not tell.
pub(crate) async fn enabled(config: &aws_config::SdkConfig, counter: &Counter) -> Result<Vec<String>, String> {
    let client = aws_sdk_account::Client::from_conf(
        aws_sdk_account::config::Builder::from(config).interceptor(counter.clone()).build(),
    );
    let mut pages = client
        .list_regions()
        .region_opt_status_contains(RegionOptStatus::Enabled)
        .region_opt_status_contains(RegionOptStatus::EnabledByDefault)
        .into_paginator()
        .items()
        .send();
    let mut out = Vec::new();
    while let Some(region) = pages.next().await {
        let region = region.map_err(|e| format!("account ListRegions: {}", super::collect::service_reason_or(&e)))?;
        // The filter asked for these; a server that ignores it is not trusted further.
        let enabled =
            matches!(region.region_opt_status(), Some(RegionOptStatus::Enabled | RegionOptStatus::EnabledByDefault));
        if let (true, Some(name)) = (enabled, region.region_name()) {
            out.push(name.to_string());
        }
    }
    if out.is_empty() {
        return Err("account ListRegions listed no enabled Region".into());
    }
    out.sort();
    out.dedup();
    Ok(out)
}

/// How STS-issued credentials are refused in a Region that is not enabled
/// for the account (an opt-in Region never opted into).
pub(crate) fn means_not_enabled(reason: &str) -> bool {
    ["InvalidClientTokenId", "UnrecognizedClientException", "AuthFailure", "OptInRequired"]
        .iter()
        .any(|code| reason.contains(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_have_their_regions_sorted_and_apart() {
        for list in [AWS, AWS_CN, AWS_US_GOV] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
        assert_eq!(of_partition(crate::assume::partition("cn-north-1")), AWS_CN);
        assert!(of_partition("aws").contains(&"eu-west-1"));
        assert!(means_not_enabled(
            "ListQueues: InvalidClientTokenId: The security token included in the request is invalid"
        ));
        assert!(!means_not_enabled("ListQueues: AccessDenied: not allowed"));
    }
}
