"""A worker whose handler, in the same file, extends each message while it works and never deletes it."""
import json

import boto3

JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
sqs = boto3.client("sqs")


class Worker:
    def handle(self, message):
        sqs.change_message_visibility(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=300)
        job = json.loads(message["Body"])
        print("processing", job["id"])

    def run(self):
        while True:
            out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10, WaitTimeSeconds=20)
            for message in out.get("Messages", []):
                self.handle(message)
