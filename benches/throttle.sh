#!/usr/bin/env bash
# One account-Region read through a proxy that throttles SHARE (0.3) of all
# requests, every attempt drawn alone from a fixed seed
# (benches/throttle_proxy.py), in front of moto holding SCENE ("problems":
# tests/fixtures/audit/scenario.py; or "load N" for N queues). Prints the
# wall time of the same audit unthrottled and throttled, its calls, and
# whether the throttled run came out as the clean one (or unaudited, and
# why). Not a test: it always exits 0, and times belong to a quiet machine.
# Needs the test venv (tests/run.sh makes it) and a build with the audit
# feature:
#
#   SQSGUARD_BIN=target/debug/sqsguard benches/throttle.sh   # after cargo build --features audit
#   SHARE=0.5 SCENE="load 200" benches/throttle.sh            # builds release --features audit first
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
share=${SHARE:-0.3}
scene=${SCENE:-problems}
if [ -z "${SQSGUARD_BIN:-}" ]; then
  cargo build --release --locked -q --features audit
  SQSGUARD_BIN=target/release/sqsguard
fi
# shellcheck source=benches/common.sh
. benches/common.sh

start_moto
trap 'kill $moto 2>/dev/null; rm -rf "$tmp"' EXIT
python3 benches/throttle_proxy.py "$port" "$share" "$tmp/proxy.port" 2>"$tmp/proxy.log" &
proxy=$!
trap 'kill $moto $proxy 2>/dev/null; rm -rf "$tmp"' EXIT
until [ -s "$tmp/proxy.port" ]; do sleep 0.1; done
# shellcheck disable=SC2086 # the scene is the scenario's arguments
"$venv/bin/python" tests/fixtures/audit/scenario.py "http://127.0.0.1:$port" $scene >/dev/null

run() {
  local endpoint=$1 out=$2 begin end
  begin=$(date +%s.%N)
  AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_EC2_METADATA_DISABLED=true \
    "$bin" audit --endpoint-url "$endpoint" --region us-east-1 --format json --fail-on never "${@:3}" >"$out" || true
  end=$(date +%s.%N)
  python3 -c "print(f'{$end - $begin:.1f}')"
}
clean_s=$(run "http://127.0.0.1:$port" "$tmp/clean.json" "$@")
throttled_s=$(run "http://127.0.0.1:$(cat "$tmp/proxy.port")" "$tmp/throttled.json" "$@")
python3 - "$tmp/clean.json" "$tmp/throttled.json" "$clean_s" "$throttled_s" "$share" <<'PY'
import json, sys
clean, throttled = (json.load(open(p)) for p in sys.argv[1:3])
# Queue URLs name the host asked (moto, or the proxy): compared without it.
def found(doc):
    return sorted((f["rule"], f["resource"].split("/", 3)[-1]) for f in doc["findings"])
same = found(clean) == found(throttled) and not throttled["summary"].get("unaudited")
gaps = [g["reason"] for g in throttled["summary"].get("unaudited", [])]
print(f"unthrottled: {sys.argv[3]} s, {clean['summary']['api_calls']} calls; "
      f"{float(sys.argv[5]):.0%} throttled: {sys.argv[4]} s, {throttled['summary']['api_calls']} calls; "
      + ("same result" if same else f"differs, unaudited: {gaps}"))
PY
