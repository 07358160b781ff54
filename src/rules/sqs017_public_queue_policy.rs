//! SQS017: a queue policy that allows anyone, unconditionally.

use super::{Findings, Options, Rule};
use crate::finding::Severity;
use crate::model::{Model, Target, Value};

pub static RULE: Rule = Rule {
    code: "SQS017",
    name: "public-queue-policy",
    severity: Severity::Error,
    summary: "Queue policy allows Principal * without a Condition",
    live_only: false,
    doc: include_str!("../../rules/SQS017.md"),
    check,
};

fn check(model: &Model, _: &Options, findings: &mut Findings) {
    for policy in &model.policies {
        for statement in &policy.statements {
            let public = statement.allow.known() == Some(&true)
                && statement.public_principal.known() == Some(&true)
                && !statement.has_condition;
            if !public {
                continue;
            }
            let fix = "name the principals that need access, or add a Condition (aws:SourceArn, aws:SourceAccount, aws:PrincipalOrgID)".to_string();
            let mut named_queue = false;
            for target in &policy.queues {
                if let Value::Known(Target::Queue(q)) = target {
                    named_queue = true;
                    let queue = &model.queues[*q];
                    let message = format!(
                        "policy {} allows Principal \"*\" on queue {} with no Condition: anyone with an AWS account can use the queue{}",
                        policy.resource, queue.resource, statement.when
                    );
                    let policy_name = policy.resource.as_str();
                    findings.add_related(
                        &RULE,
                        &queue.resource,
                        &[policy_name],
                        &statement.origin,
                        message,
                        fix.clone(),
                    );
                }
            }
            if !named_queue {
                let message = format!(
                    "policy {} allows Principal \"*\" with no Condition: anyone with an AWS account can use the queue{}",
                    policy.resource, statement.when
                );
                findings.add(&RULE, &policy.resource, &statement.origin, message, fix);
            }
        }
    }
}
