#!/usr/bin/env bash
# How the time and memory of `sqsguard lint` grow with the size of its input.
# Not a test: it always exits 0, and timings belong to a quiet machine, not
# to CI.
#
#   benches/scale.sh                                     # builds release first
#   SQSGUARD_BIN=target/debug/sqsguard benches/scale.sh  # times that binary, no build
#   SCALE_SIZES="1000 6000 24000" benches/scale.sh       # other sizes (default "6000 24000")
#   SCALE_FORMATS=json benches/scale.sh                  # one output format (default "json pretty")
#   SCALE_KINDS="cloudformation plan" benches/scale.sh   # some input kinds (default: all eight)
#
# For each input kind (Terraform HCL and JSON, CloudFormation YAML, a
# Serverless Framework service, Terraform plan JSON) and each size N,
# benches/gen_scale.py writes one Lambda function and N sets of queue +
# dead-letter queue + event source mapping (3N + 1 resources, the same
# findings in every set); the `producers` kind is one queue fed by N SNS
# subscriptions with a policy of N statements (2N + 4 resources); the
# `inline` kind is N sets of queue + dead-letter queue + mapping + a
# function of its own with inline Python (4N resources), linted also with
# `--no-code` (the row `inline-nocode`), which its time is compared with.
# Each is
# linted with each output format: `json`
# (which computes every finding's fix, as its edits) and `pretty` (which
# computes them too, to mark the fixable ones, and draws a code frame for
# each finding):
#   - time: best of 3 cold runs, with hyperfine (after 1 warmup) when it is
#     installed, else with GNU time (10 ms resolution: install hyperfine for
#     small inputs);
#   - peak resident memory, and the number of findings (from the JSON
#     output), from one more run.
# Work linear in the input makes time(24000)/time(6000) about 4 (less, as
# start-up weighs more at the small size); the target is <= 4.5, and for
# other sizes 1.125 x (largest N / smallest N). Above it the verdict says
# SUPERLINEAR.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

read -r -a sizes <<<"${SCALE_SIZES:-6000 24000}"
for n in "${sizes[@]}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "scale.sh: SCALE_SIZES: not a size: $n" >&2; exit 2; }
done
read -r -a formats <<<"${SCALE_FORMATS:-json pretty}"
for f in "${formats[@]}"; do
  [[ $f == json || $f == pretty ]] || { echo "scale.sh: SCALE_FORMATS: not json or pretty: $f" >&2; exit 2; }
done
read -r -a kinds <<<"${SCALE_KINDS:-terraform terraform-json cloudformation serverless plan producers inline inline-nocode}"
for k in "${kinds[@]}"; do
  case $k in
    terraform | terraform-json | cloudformation | serverless | plan | producers | inline | inline-nocode) ;;
    *) echo "scale.sh: SCALE_KINDS: not an input kind: $k" >&2; exit 2 ;;
  esac
done

# shellcheck source=benches/common.sh
. benches/common.sh

# The path to lint for KIND generated in DIR.
input() {
  case $1 in
    terraform | terraform-json) echo "$2" ;;
    cloudformation | producers | inline | inline-nocode) echo "$2/template.yaml" ;;
    serverless) echo "$2/serverless.yml" ;;
    plan) echo "$2/plan.json" ;;
  esac
}

# How many resources KIND has at size N.
resources() {
  case $1 in
    producers) echo $((2 * $2 + 4)) ;;
    inline | inline-nocode) echo $((4 * $2)) ;;
    *) echo $((3 * $2 + 1)) ;;
  esac
}

# What KIND's runs add to `sqsguard lint`.
flags() {
  case $1 in
    inline-nocode) echo --no-code ;;
  esac
}

# The generator's kind for KIND.
generated() {
  case $1 in
    inline-nocode) echo inline ;;
    *) echo "$1" ;;
  esac
}

# Best wall-clock seconds of 3 runs of `sqsguard lint PATH --format FORMAT [FLAGS]`.
# sqsguard exits 1 when it finds problems, as it does here: failures are
# ignored. Pretty output to a pipe has no colours and wraps at COLUMNS.
seconds() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --runs 3 --ignore-failure --style none \
      --export-json "$tmp/hyperfine.json" "'$bin' lint '$1' --format $2 $3" >/dev/null
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["min"])' \
      "$tmp/hyperfine.json"
  else
    for _ in 1 2 3; do
      # GNU time writes "Command exited with non-zero status 1" first.
      # shellcheck disable=SC2086 # $3: no flag, or one
      /usr/bin/time -f %e -o "$tmp/time" "$bin" lint "$1" --format "$2" $3 >/dev/null 2>&1 || true
      tail -n 1 "$tmp/time"
    done | sort -g | sed -n 1p
  fi
}

# secs, mib: by kind:format:N; found, unread: by kind:N.
declare -A secs mib found unread
for kind in "${kinds[@]}"; do
  for n in "${sizes[@]}"; do
    dir=$tmp/$kind-$n
    python3 benches/gen_scale.py "$(generated "$kind")" "$n" "$dir"
    path=$(input "$kind" "$dir")
    echo "scale.sh: $kind, N=$n ($(resources "$kind" "$n") resources, $(du -sh "$path" | cut -f1))" >&2
    for format in "${formats[@]}"; do
      # Memory (and findings) first: this run also warms the page cache.
      status=0
      # shellcheck disable=SC2046 # no flag, or one
      /usr/bin/time -f %M -o "$tmp/time" "$bin" lint "$path" --format "$format" $(flags "$kind") \
        >"$tmp/out" 2>"$tmp/err" || status=$?
      if [ "$status" -gt 1 ]; then
        echo "scale.sh: sqsguard exited $status on $kind N=$n --format $format (0 or 1 expected):" >&2
        head -n 5 "$tmp/err" >&2
        secs[$kind:$format:$n]=-1   # not timed; shown as "failed"
      fi
      mib[$kind:$format:$n]=$(awk '{ printf "%.1f", $1 / 1024 }' <(tail -n 1 "$tmp/time"))
      if [ "$format" = json ]; then
        found[$kind:$n]=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["findings"]))' \
          "$tmp/out" 2>/dev/null || echo "?")
        # An input sqsguard refused (over its size limits) is fast, not flat.
        if grep -q '"rule": "SQS000"' "$tmp/out"; then
          echo "scale.sh: $kind N=$n: SQS000, the input was not read whole:" >&2
          grep -m 1 '"message"' "$tmp/out" >&2
          unread[$kind:$n]=1
        fi
      fi
      [ "$status" -gt 1 ] || secs[$kind:$format:$n]=$(seconds "$path" "$format" "$(flags "$kind")")
    done
    rm -rf "$dir"   # large N makes large files (N=100000: a 640 MB plan)
  done
done

echo
printf '%-15s %-7s %7s %10s %9s %9s %12s %9s\n' kind format N resources findings seconds us/resource "peak MiB"
for kind in "${kinds[@]}"; do
  for format in "${formats[@]}"; do
    for n in "${sizes[@]}"; do
      awk -v k="$kind" -v fm="$format" -v n="$n" -v f="${found[$kind:$n]:-?}" -v s="${secs[$kind:$format:$n]}" \
        -v m="${mib[$kind:$format:$n]}" -v r="$(resources "$kind" "$n")" \
        'BEGIN {
                 if (s < 0) printf "%-15s %-7s %7d %10d %9s %9s %12s %9s\n", k, fm, n, r, f, "failed", "-", m
                 else printf "%-15s %-7s %7d %10d %9s %9.3f %12.1f %9s\n", k, fm, n, r, f, s, s * 1e6 / r, m }'
    done
  done
done

# Scaling: time at the largest N over time at the smallest.
lo=$(printf '%s\n' "${sizes[@]}" | sort -n | sed -n 1p)
hi=$(printf '%s\n' "${sizes[@]}" | sort -n | tail -n 1)
[ "$lo" != "$hi" ] || exit 0
limit=$(awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.2f", 1.125 * hi / lo }')
echo
echo "time(N=$hi) / time(N=$lo), $(awk -v lo="$lo" -v hi="$hi" 'BEGIN { printf "%.1f", hi / lo }')x the input; target <= $limit:"
overall=flat
for kind in "${kinds[@]}"; do
  for format in "${formats[@]}"; do
    verdict=$(awk -v a="${secs[$kind:$format:$lo]}" -v b="${secs[$kind:$format:$hi]}" -v limit="$limit" \
      -v unread="${unread[$kind:$lo]:-}${unread[$kind:$hi]:-}" 'BEGIN {
      if (a < 0 || b < 0) { print "n/a (sqsguard failed)"; exit }
      if (unread != "") { print "n/a (an input was not read: SQS000)"; exit }
      if (a == 0) { print "n/a (too fast to time: install hyperfine)"; exit }
      r = b / a; printf "%6.2f  %s", r, (r <= limit ? "flat" : "SUPERLINEAR") }')
    printf '  %-15s %-7s %s\n' "$kind" "$format" "$verdict"
    case $verdict in
      *SUPERLINEAR*) overall=SUPERLINEAR ;;
      n/a*) [ "$overall" = SUPERLINEAR ] || overall="n/a (not every kind was timed)" ;;
    esac
  done
done
echo
echo "verdict: $overall"
