"""A throttling proxy for benches/throttle.sh: forwards to moto, and answers
a share of the requests (every attempt drawn alone, from a fixed seed) with
the throttling error of the service's protocol, as tests/common/faults.rs
does: SQS's JSON RequestThrottled, Lambda's 429 TooManyRequestsException,
CloudWatch's awsQuery Throttling.

    python throttle_proxy.py UPSTREAM_PORT SHARE PORT_FILE
"""
import http.client
import http.server
import random
import sys
import threading

upstream, share, port_file = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
draw, lock = random.Random(1), threading.Lock()
counts = {"forwarded": 0, "throttled": 0}

THROTTLE = {
    "sqs": (400, {"Content-Type": "application/x-amz-json-1.0", "x-amzn-query-error": "RequestThrottled;Sender"},
            b'{"__type":"com.amazonaws.sqs#RequestThrottled","message":"Request is throttled."}'),
    "lambda": (429, {"Content-Type": "application/json", "x-amzn-ErrorType": "TooManyRequestsException"},
               b'{"Reason":"CallerRateLimitExceeded","Type":"User","message":"Rate exceeded"}'),
}
QUERY = (400, {"Content-Type": "text/xml"},
         b"<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>Rate exceeded</Message>"
         b"</Error><RequestId>0</RequestId></ErrorResponse>")


class Proxy(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def handle_one(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        service = self.headers.get("Authorization", "").partition("Credential=")[2].split("/")[3:4]
        with lock:
            throttled = draw.random() < share
            counts["throttled" if throttled else "forwarded"] += 1
        if throttled:
            status, headers, answer = THROTTLE.get(service[0] if service else "", QUERY)
        else:
            conn = http.client.HTTPConnection("127.0.0.1", upstream)
            conn.request(self.command, self.path, body, dict(self.headers))
            reply = conn.getresponse()
            status, answer = reply.status, reply.read()
            headers = {k: v for k, v in reply.getheaders() if k.lower() not in ("connection", "transfer-encoding", "content-length")}
            conn.close()
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = do_POST = handle_one


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Proxy)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
try:
    server.serve_forever()
finally:
    print(counts, file=sys.stderr)
