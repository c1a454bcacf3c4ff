#!/usr/bin/env bash
# Two mcp-demo instances and one worker on a Redis of their own:
#   bash examples/mcp-demo/scripts/two-instances.sh
# Redis listens on 127.0.0.1:6390 with its files in a temporary directory;
# the instances serve http://127.0.0.1:8081/mcp and http://127.0.0.1:8082/mcp,
# and tasks (redis.queue on) run on the worker. Ctrl-C stops them all.
# Needs redis-server (apt-get install redis-server).
set -euo pipefail
cd "$(dirname "$0")/../../.."

command -v redis-server >/dev/null || {
  echo "error: redis-server is not installed (apt-get install redis-server)" >&2
  exit 1
}
cargo build --release --bin mcp-demo
demo=target/release/mcp-demo
dir=$(mktemp -d)
pids=()
stop() {
  kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$dir"
}
trap stop EXIT INT TERM

redis-server --port 6390 --bind 127.0.0.1 --dir "$dir" --save '' --appendonly yes >"$dir/redis.log" &
pids+=($!)
until redis-cli -p 6390 ping >/dev/null 2>&1; do sleep 0.1; done

export MCP_REDIS__URL=redis://127.0.0.1:6390
export MCP_REDIS__QUEUE=true
# Every instance must seal and open request states with the same key.
export MCP_REQUEST_STATE_KEY="${MCP_REQUEST_STATE_KEY:-$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')}"

"$demo" --http 127.0.0.1:8081 & pids+=($!)
"$demo" --http 127.0.0.1:8082 & pids+=($!)
"$demo" --worker & pids+=($!)
echo "serving http://127.0.0.1:8081/mcp and http://127.0.0.1:8082/mcp, tasks on one worker, Redis on 6390; Ctrl-C stops"
wait -n "${pids[@]}"
