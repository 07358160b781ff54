// A worker whose deletes name the message wrongly (SDK v2 and v3).
import { SQS } from "aws-sdk";
import { SQSClient, DeleteMessageCommand, ReceiveMessageCommand, type Message } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const legacy = new SQS();
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll(): Promise<void> {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 }));
    for (const message of out.Messages ?? []) {
      console.log(message.Body);
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message["MessageId"] }));
    }
  }
}

export async function forget(message: Message): Promise<void> {
  await legacy.deleteMessage({ QueueUrl: JOBS, ReceiptHandle: JOBS }).promise();
}
