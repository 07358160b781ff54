//! SQS018: the queue's ARN where its URL is referenced. Only the
//! reference is rewritten, in the file's own style: `!Ref Q` becomes
//! `!GetAtt Q.Arn` (`{"Ref": "Q"}` becomes `{"Fn::GetAtt": ["Q", "Arn"]}`,
//! a block `Ref: Q` becomes `Fn::GetAtt: [Q, Arn]`), `QueueUrl` in a
//! `Fn::GetAtt` becomes `Arn`; in Terraform the last name of the reference
//! changes (`.id`/`.url` to `.arn`, a registry module's `queue_url` or
//! `queue_id` to `queue_arn`). Anything else (a `Fn::Sub`, a function
//! call, an output of a local module, which may have no ARN output) gets
//! no edit.

use super::Edit;
use sqsguard_source::{Source, Span};
use sqsguard_syntax::Node;

/// The edit in a CloudFormation, SAM or Serverless file whose value at
/// `span` is the node `node`.
pub(crate) fn template(file: &Source, node: &Node, json: bool) -> Option<Edit> {
    let mut span = node.span;
    let old = file.text.get(span.start..span.end)?;
    let entry = node.single_entry()?;
    let replacement = match entry.key.as_str() {
        "Ref" => {
            let id = entry.value.as_str()?;
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric()) {
                return None;
            }
            if old.starts_with("!Ref") {
                format!("!GetAtt {id}.Arn")
            } else if old.starts_with('{') {
                // A YAML flow mapping's span may stop before its `}`: the
                // edit takes the brace in.
                if !old.ends_with('}') {
                    let rest = file.text.get(span.end..)?;
                    let blank = rest.len() - rest.trim_start().len();
                    if !rest.trim_start().starts_with('}') {
                        return None;
                    }
                    span = Span::new(span.start, span.end + blank + 1);
                }
                format!("{{\"Fn::GetAtt\": [\"{id}\", \"Arn\"]}}")
            } else if !json && old.starts_with("Ref") {
                format!("Fn::GetAtt: [{id}, Arn]")
            } else {
                return None;
            }
        }
        "Fn::GetAtt" => {
            // `!GetAtt Q.QueueUrl`, `[Q, QueueUrl]`: the attribute's name
            // is written once.
            if old.matches("QueueUrl").count() != 1 {
                return None;
            }
            old.replacen("QueueUrl", "Arn", 1)
        }
        _ => return None,
    };
    Some(Edit { file: file.clone(), span, replacement })
}

/// The edit in a `.tf` or `*.tf.json` file of the reference at `span`
/// (`aws_sqs_queue.q.url`, `"${aws_sqs_queue.q.id}"`,
/// `module.q.queue_url`). `registry_sqs` says whether a module call of
/// that name is terraform-aws-modules/sqs/aws, which has the ARN outputs.
pub(crate) fn terraform(file: &Source, span: Span, registry_sqs: impl Fn(&str) -> bool) -> Option<Edit> {
    let old = file.text.get(span.start..span.end)?;
    // The reference itself, or the one reference of a `"${...}"`.
    let (start, inner) = match old.strip_prefix("\"${").and_then(|t| t.strip_suffix("}\"")) {
        Some(inner) => (span.start + 3, inner),
        None => (span.start, old),
    };
    let plain = |c: char| c.is_ascii_alphanumeric() || "_.-[]".contains(c);
    if inner.is_empty() || !inner.chars().all(plain) {
        return None;
    }
    let (head, last) = inner.rsplit_once('.')?;
    let arn = if let Some(module) = head.strip_prefix("module.").filter(|m| !m.contains(['.', '['])) {
        if !registry_sqs(module) {
            return None;
        }
        match last {
            "queue_url" | "queue_id" => "queue_arn",
            "sqs_queue_id" => "sqs_queue_arn",
            "dead_letter_queue_url" | "dead_letter_queue_id" => "dead_letter_queue_arn",
            _ => return None,
        }
    } else if head.starts_with("aws_sqs_queue.") || head.starts_with("each.value") {
        match last {
            "url" | "id" => "arn",
            _ => return None,
        }
    } else {
        return None;
    };
    let at = start + head.len() + 1;
    Some(Edit { file: file.clone(), span: Span::new(at, at + last.len()), replacement: arn.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqsguard_source::SourceFile;

    fn tf(text: &str, sqs: bool) -> Option<String> {
        let file = SourceFile::new("main.tf", text.to_string());
        let edit = terraform(&file, Span::new(0, text.len()), |_| sqs)?;
        let mut out = text.to_string();
        out.replace_range(edit.span.start..edit.span.end, &edit.replacement);
        Some(out)
    }

    #[test]
    fn terraform_references_change_their_last_name_only() {
        assert_eq!(tf("aws_sqs_queue.jobs.url", false).as_deref(), Some("aws_sqs_queue.jobs.arn"));
        assert_eq!(tf("aws_sqs_queue.jobs[0].id", false).as_deref(), Some("aws_sqs_queue.jobs[0].arn"));
        assert_eq!(tf("\"${aws_sqs_queue.jobs.id}\"", false).as_deref(), Some("\"${aws_sqs_queue.jobs.arn}\""));
        assert_eq!(tf("module.jobs.queue_url", true).as_deref(), Some("module.jobs.queue_arn"));
        assert_eq!(tf("module.jobs.sqs_queue_id", true).as_deref(), Some("module.jobs.sqs_queue_arn"));
        assert_eq!(tf("module.jobs.queue_url", false), None, "a local module may have no ARN output");
        assert_eq!(tf("aws_sqs_queue.jobs.name", false), None);
        assert_eq!(tf("try(aws_sqs_queue.jobs.url, \"\")", false), None);
    }

    #[test]
    fn template_references_become_get_att_arn() {
        let fix = |text: &str, json: bool| {
            let file = SourceFile::new(if json { "t.json" } else { "t.yaml" }, text.to_string());
            let root =
                if json { sqsguard_syntax::json::parse(&file) } else { sqsguard_syntax::yaml::parse(&file) }.ok()?;
            let node = root.get("A")?;
            let edit = template(&file, node, json)?;
            let mut out = text.to_string();
            out.replace_range(edit.span.start..edit.span.end, &edit.replacement);
            Some(out)
        };
        assert_eq!(fix("A: !Ref Jobs\n", false).as_deref(), Some("A: !GetAtt Jobs.Arn\n"));
        assert_eq!(fix("A: !GetAtt Jobs.QueueUrl\n", false).as_deref(), Some("A: !GetAtt Jobs.Arn\n"));
        assert_eq!(fix("A: {Ref: Jobs}\n", false).as_deref(), Some("A: {\"Fn::GetAtt\": [\"Jobs\", \"Arn\"]}\n"));
        assert_eq!(fix("A: {Ref: Jobs }\n", false).as_deref(), Some("A: {\"Fn::GetAtt\": [\"Jobs\", \"Arn\"]}\n"));
        assert_eq!(fix("A:\n  Ref: Jobs\nB: 1\n", false).as_deref(), Some("A:\n  Fn::GetAtt: [Jobs, Arn]\nB: 1\n"));
        assert_eq!(fix("A: !Sub '${Jobs}'\n", false), None);
        assert_eq!(
            fix("{\"A\": {\"Ref\": \"Jobs\"}}", true).as_deref(),
            Some("{\"A\": {\"Fn::GetAtt\": [\"Jobs\", \"Arn\"]}}")
        );
        assert_eq!(
            fix("{\"A\": {\"Fn::GetAtt\": [\"Jobs\", \"QueueUrl\"]}}", true).as_deref(),
            Some("{\"A\": {\"Fn::GetAtt\": [\"Jobs\", \"Arn\"]}}")
        );
    }
}
