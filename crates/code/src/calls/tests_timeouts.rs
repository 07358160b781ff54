//! The HTTP timeout of a receive's client, in each language.

use super::tests::calls;
use super::*;

/// Each receive's client timeout: (seconds, as named).
fn timeouts(language: Language, text: &str) -> Vec<Option<(f64, String)>> {
    calls(language, text)
        .iter()
        .filter(|c| c.operation == Operation::ReceiveMessage)
        .map(|c| c.client_timeout.as_ref().map(|t| (t.seconds, t.name.clone())))
        .collect()
}

fn some(seconds: f64, name: &str) -> Option<(f64, String)> {
    Some((seconds, name.to_string()))
}

#[test]
fn python_config_inline_bound_on_self_and_on_a_resource() {
    let text = r#"import boto3
from botocore.config import Config
URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
TIMEOUT = 5 * 2
cfg = Config(connect_timeout=5, read_timeout=TIMEOUT)
sqs = boto3.client("sqs", config=cfg)
plain = boto3.client("sqs")

class Worker:
    def __init__(self):
        self.sqs = boto3.client("sqs", config=Config(read_timeout=25.5))

    def poll(self):
        self.sqs.receive_message(QueueUrl=URL, WaitTimeSeconds=20)

def poll():
    sqs.receive_message(QueueUrl=URL, WaitTimeSeconds=20)
    plain.receive_message(QueueUrl=URL, WaitTimeSeconds=20)
    queue = boto3.resource("sqs", config=Config(read_timeout=15)).Queue(URL)
    queue.receive_messages(WaitTimeSeconds=20)
"#;
    assert_eq!(
        timeouts(Language::Python, text),
        [some(25.5, "read_timeout"), some(10.0, "read_timeout"), None, some(15.0, "read_timeout")]
    );
}

#[test]
fn javascript_v3_handlers_and_v2_http_options() {
    let text = r#"import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import AWS from "aws-sdk";
const URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
const client = new SQSClient({ requestHandler: new NodeHttpHandler({ requestTimeout: 10 * 1000, throwOnRequestTimeout: true }) });
const logs = new SQSClient({ requestHandler: new NodeHttpHandler({ connectionTimeout: 1000, requestTimeout: 10 * 1000 }) });
const light = new SQSClient({ requestHandler: { requestTimeout: 30_000, socketTimeout: 25_000 } });
const legacy = new AWS.SQS({ httpOptions: { timeout: 15000 }, timeout: 1 });
export async function poll() {
  await client.send(new ReceiveMessageCommand({ QueueUrl: URL, WaitTimeSeconds: 20 }));
  await logs.send(new ReceiveMessageCommand({ QueueUrl: URL, WaitTimeSeconds: 20 }));
  await light.send(new ReceiveMessageCommand({ QueueUrl: URL, WaitTimeSeconds: 20 }));
  await legacy.receiveMessage({ QueueUrl: URL, WaitTimeSeconds: 20 }).promise();
}
"#;
    assert_eq!(
        timeouts(Language::JavaScript, text),
        [some(10.0, "requestTimeout"), None, some(25.0, "socketTimeout"), some(15.0, "timeout")]
    );
}

#[test]
fn go_http_clients_given_to_the_client_or_its_config() {
    let text = r#"package main

import (
	"context"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

const url = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

func poll(ctx context.Context) {
	hc := &http.Client{Timeout: 10 * time.Second}
	cfg, _ := config.LoadDefaultConfig(ctx, config.WithHTTPClient(hc))
	client := sqs.NewFromConfig(cfg)
	client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), WaitTimeSeconds: 20})
	other := sqs.NewFromConfig(cfg, func(o *sqs.Options) {
		o.HTTPClient = &http.Client{Timeout: time.Duration(1500) * time.Millisecond}
	})
	other.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), WaitTimeSeconds: 20})
}
"#;
    let found = timeouts(Language::Go, text);
    assert_eq!(found, [some(10.0, "Timeout"), some(1.5, "Timeout")]);
}

#[test]
fn java_v2_builders_and_v1_client_configuration() {
    let text = r#"import software.amazon.awssdk.services.sqs.SqsClient;
class Worker {
  private final SqsClient sqs = SqsClient.builder()
      .httpClient(ApacheHttpClient.builder().socketTimeout(Duration.ofSeconds(10)).build())
      .build();
  private final SqsClient timed = SqsClient.builder()
      .overrideConfiguration(c -> c.apiCallAttemptTimeout(Duration.ofMillis(12000)))
      .build();
  private final AmazonSQS v1 = AmazonSQSClientBuilder.standard()
      .withClientConfiguration(new ClientConfiguration().withSocketTimeout(18000))
      .build();
  void poll() {
    sqs.receiveMessage(ReceiveMessageRequest.builder().queueUrl(URL).waitTimeSeconds(20).build());
    this.timed.receiveMessage(ReceiveMessageRequest.builder().queueUrl(URL).waitTimeSeconds(20).build());
    v1.receiveMessage(new ReceiveMessageRequest(URL).withWaitTimeSeconds(20));
  }
}
"#;
    assert_eq!(
        timeouts(Language::Java, text),
        [some(10.0, "socketTimeout"), some(12.0, "apiCallAttemptTimeout"), some(18.0, "withSocketTimeout")]
    );
}
