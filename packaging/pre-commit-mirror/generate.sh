#!/usr/bin/env bash
# Writes the pre-commit mirror of sqsguard VERSION into DEST: the files of
# the repository sqsguard/sqsguard-pre-commit at its tag vVERSION, as
# ruff-pre-commit is to ruff. Its hooks are `language: python`: pre-commit
# pip-installs the mirror's own package (template/pyproject.toml), whose one
# dependency is the sqsguard wheel of the same version, so a hook runs the
# released binary and nothing is compiled. The release workflow
# (.github/workflows/release.yml, job pre-commit-mirror) commits and tags
# what this writes; tests/ext/precommit_mirror.rs runs pre-commit against it.
#
#   packaging/pre-commit-mirror/generate.sh 0.1.0 ../sqsguard-pre-commit
#
# DEST may be a checkout of the mirror: the files of the template are
# overwritten, nothing else is touched.
set -euo pipefail

usage="usage: generate.sh VERSION DEST (VERSION as Cargo.toml has it: 0.1.0)"
version=${1:?$usage}
dest=${2:?$usage}
if [ $# -ne 2 ]; then
  echo "$usage" >&2
  exit 2
fi
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  echo "generate.sh: '$version' is not a version such as 0.1.0 (the tag v0.1.0 is vVERSION)" >&2
  exit 2
fi
template="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/template"
mkdir -p "$dest"
for file in .pre-commit-hooks.yaml pyproject.toml README.md; do
  sed "s/@VERSION@/$version/g" "$template/$file" >"$dest/$file.partial"
  mv "$dest/$file.partial" "$dest/$file"
done
