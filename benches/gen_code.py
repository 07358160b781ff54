#!/usr/bin/env python3
"""Writes the code bench's repositories (benches/code.sh).

    gen_code.py DIR N NOISE

DIR/pipeline: N code files across Python, JavaScript, TypeScript, Go and
Java, half of them Lambda handlers named by SAM templates (ten functions
per template, each with its queue and dead-letter queue), half of them
workers that poll and send with the SDK and that no template names.
DIR/noise: NOISE source files in the same languages that never call SQS
(what the pre-filter must skip without parsing). The handlers alternate
between returning batch item failures and not, so the code rules fire.
"""

import os
import sys

HANDLERS = {
    "python": ("python3.12", "app.handler", "app.py", '''import json


def handler(event, context):
    failures = []
    for record in event["Records"]:
        try:
            process(json.loads(record["body"]))
        except Exception:
            failures.append({{"itemIdentifier": record["messageId"]}})
    return {{"batchItemFailures": failures}}


def process(order):
    return order["id"] * {n}
'''),
    "javascript": ("nodejs20.x", "index.handler", "index.mjs", '''export const handler = async (event) => {{
  const batchItemFailures = [];
  for (const record of event.Records) {{
    try {{
      await process(JSON.parse(record.body));
    }} catch (e) {{
      batchItemFailures.push({{ itemIdentifier: record.messageId }});
    }}
  }}
  return {{ batchItemFailures }};
}};

const process = async (order) => order.id * {n};
'''),
    "typescript": ("nodejs20.x", "index.handler", "index.ts", '''import type {{ SQSEvent, SQSBatchResponse }} from "aws-lambda";

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {{
  const batchItemFailures: {{ itemIdentifier: string }}[] = [];
  for (const record of event.Records) {{
    try {{
      process(JSON.parse(record.body));
    }} catch {{
      batchItemFailures.push({{ itemIdentifier: record.messageId }});
    }}
  }}
  return {{ batchItemFailures }};
}};

function process(order: {{ id: number }}): number {{
  return order.id * {n};
}}
'''),
    "go": ("provided.al2023", "bootstrap", "main.go", '''package main

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
)

func handle(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {{
	var failures []events.SQSBatchItemFailure
	for _, m := range ev.Records {{
		if len(m.Body) == {n} {{
			failures = append(failures, events.SQSBatchItemFailure{{ItemIdentifier: m.MessageId}})
		}}
	}}
	return events.SQSEventResponse{{BatchItemFailures: failures}}, nil
}}

func main() {{ lambda.Start(handle) }}
'''),
    "java": ("java21", "example.Handler::handleRequest", "src/main/java/example/Handler.java", '''package example;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import java.util.ArrayList;
import java.util.List;

public class Handler implements RequestHandler<SQSEvent, SQSBatchResponse> {{
  @Override
  public SQSBatchResponse handleRequest(SQSEvent event, Context context) {{
    List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
    for (SQSEvent.SQSMessage m : event.getRecords()) {{
      if (m.getBody().length() == {n}) {{
        failures.add(new SQSBatchResponse.BatchItemFailure(m.getMessageId()));
      }}
    }}
    return new SQSBatchResponse(failures);
  }}
}}
'''),
}

WORKERS = {
    "py": '''import os

import boto3

sqs = boto3.client("sqs")
QUEUE_URL = os.environ["QUEUE_URL"]


def poll():
    while True:
        got = sqs.receive_message(QueueUrl=QUEUE_URL, MaxNumberOfMessages=10)
        for m in got.get("Messages", []):
            sqs.delete_message(QueueUrl=QUEUE_URL, ReceiptHandle=m["ReceiptHandle"])


def forward(bodies):
    sqs.send_message_batch(QueueUrl=QUEUE_URL, Entries=[{{"Id": str(i), "MessageBody": b}} for i, b in enumerate(bodies)])
    return {n}
''',
    "mjs": '''import {{ SQSClient, ReceiveMessageCommand }} from "@aws-sdk/client-sqs";

const client = new SQSClient({{}});

export async function poll() {{
  const got = await client.send(new ReceiveMessageCommand({{ QueueUrl: process.env.QUEUE_URL, WaitTimeSeconds: 20 }}));
  return (got.Messages ?? []).length + {n};
}}
''',
    "ts": '''import {{ SQSClient, SendMessageBatchCommand }} from "@aws-sdk/client-sqs";

const client = new SQSClient({{}});

export async function forward(bodies: string[]): Promise<number> {{
  const entries = bodies.map((b, i) => ({{ Id: String(i), MessageBody: b }}));
  const out = await client.send(new SendMessageBatchCommand({{ QueueUrl: process.env.QUEUE_URL, Entries: entries }}));
  return (out.Failed ?? []).length + {n};
}}
''',
    "go": '''package worker

import (
	"context"
	"os"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

func Poll(ctx context.Context, client *sqs.Client) (int, error) {{
	out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{{QueueUrl: aws.String(os.Getenv("QUEUE_URL")), WaitTimeSeconds: 20}})
	if err != nil {{
		return 0, err
	}}
	return len(out.Messages) + {n}, nil
}}
''',
    "java": '''package example;

import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.ReceiveMessageRequest;

public class Worker{n} {{
  private final SqsClient sqs = SqsClient.create();

  public int poll(String url) {{
    ReceiveMessageRequest req = ReceiveMessageRequest.builder().queueUrl(url).build();
    return sqs.receiveMessage(req).messages().size();
  }}
}}
''',
}

NOISE = {
    "py": "def f{n}(x):\n    return [i * {n} for i in range(x)]\n\n\nclass C{n}:\n    def m(self):\n        return f{n}(3)\n",
    "js": "export function f{n}(x) {{\n  return Array.from({{ length: x }}, (_, i) => i * {n});\n}}\n",
    "ts": "export const f{n} = (x: number): number[] => Array.from({{ length: x }}, (_, i) => i * {n});\n",
    "go": "package noise\n\nfunc F{n}(x int) int {{\n\treturn x * {n}\n}}\n",
    "java": "package noise;\n\npublic class N{n} {{\n  public int f(int x) {{ return x * {n}; }}\n}}\n",
}

TEMPLATE_HEAD = "AWSTemplateFormatVersion: '2010-09-09'\nTransform: AWS::Serverless-2016-10-31\nResources:\n"

FUNCTION = """  Q{i}:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 180
      RedrivePolicy:
        deadLetterTargetArn: !GetAtt D{i}.Arn
        maxReceiveCount: 5
  D{i}:
    Type: AWS::SQS::Queue
    Properties:
      MessageRetentionPeriod: 1209600
  F{i}:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: fn{i}/
      Handler: {handler}
      Runtime: {runtime}
      Timeout: 30
      Events:
        Jobs:
          Type: SQS
          Properties:
            Queue: !GetAtt Q{i}.Arn
            BatchSize: {batch}
{flag}"""

FLAG = "            FunctionResponseTypes: [ReportBatchItemFailures]\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# Workers as they poll in production: a receive loop, a client with its
# HTTP timeout, a heartbeat that keeps each message hidden, a delete by
# receipt handle. The clean projects of SQS210 and SQS212 are such
# workers, one per language: what the worker readers (client timeouts,
# heartbeats, receipt handles) cost is measured on them. Beside them, the
# workers of SQS207 that never delete: where their messages go is followed
# through every use, where a delete in the file ends that reader at once.
POLLERS = [
    ("SQS210", "python", "worker.py"),
    ("SQS210", "javascript", "worker.mjs"),
    ("SQS210", "typescript", "worker.ts"),
    ("SQS210", "go", "main.go"),
    ("SQS210", "java", "src/main/java/com/example/Worker.java"),
    ("SQS212", "python", "worker.py"),
    ("SQS212", "javascript", "worker.mjs"),
    ("SQS212", "typescript", "worker.ts"),
    ("SQS212", "go", "main.go"),
    ("SQS212", "java", "src/main/java/com/example/Worker.java"),
    ("SQS207/bad", "python", "worker.py"),
    ("SQS207/bad", "javascript", "worker.mjs"),
    ("SQS207/bad", "typescript", "worker.ts"),
    ("SQS207/bad", "go", "main.go"),
    ("SQS207/bad", "java", "src/main/java/com/example/Worker.java"),
]


def pollers(out, count):
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "rules")
    texts = []
    for rule, language, file in POLLERS:
        rule, _, kind = rule.partition("/")
        with open(os.path.join(root, rule, language, kind or "good", file)) as f:
            texts.append((file, f.read()))
    for i in range(count):
        file, text = texts[i % len(texts)]
        write(os.path.join(out, "pipeline", "pollers", f"p{i}", file), text)


def main():
    out, n, noise = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pollers(out, int(sys.argv[4]) if len(sys.argv) > 4 else 0)
    languages = list(HANDLERS)
    handlers = n // 2
    per_template = 10
    for t in range(0, handlers, per_template):
        svc = os.path.join(out, "pipeline", f"svc{t // per_template}")
        parts = [TEMPLATE_HEAD]
        for i in range(t, min(t + per_template, handlers)):
            runtime, handler, file, code = HANDLERS[languages[i % len(languages)]]
            # Every other mapping lacks the flag: SQS201 fires there.
            flag = FLAG if i % 2 else ""
            parts.append(FUNCTION.format(i=i, handler=handler, runtime=runtime, batch=1 if not flag else 10, flag=flag))
            write(os.path.join(svc, f"fn{i}", file), code.format(n=i))
        write(os.path.join(svc, "template.yaml"), "".join(parts))
    kinds = list(WORKERS)
    for i in range(n - handlers):
        ext = kinds[i % len(kinds)]
        write(os.path.join(out, "pipeline", "workers", f"w{i}", f"worker.{ext}"), WORKERS[ext].format(n=i))
    kinds = list(NOISE)
    for i in range(noise):
        ext = kinds[i % len(kinds)]
        write(os.path.join(out, "noise", f"d{i // 100}", f"n{i}.{ext}"), NOISE[ext].format(n=i))


if __name__ == "__main__":
    main()
