#!/usr/bin/env python3
"""What a keystroke costs `sqsguard server`: the time from a `didChange` to
the `publishDiagnostics` of that version, and the server's resident memory.

    python3 benches/server.py BIN OUTDIR [CHANGES]

Writes two workspaces under OUTDIR and drives `BIN server` over stdio as an
editor does (Python 3.11 standard library only):

    template   one CloudFormation template of 500 resources, about 1 MB:
               a worker function and 166 sets of queue, dead-letter queue
               and mapping, each resource with the tags, descriptions and
               metadata real stacks carry; every set has findings
    module     a Terraform module of 40 files: a function in main.tf and 39
               files of 10 sets each (queue, dead-letter queue, mapping)
    inline     benches/gen_scale.py's `inline` template of 125 sets (500
               resources, 0.09 MB): each set a queue, its dead-letter
               queue, a mapping and a function of its own with inline
               Python (`Code.ZipFile`)
    inline-10mb  the same shape at 13,800 sets (55,200 resources, 10 MB),
               typed INLINE_10MB_CHANGES times (default 5): the first
               diagnostics alone take seconds there

SERVER_INPUTS (default "template module inline inline-10mb") picks some.

Each workspace is opened, its first diagnostics awaited, then CHANGES
(default 200) edits are typed one at a time, each one changing a queue's
VisibilityTimeout (a one-character edit as an editor sends it,
incremental), and the time until that version's diagnostics have arrived
(their last byte read, before the client decodes them) is taken. It prints p50, p95 and the maximum, the server's CPU
time per change (steadier than the time on a busy machine), the diagnostics per
publication, and the server's resident memory at its peak while typing
and a second after the last edit (VmHWM/VmRSS of /proc). Not a test: timings belong to a quiet machine.
"""

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_scale  # noqa: E402  (beside this script)

SETS = 166
FILES = 40
SETS_PER_FILE = 10
# benches/gen_scale.py's `inline` sets: 500 resources, and about 10 MB.
INLINE_SETS = 125
INLINE_10MB_SETS = 13800
ROLE = "arn:aws:iam::123456789012:role/worker"


def template() -> str:
    tags = "".join(
        f"        - Key: {k}\n          Value: {v}\n"
        for k, v in [
            ("team", "payments-platform"),
            ("cost-center", "cc-4711-orders"),
            ("service", "order-ingestion-pipeline"),
            ("owner", "payments-oncall@example.com"),
            ("data-classification", "confidential"),
            ("repository", "github.com/example/orders-infrastructure"),
        ]
    )
    words = "This queue holds order events between the checkout service and the fulfilment workers. " * 16
    out = [
        "AWSTemplateFormatVersion: '2010-09-09'\n",
        "Description: Order ingestion, one queue per tenant (benches/server.py)\n",
        "Resources:\n",
        "  Worker:\n",
        "    Type: AWS::Lambda::Function\n",
        "    Properties:\n",
        "      Runtime: python3.12\n",
        "      Handler: index.handler\n",
        f"      Role: {ROLE}\n",
        "      Timeout: 30\n",
        "      Code:\n        ZipFile: |\n          def handler(event, context):\n"
        "              return {'batchItemFailures': []}\n",
    ]
    for i in range(SETS):
        meta = f"    Metadata:\n      Documentation: >-\n        {words}\n      Runbook: https://runbooks.example.com/orders/q{i}\n"
        out.append(
            f"  Q{i}:\n    Type: AWS::SQS::Queue\n{meta}    Properties:\n"
            f"      QueueName: orders-tenant-{i:04d}\n      VisibilityTimeout: 30\n"
            f"      MessageRetentionPeriod: 345600\n"
            f"      RedrivePolicy:\n        deadLetterTargetArn: !GetAtt Q{i}Dlq.Arn\n        maxReceiveCount: 5\n"
            f"      Tags:\n{tags}"
        )
        out.append(
            f"  Q{i}Dlq:\n    Type: AWS::SQS::Queue\n{meta}    Properties:\n"
            f"      QueueName: orders-tenant-{i:04d}-dlq\n      MessageRetentionPeriod: 345600\n"
            f"      Tags:\n{tags}"
        )
        out.append(
            f"  Q{i}Mapping:\n    Type: AWS::Lambda::EventSourceMapping\n{meta}    Properties:\n"
            f"      EventSourceArn: !GetAtt Q{i}.Arn\n      FunctionName: !Ref Worker\n      BatchSize: 10\n"
        )
    return "".join(out)


def module(folder: str) -> None:
    with open(os.path.join(folder, "main.tf"), "w") as f:
        f.write(
            'resource "aws_lambda_function" "worker" {\n'
            '  function_name = "worker"\n'
            f'  role          = "{ROLE}"\n'
            '  handler       = "index.handler"\n'
            '  runtime       = "python3.12"\n'
            '  filename      = "worker.zip"\n'
            "  timeout       = 30\n"
            "}\n"
        )
    for n in range(FILES - 1):
        parts = []
        for s in range(SETS_PER_FILE):
            i = n * SETS_PER_FILE + s
            parts.append(
                f'resource "aws_sqs_queue" "q{i}" {{\n'
                f'  name                       = "orders-tenant-{i:04d}"\n'
                "  visibility_timeout_seconds = 30\n"
                "  message_retention_seconds  = 345600\n"
                "  redrive_policy = jsonencode({\n"
                f"    deadLetterTargetArn = aws_sqs_queue.q{i}_dlq.arn\n"
                "    maxReceiveCount     = 5\n"
                "  })\n"
                '  tags = { team = "payments-platform", service = "order-ingestion" }\n'
                "}\n\n"
                f'resource "aws_sqs_queue" "q{i}_dlq" {{\n'
                f'  name                      = "orders-tenant-{i:04d}-dlq"\n'
                "  message_retention_seconds = 345600\n"
                "}\n\n"
                f'resource "aws_lambda_event_source_mapping" "q{i}" {{\n'
                f"  event_source_arn = aws_sqs_queue.q{i}.arn\n"
                "  function_name    = aws_lambda_function.worker.arn\n"
                "  batch_size       = 10\n"
                "}\n\n"
            )
        with open(os.path.join(folder, f"sets_{n:02d}.tf"), "w") as f:
            f.write("".join(parts))


class Server:
    def __init__(self, binary: str, root: str):
        self.proc = subprocess.Popen(
            [binary, "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.next = 0
        uri = "file://" + root
        self.request("initialize", {"processId": os.getpid(), "rootUri": uri, "capabilities": {}})
        self.notify("initialized", {})

    def send(self, message: dict) -> None:
        body = json.dumps(message).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def read(self) -> dict:
        return json.loads(self.read_raw())

    def read_raw(self) -> bytes:
        length = 0
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return self.proc.stdout.read(length)

    def notify(self, method: str, params) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params):
        self.next += 1
        self.send({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == self.next and "method" not in message:
                return message.get("result")

    def published(self, uri: str, version: int) -> tuple[float, dict]:
        """The publication of `uri` at `version`, and when its last byte
        was read: the client's own decoding of the JSON is not the
        server's time."""
        while True:
            raw = self.read_raw()
            at = time.perf_counter()
            if b'"textDocument/publishDiagnostics"' not in raw[:100]:
                continue
            params = json.loads(raw)["params"]
            if params["uri"] == uri and params.get("version") == version:
                return at, params

    def memory(self) -> tuple[int, int]:
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        kib = lambda name: int(fields[name].split()[0])
        return kib("VmRSS"), kib("VmHWM")

    def cpu(self) -> float:
        """The server's CPU seconds so far (user and system, all threads):
        steadier than the time on a busy machine."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self) -> None:
        self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.wait(timeout=10)


def measure(binary: str, root: str, path: str, changes: int, label: str) -> None:
    text = open(path).read()
    uri = "file://" + path
    server = Server(binary, root)
    started = time.perf_counter()
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "", "version": 1, "text": text}})
    at, first = server.published(uri, 1)
    opened = at - started
    # The first `visibility...30` of the document: one character typed
    # over its last digit, back and forth.
    key = "VisibilityTimeout: 30" if path.endswith(".yaml") else "visibility_timeout_seconds = 30"
    at = text.index(key) + len(key) - 1
    line = text.count("\n", 0, at)
    character = at - (text.rfind("\n", 0, at) + 1)
    span = {"start": {"line": line, "character": character}, "end": {"line": line, "character": character + 1}}
    times = []
    counts = []
    cpu = server.cpu()
    for n in range(changes):
        version = n + 2
        digit = "1" if n % 2 == 0 else "0"
        change = {"range": span, "text": digit}
        sent = time.perf_counter()
        server.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
        )
        at, params = server.published(uri, version)
        times.append(at - sent)
        counts.append(len(params["diagnostics"]))
    cpu = (server.cpu() - cpu) / max(changes, 1)
    peak = server.memory()[1]
    # Resident once the typing pauses (the server gives memory back then).
    time.sleep(1)
    rss = server.memory()[0]
    server.stop()
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1000
    size = sum(os.path.getsize(os.path.join(root, f)) for f in os.listdir(root) if f.endswith((".tf", ".yaml")))
    print(
        f"{label:<44} open {opened * 1000:7.1f} ms   change p50 {pick(0.5):6.1f} ms  p95 {pick(0.95):6.1f} ms"
        f"  max {times[-1] * 1000:6.1f} ms  CPU {cpu * 1000:6.1f} ms a change   {counts[-1]} diagnostics on the document (first {len(first['diagnostics'])})"
        f"   RSS {rss / 1024:5.1f} MiB after a pause (peak {peak / 1024:5.1f} MiB)   input {size / 1e6:.2f} MB"
    )


def main() -> None:
    binary, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    changes = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    stack = os.path.join(out, "template")
    os.makedirs(stack, exist_ok=True)
    with open(os.path.join(stack, "template.yaml"), "w") as f:
        f.write(template())
    tf = os.path.join(out, "module")
    os.makedirs(tf, exist_ok=True)
    module(tf)
    inputs = os.environ.get("SERVER_INPUTS", "template module inline inline-10mb").split()
    resources = 1 + 3 * SETS
    if "template" in inputs:
        measure(binary, stack, os.path.join(stack, "template.yaml"), changes, f"template: {resources} resources")
    if "module" in inputs:
        label = f"module: {FILES} files, {1 + 3 * SETS_PER_FILE * (FILES - 1)} resources"
        measure(binary, tf, os.path.join(tf, "sets_00.tf"), changes, label)
    for name, sets, count in [
        ("inline", INLINE_SETS, changes),
        ("inline-10mb", INLINE_10MB_SETS, int(os.environ.get("INLINE_10MB_CHANGES", "5"))),
    ]:
        if name not in inputs:
            continue
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        gen_scale.write_inline(sets, folder)
        label = f"{name}: {4 * sets} resources, inline code"
        measure(binary, folder, os.path.join(folder, "template.yaml"), count, label)


if __name__ == "__main__":
    main()
