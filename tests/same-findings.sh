#!/usr/bin/env bash
# Show that a change keeps every finding and every fix: lint the corpus,
# the examples and every fixture with two builds of sqsguard and diff what
# they print (`--format json`, then `--diff` with and without
# `--unsafe-fixes`). No output and exit 0: the same findings, notes and
# fix bytes. Used for restructurings that must not change behaviour
# (CONTRIBUTING.md, "Changing the code without changing what it finds").
#
#   tests/same-findings.sh OLD_BINARY NEW_BINARY [--keep DIR]
#
# Build the old binary from the base commit in a worktree of its own
# (`git worktree add /tmp/base BASE && cargo build --manifest-path
# /tmp/base/Cargo.toml`). Run from anywhere; paths in the output are
# relative to the repository root. A new rule shows up as new findings:
# pass `--ignore CODE` through SQSGUARD_SAME_ARGS to leave it out.
set -euo pipefail

old=$(realpath "${1:?old binary}")
new=$(realpath "${2:?new binary}")
keep=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

# The Terraform JSON twins of the HCL rule modules are made by the tests,
# not kept: written here first (cargo, as in CONTRIBUTING.md).
twins=target/same-findings-twins
rm -rf "$twins"
SQSGUARD_JSON_TWINS="$root/$twins" cargo test --quiet --features audit --locked --test it \
    terraform::write_json_twins -- --ignored --exact >/dev/null

# Every unit linted alone: each rule's fixture (tests/rules/CODE/FRONT_END/
# NAME, a file or a module's or project's folder; not its snapshots) and
# each JSON twin, each file or folder inside another fixture folder, each
# corpus project, each example.
units() {
    local d
    find tests/rules -mindepth 3 -maxdepth 3 ! -name '*.snap' | sort
    find "$twins" -mindepth 2 -maxdepth 2 | sort
    for d in tests/fixtures/*/*; do
        if [ -d "$d" ]; then
            find "$d" -mindepth 1 -maxdepth 1 | sort
        else
            echo "$d"
        fi
    done
    find tests/corpus examples tests/code_corpus -mindepth 1 -maxdepth 1 \
        ! -name '*.md' ! -name '*.tsv' ! -name LICENSES 2>/dev/null | sort
}

dump() {
    local bin=$1 out=$2 unit name extra
    read -r -a extra <<<"${SQSGUARD_SAME_ARGS:-}"
    mkdir -p "$out"
    while IFS= read -r unit; do
        name=${unit//\//__}
        {
            echo "== json"
            "$bin" lint --format json --fail-on never "${extra[@]}" "$unit" 2>&1 || echo "exit $?"
            echo "== diff"
            "$bin" lint --diff --fail-on never "${extra[@]}" "$unit" 2>&1 || echo "exit $?"
            echo "== diff --unsafe-fixes"
            "$bin" lint --diff --unsafe-fixes --fail-on never "${extra[@]}" "$unit" 2>&1 || echo "exit $?"
        } >"$out/$name"
    done < <(units)
}

work=${keep:-$(mktemp -d)}
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
dump "$old" "$work/old" &
dump "$new" "$work/new"
wait
count=$(find "$work/old" -type f | wc -l)
if diff -r "$work/old" "$work/new"; then
    echo "same findings and fixes on $count inputs" >&2
else
    echo "the two builds differ (above: < old, > new)" >&2
    exit 1
fi
