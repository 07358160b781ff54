#!/usr/bin/env bash
# Runs every test sqsguard has, on a fresh clone: installs what the tests
# need, then `cargo test`. .ci/run calls exactly this.
#
# One build of the dependency tree serves everything: the dev profile
# (Cargo.toml: dependencies optimised, the AWS SDK not, no debug info), with
# the audit feature, so the audit tests against moto run in the same test
# binaries as the rest. Clippy lints the workspace's crates while they
# compile for the tests (clippy-driver as the compiler of this workspace's
# crates, which is what `cargo clippy` does), rather than in a second,
# check-only build of the whole tree.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The validators the generator's output must pass (cfn-lint, checkov,
# python-hcl2), moto, and pre-commit for the hook's test, in a project-local
# venv; reinstalled only when tests/requirements.txt changes. Microsoft's
# SARIF Multitool (`validate` checks SARIF against the schema and GitHub's
# ingestion rules) in tests/node/node_modules at the version
# tests/node/package-lock.json pins. All install in the background, at
# once, while cargo compiles: they wait on the network and the disk, cargo
# on the CPU.
# The wheel's tools (maturin, twine) get a venv of their own, .venv-wheel:
# their requirements conflict with checkov's. The editor server's clients
# install there too: pytest-lsp (.venv-lsp), the VS Code extension's
# toolchain (editors/vscode/node_modules) and Debian's neovim; and what
# renders `sqsguard graph` (Debian's chromium and graphviz, mermaid-cli).
venv_of() {
  local requirements=$1 venv=$2 stamp=$2/.requirements
  if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
    echo "tests/run.sh: installing $requirements into $venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    # Wheels to download rather than install ("# name==version" lines).
    sed -n 's/^# \([A-Za-z0-9_.-]*==[0-9][0-9.]*\)$/\1/p' "$requirements" |
      xargs -r "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --dest "$venv/find-links"
    cp "$requirements" "$stamp"
  fi
}
npm_of() {
  local prefix=$1 stamp=$1/node_modules/.sqsguard-lock
  if ! cmp -s "$prefix/package-lock.json" "$stamp" 2>/dev/null; then
    echo "tests/run.sh: installing $prefix/package-lock.json into $prefix/node_modules" >&2
    npm ci --prefix "$prefix" --no-audit --no-fund
    cp "$prefix/package-lock.json" "$stamp"
  fi
}
# Debian packages (installing them needs root, which CI is): Neovim,
# whose built-in client tests/ext/nvim.rs drives the server with; Chromium,
# which mermaid-cli renders `sqsguard graph`'s Mermaid in (tests/ext/graph.rs);
# Graphviz, which renders its DOT; jq, which the Action's job summary
# step runs (tests/it/action.rs).
debs() {
  local debs=()
  command -v nvim >/dev/null || debs+=(neovim)
  # (Liberation: fonts for Mermaid to measure its labels with; Debian
  # only recommends them with Chromium.)
  command -v chromium >/dev/null || debs+=(chromium fonts-liberation)
  command -v dot >/dev/null || debs+=(graphviz)
  command -v jq >/dev/null || debs+=(jq)
  if [ "${#debs[@]}" -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
      echo "tests/run.sh: installing Debian's ${debs[*]}" >&2
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${debs[@]}"
    else
      echo "tests/run.sh: ${debs[*]} missing and installing needs root: apt-get install ${debs[*]}" >&2
    fi
  fi
}
mermaid_of() {
  PUPPETEER_SKIP_DOWNLOAD=1 npm_of tests/mermaid
}
# Every install at once, each in the background with its own log in
# target/install/: they wait on the network and the disk, not on each
# other (pip, npm and apt each keep their own cache and folder).
# `installing` maps each one's process to its name.
installing=()
install_step() {
  local name=$1
  shift
  (
    begun=$SECONDS
    "$@"
    echo "tests/run.sh: $name installed in $((SECONDS - begun)) s"
  ) >"target/install/$name.log" 2>&1 &
  installing[$!]=$name
}
mkdir -p target
rm -rf target/install
mkdir target/install
install_step venv venv_of tests/requirements.txt .venv
install_step venv-wheel venv_of tests/requirements-wheel.txt .venv-wheel
# pytest-lsp, the client tests/ext/lsp.rs drives the server with: its own
# venv, since its pygls and lsprotocol pins are not checkov's concern.
install_step venv-lsp venv_of tests/lsp/requirements.txt .venv-lsp
install_step node npm_of tests/node
# The VS Code extension's toolchain (TypeScript, esbuild, vsce, the
# language client), for tests/ext/vscode.rs to check and package it.
install_step vscode npm_of editors/vscode
install_step debs debs
# mermaid-cli, at the version tests/mermaid/package-lock.json pins, with
# Debian's Chromium (tests/mermaid/puppeteer.json) instead of the browser
# puppeteer would download.
install_step mermaid mermaid_of
# Real AWS CDK for tests/ext/cdk.rs: the CLI, aws-cdk-lib and tsx at the
# versions tests/cdk/package-lock.json pins, and aws-cdk-lib for Python
# (tests/requirements-cdk.txt, the same release) in a venv of its own,
# .venv-cdk, since its pins are not checkov's.
install_step cdk npm_of tests/cdk
install_step venv-cdk venv_of tests/requirements-cdk.txt .venv-cdk

started=$SECONDS
step() { echo "tests/run.sh: $1 (at $((SECONDS - started)) s)" >&2; }

step "rustfmt"
# Rule files are modules of the catalog build.rs writes, which cargo fmt
# does not follow: they are named here.
cargo fmt --check -- crates/rules/src/sqs*.rs

step "build, with clippy on this workspace's crates"
export RUSTC_WORKSPACE_WRAPPER
RUSTC_WORKSPACE_WRAPPER=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
cargo test --features audit --locked --no-run

step "waiting for the test tools"
failed=0
for pid in "${!installing[@]}"; do
  if wait "$pid"; then
    tail -n 1 "target/install/${installing[$pid]}.log" >&2
  else
    cat "target/install/${installing[$pid]}.log" >&2
    echo "tests/run.sh: installing ${installing[$pid]} failed (its log above)" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] || exit 1
export SQSGUARD_VENV="$PWD/.venv"
export SQSGUARD_WHEEL_VENV="$PWD/.venv-wheel"
export SQSGUARD_LSP_VENV="$PWD/.venv-lsp"
export SQSGUARD_CDK_VENV="$PWD/.venv-cdk"

# The wheel `pip install sqsguard` gets, built by maturin from the
# artifacts the build above made (the same dev profile, features and
# compiler wrapper: only the binary is linked again, stripped), for
# tests/ext/wheel.rs to install into a fresh venv.
step "wheel"
rm -rf target/wheels
"$SQSGUARD_WHEEL_VENV/bin/maturin" build --quiet --locked --profile dev --features audit --out target/wheels

# Snapshots are reviewed, never written, when the tests run here.
export INSTA_UPDATE=no
# Each test binary runs under tests/timed.sh, which keeps libtest's time of
# each test; the runner is not part of any build, so nothing compiles again.
export SQSGUARD_TEST_TIMES="$PWD/target/test-times"
rm -rf "$SQSGUARD_TEST_TIMES"
host=$(rustc -vV | sed -n 's/^host: //p')
step "tests"
status=0
cargo test --features audit --locked --config "target.$host.runner = ['$PWD/tests/timed.sh']" "$@" || status=$?
step "done"

echo "tests/run.sh: the ten slowest tests" >&2
tests/slowest.sh "$SQSGUARD_TEST_TIMES" >&2 || true
exit "$status"
