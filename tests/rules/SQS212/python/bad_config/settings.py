"""The worker's settings, in one module."""
import os

JOBS = os.environ.get("JOBS_URL", "https://sqs.us-east-1.amazonaws.com/123456789012/jobs")
READ_TIMEOUT = 10
WAIT_SECONDS = 20
