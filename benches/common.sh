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

# moto's server on a free port of 127.0.0.1 ($port, pid $moto), from the
# test venv ($venv: SQSGUARD_VENV, else .venv, which tests/run.sh makes),
# once it answers. The caller's EXIT trap stops it.
start_moto() {
  venv=${SQSGUARD_VENV:-.venv}
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$venv/bin/moto_server" -H 127.0.0.1 -p "$port" >"$tmp/moto.log" 2>&1 &
  moto=$!
  until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null; do sleep 0.2; done
}
