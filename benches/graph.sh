#!/usr/bin/env bash
# How the time and memory of `sqsguard graph` grow with the size of its
# input, and whether what it draws at the largest size renders. Not a test:
# it always exits 0, and timings belong to a quiet machine, not to CI.
#
#   benches/graph.sh                                       # builds release first
#   SQSGUARD_BIN=target/release/sqsguard benches/graph.sh  # times that binary, no build
#   GRAPH_SIZES="1500 3000 6000" benches/graph.sh          # the sizes (this is the default)
#   GRAPH_KINDS=terraform benches/graph.sh                 # default: cloudformation terraform
#   GRAPH_FORMATS=mermaid benches/graph.sh                 # default: mermaid dot json lint
#                       (lint: `sqsguard lint --format json` of the same input, for comparison)
#   GRAPH_RENDER=0 benches/graph.sh                        # skip the rendering
#   GRAPH_MERMAID_SIZES="250 6000" GRAPH_RENDER_TIMEOUT=3600 benches/graph.sh
#
# The inputs are benches/scale.sh's (benches/gen_scale.py): one function
# and N sets of queue + dead-letter queue + event source mapping, 3N + 1
# resources, four findings a set; drawn, 3N nodes (the function is a
# detail of its consumers) and 2N edges. For
# each kind, size and format:
#   - time: best of 3 runs (hyperfine when installed, else GNU time);
#   - peak resident memory, and the output's size, from one more run.
# Then the first kind's drawing is rendered as a reader would: the DOT by
# Graphviz (`dot -Tsvg`) at each size, the Mermaid by mermaid-cli
# (tests/mermaid, in Debian's Chromium) at GRAPH_MERMAID_SIZES (default
# "125 250 500"), with Mermaid's limits raised past its 50,000 characters
# and 500 edges (GitHub keeps them: the Action leaves a larger graph out of
# the job summary). Each render is timed and stopped after
# GRAPH_RENDER_TIMEOUT seconds (default 900), and its SVG's size printed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

read -r -a sizes <<<"${GRAPH_SIZES:-1500 3000 6000}"
for n in "${sizes[@]}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "graph.sh: GRAPH_SIZES: not a size: $n" >&2; exit 2; }
done
read -r -a kinds <<<"${GRAPH_KINDS:-cloudformation terraform}"
for k in "${kinds[@]}"; do
  case $k in
    terraform | terraform-json | cloudformation | serverless | plan) ;;
    *) echo "graph.sh: GRAPH_KINDS: not an input kind: $k" >&2; exit 2 ;;
  esac
done
read -r -a formats <<<"${GRAPH_FORMATS:-mermaid dot json lint}"
for f in "${formats[@]}"; do
  [[ $f == mermaid || $f == dot || $f == json || $f == lint ]] || { echo "graph.sh: GRAPH_FORMATS: not a format: $f" >&2; exit 2; }
done
render=${GRAPH_RENDER:-1}
deadline=${GRAPH_RENDER_TIMEOUT:-900}

# shellcheck source=benches/common.sh
. benches/common.sh

input() {
  case $1 in
    terraform | terraform-json) echo "$2" ;;
    cloudformation) echo "$2/template.yaml" ;;
    serverless) echo "$2/serverless.yml" ;;
    plan) echo "$2/plan.json" ;;
  esac
}

# The command that draws PATH in FORMAT to FILE; `lint` is `sqsguard lint
# --format json`, what graph adds its drawing to, for comparison.
draw() {
  case $2 in
    lint) echo "'$bin' lint '$1' --format json --fail-on never --quiet --sarif-file '$3'" ;;
    *) echo "'$bin' graph '$1' --format $2 --output '$3'" ;;
  esac
}

# Best wall-clock seconds of 3 runs of `draw PATH FORMAT`.
seconds() {
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 1 --runs 3 --style none --export-json "$tmp/hyperfine.json" \
      "$(draw "$1" "$2" "$tmp/timed")" >/dev/null 2>&1
    python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["min"])' "$tmp/hyperfine.json"
  else
    for _ in 1 2 3; do
      eval "/usr/bin/time -f %e -o '$tmp/time' $(draw "$1" "$2" "$tmp/timed")" >/dev/null 2>&1
      tail -n 1 "$tmp/time"
    done | sort -g | sed -n 1p
  fi
}

# The wall-clock time of a command, or "timeout" / "failed" and why.
timed() {
  local start end status=0
  start=$(date +%s.%N)
  timeout "$deadline" "$@" >"$tmp/render.log" 2>&1 || status=$?
  end=$(date +%s.%N)
  case $status in
    0) awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f s", b - a }' ;;
    124) echo "timeout (${deadline} s)" ;;
    *) echo "failed ($status) after $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s: $(grep -m 1 -i error "$tmp/render.log" || tail -n 1 "$tmp/render.log")" ;;
  esac
}

printf '%-15s %-8s %6s %6s %6s %9s %11s %9s %10s\n' kind format N nodes edges seconds us/node "peak MiB" "output KB"
declare -A secs
largest=${sizes[-1]}
for kind in "${kinds[@]}"; do
  for n in "${sizes[@]}"; do
    dir=$tmp/$kind-$n
    python3 benches/gen_scale.py "$kind" "$n" "$dir"
    path=$(input "$kind" "$dir")
    for format in "${formats[@]}"; do
      out=$tmp/graph-$kind-$n.$format
      eval "/usr/bin/time -f %M -o '$tmp/time' $(draw "$path" "$format" "$out")" >/dev/null 2>"$tmp/err" || {
        echo "graph.sh: sqsguard failed on $kind N=$n ($format):" >&2
        head -n 5 "$tmp/err" >&2
        continue
      }
      mib=$(awk '{ printf "%.1f", $1 / 1024 }' <(tail -n 1 "$tmp/time"))
      "$bin" graph "$path" --format json --output "$tmp/counts.json" 2>/dev/null
      read -r nodes edges < <(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d["nodes"]), len(d["edges"]))' "$tmp/counts.json")
      s=$(seconds "$path" "$format")
      secs[$kind:$format:$n]=$s
      printf '%-15s %-8s %6d %6d %6d %9.3f %11.1f %9s %10d\n' "$kind" "$format" "$n" "$nodes" "$edges" "$s" \
        "$(awk -v s="$s" -v n="$nodes" 'BEGIN { print s * 1e6 / n }')" "$mib" "$(($(wc -c <"$out") / 1000))"
      rm -f "$out"
    done
    rm -rf "$dir"
  done
done

lo=${sizes[0]}
if [ "$lo" != "$largest" ]; then
  echo
  echo "time(N=$largest) / time(N=$lo), $(awk -v a="$lo" -v b="$largest" 'BEGIN { printf "%.1f", b / a }')x the input:"
  for kind in "${kinds[@]}"; do
    for format in "${formats[@]}"; do
      awk -v k="$kind" -v f="$format" -v a="${secs[$kind:$format:$lo]:-0}" -v b="${secs[$kind:$format:$largest]:-0}" \
        'BEGIN { if (a > 0) printf "  %-15s %-8s %6.2f\n", k, f, b / a; else printf "  %-15s %-8s n/a\n", k, f }'
    done
  done
fi

[ "$render" = 1 ] || exit 0
# Rendering: the DOT by Graphviz at each size, the Mermaid by mermaid-cli at
# GRAPH_MERMAID_SIZES (Mermaid's layout grows with the square of the graph:
# past a few hundred pipelines it takes hours).
kind=${kinds[0]}
read -r -a mermaid_sizes <<<"${GRAPH_MERMAID_SIZES:-125 250 500}"
mmdc=tests/mermaid/node_modules/.bin/mmdc
echo '{"maxTextSize": 1000000000, "maxEdges": 1000000}' >"$tmp/mermaid.json"
# Puppeteer's own limit on one call (180 s) raised to the deadline.
python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); c["protocolTimeout"] = int(sys.argv[2]) * 1000; print(json.dumps(c))' \
  tests/mermaid/puppeteer.json "$deadline" >"$tmp/puppeteer.json"
echo
echo "rendering $kind (each stopped after $deadline s):"
for n in $(printf '%s\n' "${sizes[@]}" "${mermaid_sizes[@]}" | sort -n -u); do
  dir=$tmp/render-$n
  python3 benches/gen_scale.py "$kind" "$n" "$dir"
  path=$(input "$kind" "$dir")
  if [[ " ${sizes[*]} " == *" $n "* ]] && command -v dot >/dev/null; then
    "$bin" graph "$path" --format dot --output "$dir/graph.dot" 2>/dev/null
    rm -f "$dir/dot.svg"
    echo "  N=$n Graphviz dot -Tsvg: $(timed dot -Tsvg -o "$dir/dot.svg" "$dir/graph.dot"), SVG $(($(wc -c <"$dir/dot.svg" 2>/dev/null || echo 0) / 1000)) KB"
  fi
  if [[ " ${mermaid_sizes[*]} " == *" $n "* ]] && [ -x "$mmdc" ]; then
    "$bin" graph "$path" --format mermaid --output "$dir/graph.mmd" 2>/dev/null
    echo "  N=$n mermaid-cli (limits raised): $(timed "$mmdc" --puppeteerConfigFile "$tmp/puppeteer.json" \
      --configFile "$tmp/mermaid.json" --quiet -i "$dir/graph.mmd" -o "$dir/mermaid.svg"), SVG $(($(wc -c <"$dir/mermaid.svg" 2>/dev/null || echo 0) / 1000)) KB"
  fi
  rm -rf "$dir"
done
