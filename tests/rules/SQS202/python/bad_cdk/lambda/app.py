import json


def handler(event, context):
    for record in event["Records"]:
        process(json.loads(record["body"]))


def process(order):
    print(order["id"])
