"""A worker that receives up to 10 messages a request."""
import boto3

sqs = boto3.client("sqs")
JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, WaitTimeSeconds=20, MaxNumberOfMessages=10)
        for message in out.get("Messages", []):
            print(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
