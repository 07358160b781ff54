"""The orders queue's consumer: each order is processed on its own, and the
ones that fail are reported back, so only they are received again."""

import json


def handler(event, context):
    failures = []
    for record in event["Records"]:
        try:
            process(json.loads(record["body"]))
        except Exception:
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


def process(order):
    print(f"order {order['id']}: {len(order.get('lines', []))} lines")
