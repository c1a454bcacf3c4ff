#!/usr/bin/env bash
# run.sh: throughput of `tools/call` over Streamable HTTP, measured with wrk
# on loopback, for mcp-demo (a 2026-07-28 stateless request, and a call on a
# 2025-11-25 session) and for the bare axum + serde_json echo peer, in one
# run, printed with each row's ratio to the echo peer.
#
#   benches/http/run.sh                      # 10 s per row, 2 threads, 32 connections
#   DURATION=20 CONNECTIONS=64 benches/http/run.sh
#   PEER_URL=http://127.0.0.1:8000/mcp PEER_NAME=other benches/http/run.sh
#
# PEER_URL adds two rows for any other server already listening: a stateless
# 2026-07-28 call, and a call on a 2025-11-25 session opened with initialize
# (the tool called is MCP_TOOL, default test_simple_text).
# Needs wrk (Debian package `wrk`) and curl. Builds release binaries.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${DURATION:-10}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
TOOL="${MCP_TOOL:-test_simple_text}"
LUA="benches/http/tools-call.lua"
command -v wrk >/dev/null || { echo "run.sh: needs wrk (apt-get install wrk)" >&2; exit 2; }

cargo build --release --locked --bin mcp-demo --bin http-echo-peer >&2
target="${CARGO_TARGET_DIR:-target}/release"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

start() { # start NAME PORT CMD...
  local port="$2"
  shift 2
  "$@" >/dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && return 0
    sleep 0.1
  done
  echo "run.sh: nothing answers on port $port" >&2
  exit 1
}

# initialize URL: opens a 2025-11-25 session and prints its id.
initialize() {
  local url="$1" id
  id="$(curl -s -D - -o /dev/null "$url" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' |
    tr -d '\r' | awk -F': ' 'tolower($1) == "mcp-session-id" { print $2 }')"
  curl -s -o /dev/null "$url" -H 'content-type: application/json' -H "mcp-session-id: $id" \
    -H 'mcp-protocol-version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo "$id"
}

# measure NAME URL SESSION: one wrk run; prints "NAME requests/s".
measure() {
  local name="$1" url="$2" session="$3" out
  out="$(MCP_SESSION="$session" MCP_TOOL="$TOOL" wrk -t "$THREADS" -c "$CONNECTIONS" \
    -d "${DURATION}s" --latency -s "$LUA" "$url")"
  if grep -q "Non-2xx" <<<"$out"; then
    echo "run.sh: $name answered with errors:" >&2
    echo "$out" >&2
    exit 1
  fi
  printf '%s\t%s\t%s\n' "$name" "$(awk '/^Requests\/sec/ { print $2 }' <<<"$out")" \
    "$(awk '$1 == "99%" { print $2 }' <<<"$out")"
}

start demo 18181 "$target/mcp-demo" --http 127.0.0.1:18181
start echo 18182 "$target/http-echo-peer" 127.0.0.1:18182
demo="http://127.0.0.1:18181/mcp"

rows=()
rows+=("$(measure "axum+serde_json echo" http://127.0.0.1:18182/mcp "")")
rows+=("$(measure "mcp-demo 2026-07-28" "$demo" "")")
rows+=("$(measure "mcp-demo 2025-11-25 session" "$demo" "$(initialize "$demo")")")
if [[ -n "${PEER_URL:-}" ]]; then
  rows+=("$(measure "${PEER_NAME:-peer} 2026-07-28" "$PEER_URL" "")")
  rows+=("$(measure "${PEER_NAME:-peer} 2025-11-25 session" "$PEER_URL" "$(initialize "$PEER_URL")")")
fi

ceiling="$(cut -f 2 <<<"${rows[0]}")"
echo "tools/call $TOOL, wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, one run:"
printf '%-34s %12s %10s %10s\n' server "requests/s" "vs echo" "p99"
for row in "${rows[@]}"; do
  IFS=$'\t' read -r name rps p99 <<<"$row"
  printf '%-34s %12s %9.2fx %10s\n' "$name" "$rps" "$(awk -v a="$rps" -v b="$ceiling" 'BEGIN { print a / b }')" "$p99"
done
