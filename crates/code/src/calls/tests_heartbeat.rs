//! The period of a visibility change's heartbeat, in each language.

use super::tests::calls;
use super::*;

/// Each visibility change's heartbeat: (seconds, what repeats it).
fn beats(language: Language, text: &str) -> Vec<Option<(f64, String)>> {
    calls(language, text)
        .iter()
        .filter(|c| c.operation == Operation::ChangeMessageVisibility)
        .map(|c| c.heartbeat.as_ref().map(|h| (h.seconds, h.how.clone())))
        .collect()
}

fn beat(seconds: f64, how: &str) -> Option<(f64, String)> {
    Some((seconds, how.to_string()))
}

#[test]
fn python_sleep_loops_timers_and_not_the_poll_loop() {
    let text = r#"import threading, time, asyncio
import boto3
sqs = boto3.client("sqs")
URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
BEAT = 40

def keep(handle, stop):
    while not stop.is_set():
        sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=handle, VisibilityTimeout=30)
        time.sleep(BEAT)

def extend(handle):
    sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=handle, VisibilityTimeout=60)
    threading.Timer(20, extend, args=(handle,)).start()

async def keep_async(handle):
    while True:
        await asyncio.sleep(10)
        sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=handle, VisibilityTimeout=30)

def poll():
    while True:
        out = sqs.receive_message(QueueUrl=URL, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        for m in out.get("Messages", []):
            sqs.change_message_visibility(QueueUrl=URL, ReceiptHandle=m["ReceiptHandle"], VisibilityTimeout=0)
        time.sleep(5)
"#;
    assert_eq!(beats(Language::Python, text), [beat(40.0, "sleep"), beat(20.0, "Timer"), beat(10.0, "sleep"), None]);
}

#[test]
fn javascript_intervals_re_armed_timeouts_and_awaited_waits() {
    let text = r#"import { SQSClient, ChangeMessageVisibilityCommand } from "@aws-sdk/client-sqs";
const client = new SQSClient({});
const QueueUrl = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
export function keep(ReceiptHandle) {
  return setInterval(() => client.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle, VisibilityTimeout: 30 })), 40 * 1000);
}
function beat(ReceiptHandle) {
  client.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle, VisibilityTimeout: 60 }));
  setTimeout(beat, 20000, ReceiptHandle);
}
export async function loop(ReceiptHandle, signal) {
  while (!signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, 15000));
    await client.send(new ChangeMessageVisibilityCommand({ QueueUrl, ReceiptHandle, VisibilityTimeout: 45 }));
  }
}
"#;
    assert_eq!(
        beats(Language::JavaScript, text),
        [beat(40.0, "setInterval"), beat(20.0, "setTimeout"), beat(15.0, "setTimeout")]
    );
}

#[test]
fn go_tickers_ticks_and_selects() {
    let text = r#"package main

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

const url = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

func keep(ctx context.Context, client *sqs.Client, handle *string) {
	ticker := time.NewTicker(40 * time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: aws.String(url), ReceiptHandle: handle, VisibilityTimeout: 30})
		}
	}
}

func tick(ctx context.Context, client *sqs.Client, handle *string) {
	for range time.Tick(10 * time.Second) {
		client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: aws.String(url), ReceiptHandle: handle, VisibilityTimeout: 30})
	}
}
"#;
    assert_eq!(beats(Language::Go, text), [beat(40.0, "time.NewTicker"), beat(10.0, "time.Tick")]);
}

#[test]
fn java_schedulers_and_sleep_loops() {
    let text = r#"import software.amazon.awssdk.services.sqs.SqsClient;
class Heart {
  void keep(String handle) {
    scheduler.scheduleAtFixedRate(() -> sqs.changeMessageVisibility(r -> r.queueUrl(URL).receiptHandle(handle).visibilityTimeout(30)), 40, 40, TimeUnit.SECONDS);
  }
  void loop(String handle) throws InterruptedException {
    while (running) {
      sqs.changeMessageVisibility(ChangeMessageVisibilityRequest.builder().queueUrl(URL).receiptHandle(handle).visibilityTimeout(60).build());
      Thread.sleep(20_000);
    }
  }
}
"#;
    assert_eq!(beats(Language::Java, text), [beat(40.0, "scheduleAtFixedRate"), beat(20.0, "sleep")]);
}
