"""A worker whose requests SQS rejects: a 30 s wait, 20 messages, a delay on a FIFO send, 11 entries, visibility over 12 hours."""
import boto3

sqs = boto3.client("sqs")
JOBS = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"
ORDERS = "https://sqs.us-east-1.amazonaws.com/123456789012/orders.fifo"
BATCH = 20


def poll():
    while True:
        out = sqs.receive_message(QueueUrl=JOBS, WaitTimeSeconds=30, MaxNumberOfMessages=BATCH)
        for message in out.get("Messages", []):
            sqs.delete_message(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"])


def send(order_id, body):
    sqs.send_message(
        QueueUrl=ORDERS,
        MessageBody=body,
        MessageGroupId=order_id,
        MessageDeduplicationId=order_id,
        DelaySeconds=10,
    )


def send_all():
    return sqs.send_message_batch(
        QueueUrl=JOBS,
        Entries=[
            {"Id": "1", "MessageBody": "job"},
            {"Id": "2", "MessageBody": "job"},
            {"Id": "3", "MessageBody": "job"},
            {"Id": "4", "MessageBody": "job"},
            {"Id": "5", "MessageBody": "job"},
            {"Id": "6", "MessageBody": "job"},
            {"Id": "7", "MessageBody": "job"},
            {"Id": "8", "MessageBody": "job"},
            {"Id": "9", "MessageBody": "job"},
            {"Id": "10", "MessageBody": "job"},
            {"Id": "11", "MessageBody": "job"},
        ],
    )


def hide_longer(messages):
    return sqs.change_message_visibility_batch(
        QueueUrl=JOBS,
        Entries=[{"Id": "1", "ReceiptHandle": messages[0]["ReceiptHandle"], "VisibilityTimeout": 50000}],
    )


def hide_one_longer(message):
    sqs.change_message_visibility(QueueUrl=JOBS, ReceiptHandle=message["ReceiptHandle"], VisibilityTimeout=43201)
