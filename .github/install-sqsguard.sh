#!/usr/bin/env bash
# Installs a released sqsguard binary for the runner it runs on; used by
# action.yml. Downloads the release archive of this OS and architecture
# from SQSGUARD_BASE_URL/VERSION/, verifies it against its .sha256 file,
# and unpacks it into SQSGUARD_INSTALL_DIR. Nothing is unpacked, and the
# step fails, when the platform has no binary, the download fails or the
# checksum does not match. A file:// base URL works too (the tests use one).
#
#   SQSGUARD_VERSION=v0.1.0 SQSGUARD_BASE_URL=https://github.com/sqsguard/sqsguard/releases/download \
#   RUNNER_OS=Linux RUNNER_ARCH=X64 SQSGUARD_INSTALL_DIR=/opt/sqsguard .github/install-sqsguard.sh
set -euo pipefail

version=${SQSGUARD_VERSION:?the sqsguard version to install (a release tag, v0.1.0)}
base=${SQSGUARD_BASE_URL:?where the release archives are}
dest=${SQSGUARD_INSTALL_DIR:?the folder to install into}
os=${RUNNER_OS:?} arch=${RUNNER_ARCH:?}
fallback="cargo install --locked --git https://github.com/sqsguard/sqsguard --tag $version sqsguard"

fail() {
  echo "::error title=sqsguard::$1" >&2
  exit 1
}

case "$os/$arch" in
  Linux/X64) target=x86_64-unknown-linux-musl ext=tar.gz ;;
  Linux/ARM64) target=aarch64-unknown-linux-musl ext=tar.gz ;;
  macOS/X64) target=x86_64-apple-darwin ext=tar.gz ;;
  macOS/ARM64) target=aarch64-apple-darwin ext=tar.gz ;;
  Windows/X64) target=x86_64-pc-windows-msvc ext=zip ;;
  *) fail "no sqsguard release binary for runner $os/$arch; install it from source instead: $fallback" ;;
esac

archive="sqsguard-$version-$target.$ext"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for file in "$archive" "$archive.sha256"; do
  curl --fail --silent --show-error --location --retry 3 --output "$work/$file" "$base/$version/$file" ||
    fail "could not download $base/$version/$file"
done

expected=$(cut -d ' ' -f 1 <"$work/$archive.sha256")
if command -v sha256sum >/dev/null; then
  actual=$(sha256sum "$work/$archive" | cut -d ' ' -f 1)
else
  actual=$(shasum -a 256 "$work/$archive" | cut -d ' ' -f 1)
fi
[ -n "$expected" ] && [ "$expected" = "$actual" ] ||
  fail "checksum mismatch for $archive: $archive.sha256 says ${expected:-nothing}, the download is $actual; nothing was installed"

mkdir -p "$work/unpacked"
unpack() {
  case "$ext" in
    tar.gz) tar -xzf "$work/$archive" -C "$work/unpacked" ;;
    # Windows runners have 7-Zip (the release packs with it); unzip elsewhere.
    zip) if command -v 7z >/dev/null; then 7z x -y "-o$work/unpacked" "$work/$archive" >/dev/null; else unzip -q "$work/$archive" -d "$work/unpacked"; fi ;;
  esac
}
unpack || fail "could not unpack $archive; nothing was installed"
exe=sqsguard
[ "$ext" = zip ] && exe=sqsguard.exe
[ -f "$work/unpacked/$exe" ] || fail "$archive holds no $exe"
mkdir -p "$dest"
mv "$work/unpacked/$exe" "$dest/$exe"
chmod +x "$dest/$exe"
echo "installed sqsguard $version ($target) into $dest"
