#!/usr/bin/env bash
# Prints the ten slowest tests of a run from the logs tests/timed.sh keeps
# (one per test binary, named by the binary less cargo's hash), slowest
# first. tests/run.sh calls it last; it never changes the run's status.
#
# Every stage reads all of its input: a stage that stops reading early
# (`head`) kills the one before it with SIGPIPE as soon as the sorted
# list outgrows the pipe's buffer, and under `pipefail` a whole green run
# then exits 141.
set -uo pipefail
dir=${1:?usage: tests/slowest.sh DIR}
for log in "$dir"/*.log; do
  [ -e "$log" ] || continue
  binary=$(basename "$log" .log)
  sed -n "s/^test \([^ ]*\) \.\.\. [A-Za-z]* <\([0-9.]*\)s>\$/\2 ${binary%-*} \1/p" "$log"
done | sort -rn | awk 'NR <= 10 { printf "  %8.1f s  %s  %s\n", $1, $2, $3 }'
