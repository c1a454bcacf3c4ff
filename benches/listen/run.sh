#!/usr/bin/env bash
# run.sh: holds STREAMS concurrent 2026-07-28 `subscriptions/listen` streams
# over Streamable HTTP (loopback) against a server built with the framework,
# and reports the server process's memory per held stream and the time from
# one publish to the last listener receiving the notification.
#
# PROTOCOL=h1 (the default) opens every stream on its own HTTP/1.1
# connection; PROTOCOL=h2 opens them over HTTP/2 with prior knowledge (h2c),
# STREAMS_PER_CONNECTION of them (default 100, at most 200: hyper's server
# allows 200 concurrent streams on a connection) on each of
# ceil(STREAMS / STREAMS_PER_CONNECTION) connections. The publishes go over
# HTTP/1.1 either way, a fresh connection per call.
#
#   benches/listen/run.sh                   # 10,000 streams, 5 publish rounds
#   benches/listen/run.sh 1000              # 1,000 streams
#   STREAMS=20000 ROUNDS=10 benches/listen/run.sh
#   MALLOC_ARENA_MAX=2 benches/listen/run.sh  # glibc: at most 2 malloc arenas
#   PROTOCOL=h2 benches/listen/run.sh         # 100 HTTP/2 connections, 100 streams each
#   PROTOCOL=h2 STREAMS_PER_CONNECTION=200 benches/listen/run.sh
#   SERVER_KIND=bare benches/listen/run.sh    # a bare axum SSE handler: the floor
#   SERVER_WRAPPER="heaptrack -o /tmp/listen" benches/listen/run.sh 2000
#
# listen-bench starts itself as `listen-bench serve PORT STREAMS` (the
# server, in its own process, so VmRSS in /proc/PID/status is its memory
# alone), opens the streams 256 at a time, reads the server's RSS before
# and after, then calls the tool `publish` once per round and times the
# notification's arrival on every stream. The environment (MALLOC_*,
# SERVER_KIND and the open-file limit) passes on to the server;
# SERVER_WRAPPER is a command (a profiler) the server runs under, stopped
# with SIGINT at the end so the profiler writes its data. Memory is VmRSS:
# what the process has resident, not the kernel's socket buffers.
#
# Every connection takes a file descriptor in each process: this script
# raises the open-file limit (`ulimit -n`) to 65536, or to the hard limit
# when it cannot, and stops when that is below the connections + 1024.
# Builds the release binary. Linux only (reads /proc).
set -euo pipefail
cd "$(dirname "$0")/../.."
STREAMS="${1:-${STREAMS:-10000}}"
ROUNDS="${2:-${ROUNDS:-5}}"
connections="$STREAMS"
if [[ "${PROTOCOL:-h1}" == h2 ]]; then
  per="${STREAMS_PER_CONNECTION:-100}"
  if [[ "$per" =~ ^[0-9]+$ ]] && ((per > 0)); then
    connections=$(((STREAMS + per - 1) / per))
  fi
fi
need=$((connections + 1024))

if ! ulimit -n 65536 2>/dev/null; then
  hard="$(ulimit -Hn)"
  if [[ "$hard" != unlimited ]] && ((hard < need)); then
    echo "run.sh: $STREAMS streams need an open-file limit of at least $need," \
      "but the hard limit is $hard and cannot be raised here; raise it" \
      "(limits.conf, systemd LimitNOFILE, docker --ulimit nofile=65536)" \
      "or run fewer: STREAMS=$((hard - 1024)) $0 (or PROTOCOL=h2 $0)" >&2
    exit 2
  fi
  ulimit -Sn "$hard"
fi
limit="$(ulimit -n)"
if [[ "$limit" != unlimited ]] && ((limit < need)); then
  echo "run.sh: the open-file limit is $limit, below the $need that $STREAMS streams need" \
    "(on $connections connections)" >&2
  exit 2
fi

cargo build --release --locked -p listen-bench >&2
exec "${CARGO_TARGET_DIR:-target}/release/listen-bench" "$STREAMS" "$ROUNDS"
