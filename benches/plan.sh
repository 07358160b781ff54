#!/usr/bin/env bash
# Terraform plans at scale: time and peak memory of `sqsguard lint plan.json`
# for a 20 MB and a 200 MB plan, against the targets (at most 1.2 s, and at
# most 1.5 x the file's size in memory, for 200 MB), and whether the plan gives
# the same findings as the `.tf` module it is the plan of. Not a test: it
# always exits 0; timings belong to a quiet machine, not to CI.
#
#   benches/plan.sh                                     # builds release first
#   SQSGUARD_BIN=target/release/sqsguard benches/plan.sh
#   PLAN_SIZES="3100 31000" benches/plan.sh             # sets of queue+DLQ+mapping
#
# The plan is the shape `terraform show -json` writes for the module
# benches/gen_scale.py generates (checked byte for byte against terraform
# 1.11 at a small N): 3,100 sets is 20 MB, 31,000 sets 200 MB.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

read -r -a sizes <<<"${PLAN_SIZES:-3100 31000}"
# shellcheck source=benches/common.sh
. benches/common.sh

# "rule resource" of every finding, sorted: what must match between a
# plan and its module (lines differ: one points into JSON, one into HCL).
findings() {
  python3 -c 'import json, sys
for f in sorted((f["rule"], f["resource"]) for f in json.load(open(sys.argv[1]))["findings"]):
    print(*f)' "$1"
}

printf '%-8s %9s %9s %10s %10s %8s  %s\n' N "plan MB" seconds "peak MB" "peak/size" findings "same as the module"
for n in "${sizes[@]}"; do
  python3 benches/gen_scale.py plan "$n" "$tmp/plan" >/dev/null
  python3 benches/gen_scale.py terraform "$n" "$tmp/module" >/dev/null
  plan=$tmp/plan/plan.json
  size=$(stat -c %s "$plan")
  # Peak memory, and the findings (this run also warms the page cache).
  /usr/bin/time -f %M -o "$tmp/time" "$bin" lint "$plan" --format json >"$tmp/plan.out" 2>/dev/null || true
  peak_kib=$(tail -n 1 "$tmp/time")
  "$bin" lint "$tmp/module" --format json >"$tmp/module.out" 2>/dev/null || true
  if cmp -s <(findings "$tmp/plan.out") <(findings "$tmp/module.out"); then same=yes; else same=NO; fi
  best=
  for _ in 1 2 3; do
    /usr/bin/time -f %e -o "$tmp/time" "$bin" lint "$plan" --format json >/dev/null 2>&1 || true
    t=$(tail -n 1 "$tmp/time")
    best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
  done
  awk -v n="$n" -v size="$size" -v s="$best" -v kib="$peak_kib" -v same="$same" \
    -v count="$(findings "$tmp/plan.out" | wc -l)" 'BEGIN {
      mb = size / 1e6; peak = kib * 1024 / 1e6
      printf "%-8d %9.1f %9.2f %10.1f %10.2f %8d  %s\n", n, mb, s, peak, peak / mb, count, same }'
  rm -rf "$tmp/plan" "$tmp/module"
done
echo
echo "targets at 200 MB: at most 1.2 s, peak/size at most 1.5"
