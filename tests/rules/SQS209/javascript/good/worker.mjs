// A worker that receives up to 10 messages a request.
import { SQSClient, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll() {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, WaitTimeSeconds: 20, MaxNumberOfMessages: 10 }));
    for (const message of out.Messages ?? []) {
      console.log(message.Body);
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
