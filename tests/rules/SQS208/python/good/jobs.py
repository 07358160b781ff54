"""What the worker does with a message."""


def process(body):
    print(body)
