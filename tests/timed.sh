#!/usr/bin/env bash
# The runner tests/run.sh gives cargo for the test binaries: runs one with
# libtest's time of each test (`--report-time`, which libtest accepts when
# RUSTC_BOOTSTRAP is in the test binary's own environment; the compiler
# never sees it, so nothing is built again) and keeps what it prints in
# $SQSGUARD_TEST_TIMES, from which tests/run.sh prints the slowest tests.
# Its output and exit status are the binary's own.
set -uo pipefail
binary=$1
shift
mkdir -p "$SQSGUARD_TEST_TIMES"
RUSTC_BOOTSTRAP=1 "$binary" -Z unstable-options --report-time "$@" | tee -a "$SQSGUARD_TEST_TIMES/$(basename "$binary").log"
exit "${PIPESTATUS[0]}"
