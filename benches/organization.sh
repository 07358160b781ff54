#!/usr/bin/env bash
# The organization audit at scale against moto: an organization of
# ACCOUNTS accounts (50: the management account and 49 members, one whose
# role the auditor may not assume), QUEUES queues (20) in each of two
# Regions of each, moto's IAM enforcement on. Prints the wall time, the
# calls (total, and the most any account took against its budget of two
# Regions x 5 calls + 1.1 a queue + 1 AssumeRole) and the pairs left
# unaudited. Not a test: it always exits 0, and times belong to a quiet
# machine. Needs the test venv (tests/run.sh makes it) and a build with the
# audit feature:
#
#   SQSGUARD_BIN=target/debug/sqsguard benches/organization.sh   # after cargo build --features audit
#   ACCOUNTS=10 QUEUES=5 benches/organization.sh                 # builds release --features audit first
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
accounts=${ACCOUNTS:-50}
queues=${QUEUES:-20}
if [ -z "${SQSGUARD_BIN:-}" ]; then
  cargo build --release --locked -q --features audit
  SQSGUARD_BIN=target/release/sqsguard
fi
# shellcheck source=benches/common.sh
. benches/common.sh

start_moto
trap 'kill $moto 2>/dev/null; rm -rf "$tmp"' EXIT
endpoint="http://127.0.0.1:$port"

start=$SECONDS
"$venv/bin/python" tests/fixtures/audit/organization.py "$endpoint" SqsguardAudit "$queues" "$((accounts - 1))" >"$tmp/org.json"
echo "moto: $accounts accounts x 2 Regions x $queues queues set up in $((SECONDS - start)) s"

key=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["key"])' "$tmp/org.json")
secret=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["secret"])' "$tmp/org.json")
begin=$(date +%s.%N)
AWS_ACCESS_KEY_ID=$key AWS_SECRET_ACCESS_KEY=$secret AWS_EC2_METADATA_DISABLED=true \
  "$bin" audit --endpoint-url "$endpoint" --organization --role-name SqsguardAudit \
  --region us-east-1 --region eu-west-1 --format json --fail-on never >"$tmp/audit.json"
end=$(date +%s.%N)
python3 - "$tmp/audit.json" "$begin" "$end" "$queues" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
seconds = float(sys.argv[3]) - float(sys.argv[2])
queues = int(sys.argv[4])
s = doc["summary"]
per = s.get("api_calls_by_account", {})
budget = 2 * 5 + round(queues * 2 * 1.1 + 0.5) + 1
worst = max(per.values()) if per else 0
partial = sum(1 for g in s.get("unaudited", []) if g["partial"])
whole = sum(1 for g in s.get("unaudited", []) if not g["partial"])
print(f"audit: {seconds:.1f} s, {s['files']} queues, {len(doc['findings'])} findings, {s['api_calls']} calls "
      f"({s['api_calls'] / max(s['files'], 1):.2f} a queue); the most by one account {worst} (budget {budget}); "
      f"unaudited: {whole} pairs whole, {partial} in part")
PY
