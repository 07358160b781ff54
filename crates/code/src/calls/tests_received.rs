//! Where received messages go (SQS207), read from small workers.

use super::tests::calls;
use super::*;
use sqsguard_model::code::Received;

/// What the file's receives say of their messages: `"kept"`, or why they
/// may go elsewhere.
fn received(language: Language, text: &str) -> Vec<String> {
    calls(language, text)
        .into_iter()
        .filter_map(|c| c.received)
        .map(|r| match r {
            Received::Kept => "kept".to_string(),
            Received::Elsewhere(why) => why,
        })
        .collect()
}

fn kept(language: Language, text: &str) {
    assert_eq!(received(language, text), ["kept"], "{text}");
}

fn elsewhere(language: Language, text: &str, why: &str) {
    let got = received(language, text);
    assert!(got.len() == 1 && got[0].contains(why), "{got:?} does not say {why:?}:\n{text}");
}

const PY: &str = r#"import boto3
sqs = boto3.client("sqs")
URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

def poll():
    while True:
        resp = sqs.receive_message(QueueUrl=URL, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        messages = resp.get("Messages", [])
        if not messages:
            continue
        for i, msg in enumerate(messages):
            print(f"got {msg['MessageId']}")
            handle(json.loads(msg["Body"]))
            sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=msg["ReceiptHandle"], VisibilityTimeout=60)
            USE
"#;

fn python(with: &str) -> String {
    PY.replace("USE", with)
}

#[test]
fn python_messages_read_for_their_body_only_are_kept() {
    kept(Language::Python, &python("pass"));
    kept(Language::Python, &python("logger.info('%s', msg)"));
    kept(Language::Python, &python("assert len(messages) <= 10"));
    // Given back at once (or after a time not read), as a tool that only
    // looks at a queue does: not a heartbeat.
    for timeout in ["0", "wait"] {
        let release = format!(
            "sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=msg['ReceiptHandle'], VisibilityTimeout={timeout})"
        );
        elsewhere(Language::Python, &python(&release), "passed to `sqs.change_message_visibility`");
    }
}

#[test]
fn python_messages_that_leave_the_function_go_elsewhere() {
    for (use_, why) in [
        ("process(msg)", "passed to `process`"),
        ("pool.submit(work, msg['ReceiptHandle'])", "passed to `pool.submit`"),
        ("self.current = msg", "kept in `self.current`"),
        ("pending.append(msg)", "passed to `pending.append`"),
        ("yield msg", "returned"),
        ("return messages", "returned"),
        ("batch = [msg]", "list"),
        ("sqs.delete_message(QueueUrl=URL, ReceiptHandle=msg['ReceiptHandle'])", "the file deletes messages"),
        ("msg.delete()", "the file deletes messages"),
        ("sqs.purge_queue(QueueUrl=URL)", "the file deletes messages"),
    ] {
        elsewhere(Language::Python, &python(use_), why);
    }
}

#[test]
fn a_comment_about_deleting_deletes_nothing() {
    kept(Language::Python, &python("# TODO: delete the message"));
    kept(Language::Python, &format!("\"\"\"A worker that never deletes.\"\"\"\n{}", python("pass")));
    elsewhere(Language::Python, &python("getattr(sqs, 'delete_message')(QueueUrl=URL)"), "the file deletes messages");
}

#[test]
fn python_globals_and_the_resource_api() {
    elsewhere(
        Language::Python,
        "import boto3\nsqs = boto3.client('sqs')\ndef poll():\n    global last\n    last = sqs.receive_message(QueueUrl='q')\n",
        "global",
    );
    kept(
        Language::Python,
        r#"import boto3
queue = boto3.resource("sqs").Queue("https://sqs.us-east-1.amazonaws.com/123456789012/jobs")
for message in queue.receive_messages(MaxNumberOfMessages=10, WaitTimeSeconds=20):
    print(message.body)
    message.change_visibility(VisibilityTimeout=60)
"#,
    );
}

#[test]
fn javascript_v3_and_v2() {
    let v3 = r#"import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
export async function poll(url) {
  for (;;) {
    const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 20 }));
    if (!Messages.length) continue;
    await Promise.all(Messages.map(async (m) => { await work(JSON.parse(m.Body)); }));
    USE
  }
}
"#;
    kept(Language::JavaScript, &v3.replace("USE", "console.log(Messages.length);"));
    elsewhere(Language::JavaScript, &v3.replace("USE", "queue.push(...Messages);"), "passed to `queue.push`");
    elsewhere(Language::JavaScript, &v3.replace("USE", "Messages.forEach(handle);"), "handed to `handle`");
    elsewhere(Language::JavaScript, &v3.replace("USE", "this.batch = Messages;"), "kept in `this.batch`");
    elsewhere(Language::TypeScript, &v3.replace("USE", "last = Messages;"), "declared outside");
    let command = "import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';\nasync function poll(client) {\n  const command = new ReceiveMessageCommand({ QueueUrl: 'q' });\n  const out = await client.send(command);\n  return out.Messages;\n}\n";
    elsewhere(Language::JavaScript, command, "returned");
    let v2 = "const sqs = new AWS.SQS();\nsqs.receiveMessage({ QueueUrl: 'q' }, (err, data) => {\n  if (err) return;\n  USE\n});\n";
    kept(Language::JavaScript, &v2.replace("USE", "data.Messages.forEach((m) => console.log(m.Body));"));
    elsewhere(Language::JavaScript, &v2.replace("USE", "emitter.emit('messages', data.Messages);"), "passed to");
    // The error of a callback or a `.catch` holds no message.
    let errors = "const sqs = new AWS.SQS();\nsqs.receiveMessage({ QueueUrl: 'q' }, (err, data) => {\n  if (err) { callback(err); return; }\n  data.Messages.forEach((m) => console.log(m.Body));\n});\nsqs.receiveMessage({ QueueUrl: 'q' }).promise()\n  .then((d) => d.Messages.forEach((m) => console.log(m.Body)))\n  .catch((err) => callback(err));\n";
    assert_eq!(received(Language::JavaScript, errors), ["kept", "kept"]);
}

#[test]
fn go_ranges_channels_and_returns() {
    let go = r#"package main

func poll(ctx context.Context, client *sqs.Client, url string, out chan types.Message) {
	for {
		resp, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url, WaitTimeSeconds: 20})
		if err != nil || len(resp.Messages) == 0 {
			continue
		}
		for _, m := range resp.Messages {
			log.Printf("got %s", *m.Body)
			USE
		}
	}
}
"#;
    kept(Language::Go, &go.replace("USE", "_ = m"));
    // An option function given to the receive is not handed the messages.
    let options =
        go.replace("WaitTimeSeconds: 20})", "WaitTimeSeconds: 20}, func(o *sqs.Options) { o.Region = region })");
    kept(Language::Go, &options.replace("USE", "_ = m"));
    elsewhere(Language::Go, &go.replace("USE", "out <- m"), "channel");
    elsewhere(Language::Go, &go.replace("USE", "go handle(m)"), "passed to `handle`");
    elsewhere(Language::Go, &go.replace("USE", "handle(ctx, m.ReceiptHandle)"), "passed to `handle`");
}

#[test]
fn java_v2_streams_and_v1_getters() {
    let v2 = r#"class Worker {
    void poll() {
        while (true) {
            List<Message> messages = sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(url).waitTimeSeconds(20).build()).messages();
            if (messages.isEmpty()) continue;
            for (Message m : messages) {
                System.out.println(m.body());
                USE
            }
        }
    }
}
"#;
    kept(Language::Java, &v2.replace("USE", "process(m.body());"));
    elsewhere(Language::Java, &v2.replace("USE", "executor.submit(() -> process(m));"), "passed to `process`");
    elsewhere(Language::Java, &v2.replace("USE", "this.current = m;"), "kept in `this.current`");
    // The code's own method of the same name (a wrapper) and Mockito's
    // verification are no receive.
    let own = "class T {\n  void t() {\n    Set<SqsMessage> got = api.receiveMessage(queueName, Duration.ofSeconds(1), 2, Duration.ofSeconds(30));\n    verify(sqsClient).receiveMessage(any(ReceiveMessageRequest.class));\n  }\n}\n";
    assert!(calls(Language::Java, own).is_empty());
    let v1 = "class W {\n  List<Message> poll() {\n    ReceiveMessageResult r = sqs.receiveMessage(new ReceiveMessageRequest(url));\n    for (Message m : r.getMessages()) { log.info(m.getBody()); }\n    return r.getMessages();\n  }\n}\n";
    elsewhere(Language::Java, v1, "returned");
    // A consumer that builds the request is not handed the messages.
    let consumer = "class W {\n  void poll() {\n    for (Message m : sqs.receiveMessage(r -> r.queueUrl(url).maxNumberOfMessages(10)).messages()) {\n      log.info(m.body());\n    }\n  }\n}\n";
    kept(Language::Java, consumer);
}

#[test]
fn messages_passed_to_a_function_of_the_file_are_followed_there() {
    let py = r#"import boto3
sqs = boto3.client("sqs")

HELPER

class Worker:
    def note(self, msg):
        print(msg["MessageId"])

    def run(self):
        while True:
            out = sqs.receive_message(QueueUrl="q", MaxNumberOfMessages=10, WaitTimeSeconds=20)
            for m in out.get("Messages", []):
                self.note(m)
                handle(1, message=m)
"#;
    let with = |helper: &str| py.replace("HELPER", helper);
    kept(Language::Python, &with("def handle(n, message):\n    print(n, message[\"Body\"])\n"));
    elsewhere(Language::Python, &with("def handle(n, message):\n    work(message)\n"), "passed to `work`");
    elsewhere(Language::Python, &with("def handle(n, message):\n    return message\n"), "returned");
    // Defined twice: which one runs is not known.
    let twice = "def handle(n, message):\n    pass\n\ndef handle(n, message):\n    pass\n";
    elsewhere(Language::Python, &with(twice), "passed to `handle`");
    // A function that passes the message to itself is followed once.
    kept(Language::Python, &with("def handle(n, message):\n    if n:\n        handle(n - 1, message=message)\n"));

    let js = r#"import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const show = (m) => console.log(m.Body);
export async function poll() {
  const { Messages = [] } = await client.send(new ReceiveMessageCommand({ QueueUrl: "q", WaitTimeSeconds: 20 }));
  Messages.forEach((m) => show(m));
  USE
}
"#;
    kept(Language::JavaScript, &js.replace("USE", ""));
    elsewhere(Language::JavaScript, &js.replace("USE", "show(...Messages);"), "passed to `show`");

    let go = r#"package main
func handle(ctx context.Context, m types.Message) {
	log.Println(*m.Body)
}
func poll(ctx context.Context, client *sqs.Client) {
	out, _ := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String("q"), WaitTimeSeconds: 20})
	for _, m := range out.Messages {
		handle(ctx, m)
	}
}
"#;
    kept(Language::Go, go);

    let java = r#"class W {
    private void process(String tag, Message m) { System.out.println(tag + m.body()); }
    void poll() {
        for (Message m : sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(URL).build()).messages()) {
            process("got", m);
        }
    }
}
"#;
    kept(Language::Java, java);
}
