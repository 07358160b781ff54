// A worker whose client gives up after 10 s on a 20 s long poll.
import { SQSClient, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { NodeHttpHandler } from "@smithy/node-http-handler";

const client = new SQSClient({ requestHandler: new NodeHttpHandler({ connectionTimeout: 1000, socketTimeout: 10 * 1000 }) });
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll() {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 }));
    for (const message of out.Messages ?? []) {
      console.log(message.Body);
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
