// A worker (AWS SDK for JavaScript v2) that extends each message's
// visibility while it works, and never deletes it.
import AWS from "aws-sdk";

const sqs = new AWS.SQS();
const JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

export async function poll(): Promise<void> {
  while (true) {
    const out = await sqs.receiveMessage({ QueueUrl: JOBS, WaitTimeSeconds: 20, MaxNumberOfMessages: 10 }).promise();
    for (const message of out.Messages ?? []) {
      await sqs
        .changeMessageVisibility({ QueueUrl: JOBS, ReceiptHandle: message.ReceiptHandle!, VisibilityTimeout: 300 })
        .promise();
      console.log("processing", message.Body);
    }
  }
}
