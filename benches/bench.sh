#!/usr/bin/env bash
# Speed and memory of `sqsguard lint`, with cfn-lint and checkov on the same
# inputs for comparison. Not a test: timings belong to a quiet machine, not
# to CI.
#
#   benches/bench.sh            # builds release, installs hyperfine, cfn-lint and checkov if missing
#   SQSGUARD_BIN=path benches/bench.sh   # times that binary, no build
#
# Measures, with hyperfine (cold process each run):
#   1. one typical SAM template (examples/cloudformation/orders-sam.yaml)
#      with its Python handler, and with `--no-code` (the template alone:
#      what reading the handler costs is the difference)
#   2. one Terraform module of a few files calling a local module
#      (tests/fixtures/terraform/modules/local), and one plan JSON
#   3. the whole corpus (tests/corpus, 297 files, linted in parallel), with
#      and without `--no-code` (its templates hold inline Python and
#      JavaScript)
# and the peak resident memory of (1) with GNU time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

corpus=tests/corpus
one=examples/cloudformation/orders-sam.yaml

if ! command -v hyperfine >/dev/null; then
  apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi
# The test venv (tests/run.sh) has both at the versions tests/requirements.txt
# pins; otherwise a venv of their own.
venv=${SQSGUARD_VENV:-.venv}
if [ ! -x "$venv/bin/cfn-lint" ] || [ ! -x "$venv/bin/checkov" ]; then
  venv=target/bench-venv
  [ -x "$venv/bin/checkov" ] || { python3 -m venv "$venv" && "$venv/bin/pip" install -q 'cfn-lint==1.*' checkov; }
fi
# shellcheck source=benches/common.sh
. benches/common.sh

echo "== peak memory, one template =="
/usr/bin/time -f "%M KiB max resident" "$bin" lint "$one" >/dev/null

echo "== one template, cold process =="
hyperfine --warmup 3 --runs 50 -N --ignore-failure \
  "$bin lint $one" \
  "$bin lint $one --no-code"
hyperfine --warmup 1 --runs 5 -N --ignore-failure \
  "$venv/bin/cfn-lint $one" \
  "$venv/bin/checkov --quiet --compact -f $one"

echo "== one Terraform module, one plan JSON, cold process =="
hyperfine --warmup 3 --runs 50 -N --ignore-failure \
  "$bin lint tests/fixtures/terraform/modules/local" \
  "$bin lint tests/fixtures/terraform/plan/root_bad/plan.json"

echo "== whole corpus ($(find "$corpus" -type f | wc -l) files) =="
# cfn-lint only takes templates: give it the YAML/JSON files.
mapfile -t templates < <(find "$corpus" -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) | sort)
hyperfine --warmup 2 --runs 10 -N --ignore-failure \
  "$bin lint $corpus --format json" \
  "$bin lint $corpus --format json --no-code"
hyperfine --runs 1 --ignore-failure -n "cfn-lint on the ${#templates[@]} YAML/JSON files" "$venv/bin/cfn-lint ${templates[*]}"
hyperfine --runs 1 --ignore-failure -n "checkov on the corpus" "$venv/bin/checkov --quiet --compact -d $corpus"
