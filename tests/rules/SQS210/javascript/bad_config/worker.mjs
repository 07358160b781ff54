// A worker whose heartbeat, set in config.mjs, extends a message by 30 s every 40 s.
import * as config from "./config.mjs";
import { SQSClient, ChangeMessageVisibilityCommand, DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

function keepHidden(handle) {
  return setInterval(
    () => client.send(new ChangeMessageVisibilityCommand({ QueueUrl: JOBS, ReceiptHandle: handle, VisibilityTimeout: config.VISIBILITY_SECONDS })),
    config.HEARTBEAT_MS,
  );
}

export async function poll() {
  for (;;) {
    const out = await client.send(new ReceiveMessageCommand({ QueueUrl: JOBS, MaxNumberOfMessages: 10, WaitTimeSeconds: 20 }));
    for (const message of out.Messages ?? []) {
      const beat = keepHidden(message.ReceiptHandle);
      console.log(message.Body);
      clearInterval(beat);
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}
