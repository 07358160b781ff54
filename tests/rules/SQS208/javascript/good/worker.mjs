// A worker whose deletes and visibility changes pass the receipt handle.
import { SQSClient, ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll() {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 }));
    for (const message of out.Messages ?? []) {
      const handle = message.ReceiptHandle;
      await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: JOBS, ReceiptHandle: handle, VisibilityTimeout: 120 }));
      console.log(message.Body);
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
