//! The part of a message a receipt handle is read from, in each language.

use super::tests::calls;
use super::*;
use sqsguard_model::code::MessagePart;

/// Each call's `ReceiptHandle` (its own, or each entry's): the part it
/// reads, and whether that is written in the argument itself.
fn handles(found: &[SdkCall]) -> Vec<(Operation, Option<(MessagePart, bool)>)> {
    let mut out = Vec::new();
    for call in found {
        for arg in call.written().into_iter().filter(|a| a.name == "ReceiptHandle") {
            out.push((call.operation, arg.reads.as_ref().map(|r| (r.part, r.direct))));
        }
    }
    out
}

/// The text a part's name is written as.
fn named<'a>(text: &'a str, found: &[SdkCall]) -> Vec<&'a str> {
    found
        .iter()
        .flat_map(SdkCall::written)
        .filter_map(|a| a.reads.as_ref())
        .filter_map(|r| match &r.name {
            Origin::File { span, .. } => text.get(span.start..span.end),
            Origin::Live(_) => None,
        })
        .collect()
}

#[test]
fn python_keys_gets_attributes_and_names_followed() {
    let text = r#"import boto3
sqs = boto3.client("sqs")
URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

def work():
    for m in sqs.receive_message(QueueUrl=URL, MaxNumberOfMessages=10).get("Messages", []):
        sqs.delete_message(QueueUrl=URL, ReceiptHandle=m["MessageId"])
        sqs.delete_message(QueueUrl=URL, ReceiptHandle=m.get('ReceiptHandle'))
        handle = m["Body"]
        sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=handle, VisibilityTimeout=60)
        sqs.delete_message(QueueUrl=URL, ReceiptHandle=m["Attributes"]["SentTimestamp"])
        sqs.delete_message(QueueUrl=URL, ReceiptHandle=URL)
        sqs.delete_message_batch(QueueUrl=URL, Entries=[{"Id": "1", "ReceiptHandle": m["MD5OfBody"]}])
        sqs.delete_message(QueueUrl=URL, ReceiptHandle=lookup(m))
"#;
    let found = calls(Language::Python, text);
    use MessagePart::*;
    use Operation::*;
    assert_eq!(
        handles(&found),
        [
            (DeleteMessage, Some((MessageId, true))),
            (DeleteMessage, Some((ReceiptHandle, true))),
            (ChangeMessageVisibility, Some((Body, false))),
            (DeleteMessage, Some((Attribute, true))),
            (DeleteMessage, Some((QueueUrl, true))),
            (DeleteMessageBatch, Some((Md5OfBody, true))),
            (DeleteMessage, None),
        ]
    );
    assert_eq!(named(text, &found), ["MessageId", "ReceiptHandle", "Body", "SentTimestamp", "URL", "MD5OfBody"]);
    assert_eq!(found[3].arg("VisibilityTimeout").and_then(|a| a.int), Some(60));
}

#[test]
fn a_boto3_message_s_attributes_and_a_lambda_record_s_keys() {
    let text = r#"import boto3
sqs = boto3.client("sqs")
def handler(event, context):
    for record in event["Records"]:
        sqs.delete_message(QueueUrl=Q, ReceiptHandle=record["messageId"])
        sqs.delete_message(QueueUrl=Q, ReceiptHandle=record["receiptHandle"])
def drain(queue_messages):
    for message in queue_messages:
        sqs.delete_message(QueueUrl=Q, ReceiptHandle=message.message_id)
"#;
    let found = calls(Language::Python, text);
    let parts: Vec<_> = handles(&found).into_iter().map(|(_, r)| r.map(|r| r.0)).collect();
    assert_eq!(parts, [Some(MessagePart::MessageId), Some(MessagePart::ReceiptHandle), Some(MessagePart::MessageId)]);
    assert_eq!(named(text, &found), ["messageId", "receiptHandle", "message_id"]);
}

#[test]
fn javascript_v3_commands_and_v2_methods() {
    let text = r#"import { SQSClient, DeleteMessageCommand, ChangeMessageVisibilityCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const QueueUrl = process.env.QUEUE_URL;
export async function done(m) {
  await client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: m.MessageId }));
  await client.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle: m?.ReceiptHandle, VisibilityTimeout: 30 }));
  await sqs.deleteMessage({ QueueUrl, ReceiptHandle: m["Body"] }).promise();
}
"#;
    let found = calls(Language::JavaScript, text);
    let parts: Vec<_> = handles(&found).into_iter().map(|(o, r)| (o, r.map(|r| r.0))).collect();
    use MessagePart::*;
    use Operation::*;
    assert_eq!(
        parts,
        [(DeleteMessage, Some(MessageId)), (ChangeMessageVisibility, Some(ReceiptHandle)), (DeleteMessage, Some(Body))]
    );
    assert_eq!(named(text, &found), ["MessageId", "ReceiptHandle", "Body"]);
}

#[test]
fn go_fields_through_pointers_and_to_string() {
    let text = r#"package main
import (
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)
func (w *Worker) done(ctx context.Context, msg types.Message) {
	w.client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: &w.url, ReceiptHandle: msg.MessageId})
	id := aws.ToString(msg.ReceiptHandle)
	w.client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: &w.url, ReceiptHandle: aws.String(id)})
	w.client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: &w.url, ReceiptHandle: aws.String(*msg.Body), VisibilityTimeout: 60})
}
"#;
    let found = calls(Language::Go, text);
    let parts: Vec<_> = handles(&found).into_iter().map(|(_, r)| r).collect();
    use MessagePart::*;
    assert_eq!(parts, [Some((MessageId, true)), Some((ReceiptHandle, false)), Some((Body, true))]);
    assert_eq!(named(text, &found), ["MessageId", "ReceiptHandle", "Body"]);
}

#[test]
fn java_getters_of_v2_and_v1_and_v1_shortcuts() {
    let text = r#"import software.amazon.awssdk.services.sqs.SqsClient;
class Worker {
  void done(Message message) {
    sqs.deleteMessage(DeleteMessageRequest.builder().queueUrl(url).receiptHandle(message.messageId()).build());
    sqs.deleteMessage(r -> r.queueUrl(url).receiptHandle(message.receiptHandle()));
    sqsV1.deleteMessage(new DeleteMessageRequest(queueUrl, m.getBody()));
    sqsV1.deleteMessage(queueUrl, m.getMessageId());
    sqsV1.changeMessageVisibility(queueUrl, m.getReceiptHandle(), 60);
  }
}
"#;
    let found = calls(Language::Java, text);
    let parts: Vec<_> = handles(&found).into_iter().map(|(o, r)| (o, r.map(|r| r.0))).collect();
    use MessagePart::*;
    use Operation::*;
    assert_eq!(
        parts,
        [
            (DeleteMessage, Some(MessageId)),
            (DeleteMessage, Some(ReceiptHandle)),
            (DeleteMessage, Some(Body)),
            (DeleteMessage, Some(MessageId)),
            (ChangeMessageVisibility, Some(ReceiptHandle)),
        ]
    );
    assert_eq!(named(text, &found), ["messageId", "receiptHandle", "getBody", "getMessageId", "getReceiptHandle"]);
    assert_eq!(found[4].arg("VisibilityTimeout").and_then(|a| a.int), Some(60));
}
