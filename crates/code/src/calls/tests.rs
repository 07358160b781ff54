//! The calls of each language, read from small files.

use super::*;
use sqsguard_model::code::EnvVar;
use sqsguard_source::SourceFile;

fn calls_with(language: Language, text: &str, env: &[EnvVar]) -> Vec<SdkCall> {
    let source = SourceFile::new("worker", text.to_string());
    let unit = Unit::parse(&source, language).unwrap_or_else(|e| panic!("{}", e.why));
    read(&unit, &Scope { owner: None, env, queues: &QueueNames::default(), imported: None })
}

pub(super) fn calls(language: Language, text: &str) -> Vec<SdkCall> {
    calls_with(language, text, &[])
}

fn names(call: &SdkCall) -> Vec<&str> {
    call.args.iter().map(|a| a.name).collect()
}

fn external(call: &SdkCall) -> Option<&str> {
    match &call.queue {
        Value::Known(Target::External(q)) => Some(q),
        _ => None,
    }
}

#[test]
fn python_clients_and_resources() {
    let found = calls(
        Language::Python,
        r#"import os, uuid, json, boto3
QUEUE_URL = os.environ["QUEUE_URL"]
sqs = boto3.client("sqs")

def poll():
    sqs.receive_message(QueueUrl=QUEUE_URL, MaxNumberOfMessages=10)
    sqs.receive_message(QueueUrl="https://sqs.us-east-1.amazonaws.com/123456789012/jobs", WaitTimeSeconds=20)

class Worker:
    def run(self):
        resp = sqs.send_message_batch(QueueUrl=QUEUE_URL, Entries=[{"Id": "1", "MessageBody": "x", "MessageGroupId": "g"}])
        print(resp["Successful"])

def produce(order):
    payload = {"id": str(uuid.uuid4()), "order": order}
    sqs.send_message(QueueUrl=QUEUE_URL, MessageBody=json.dumps(payload))
    sqs.delete_message_batch(QueueUrl=QUEUE_URL, Entries=[])
    r = sqs.change_message_visibility_batch(QueueUrl=QUEUE_URL, Entries=[])
    if r.get("Failed"):
        raise RuntimeError()
    queue = boto3.resource("sqs").get_queue_by_name(QueueName="orders.fifo")
    queue.receive_messages(WaitTimeSeconds=5)
    send_message("not sqs")
"#,
    );
    assert_eq!(found.len(), 7, "{found:#?}");
    assert_eq!(found[0].operation, Operation::ReceiveMessage);
    assert_eq!(found[0].owner, "poll");
    assert!(found[0].arg("WaitTimeSeconds").is_none() && found[0].complete);
    assert!(matches!(&found[0].queue, Value::Unknown(why) if why.contains("QUEUE_URL")), "{:?}", found[0].queue);
    assert_eq!(found[1].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
    assert_eq!(external(&found[1]), Some("https://sqs.us-east-1.amazonaws.com/123456789012/jobs"));
    assert_eq!(found[2].owner, "Worker.run");
    assert_eq!(found[2].result, ResultUse::FailedUnread);
    assert!(names(&found[2]).contains(&"MessageGroupId"), "{:?}", names(&found[2]));
    assert_eq!(found[3].nondeterministic.len(), 1);
    assert_eq!(found[3].nondeterministic[0].1, "uuid.uuid4()");
    assert_eq!(found[4].result, ResultUse::Discarded);
    assert_eq!(found[5].result, ResultUse::Checked);
    assert_eq!(found[6].operation, Operation::ReceiveMessage);
    assert_eq!(external(&found[6]), Some("orders.fifo"));
    assert_eq!(found[6].arg("WaitTimeSeconds").and_then(|a| a.int), Some(5));
}

#[test]
fn python_environment_names_the_queue() {
    let env = [EnvVar { name: "JOBS".into(), queue: Value::Known(Target::Queue(3)) }];
    let found = calls_with(
        Language::Python,
        "import os\ndef poll(sqs):\n    url = os.getenv('JOBS')\n    sqs.receive_message(QueueUrl=url)\n    sqs.receive_message(QueueUrl=os.environ.get('JOBS'))\n",
        &env,
    );
    assert_eq!(found.len(), 2);
    assert!(found.iter().all(|c| c.queue == Value::Known(Target::Queue(3))), "{found:#?}");
}

#[test]
fn javascript_v3_and_v2() {
    let found = calls(
        Language::JavaScript,
        r#"import { SQSClient, ReceiveMessageCommand, SendMessageBatchCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const QUEUE_URL = process.env.QUEUE_URL;
export async function poll() {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl: QUEUE_URL, WaitTimeSeconds: 20 }));
  await client.send(new SendMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: items.map((i) => ({ Id: i.id, MessageBody: JSON.stringify(i) })) }));
  const cmd = new SendMessageBatchCommand({ QueueUrl: QUEUE_URL, Entries: [] });
  const res = await client.send(cmd);
  if (res.Failed?.length) throw new Error("x");
  const body = { at: Date.now() };
  await client.send(new SendMessageCommand({ QueueUrl: process.env["OTHER"], MessageBody: JSON.stringify(body), ...extra }));
}
class Worker {
  async run() {
    const r = await sqs.sendMessageBatch({ QueueUrl: "q", Entries: [{ Id: "1", MessageBody: "b" }] }).promise();
    return 1;
  }
}
"#,
    );
    assert_eq!(found.len(), 5, "{found:#?}");
    assert_eq!(found[0].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
    assert_eq!(found[0].owner, "poll");
    assert_eq!(found[1].result, ResultUse::Discarded);
    assert_eq!(names(&found[1]), ["QueueUrl", "Id", "MessageBody", "Entries"]);
    assert_eq!(found[2].result, ResultUse::Checked);
    assert_eq!(found[3].nondeterministic.len(), 1, "{:?}", found[3].nondeterministic);
    assert!(!found[3].complete);
    assert!(matches!(&found[3].queue, Value::Unknown(w) if w.contains("OTHER")));
    assert_eq!(found[4].owner, "Worker.run");
    assert_eq!(found[4].result, ResultUse::FailedUnread);
}

#[test]
fn typescript_reads_as_javascript() {
    let found = calls(
        Language::TypeScript,
        "const url: string = process.env.QUEUE_URL!;\nexport const handler = async (): Promise<void> => {\n  await client.send(new ReceiveMessageCommand({ QueueUrl: url as string }));\n};\n",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].owner, "handler");
    assert!(matches!(&found[0].queue, Value::Unknown(w) if w.contains("QUEUE_URL")), "{:?}", found[0].queue);
}

#[test]
fn go_sdk_v2() {
    let found = calls(
        Language::Go,
        r#"package main

import (
	"os"
	"time"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

var queueURL = os.Getenv("QUEUE_URL")

type Worker struct{ client *sqs.Client }

func (w *Worker) Run(ctx context.Context) {
	w.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(queueURL), WaitTimeSeconds: 20})
	in := &sqs.SendMessageBatchInput{QueueUrl: &queueURL, Entries: []types.SendMessageBatchRequestEntry{{Id: aws.String("1"), MessageBody: aws.String(time.Now().String())}}}
	_, err := w.client.SendMessageBatch(ctx, in)
	out, _ := w.client.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: &queueURL})
	if len(out.Failed) > 0 {
	}
	_ = err
}
"#,
    );
    assert_eq!(found.len(), 3, "{found:#?}");
    assert_eq!(found[0].owner, "Worker.Run");
    assert_eq!(found[0].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
    assert!(matches!(&found[0].queue, Value::Unknown(w) if w.contains("QUEUE_URL")), "{:?}", found[0].queue);
    assert_eq!(found[1].result, ResultUse::Discarded);
    assert_eq!(found[1].nondeterministic.len(), 1);
    assert!(names(&found[1]).contains(&"Id"));
    assert_eq!(found[2].result, ResultUse::Checked);
    assert!(!found[2].complete, "a batch without entries is not read");
}

#[test]
fn java_v2_builders_and_v1_requests() {
    let found = calls(
        Language::Java,
        r#"class Poller {
  private static final String QUEUE_URL = System.getenv("QUEUE_URL");
  void poll(SqsClient sqsClient) {
    ReceiveMessageRequest req = ReceiveMessageRequest.builder().queueUrl(QUEUE_URL).waitTimeSeconds(20).build();
    sqsClient.receiveMessage(req);
    sqsClient.receiveMessage(r -> r.queueUrl(QUEUE_URL).maxNumberOfMessages(10));
    sqsClient.sendMessageBatch(SendMessageBatchRequest.builder().queueUrl(QUEUE_URL)
        .entries(SendMessageBatchRequestEntry.builder().id("1").messageBody(UUID.randomUUID().toString()).build()).build());
    SendMessageBatchResponse resp = sqsClient.sendMessageBatch(b -> b.queueUrl(QUEUE_URL));
    if (resp.hasFailed()) { }
    sqs.receiveMessage(new ReceiveMessageRequest(QUEUE_URL).withWaitTimeSeconds(20L));
    sqs.receiveMessage(QUEUE_URL);
  }
}
"#,
    );
    assert_eq!(found.len(), 6, "{found:#?}");
    assert_eq!(found[0].owner, "Poller.poll");
    assert_eq!(found[0].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
    assert!(matches!(&found[0].queue, Value::Unknown(w) if w.contains("QUEUE_URL")), "{:?}", found[0].queue);
    assert!(found[1].arg("WaitTimeSeconds").is_none() && found[1].complete);
    assert_eq!(found[2].result, ResultUse::Discarded);
    assert_eq!(found[2].nondeterministic.len(), 1, "{:?}", found[2]);
    assert_eq!(found[3].result, ResultUse::Checked);
    assert_eq!(found[4].arg("WaitTimeSeconds").and_then(|a| a.int), Some(20));
    assert!(found[5].arg("WaitTimeSeconds").is_none() && found[5].complete, "{:?}", found[5]);
}

#[test]
fn calls_of_other_services_clients_are_not_sqs_calls() {
    let pinpoint_v3 = calls(
        Language::JavaScript,
        "import { PinpointClient, SendMessagesCommand } from '@aws-sdk/client-pinpoint';\nconst client = new PinpointClient({});\nexport const send = (r) => client.send(new SendMessagesCommand({ ApplicationId: 'a', MessageRequest: r }));\n",
    );
    assert!(pinpoint_v3.is_empty(), "{pinpoint_v3:?}");
    let java = calls(
        Language::Java,
        "class N {\n  PinpointClient pinpoint = PinpointClient.builder().build();\n  void send(MessageRequest r) { pinpoint.sendMessages(SendMessagesRequest.builder().applicationId(\"a\").messageRequest(r).build()); }\n}\n",
    );
    assert!(java.is_empty(), "{java:?}");
    let sqs = calls(
        Language::Python,
        "import boto3\nclient = boto3.client(service_name='sqs')\ndef f(e):\n    client.send_message_batch(QueueUrl=u, Entries=e)\n",
    );
    assert_eq!(sqs.len(), 1);
}

#[test]
fn a_batch_counts_only_the_entries_it_writes_out_and_a_negative_number_is_known() {
    let found = calls(
        Language::Python,
        r#"import boto3
sqs = boto3.client("sqs")
URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

def send(bodies):
    sqs.receive_message(QueueUrl=URL, VisibilityTimeout=-1)
    sqs.send_message_batch(QueueUrl=URL, Entries=[{"Id": "1", "MessageBody": "a", "DelaySeconds": 5}, {"Id": "2", "MessageBody": "b"}])
    sqs.send_message_batch(QueueUrl=URL, Entries=[{"Id": str(i), "MessageBody": b} for i, b in enumerate(bodies)])
    entries = [{"Id": "1", "MessageBody": "a"}]
    entries.append({"Id": "2", "MessageBody": "b"})
    sqs.send_message_batch(QueueUrl=URL, Entries=entries)
"#,
    );
    assert_eq!(found.len(), 4);
    assert_eq!(found[0].arg("VisibilityTimeout").and_then(|a| a.int), Some(-1));
    assert_eq!(found[1].written_entries, Some(2));
    let delays: Vec<Option<i64>> =
        found[1].entries.iter().map(|e| e.iter().find(|a| a.name == "DelaySeconds").and_then(|a| a.int)).collect();
    assert_eq!(delays, [Some(5), None]);
    assert_eq!((found[2].written_entries, found[3].written_entries), (None, None));
    assert_eq!(found[3].entries.len(), 2);
}

#[test]
fn a_call_is_in_a_loop_only_of_its_own_function_or_of_the_top_level() {
    let found = calls(
        Language::JavaScript,
        r#"import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
async function once() { return client.send(new ReceiveMessageCommand({ QueueUrl: URL })); }
async function poll() { for (;;) { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); } }
for (const i of [1, 2]) { setTimeout(() => client.send(new ReceiveMessageCommand({ QueueUrl: URL })), i); }
while (true) { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); }
"#,
    );
    let in_loop: Vec<bool> = found.iter().map(|c| c.in_loop).collect();
    assert_eq!(in_loop, [false, true, false, true]);
}

#[test]
fn a_call_is_repeated_by_recursion_or_a_scheduler_but_not_by_a_call_of_the_same_name() {
    let repeated = |language, text: &str| calls(language, text).iter().map(|c| c.in_loop).collect::<Vec<_>>();
    let js = r#"import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
async function poll() { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); setTimeout(poll, 0); }
async function tick() { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); }
setInterval(tick, 1000);
setInterval(async () => { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); }, 1000);
class W { async run() { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); await this.run(); } }
async function once() { await client.send(new ReceiveMessageCommand({ QueueUrl: URL })); setTimeout(other, 0); }
"#;
    assert_eq!(repeated(Language::JavaScript, js), [true, true, true, true, false]);
    let py = r#"import boto3
sqs = boto3.client("sqs")
class Worker:
    def poll(self):
        sqs.receive_message(QueueUrl="q", WaitTimeSeconds=20)
        self.poll()
    def receive_message(self):
        return self.sqs.receive_message(QueueUrl="q", WaitTimeSeconds=20)
"#;
    assert_eq!(repeated(Language::Python, py), [true, false]);
    let go = r#"package main
func (w *Worker) poll(ctx context.Context) {
	w.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String("q")})
	w.poll(ctx)
}
func (w *Worker) ReceiveMessage(ctx context.Context) {
	w.client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String("q")})
}
"#;
    assert_eq!(repeated(Language::Go, go), [true, false]);
    let java = r#"class W {
    @Scheduled(fixedDelay = 1000)
    public void poll() { sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(URL).build()); }
    public void tick() { sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(URL).build()); }
    public void once() { sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(URL).build()); }
    void start() { executor.scheduleAtFixedRate(this::tick, 0, 1, TimeUnit.SECONDS); }
}
"#;
    assert_eq!(repeated(Language::Java, java), [true, true, false]);
}
