"""A worker whose heartbeat extends a message's visibility by 30 s every 40 s."""
import threading

import boto3

sqs = boto3.client("sqs")
JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
BEAT_SECONDS = 40
VISIBILITY_SECONDS = 30


def keep_hidden(handle, done):
    while not done.is_set():
        sqs.change_message_visibility(QueueUrl=JOBS, ReceiptHandle=handle, VisibilityTimeout=VISIBILITY_SECONDS)
        done.wait(BEAT_SECONDS)


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        for message in out.get("Messages", []):
            done = threading.Event()
            threading.Thread(target=keep_hidden, args=(message["ReceiptHandle"], done)).start()
            print(message["Body"])
            done.set()
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
