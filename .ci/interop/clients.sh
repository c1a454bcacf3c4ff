#!/usr/bin/env bash
# clients.sh: drives one MCP server with real third-party clients:
#   py-legacy   Python SDK mcp 2.3.0, initialize handshake (clients/py_client.py --mode legacy)
#   py-auto     Python SDK, server/discover first; must end up on 2026-07-28
#   ts          TypeScript SDK 1.32.2 (clients/ts_client.mjs)
#   inspector   Inspector CLI 2.12.0 (clients/inspector.sh)
# Usage: clients.sh URL
#        clients.sh stdio CMD [ARGS...]      (each client starts its own server process)
# Prints `PASS name` / `FAIL name` per client (a failing client's output goes to
# stderr), then `N passed, M failed`. Exit 1 if any failed.
# Env: CLIENT_TIMEOUT (seconds per client, default 180), CLIENTS_LOG_DIR (keeps the logs).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$HERE/common.sh"

if [[ $# -lt 1 || ( "$1" == "stdio" && $# -lt 2 ) ]]; then
  echo "usage: $0 URL | stdio CMD [ARGS...]" >&2
  exit 2
fi
target=("$@")

ensure_installed
node="$(node22_path)"
limit="${CLIENT_TIMEOUT:-180}"
if [[ -n "${CLIENTS_LOG_DIR:-}" ]]; then
  logdir="$CLIENTS_LOG_DIR"
  mkdir -p "$logdir"
else
  logdir="$(mktemp -d "${TMPDIR:-/tmp}/mcp-clients.XXXXXX")"
  trap 'rm -rf "$logdir"' EXIT
fi

passed=0
failed=0
# client NAME CMD...: runs one client under the time limit and records PASS/FAIL.
client() {
  local name="$1" rc=0 t0 t1
  shift
  t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" >"$logdir/$name.log" 2>&1 </dev/null || rc=$?
  t1=$(date +%s)
  if [[ $rc -eq 0 ]]; then
    echo "PASS $name ($((t1 - t0)) s)"
    passed=$((passed + 1))
  else
    echo "FAIL $name ($((t1 - t0)) s)"
    failed=$((failed + 1))
    {
      echo "--- $name: exit $rc$([[ $rc -eq 124 ]] && echo ", timed out after ${limit}s"); its output:"
      tail -n 40 "$logdir/$name.log" | sed 's/^/    /'
    } >&2
  fi
}

echo "clients against: ${target[*]}" >&2
client py-legacy "$VENV_PYTHON" "$HERE/clients/py_client.py" --mode legacy "${target[@]}"
client py-auto "$VENV_PYTHON" "$HERE/clients/py_client.py" --mode auto "${target[@]}"
client ts "$node" "$HERE/clients/ts_client.mjs" "${target[@]}"
client inspector bash "$HERE/clients/inspector.sh" "${target[@]}"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
