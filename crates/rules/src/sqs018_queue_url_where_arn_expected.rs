//! SQS018: a queue's URL where AWS expects its ARN (an event source, a
//! `deadLetterTargetArn`, an SNS subscription's endpoint, an EventBridge
//! target's ARN, a pipe's target).

use super::helpers::all_of;
use super::{Context, Findings, Link};
use sqsguard_finding::{Applicability, Op, Remedy};
use sqsguard_model::{Alt, Dialect, Field, Service, Via, When};

rule! {
    code: "SQS018",
    name: "queue-url-where-arn-expected",
    severity: Error,
    summary: "a queue's URL is given where AWS expects the queue's ARN",
    kind: Template,
    check: check,
    reads: &[Link::Consumer],
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for consumer in &cx.model.consumers {
        for via in consumer.queue_via.iter() {
            let what = format!("the event source of consumer {}", consumer.resource);
            report(cx, findings, &consumer.resource, Field::EventSource, &what, via, &When::always());
        }
    }
    for producer in &cx.model.producers {
        let field = match producer.service {
            Service::Sns => Field::SubscriptionEndpoint,
            Service::EventBridge => Field::TargetArn,
            Service::Pipes => Field::PipeTarget,
            Service::S3 => continue,
        };
        for via in producer.queue_via.iter() {
            let what = format!("the {} of {}", cx.name(field), producer.name());
            report(cx, findings, &producer.resource, field, &what, via, &When::always());
        }
    }
    let target_name = cx.name(Field::DeadLetterTarget);
    for queue in &cx.model.queues {
        for redrive in queue.redrive.iter() {
            let Some(policy) = redrive.value.known() else { continue };
            for via in policy.target_via.iter() {
                let what = format!("the {target_name} of queue {}", queue.resource);
                report(cx, findings, &queue.resource, Field::DeadLetterTarget, &what, via, &redrive.when);
            }
        }
    }
}

/// One finding when `via` is a queue URL: `what` (the event source of a
/// consumer, a queue's deadLetterTargetArn) of `resource`.
fn report(
    cx: &Context<'_>,
    findings: &mut Findings,
    resource: &str,
    field: Field,
    what: &str,
    via: &Alt<Via>,
    outer: &When,
) {
    let Some(when) = all_of(&[outer, &via.when]) else { return };
    let (url, fix, remedy) = match via.value.known() {
        Some(Via::UrlReference { queue, attribute }) => {
            let Some(queue) = cx.model.queues.get(*queue) else { return };
            let (written, arn) = spelled(cx.dialect(), &queue.resource, attribute);
            let remedy = Remedy {
                resource: resource.to_string(),
                field: Some(field),
                ops: vec![Op::RetargetToArn],
                at: via.written_at().clone(),
                absent: false,
                conditional: !via.when.is_always(),
                applicability: Applicability::Safe,
                given: via.given.clone(),
            };
            (
                format!("the URL of queue {} ({written})", queue.resource),
                format!("reference its ARN: {arn}"),
                Some(remedy),
            )
        }
        Some(Via::UrlText(url)) => {
            let fix = match arn_of_url(url) {
                Some(arn) => format!("write the queue's ARN, {arn}, or reference the queue's ARN attribute"),
                None => {
                    "write the queue's ARN (arn:aws:sqs:REGION:ACCOUNT:NAME), or reference the queue's ARN attribute"
                        .to_string()
                }
            };
            (format!("a queue URL ({url})"), fix, None)
        }
        Some(Via::Arn) | None => return,
    };
    let message = format!(
        "{what} is {url}, where AWS expects the queue's ARN: the request is refused, so the deployment fails{when}"
    );
    let finding = RULE.finding(resource, &via.origin, message, fix);
    findings.push(match remedy {
        Some(remedy) => finding.with_remedy(remedy),
        None => finding,
    });
}

/// The URL reference as the dialect writes it, and the same queue's ARN.
fn spelled(dialect: Dialect, queue: &str, attribute: &str) -> (String, String) {
    match dialect {
        Dialect::CloudFormation | Dialect::Serverless | Dialect::Api => {
            let written =
                if attribute == "Ref" { format!("!Ref {queue}") } else { format!("!GetAtt {queue}.{attribute}") };
            (written, format!("!GetAtt {queue}.Arn"))
        }
        Dialect::Terraform => {
            // A module's queue is reached through an output of the module
            // (which one the model does not keep): its ARN is the output
            // next to the URL one.
            match queue.rsplit_once(".aws_sqs_queue.").map(|(module, _)| module).filter(|m| m.starts_with("module.")) {
                Some(module) => (
                    format!("through an output of {module}"),
                    format!("the ARN output of {module} (queue_arn for queue_url or queue_id)"),
                ),
                None => (format!("{queue}.{attribute}"), format!("{queue}.arn")),
            }
        }
    }
}

/// `https://sqs.us-east-1.amazonaws.com/123456789012/jobs` ->
/// `arn:aws:sqs:us-east-1:123456789012:jobs`, deploy-time parts kept as
/// written (`${AWS::Region}`); `None` for any other shape (a VPC
/// endpoint's or the legacy host say nothing of the Region).
fn arn_of_url(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let (host, path) = rest.split_once('/')?;
    let region = host.strip_prefix("sqs.")?;
    let (region, partition) = if let Some(region) = region.strip_suffix(".amazonaws.com.cn") {
        (region, "aws-cn")
    } else if let Some(region) = region.strip_suffix(".amazonaws.com") {
        (region, if region.starts_with("us-gov-") { "aws-us-gov" } else { "aws" })
    } else {
        return None;
    };
    let mut segments = path.trim_end_matches('/').split('/');
    let (Some(account), Some(name), None) = (segments.next(), segments.next(), segments.next()) else { return None };
    if region.is_empty() || account.is_empty() || name.is_empty() {
        return None;
    }
    Some(format!("arn:{partition}:sqs:{region}:{account}:{name}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_queue_url_has_an_arn_and_other_shapes_do_not() {
        assert_eq!(
            arn_of_url("https://sqs.us-east-1.amazonaws.com/123456789012/jobs").as_deref(),
            Some("arn:aws:sqs:us-east-1:123456789012:jobs")
        );
        assert_eq!(
            arn_of_url("https://sqs.${AWS::Region}.amazonaws.com/${AWS::AccountId}/jobs").as_deref(),
            Some("arn:aws:sqs:${AWS::Region}:${AWS::AccountId}:jobs")
        );
        assert_eq!(
            arn_of_url("https://sqs.cn-north-1.amazonaws.com.cn/123456789012/jobs").as_deref(),
            Some("arn:aws-cn:sqs:cn-north-1:123456789012:jobs")
        );
        assert_eq!(
            arn_of_url("https://sqs.us-gov-west-1.amazonaws.com/123456789012/jobs").as_deref(),
            Some("arn:aws-us-gov:sqs:us-gov-west-1:123456789012:jobs")
        );
        assert_eq!(arn_of_url("https://queue.amazonaws.com/123456789012/jobs"), None);
        assert_eq!(arn_of_url("https://sqs.us-east-1.amazonaws.com/jobs"), None);
    }

    #[test]
    fn references_are_spelled_in_the_dialect() {
        assert_eq!(spelled(Dialect::CloudFormation, "Jobs", "Ref"), ("!Ref Jobs".into(), "!GetAtt Jobs.Arn".into()));
        assert_eq!(spelled(Dialect::Serverless, "Jobs", "QueueUrl").0, "!GetAtt Jobs.QueueUrl");
        assert_eq!(
            spelled(Dialect::Terraform, "aws_sqs_queue.jobs", "url"),
            ("aws_sqs_queue.jobs.url".into(), "aws_sqs_queue.jobs.arn".into())
        );
        assert_eq!(
            spelled(Dialect::Terraform, "module.q.aws_sqs_queue.this", "id"),
            (
                "through an output of module.q".into(),
                "the ARN output of module.q (queue_arn for queue_url or queue_id)".into()
            )
        );
    }
}
