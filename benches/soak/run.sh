#!/usr/bin/env bash
# run.sh: a soak of the release mcp-demo over Streamable HTTP (loopback):
# 1,000 concurrent clients calling tools for minutes while the server's
# memory is sampled, then 10,000 idle keep-alive connections held against
# it; reports throughput, latency, and the server's memory over the soak
# and per held connection.
#
#   benches/soak/run.sh                    # both phases: a 180 s soak, 10,000 held connections
#   benches/soak/run.sh soak               # the soak alone
#   DURATION=600 benches/soak/run.sh soak  # a 10-minute soak
#   CONNECTIONS=5000 HOLD=60 benches/soak/run.sh hold
#
# soak: CLIENTS (default 1,000) clients, each on its own keep-alive HTTP/1.1
# connection, call test_simple_text, greet and sales_by_region in a loop for
# DURATION seconds (default 180): nine in ten send stateless 2026-07-28
# requests, one in ten calls on a 2025-11-25 session (initialize,
# notifications/initialized) that it ends with DELETE and opens anew every
# 500 calls. Every answer is checked: HTTP 200, the JSON-RPC result of its
# request without `error`, the tool's expected text. The server's VmRSS is
# read every 5 s; the report gives calls/s, p50/p99 latency, the RSS at the
# start of the load, its range over the last two thirds, at the end, and
# its least-squares slope over the second half (MiB per minute).
#
# hold: CONNECTIONS (default 10,000) keep-alive connections each make one
# stateless call, then idle for HOLD seconds (default 10); the report gives
# the server's RSS growth per connection, whether all stayed open, and
# whether a call on a fresh connection was still answered. Keep HOLD under
# 28: the server closes a connection that sends no request head for 30 s
# (HttpConfig::header_timeout), and a closed one fails the phase.
#
# Each phase starts its own `mcp-demo --http` on a free port, in its own
# process (so its VmRSS is the server's alone), and stops it at the end or
# on exit; the server's log is shown when a phase fails. Exits non-zero on
# any failed request. Every connection takes a file descriptor in each
# process: the open-file limit is raised to 65536, or to the hard limit,
# as benches/listen/run.sh does. Builds release binaries. Linux only
# (reads /proc).
set -euo pipefail
cd "$(dirname "$0")/../.."
CONNECTIONS="${CONNECTIONS:-10000}"
phases=("$@")
((${#phases[@]})) || phases=(soak hold)
for phase in "${phases[@]}"; do
  [[ "$phase" == soak || "$phase" == hold ]] || {
    echo "usage: $0 [soak] [hold]" >&2
    exit 2
  }
done

need=$((${CONNECTIONS//_/} + 1024))
if ! ulimit -n 65536 2>/dev/null; then
  hard="$(ulimit -Hn)"
  if [[ "$hard" != unlimited ]] && ((hard < need)); then
    echo "run.sh: $CONNECTIONS connections need an open-file limit of at least $need," \
      "but the hard limit is $hard and cannot be raised here; raise it" \
      "(limits.conf, systemd LimitNOFILE, docker --ulimit nofile=65536)" \
      "or hold fewer: CONNECTIONS=$((hard - 1024)) $0" >&2
    exit 2
  fi
  ulimit -Sn "$hard"
fi

cargo build --release --locked -p soak-bench -p mcp-demo >&2
target="${CARGO_TARGET_DIR:-target}/release"
log="$(mktemp)"
server=""

stop() {
  if [[ -n "$server" ]]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    server=""
  fi
}
finish() {
  local status=$?
  stop
  if ((status != 0)) && [[ -s "$log" ]]; then
    echo "run.sh: the server's log ends:" >&2
    tail -n 20 "$log" >&2
  fi
  rm -f "$log"
}
trap finish EXIT
trap 'exit 130' INT TERM

for phase in "${phases[@]}"; do
  port="$("$target/soak-bench" port)"
  "$target/mcp-demo" --http "127.0.0.1:$port" 2>>"$log" &
  server=$!
  "$target/soak-bench" "$phase" "$port" "$server"
  stop
  echo
done
