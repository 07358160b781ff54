#!/usr/bin/env bash
# What compiling the code patterns costs: each pattern file alone, the sum,
# and each language's patterns compiled as the one query a run compiles
# (the first time it meets the language). Not a test: timings belong to a
# quiet machine, not to CI.
#
#   benches/queries.sh     # release profile, best of 5 per line, in ms
#
# Compiling a tree-sitter query analyses each pattern against the grammar:
# a pattern whose steps nest below an expression costs about half a
# millisecond to a few, a flat one almost nothing, and each query a fixed
# part that grows with the grammar (docs/speed.md, "Reading the code").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo test --release --locked -q -p sqsguard-code --lib -- --ignored --nocapture query_compile_times 2>/dev/null |
  grep -v '^\(running\|test \|$\)'
