#!/usr/bin/env python3
"""Generate an `sqsguard audit --format json` report of N queues, for
benches/html.sh and tests/ext/audit_html.rs (`report merge --format html`).

    python3 benches/gen_audit.py N OUT.json

The queues are spread over 4 accounts x 2 Regions (q00000 ... in order).
Every queue has findings, so the report names it: every 3rd has no
RedrivePolicy (SQS004, warning), every 5th a visibility timeout below its
function's (SQS002, error), the rest no encryption (SQS016, warning);
every 7th is FIFO (`.fifo`). The last queue's name holds a quote, `<`,
`&`, `<script>` and non-ASCII letters, and messages end in `</script>`:
the page must show them as text.
One account-Region is listed as not audited. Deterministic; Python 3.11
standard library only.
"""

import json
import sys

ACCOUNTS = ["111111111111", "222222222222", "333333333333", "444444444444"]
REGIONS = ["eu-west-1", "us-east-1"]
AWKWARD = "q\"<b>&amp;<script>-é-名"


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    findings = []
    per_pair = -(-n // (len(ACCOUNTS) * len(REGIONS)))
    for i in range(n):
        pair = i // per_pair
        account, region = ACCOUNTS[pair // len(REGIONS)], REGIONS[pair % len(REGIONS)]
        name = AWKWARD if i == n - 1 else f"q{i:05d}" + (".fifo" if i % 7 == 0 else "")
        url = f"https://sqs.{region}.amazonaws.com/{account}/{name}"

        def finding(rule, severity, message):
            findings.append({
                "rule": rule, "name": rule.lower(), "severity": severity, "file": None, "line": None,
                "column": None, "end_line": None, "end_column": None, "resource": url,
                "account": account, "region": region, "message": message, "fix": "see sqsguard explain " + rule,
            })

        if i % 3 == 0:
            finding("SQS004", "warning", f"queue {name} has no RedrivePolicy")
        if i % 5 == 0:
            finding("SQS002", "error", f"queue {name} has VisibilityTimeout 30 below its consumer's timeout 60")
        if i % 3 and i % 5:
            finding("SQS016", "warning", f"queue {name} is not encrypted</script><b>")
    count = lambda s: sum(1 for f in findings if f["severity"] == s)
    doc = {
        "version": 1,
        "findings": findings,
        "summary": {
            "files": n, "skipped": 0, "errors": count("error"), "warnings": count("warning"),
            "infos": count("info"), "suppressed": 0, "api_calls": 3 * n,
            "account_regions": len(ACCOUNTS) * len(REGIONS) + 1,
            "unaudited": [{"account": "555555555555", "region": "us-east-1", "partial": False,
                           "reason": "AssumeRole: AccessDenied <not authorized> & refused"}],
        },
        "notes": [{"file": None, "line": None, "column": None, "account": ACCOUNTS[0], "region": REGIONS[0],
                   "message": "a note with <angle> & \"quotes\""}],
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
