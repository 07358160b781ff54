#!/usr/bin/env bash
# What a keystroke costs `sqsguard server` (benches/server.py says how it is
# measured): didChange to publishDiagnostics on a 500-resource template of
# about 1 MB, on a 40-file Terraform module, and on templates of functions
# with inline code (500 resources, and 10 MB), and the server's memory.
# Not a test: it always exits 0, and timings belong to a quiet machine.
#
#   benches/server.sh                                     # builds release first
#   SQSGUARD_BIN=target/debug/sqsguard benches/server.sh  # times that binary
#   CHANGES=500 benches/server.sh                         # edits per input (default 200)
#   SERVER_INPUTS="inline inline-10mb" benches/server.sh  # some inputs (default: all four)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=benches/common.sh
. benches/common.sh

python3 benches/server.py "$bin" "$tmp" "${CHANGES:-200}"
