# Sourced by the benchmark scripts: the binary to measure ($bin: built in
# release, or $SQSGUARD_BIN as given) and a scratch folder ($tmp, removed on
# exit). Run from the repository's root.
if [ -n "${SQSGUARD_BIN:-}" ]; then
  bin=$SQSGUARD_BIN
else
  cargo build --release --locked -q
  bin=target/release/sqsguard
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
