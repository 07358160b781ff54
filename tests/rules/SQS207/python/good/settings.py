"""Where the worker's queue is."""
import os

JOBS = os.environ.get("JOBS_URL", "https://sqs.us-east-1.amazonaws.com/123456789012/jobs")
