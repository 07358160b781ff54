// A worker that receives one message a request, in a loop.
import { SQSClient, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll(): Promise<void> {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, WaitTimeSeconds: 20 }));
    for (const message of out.Messages ?? []) {
      console.log(message.Body);
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
