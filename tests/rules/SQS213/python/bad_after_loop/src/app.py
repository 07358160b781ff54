import json
import logging

logger = logging.getLogger()


def handler(event, context):
    failures = []
    for record in event["Records"]:
        try:
            process(json.loads(record["body"]))
        except Exception:
            logger.exception("record %s failed", record["messageId"])
            failures.append({"itemIdentifier": record["messageId"]})
    if failures:
        # Meant to make the failure visible; it makes Lambda retry the whole batch.
        raise RuntimeError(f"{len(failures)} records failed")
    return {"batchItemFailures": failures}


def process(order):
    print(order["id"])
