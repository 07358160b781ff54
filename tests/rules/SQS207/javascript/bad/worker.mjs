// A worker that processes each message and never deletes it.
import { SQSClient, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { work } from "./jobs.mjs";

const client = new SQSClient({});
const JOBS = process.env.JOBS_URL ?? "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll() {
  for (;;) {
    const { Messages = [] } = await client.send(
      new ReceiveMessageCommand({ QueueUrl: JOBS, WaitTimeSeconds: 20, MaxNumberOfMessages: 10 }),
    );
    await Promise.all(Messages.map(async (message) => work(JSON.parse(message.Body))));
  }
}
