//! What becomes of a batch call's result, and what a message body holds,
//! read from small files of each language.

use super::tests::calls;
use super::*;

/// SQS206: a `Failed` list that is only printed or logged (an argument of
/// a logging call, or an `if`/`for` over it whose body only logs) is not
/// read; one that is raised on, retried or returned is.
#[test]
#[expect(clippy::too_many_lines, reason = "a table: one handler per way of using the Failed list, in each language")]
fn a_failed_list_only_logged_is_unread() {
    let results = |language: Language, text: &str| -> Vec<ResultUse> {
        calls(language, text).iter().map(|c| c.result.clone()).collect()
    };
    let python = results(
        Language::Python,
        r#"import boto3, logging
sqs = boto3.client("sqs")
log = logging.getLogger()

def a(q, e):
    r = sqs.send_message_batch(QueueUrl=q, Entries=e)
    print(r["Failed"])

def b(q, e):
    r = sqs.send_message_batch(QueueUrl=q, Entries=e)
    for f in r.get("Failed", []):
        log.error("not sent: %s", f)

def c(q, e):
    r = sqs.delete_message_batch(QueueUrl=q, Entries=e)
    if r.get("Failed"):
        log.warning(f"{len(r['Failed'])} not deleted")

def d(q, e):
    r = sqs.send_message_batch(QueueUrl=q, Entries=e)
    for f in r.get("Failed", []):
        log.error("not sent: %s", f)
        retry(f)

def e(q, e):
    r = sqs.send_message_batch(QueueUrl=q, Entries=e)
    if r.get("Failed"):
        raise RuntimeError("not sent")

def f(q, e):
    r = sqs.send_message_batch(QueueUrl=q, Entries=e)
    if not r.get("Failed"):
        log.info("all sent")
    else:
        raise RuntimeError("not sent")
"#,
    );
    use ResultUse::{Checked, FailedUnread};
    assert_eq!(python, [FailedUnread, FailedUnread, FailedUnread, Checked, Checked, Checked]);

    let javascript = results(
        Language::JavaScript,
        r#"const { SQSClient, SendMessageBatchCommand } = require("@aws-sdk/client-sqs");
const sqs = new SQSClient({});
async function a(q, e) {
  const res = await sqs.send(new SendMessageBatchCommand({ QueueUrl: q, Entries: e }));
  if (res.Failed?.length) console.error("failed", res.Failed);
}
async function b(q, e) {
  const res = await sqs.send(new SendMessageBatchCommand({ QueueUrl: q, Entries: e }));
  if (res.Failed?.length) throw new Error("not sent");
}
"#,
    );
    assert_eq!(javascript, [FailedUnread, Checked]);

    let go = results(
        Language::Go,
        r#"package main

import (
	"context"
	"fmt"
	"log"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func a(ctx context.Context, client *sqs.Client, q string) {
	out, _ := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &q})
	for _, f := range out.Failed {
		log.Printf("not sent: %v", f)
	}
}

func b(ctx context.Context, client *sqs.Client, q string) error {
	out, _ := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &q})
	if len(out.Failed) > 0 {
		return fmt.Errorf("%d not sent", len(out.Failed))
	}
	return nil
}
"#,
    );
    assert_eq!(go, [FailedUnread, Checked]);

    let java = results(
        Language::Java,
        r#"class W {
  private static final String QUEUE_URL = System.getenv("QUEUE_URL");
  void a(SqsClient sqsClient) {
    SendMessageBatchResponse resp = sqsClient.sendMessageBatch(b -> b.queueUrl(QUEUE_URL));
    if (resp.hasFailed()) {
      LOGGER.warn("not sent: {}", resp.failed());
    }
  }
  void b(SqsClient sqsClient) {
    SendMessageBatchResponse resp = sqsClient.sendMessageBatch(b -> b.queueUrl(QUEUE_URL));
    for (BatchResultErrorEntry e : resp.failed()) {
      retry(e);
    }
  }
}
"#,
    );
    assert_eq!(java, [FailedUnread, Checked]);
}
/// SQS003 from code: a value that differs on every call reaches the body
/// through what is added to a bound mapping or list (`body.update(...)`,
/// `body["k"] = v`, `Object.assign`, `put`), and through a name bound to
/// the clock or random call itself.
#[test]
fn what_is_added_to_a_body_is_in_it() {
    let sources = |language: Language, text: &str| -> Vec<String> {
        calls(language, text).iter().flat_map(|c| c.nondeterministic.iter().map(|(_, s)| s.clone())).collect()
    };
    let python = |body: &str| {
        sources(
            Language::Python,
            &format!(
                "import boto3, json, random, uuid, time\nsqs = boto3.client(\"sqs\")\n\ndef h(q):\n{body}\n    sqs.send_message(QueueUrl=q, MessageBody=json.dumps(body))\n"
            ),
        )
    };
    assert_eq!(
        python("    body = {\"a\": 1}\n    body.update({\"r\": random.randint(0, 100)})"),
        ["random.randint(0, 100)"]
    );
    assert_eq!(python("    body = {\"a\": 1}\n    body[\"t\"] = time.time()"), ["time.time()"]);
    assert_eq!(python("    t = uuid.uuid4()\n    body = {\"t\": t}"), ["uuid.uuid4()"]);
    // Added before the name was bound again, or in another function: not in it.
    assert!(python("    body = {}\n    body[\"t\"] = time.time()\n    body = {\"a\": 1}").is_empty());
    let other = sources(
        Language::Python,
        "import boto3, json, time\nsqs = boto3.client(\"sqs\")\n\ndef g(body):\n    body[\"t\"] = time.time()\n\ndef h(q, body):\n    sqs.send_message(QueueUrl=q, MessageBody=json.dumps(body))\n",
    );
    assert!(other.is_empty(), "{other:?}");

    let javascript = sources(
        Language::JavaScript,
        r#"const { SQSClient, SendMessageCommand } = require("@aws-sdk/client-sqs");
const sqs = new SQSClient({});
async function h(q) {
  const body = { a: 1 };
  Object.assign(body, { at: Date.now() });
  body.id = crypto.randomUUID();
  await sqs.send(new SendMessageCommand({ QueueUrl: q, MessageBody: JSON.stringify(body) }));
}
"#,
    );
    assert_eq!(javascript, ["Date.now()", "crypto.randomUUID()"]);

    let java = sources(
        Language::Java,
        r#"class W {
  void h(SqsClient sqsClient, String q) {
    Map<String, Object> body = new HashMap<>();
    body.put("at", Instant.now());
    sqsClient.sendMessage(b -> b.queueUrl(q).messageBody(mapper.writeValueAsString(body)));
  }
}
"#,
    );
    assert_eq!(java, ["Instant.now()"]);

    let go = sources(
        Language::Go,
        r#"package main

import (
	"context"
	"encoding/json"
	"time"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func h(ctx context.Context, client *sqs.Client, q string) {
	body := map[string]any{"a": 1}
	body["at"] = time.Now()
	data, _ := json.Marshal(body)
	client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &q, MessageBody: aws.String(string(data))})
}
"#,
    );
    assert_eq!(go, ["time.Now()"]);
}
