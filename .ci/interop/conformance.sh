#!/usr/bin/env bash
# conformance.sh: runs the official MCP conformance suite
# (@modelcontextprotocol/conformance, server side) against one Streamable HTTP URL.
#
#   conformance.sh URL OUTDIR [extra suite args...]
#     e.g. conformance.sh http://127.0.0.1:8080/mcp out/conf --suite all
#          CONF_VERSION=0.2.0-alpha.12 conformance.sh URL out/alpha --requirements 2026-07-28
#
# Env: CONF_VERSION (default 0.1.16; must be one install.sh installs),
#      CONF_TIMEOUT (seconds for the whole run, default 600).
# Runs `server --url URL -o OUTDIR ARGS...` under Node >= 22 and `timeout`, with the
# CLI's full output in OUTDIR/conformance.log. OUTDIR must not hold an earlier run.
# Then counts SUCCESS / FAILURE / WARNING checks from OUTDIR/**/checks.json,
# reconciled with the CLI's `Total:` line (a crashed scenario has no checks.json),
# leaving out scenarios an alpha `--requirements` run reports as "Not scored"
# (counted separately). stderr: per-scenario lines and every FAILURE / WARNING with
# scenario, check id and message. stdout ends with exactly `P passed, F failed, W warnings`.
# OUTDIR/summary.json has the per-scenario details. Exit 0 iff F = 0 and the run completed.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$HERE/common.sh"

if [[ $# -lt 2 ]]; then
  echo "usage: $0 URL OUTDIR [extra suite args...]" >&2
  exit 2
fi
url="$1"
outdir="$2"
shift 2
version="${CONF_VERSION:-$CONF_STABLE_VERSION}"
limit="${CONF_TIMEOUT:-600}"

# Setup problems still end with the summary line, so a caller always has one to read.
setup_fail() {
  echo "conformance: setup error: $*" >&2
  echo "0 passed, 1 failed, 0 warnings"
  exit 2
}

ensure_installed || setup_fail "install.sh failed"
node="$(node22_path)" || setup_fail "no Node >= 22"
cli="$(conf_cli "$version")"
[[ -f "$cli" ]] || setup_fail "conformance $version is not installed (install.sh pins $CONF_STABLE_VERSION and $CONF_ALPHA_VERSION)"

mkdir -p "$outdir"
outdir="$(cd "$outdir" && pwd)"
if [[ -n "$(find "$outdir" -name checks.json -print -quit)" ]]; then
  setup_fail "$outdir already holds checks.json files from an earlier run; use a fresh OUTDIR"
fi
log="$outdir/conformance.log"

echo "conformance $version: server --url $url -o $outdir $*" >&2
start_ns=$(date +%s%N)
rc=0
timeout --kill-after=10 "$limit" "$node" "$cli" server --url "$url" -o "$outdir" "$@" >"$log" 2>&1 || rc=$?
wall="$(awk -v a="$start_ns" -v b="$(date +%s%N)" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')"
timed_out=0
if [[ $rc -eq 124 || $rc -eq 137 ]]; then
  timed_out=1
  echo "conformance: the run hit the ${limit}s limit" >&2
fi

py="$(command -v python3 || echo "$VENV_PYTHON")"
tally_rc=0
"$py" "$HERE/conformance_tally.py" "$outdir" "$log" "$rc" "$timed_out" "$wall" "conformance $version" || tally_rc=$?
if [[ $tally_rc -gt 1 ]]; then
  echo "conformance: counting the results failed (exit $tally_rc); see $log" >&2
  echo "0 passed, 1 failed, 0 warnings"
  exit 1
fi
exit "$tally_rc"
