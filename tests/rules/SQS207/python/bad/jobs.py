"""What the worker does with a message's body."""
import json
import logging

logger = logging.getLogger(__name__)


def process(body):
    job = json.loads(body)
    logger.info("processing job %s", job["id"])
