#!/usr/bin/env bash
# What compiling the code patterns costs: each pattern file alone as a
# tree-sitter query, the sum, and each language's patterns compiled as a
# run compiles them the first time it meets the language ("(compiled)": a
# flat language's patterns read for the walk, their regexes compiled; Go's
# and Java's, one query). Not a test: timings belong to a quiet machine,
# not to CI.
#
#   benches/queries.sh     # release profile, best of 5 per line, in ms
#
# Compiling a tree-sitter query analyses each pattern against the grammar:
# a pattern whose steps nest below an expression costs about half a
# millisecond to a few, a flat one almost nothing, and each query a fixed
# part that grows with the grammar (docs/speed.md, "Compiling the patterns").
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo test --release --locked -q -p sqsguard-code --lib -- --ignored --nocapture query_compile_times 2>/dev/null |
  grep -v '^\(running\|test \|$\)'
