#!/usr/bin/env bash
# How long the audit page takes to write and to load, for 1,000 and 10,000
# queues. Not a test: it always exits 0, and timings belong to a quiet
# machine, not to CI.
#
#   benches/html.sh                                     # builds release first
#   SQSGUARD_BIN=target/debug/sqsguard benches/html.sh  # times that binary, no build
#   HTML_SIZES="1000 10000 30000" benches/html.sh       # other sizes (default "1000 10000")
#
# For each size N, benches/gen_audit.py writes a synthetic audit report of N
# queues (findings on every queue, 4 accounts x 2 Regions, one pair not
# audited). Then:
#   - writing: `sqsguard report merge REPORT --format html --output PAGE`,
#     beside `--format json` of the same report (reading and merging cost
#     the same; the difference is the page), with hyperfine (1 warmup, 5
#     runs) when it is installed, else best of 5 with GNU time;
#   - the page's size;
#   - loading: tests/mermaid/check_page.js opens the page in headless
#     Chromium (offline) and reports how long until its tables and graph
#     are built (load_ms) and how long a text filter takes (filter_ms),
#     best of 3.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source benches/common.sh

read -r -a sizes <<<"${HTML_SIZES:-1000 10000}"
for n in "${sizes[@]}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "html.sh: HTML_SIZES: not a size: $n" >&2; exit 2; }
done

# Seconds of the best of 5 runs of "$@".
best_of_5() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --runs 5 --export-json "$tmp/h.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.3f" % json.load(open(sys.argv[1]))["results"][0]["min"])' "$tmp/h.json"
  else
    for _ in 1 2 3 4 5; do
      /usr/bin/time -f %e -o "$tmp/t" "$@" >/dev/null 2>&1 || true
      cat "$tmp/t"
    done | sort -n | sed -n 1p
  fi
}

printf '%8s %10s %10s %10s %12s %12s\n' queues json_s html_s page_MB load_ms filter_ms
for n in "${sizes[@]}"; do
  python3 benches/gen_audit.py "$n" "$tmp/audit.json"
  json_s=$(best_of_5 "$bin" report merge "$tmp/audit.json" --format json --fail-on never --output "$tmp/out.json")
  html_s=$(best_of_5 "$bin" report merge "$tmp/audit.json" --format html --fail-on never --output "$tmp/page.html")
  mb=$(python3 -c 'import os,sys; print("%.1f" % (os.path.getsize(sys.argv[1]) / 1048576))' "$tmp/page.html")
  load=; filter=
  if [ -d tests/mermaid/node_modules/puppeteer ] && [ -x /usr/bin/chromium ]; then
    for _ in 1 2 3; do
      node tests/mermaid/check_page.js "$tmp/page.html" --filter q00042 >"$tmp/page.out"
      python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["load_ms"], r["filter_ms"])' "$tmp/page.out"
    done | sort -n >"$tmp/loads"
    read -r load filter <"$tmp/loads"
  fi
  printf '%8s %10s %10s %10s %12s %12s\n' "$n" "$json_s" "$html_s" "$mb" "${load:-n/a}" "${filter:-n/a}"
done
