// A worker whose requests SQS accepts.
import {
  SQSClient,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  SendMessageBatchCommand,
} from "@aws-sdk/client-sqs";

const client = new SQSClient({});
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";
const ORDERS = "https://sqs.us-east-1.amazonaws.com/123456789012/orders.fifo";
const BATCH = 10;

export async function poll() {
  for (;;) {
    const out = await client.send(
      new ReceiveMessageCommand({ QueueUrl: JOBS, WaitTimeSeconds: 20, MaxNumberOfMessages: BATCH }),
    );
    for (const message of out.Messages ?? []) {
      await client.send(new DeleteMessageCommand({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle }));
    }
  }
}

export async function send(orderId, body) {
  await client.send(
    new SendMessageCommand({
      QueueUrl: ORDERS,
      MessageBody: body,
      MessageGroupId: orderId,
      MessageDeduplicationId: orderId,
    }),
  );
}

export async function sendAll() {
  return client.send(
    new SendMessageBatchCommand({
      QueueUrl: JOBS,
      Entries: [
        { Id: "1", MessageBody: "job" },
        { Id: "2", MessageBody: "job" },
        { Id: "3", MessageBody: "job" },
        { Id: "4", MessageBody: "job" },
        { Id: "5", MessageBody: "job" },
        { Id: "6", MessageBody: "job" },
        { Id: "7", MessageBody: "job" },
        { Id: "8", MessageBody: "job" },
        { Id: "9", MessageBody: "job" },
        { Id: "10", MessageBody: "job" },
      ],
    }),
  );
}

export async function sendLater(body) {
  return client.send(
    new SendMessageBatchCommand({
      QueueUrl: JOBS,
      Entries: [
        { Id: "now", MessageBody: body },
        { Id: "later", MessageBody: body, DelaySeconds: 900 },
      ],
    }),
  );
}
