"""A worker whose deletes and visibility changes name the message wrongly."""
import boto3

from jobs import process
from settings import JOBS

sqs = boto3.client("sqs")


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        for message in out.get("Messages", []):
            handle = message["Body"]
            sqs.change_message_visibility(QueueUrl=JOBS, ReceiptHandle=handle, VisibilityTimeout=120)
            process(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["MessageId"])
