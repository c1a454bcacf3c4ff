#!/usr/bin/env bash
# run.sh: throughput, latency, CPU and memory of `tools/call` over Streamable
# HTTP, measured with wrk on loopback in one run, for:
#   - the floor: a bare axum + serde echo, no protocol, decoding the request
#     into borrowed typed fields and serializing its reply from them;
#   - rmcp (crates.io, the version pinned in rmcp-peer/Cargo.lock), stateless
#     with JSON replies;
#   - mcp-demo, a stateless 2026-07-28 request;
#   - the framework's plain echo (http-plain-server: the `echo` tool alone)
#     and the same tool with its features on (http-features-server: three
#     interceptors and a guard), 2026-07-28;
#   - with BASELINE=<git revision>, the plain echo again, built from that
#     revision's framework (the bench crate of this tree copied into it);
#   - legacy sessions: mcp-demo and rmcp, a call on a 2025-11-25 session.
# Each server is started afresh for each row, pinned to one core (SERVER_CPU,
# default 0) with the load generator pinned to another (LOAD_CPU, default 1).
# ROUNDS rounds each measure every row once, in turn, and every row reports
# its median round with the range of the rounds, leaving out those that other
# load disturbed (other processes' CPU time, from /proc) when any round was
# undisturbed. The table goes to stdout and benches/http/results.md (every
# round's measurements to benches/http/results.tsv), the chart to
# docs/images/http-bench.svg.
#
#   benches/http/run.sh                  # 5 rounds of 5 s per row, 32 and 1 connections
#   ROUNDS=3 DURATION=20 CONNECTION_COUNTS="64 8 1" benches/http/run.sh
#   BASELINE=HEAD~3 benches/http/run.sh  # adds the plain echo as built at HEAD~3
#
# Needs wrk (Debian package `wrk`), curl, taskset and git, and two cores.
# Builds three workspace crates and the rmcp peer with the `production`
# profile, and the report writer in release; the peer and the writer are
# cargo projects of their own (their own lock files), built into
# target/http-rmcp-peer and target/http-bench-report; a baseline is
# extracted to and built in target/http-baseline.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS="${ROUNDS:-5}"
DURATION="${DURATION:-5}"
WARMUP="${WARMUP:-2}"
CONNECTION_COUNTS="${CONNECTION_COUNTS:-32 1}"
SERVER_CPU="${SERVER_CPU:-0}"
LOAD_CPU="${LOAD_CPU:-1}"
RESULTS="${RESULTS:-benches/http/results.md}"
CHART="${CHART:-docs/images/http-bench.svg}"
LUA="benches/http/tools-call.lua"
SIMPLE_TEXT="This is a simple text response for testing."
for tool in wrk curl taskset; do
  command -v "$tool" >/dev/null || { echo "run.sh: needs $tool" >&2; exit 2; }
done
[[ "$(nproc --all)" -ge 2 ]] || { echo "run.sh: needs two cores" >&2; exit 2; }

target_root="${CARGO_TARGET_DIR:-target}"
# Every server is built with the same profile: `production` (release with fat
# LTO and one codegen unit), declared by the workspace and by the rmcp peer.
cargo build --profile production --locked -p mcp-demo -p http-echo-peer -p http-features-server >&2
cargo build --profile production --locked --manifest-path benches/http/rmcp-peer/Cargo.toml \
  --target-dir "$target_root/http-rmcp-peer" >&2
cargo build --release --locked --manifest-path benches/http/report/Cargo.toml \
  --target-dir "$target_root/http-bench-report" >&2
baseline_bin=""
if [[ -n "${BASELINE:-}" ]]; then
  # The baseline's own tree, with this tree's bench crate: the plain echo
  # server uses only API the framework had before.
  baseline_rev="$(git rev-parse --short "$BASELINE")"
  baseline_src="$target_root/http-baseline/src"
  rm -rf "$baseline_src"
  mkdir -p "$baseline_src"
  git archive "$baseline_rev" | tar -x -C "$baseline_src"
  rm -rf "$baseline_src/benches/http/features"
  cp -r benches/http/features "$baseline_src/benches/http/features"
  cargo build --profile production --locked --manifest-path "$baseline_src/Cargo.toml" \
    -p http-features-server --bin http-plain-server \
    --target-dir "$target_root/http-baseline/target" >&2
  baseline_bin="$target_root/http-baseline/target/production/http-plain-server"
fi
bin="$target_root/production"
rmcp_bin="$target_root/http-rmcp-peer/production/http-rmcp-peer"
report_bin="$target_root/http-bench-report/release/http-bench-report"
rmcp_version="$(awk '$0 == "name = \"rmcp\"" { getline; gsub(/"/, "", $3); print $3 }' \
  benches/http/rmcp-peer/Cargo.lock)"
ticks_per_second="$(getconf CLK_TCK)"

work="$(mktemp -d)"
server_pid=""
trap '[[ -n "$server_pid" ]] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# start PORT CMD...: starts a server pinned to SERVER_CPU; sets server_pid.
start() {
  local port="$1"
  shift
  taskset -c "$SERVER_CPU" "$@" >/dev/null 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && return 0
    sleep 0.1
  done
  echo "run.sh: nothing answers on port $port" >&2
  exit 1
}

# stop: ends the server started last.
stop() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

# initialize URL: opens a 2025-11-25 session and prints its id.
initialize() {
  local url="$1" id
  id="$(curl -s -D - -o /dev/null "$url" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' \
    -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' |
    tr -d '\r' | awk -F': ' 'tolower($1) == "mcp-session-id" { print $2 }')"
  [[ -n "$id" ]] || { echo "run.sh: $url opened no session" >&2; exit 1; }
  curl -s -o /dev/null "$url" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' -H "mcp-session-id: $id" \
    -H 'mcp-protocol-version: 2025-11-25' -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  echo "$id"
}

# other_ticks PID...: user + system ticks of every process but PID... and
# the kernel's threads, with those of the children each has reaped (a child
# that ends is counted by its parent from then on).
# A process may end between the listing of /proc and the reading of its
# stat file: the files are read by cat, which goes on past a missing one
# (awk would stop there).
other_ticks() {
  { cat /proc/[0-9]*/stat 2>/dev/null || true; } | awk -v exclude=" $* " '
    {
      pid = $1
      sub(/^.*\) /, "")
      if (pid != 2 && $2 != 2 && index(exclude, " " pid " ") == 0) total += $12 + $13 + $14 + $15
    }
    END { print total + 0 }'
}

# process_ticks PID: user + system ticks of a process and all its threads.
process_ticks() {
  sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# wrk_run CONNECTIONS SECONDS URL OUT: one wrk run pinned to LOAD_CPU; its
# report goes to OUT, its wall, user and system seconds to OUT.time.
wrk_run() {
  local TIMEFORMAT='%R %U %S'
  { time taskset -c "$LOAD_CPU" wrk -t 1 -c "$1" -d "${2}s" --latency -s "$LUA" "$3" \
    >"$4" 2>&1; } 2>"$4.time"
}

# measure KEY LABEL CONNECTIONS PORT SESSION CMD...: starts the server,
# warms it up, measures it, stops it; appends one row to the rows file.
# MCP_TOOL and MCP_ARGUMENTS pass through to the wrk script.
measure() {
  local key="$1" label="$2" connections="$3" port="$4" session="$5" out="$work/wrk.txt"
  shift 5
  start "$port" "$@"
  local url="http://127.0.0.1:$port/mcp" id=""
  [[ "$session" == session ]] && id="$(initialize "$url")"
  export MCP_SESSION="$id"
  wrk_run "$connections" "$WARMUP" "$url" "$out"
  local others_before server_before others_after server_after
  others_before="$(other_ticks $$ "$server_pid")"
  server_before="$(process_ticks "$server_pid")"
  wrk_run "$connections" "$DURATION" "$url" "$out"
  server_after="$(process_ticks "$server_pid")"
  others_after="$(other_ticks $$ "$server_pid")"
  local peak
  peak="$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$server_pid/status")"
  stop
  if grep -q -e "Non-2xx" -e "Socket errors" "$out"; then
    echo "run.sh: $label at $connections connections answered with errors:" >&2
    cat "$out" >&2
    exit 1
  fi
  local wall user system
  read -r wall user system <"$out.time"
  awk -v key="$key" -v label="$label" -v c="$connections" -v hz="$ticks_per_second" \
    -v sb="$server_before" -v sa="$server_after" -v ob="$others_before" -v oa="$others_after" \
    -v peak="$peak" -v wall="$wall" -v wrk_cpu="$(awk -v u="$user" -v s="$system" 'BEGIN { print u + s }')" '
    $2 == "requests" && $3 == "in" { requests = $1 }
    $1 == "Requests/sec:" { rps = $2 }
    $1 == "Latency" && mean == "" { mean = $2 }
    $1 == "50%" { p50 = $2 }
    $1 == "99%" { p99 = $2 }
    END {
      server = (sa - sb) / hz
      other = (oa - ob) / hz
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s\t%.2f\t%s\t%.2f\n",
        key, label, c, requests, rps, mean, p50, p99, server, peak, wrk_cpu, wall, other
    }' "$out" >>"$work/rows.tsv"
  echo "run.sh: round $round: measured $label, $connections connections" >&2
}

{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc --all) cores ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), Linux $(uname -r)"
  echo "# each server alone on core $SERVER_CPU (taskset -c $SERVER_CPU), started afresh per row; $ROUNDS rounds, each measuring every row in turn; wrk $(wrk -v 2>&1 | awk 'NR == 1 { print $2 }') on core $LOAD_CPU: \`wrk -t1 -cN -d${DURATION}s --latency\` after a ${WARMUP} s warm-up, keep-alive connections, loopback"
  echo "# tool: the floor, plain and features rows call \`echo\` with a \`text\` argument (the framework's is typed and checked against its input schema; features on adds three interceptors, raw, typed and handler chain, and a guard that allows); rmcp and mcp-demo call \`test_simple_text\` (no arguments); every reply carries the same text; every session request has a JSON-RPC id of its own, stateless ones share one fixed body"
  [[ -n "$baseline_bin" ]] && echo "# baseline: the plain echo built from $baseline_rev"
  echo "# every server built with the \`production\` profile (release, fat LTO, one codegen unit)"
  echo "# rmcp $rmcp_version from crates.io, \`TCP_NODELAY\` set; stateless rows: \`legacy_session_mode(false)\`, \`json_response(true)\`; session row: \`legacy_session_mode(true)\` (replies as event streams)"
  echo "# load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$work/rows.tsv"

port=18180
for round in $(seq 1 "$ROUNDS"); do for connections in $CONNECTION_COUNTS; do
  port=$((port + 10))
  export MCP_TOOL=echo MCP_ARGUMENTS="{\"text\":\"$SIMPLE_TEXT\"}"
  measure floor "axum + serde, borrowed typed echo (floor)" "$connections" "$port" "" \
    "$bin/http-echo-peer" "127.0.0.1:$port"
  export MCP_TOOL=test_simple_text MCP_ARGUMENTS="{}"
  measure rmcp "rmcp $rmcp_version, 2026-07-28 stateless" "$connections" "$((port + 1))" "" \
    "$rmcp_bin" "127.0.0.1:$((port + 1))" stateless
  measure demo "mcp-demo, 2026-07-28 stateless" "$connections" "$((port + 2))" "" \
    "$bin/mcp-demo" --http "127.0.0.1:$((port + 2))"
  export MCP_TOOL=echo MCP_ARGUMENTS="{\"text\":\"$SIMPLE_TEXT\"}"
  measure plain "the echo, 2026-07-28 stateless" "$connections" "$((port + 6))" "" \
    "$bin/http-plain-server" "127.0.0.1:$((port + 6))"
  measure features "the echo, features on, 2026-07-28 stateless" "$connections" "$((port + 3))" "" \
    "$bin/http-features-server" "127.0.0.1:$((port + 3))"
  if [[ -n "$baseline_bin" ]]; then
    measure baseline "the echo at $baseline_rev, 2026-07-28 stateless" "$connections" "$((port + 7))" "" \
      "$baseline_bin" "127.0.0.1:$((port + 7))"
  fi
  export MCP_TOOL=test_simple_text MCP_ARGUMENTS="{}"
  measure demo-session "mcp-demo, 2025-11-25 session" "$connections" "$((port + 4))" session \
    "$bin/mcp-demo" --http "127.0.0.1:$((port + 4))"
  measure rmcp-session "rmcp $rmcp_version, 2025-11-25 session" "$connections" "$((port + 5))" session \
    "$rmcp_bin" "127.0.0.1:$((port + 5))" session
done; done
echo "# load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$work/rows.tsv"

cp "$work/rows.tsv" "${RESULTS%.md}.tsv"
"$report_bin" "$work/rows.tsv" "$RESULTS" "$CHART"
