"""A worker that receives one message a request, in a loop."""
import boto3

sqs = boto3.client("sqs")
JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, WaitTimeSeconds=20)
        for message in out.get("Messages", []):
            print(message["Body"])
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])
