// A worker (SDK v2) whose client listens longer than its 20 s long poll.
import { SQS } from "aws-sdk";

const sqs = new SQS({ httpOptions: { connectTimeout: 1000, timeout: 30000 } });
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll(): Promise<void> {
  for (;;) {
    const out = await sqs.receiveMessage({ QueueUrl: JOBS, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 }).promise();
    for (const message of out.Messages ?? []) {
      console.log(message.Body);
      await sqs.deleteMessage({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle! }).promise();
    }
  }
}
