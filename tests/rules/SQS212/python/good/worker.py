"""A worker whose client listens longer than its 20 s long poll."""
import boto3
from botocore.config import Config

JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
sqs = boto3.client("sqs", config=Config(connect_timeout=5, read_timeout=30))


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        for message in out.get("Messages", []):
            print(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
