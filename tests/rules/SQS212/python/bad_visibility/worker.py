"""A worker that long-polls with the queue's own wait, through a client that listens 30 s."""
import boto3
from botocore.config import Config

JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
sqs = boto3.client("sqs", config=Config(read_timeout=30))


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10)
        for message in out.get("Messages", []):
            print(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
