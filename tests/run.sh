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
# tests/node/package-lock.json pins. Both install in the background while
# cargo compiles: they wait on the network and the disk, cargo on the CPU.
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
install() {
  venv_of tests/requirements.txt .venv
  venv_of tests/requirements-wheel.txt .venv-wheel
  # pytest-lsp, the client tests/ext/lsp.rs drives the server with: its own
  # venv, since its pygls and lsprotocol pins are not checkov's concern.
  venv_of tests/lsp/requirements.txt .venv-lsp
  local node_stamp=tests/node/node_modules/.sqsguard-lock
  if ! cmp -s tests/node/package-lock.json "$node_stamp" 2>/dev/null; then
    echo "tests/run.sh: installing tests/node/package-lock.json into tests/node/node_modules" >&2
    npm ci --prefix tests/node --no-audit --no-fund
    cp tests/node/package-lock.json "$node_stamp"
  fi
  # The VS Code extension's toolchain (TypeScript, esbuild, vsce, the
  # language client), for tests/ext/vscode.rs to check and package it.
  local vscode_stamp=editors/vscode/node_modules/.sqsguard-lock
  if ! cmp -s editors/vscode/package-lock.json "$vscode_stamp" 2>/dev/null; then
    echo "tests/run.sh: installing editors/vscode/package-lock.json into editors/vscode/node_modules" >&2
    npm ci --prefix editors/vscode --no-audit --no-fund
    cp editors/vscode/package-lock.json "$vscode_stamp"
  fi
  # Debian packages (installing them needs root, which CI is): Neovim,
  # whose built-in client tests/ext/nvim.rs drives the server with; Chromium,
  # which mermaid-cli renders `sqsguard graph`'s Mermaid in (tests/ext/graph.rs);
  # Graphviz, which renders its DOT; jq, which the Action's job summary
  # step runs (tests/it/action.rs).
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
  # mermaid-cli, at the version tests/mermaid/package-lock.json pins, with
  # Debian's Chromium (tests/mermaid/puppeteer.json) instead of the browser
  # puppeteer would download.
  local mermaid_stamp=tests/mermaid/node_modules/.sqsguard-lock
  if ! cmp -s tests/mermaid/package-lock.json "$mermaid_stamp" 2>/dev/null; then
    echo "tests/run.sh: installing tests/mermaid/package-lock.json into tests/mermaid/node_modules" >&2
    PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix tests/mermaid --no-audit --no-fund
    cp tests/mermaid/package-lock.json "$mermaid_stamp"
  fi
}
mkdir -p target
install >target/install.log 2>&1 &
installing=$!

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
if ! wait "$installing"; then
  cat target/install.log >&2
  echo "tests/run.sh: installing the test tools failed" >&2
  exit 1
fi
export SQSGUARD_VENV="$PWD/.venv"
export SQSGUARD_WHEEL_VENV="$PWD/.venv-wheel"
export SQSGUARD_LSP_VENV="$PWD/.venv-lsp"

# The wheel `pip install sqsguard` gets, built by maturin from the
# artifacts the build above made (the same dev profile, features and
# compiler wrapper: only the binary is linked again, stripped), for
# tests/ext/wheel.rs to install into a fresh venv.
step "wheel"
rm -rf target/wheels
"$SQSGUARD_WHEEL_VENV/bin/maturin" build --quiet --locked --profile dev --features audit --out target/wheels

# Snapshots are reviewed, never written, when the tests run here.
export INSTA_UPDATE=no
step "tests"
cargo test --features audit --locked "$@"
step "done"
