//! SQS017: a queue policy that allows anyone, unconditionally.

use super::{Context, Findings};
use sqsguard_model::{Target, Value};

rule! {
    code: "SQS017",
    name: "public-queue-policy",
    severity: Error,
    summary: "Queue policy allows Principal * without a Condition",
    kind: Template,
    check: check,
}

fn check(cx: &Context<'_>, findings: &mut Findings) {
    for policy in &cx.model.policies {
        for statement in &policy.statements {
            let public = statement.allow.known() == Some(&true)
                && statement.public_principal.known() == Some(&true)
                && !statement.has_condition;
            if !public {
                continue;
            }
            let fix = "name the principals that need access, or add a Condition (aws:SourceArn, aws:SourceAccount, aws:PrincipalOrgID)";
            let mut named_queue = false;
            for target in &policy.queues {
                let Value::Known(Target::Queue(q)) = target else { continue };
                let Some(queue) = cx.model.queues.get(*q) else { continue };
                named_queue = true;
                let message = format!(
                    "policy {} allows Principal \"*\" on queue {} with no Condition: anyone with an AWS account can use the queue{}",
                    policy.resource, queue.resource, statement.when
                );
                let finding = RULE.finding(&queue.resource, &statement.origin, message, fix.to_string());
                findings.push(finding.with_related(&[policy.resource.as_str()]));
            }
            if !named_queue {
                let message = format!(
                    "policy {} allows Principal \"*\" with no Condition: anyone with an AWS account can use the queue{}",
                    policy.resource, statement.when
                );
                findings.push(RULE.finding(&policy.resource, &statement.origin, message, fix.to_string()));
            }
        }
    }
}
