// A worker whose heartbeat re-arms a timeout: 60 s of visibility every 90 s.
import { SQSClient, ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
const BEAT_MS = 90_000;

function beat(handle: string, state: { done: boolean }): void {
  if (state.done) return;
  void client.send(new ChangeMessageVisibilityCommand({ QueueUrl: JOBS, ReceiptHandle: handle, VisibilityTimeout: 60 }));
  setTimeout(beat, BEAT_MS, handle, state);
}

export async function poll(): Promise<void> {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 }));
    for (const message of out.Messages ?? []) {
      const state = { done: false };
      beat(message.ReceiptHandle!, state);
      console.log(message.Body);
      state.done = true;
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
