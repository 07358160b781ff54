"""A worker that deletes each message once it is processed."""
import logging

import boto3

from jobs import process
from settings import JOBS

logger = logging.getLogger(__name__)
sqs = boto3.client("sqs")


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        messages = out.get("Messages", [])
        if not messages:
            continue
        for message in messages:
            logger.info("received %s", message["MessageId"])
            process(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
