#!/usr/bin/env bash
# Runs every test sqsguard has, on a fresh machine: installs what the tests
# need, then `cargo test`. .ci/run calls exactly this.
#
# The tests run in release mode: the end-to-end corpus test runs the release
# binary, and one release build serves both that and the README's
# `cargo run --release -- lint examples/`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The validators the generator's output must pass (cfn-lint, checkov,
# python-hcl2), moto, and pre-commit for the hook's test, in a project-local
# venv; reinstalled only when tests/requirements.txt changes.
venv=.venv
stamp="$venv/.requirements"
if ! cmp -s tests/requirements.txt "$stamp" 2>/dev/null; then
  echo "tests/run.sh: installing tests/requirements.txt into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/requirements.txt
  cp tests/requirements.txt "$stamp"
fi
export SQSGUARD_VENV="$PWD/$venv"

# Microsoft's SARIF Multitool, whose `validate` checks the SARIF output
# against the schema and GitHub's ingestion rules (an npm package with a
# self-contained binary), in tests/node/node_modules at the version
# tests/node/package-lock.json pins; reinstalled only when that lock changes.
node_stamp=tests/node/node_modules/.sqsguard-lock
if ! cmp -s tests/node/package-lock.json "$node_stamp" 2>/dev/null; then
  echo "tests/run.sh: installing tests/node/package-lock.json into tests/node/node_modules" >&2
  npm ci --prefix tests/node --no-audit --no-fund
  cp tests/node/package-lock.json "$node_stamp"
fi

# Snapshots are reviewed, never written, when the tests run here.
export INSTA_UPDATE=no
cargo fmt --check
# Clippy over everything, the live audit (feature `audit`) included.
cargo clippy --all-targets --features audit --locked -- -D warnings
cargo test --release --locked "$@"
# The live audit against moto, in a debug build: the AWS SDK crates build
# in minutes there, against most of half an hour in release.
cargo test --features audit --locked --test audit "$@"
