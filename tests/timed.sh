#!/usr/bin/env bash
# The runner tests/run.sh gives cargo for the test binaries: runs one, as
# many of its tests at once as suits it (below), with libtest's time of
# each test (`--report-time`, which libtest accepts when RUSTC_BOOTSTRAP
# is in the test binary's own environment; the compiler never sees it, so
# nothing is built again), and keeps what it prints in
# $SQSGUARD_TEST_TIMES, from which tests/run.sh prints the slowest tests.
# Its output and exit status are the binary's own.
set -uo pipefail
binary=$1
shift
mkdir -p "$SQSGUARD_TEST_TIMES"
# The tests of external tools (tests/ext) mostly wait, not compute:
# terraform's AWS provider polls each queue it creates for about 25 s, the
# audit under the fault proxy sits out backoffs and timeouts, a pre-commit
# test waits on the other's cargo build. One test a core left the cores
# idle for half of that binary's run (CPU 375 s in 476 s of wall on two
# cores): six at a time. The in-repository tests (tests/it) compute, and
# keep libtest's default of one a core.
case "$(basename "$binary")" in
  ext-*) export RUST_TEST_THREADS="${RUST_TEST_THREADS:-6}" ;;
esac
RUSTC_BOOTSTRAP=1 "$binary" -Z unstable-options --report-time "$@" | tee -a "$SQSGUARD_TEST_TIMES/$(basename "$binary").log"
exit "${PIPESTATUS[0]}"
