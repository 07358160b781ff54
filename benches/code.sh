#!/usr/bin/env bash
# What reading the pipeline's code costs `sqsguard lint`. Not a test: it
# always exits 0, and timings belong to a quiet machine, not to CI.
#
#   benches/code.sh                                      # builds release first
#   SQSGUARD_BIN=target/debug/sqsguard benches/code.sh   # times that binary
#   CODE_FILES=2000 CODE_NOISE=20000 CODE_WORKERS=2000 benches/code.sh   # the sizes (the defaults)
#
# benches/gen_code.py writes a repository of CODE_FILES code files across
# Python, JavaScript, TypeScript, Go and Java (half Lambda handlers named by
# SAM templates, half SDK workers no template names), CODE_WORKERS workers
# as they poll in production (a receive loop, a client timeout, a
# heartbeat, deletes: the clean projects of SQS210 and SQS212, and the
# workers of SQS207 that never delete, across the five languages), and
# beside them CODE_NOISE source files that never call SQS. Timed (best of
# 3 after a warmup, hyperfine when installed):
#   - pipeline: the handlers, their templates and the workers (target < 1 s);
#   - pipeline --no-code: the templates alone;
#   - pipeline + noise: the extra files must cost < 0.5 s over the pipeline
#     (they are skipped by a byte pre-filter, never parsed);
# and the peak resident memory of each, which must stay near the templates'
# own (one file's tree at a time per core, not the repository's).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=benches/common.sh
. benches/common.sh

files=${CODE_FILES:-2000}
noise=${CODE_NOISE:-20000}
workers=${CODE_WORKERS:-2000}
python3 benches/gen_code.py "$tmp" "$files" "$noise" "$workers"

best() {
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 3 --export-json "$tmp/h.json" -i -N "$*" >/dev/null 2>&1
    python3 -c "import json; print('%.3f' % min(json.load(open('$tmp/h.json'))['results'][0]['times']))"
  else
    /usr/bin/time -f %e "$@" 2>&1 >/dev/null | tail -1
  fi
}
rss() {
  /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
}
run() {
  local label=$1
  shift
  printf '%-32s %8s s %8s KiB\n' "$label" "$(best "$bin" lint --format json --fail-on never "$@")" \
    "$(rss "$bin" lint --format json --fail-on never "$@")"
}
count=$("$bin" lint --format json --fail-on never "$tmp/pipeline" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["findings"]), "findings in", d["summary"]["files"], "files")')
echo "code bench: $files code files and $workers polling workers (+ $noise that never call SQS); $count"
run "pipeline" "$tmp/pipeline"
run "pipeline --no-code" --no-code "$tmp/pipeline"
run "pipeline + noise" "$tmp/pipeline" "$tmp/noise"

# One Python file of 262,000 lines `x=1` (1 MiB, 1.3 million syntax nodes):
# over the bound of nodes one file's analysis visits, it is a note after
# parsing alone (target < 1 s; it took 6 s when every pattern visited
# every node). Measured on a shared 2-core machine, release: 0.6 s CPU,
# 243 MB (the parse tree), where a file just under the bound (29,500
# lines, 147,500 nodes, analysed) takes 0.4 s.
mkdir -p "$tmp/long"
python3 - "$tmp/long/long.py" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write('import boto3\n\nsqs = boto3.client("sqs")\n' + "x=1\n" * 262000)
    f.write("\n\ndef poll(url):\n    return sqs.receive_message(QueueUrl=url)\n")
PY
run "one file of 262,000 lines" "$tmp/long"
