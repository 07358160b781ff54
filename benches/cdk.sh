#!/usr/bin/env bash
# What locating CDK constructs costs: a real app of 50 stacks (TypeScript,
# each stack two `Pipeline` constructs of a queue, a function and its
# `SqsEventSource`, and a queue of its own: 350 resources with findings),
# synthesized by the CDK of tests/cdk, linted with its findings moved to the
# app's source and with `--no-cdk-source` (the assembly alone). The goal:
# locating adds at most 20 %. Not a test: it always exits 0; timings belong
# to a quiet machine.
#
#   benches/cdk.sh                                     # builds release first
#   SQSGUARD_BIN=target/release/sqsguard benches/cdk.sh
#   CDK_STACKS=200 benches/cdk.sh                      # another size
#   CDK_APP=/tmp/app benches/cdk.sh                    # keep the app there
#
# Needs tests/cdk/node_modules (tests/run.sh, or `npm ci --prefix tests/cdk`).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
stacks=${CDK_STACKS:-50}
modules=$PWD/tests/cdk/node_modules
[ -x "$modules/.bin/cdk" ] || { echo "benches/cdk.sh: npm ci --prefix tests/cdk first" >&2; exit 0; }
# shellcheck source=benches/common.sh
. benches/common.sh

app=${CDK_APP:-$tmp/app}
rm -rf "$app"
mkdir -p "$app/bin" "$app/lib"
ln -s "$modules" "$app/node_modules"
echo '{ "app": "npx tsx bin/app.ts" }' >"$app/cdk.json"
cp tests/fixtures/cdk/typescript/lib/pipeline.ts "$app/lib/pipeline.ts"
{
  echo 'import { App, Stack } from "aws-cdk-lib";'
  echo 'import * as sqs from "aws-cdk-lib/aws-sqs";'
  echo 'import { Pipeline } from "../lib/pipeline";'
  echo 'const app = new App();'
  echo 'class Workers extends Stack {}'
  for i in $(seq 1 "$stacks"); do
    echo "const s$i = new Workers(app, \"Workers$i\");"
    echo "new Pipeline(s$i, \"Orders\");"
    echo "new Pipeline(s$i, \"Payments\");"
    echo "new sqs.Queue(s$i, \"Audit\");"
  done
} >"$app/bin/app.ts"
(cd "$app" && CDK_DISABLE_VERSION_CHECK=1 CDK_HOME=$tmp/home "$modules/.bin/cdk" synth --quiet --no-notices >/dev/null 2>&1)

best() {
  local best=
  for _ in 1 2 3 4 5; do
    /usr/bin/time -f %e -o "$tmp/time" "$bin" lint "$app" --format json "$@" >/dev/null 2>&1 || true
    t=$(tail -n 1 "$tmp/time")
    best=$(awk -v a="${best:-$t}" -v b="$t" 'BEGIN { print (b < a ? b : a) }')
  done
  echo "$best"
}
located=$(best)
alone=$(best --no-cdk-source)
moved=$("$bin" lint "$app" --format json 2>/dev/null | python3 -c 'import json, sys
print(sum("synthesized_at" in f for f in json.load(sys.stdin)["findings"]))' || true)
echo "stacks: $stacks; findings moved to the source: $moved"
echo "lint, findings at the constructs: ${located} s"
echo "lint --no-cdk-source (the assembly alone): ${alone} s"
awk -v a="$located" -v b="$alone" 'BEGIN { printf "ratio: %.2f (goal: at most 1.20)\n", a / b }'
