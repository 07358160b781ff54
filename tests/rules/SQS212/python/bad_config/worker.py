"""A worker whose client, configured in settings.py, gives up after 10 s on a 20 s long poll."""
import boto3
from botocore.config import Config

from settings import JOBS, READ_TIMEOUT, WAIT_SECONDS

sqs = boto3.client("sqs", config=Config(connect_timeout=5, read_timeout=READ_TIMEOUT))


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10, WaitTimeSeconds=WAIT_SECONDS)
        for message in out.get("Messages", []):
            print(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
