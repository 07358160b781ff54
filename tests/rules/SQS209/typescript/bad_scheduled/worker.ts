// A worker whose receives are repeated by a timer and by recursion, not by
// a loop: each still asks for one message.
import { SQSClient, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

async function drain(): Promise<void> {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, WaitTimeSeconds: 20 }));
  for (const message of out.Messages ?? []) {
    await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
  }
}

setInterval(drain, 60_000);

export async function poll(): Promise<void> {
  const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, WaitTimeSeconds: 20 }));
  for (const message of out.Messages ?? []) {
    await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
  }
  setImmediate(poll);
}
