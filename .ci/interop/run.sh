#!/usr/bin/env bash
# run.sh: the whole MCP interoperability job for CI, from the repo root:
#   1. install.sh (pinned Node 22, conformance suites, TS SDK, Inspector, Python SDK);
#   2. cargo build --release --bin mcp-demo --locked;
#   3. starts `target/release/mcp-demo --http 127.0.0.1:PORT` on a free port (log in
#      the run directory) and waits up to 30 s for any HTTP answer on /mcp;
#   4. runs, recording one result each:
#      (a) conformance 0.1.16 --suite all: at least 44 passed (the reference server's
#          count), 0 failed, 0 warnings;
#      (b) conformance 0.2.0-alpha.12 --requirements 2025-11-25: 0 failed, and
#          server-session-lifecycle among the passed scenarios (that one is run but
#          "not scored" for 2025-11-25, so it is checked on its own);
#      (c) conformance 0.2.0-alpha.12 --requirements 2026-07-28: numbers reported; fails
#          only on a failing scored scenario other than MRTR (input-required-result*) or
#          subscriptions/listen, which are listed as "not yet supported";
#      (d) clients.sh over HTTP; (e) clients.sh over stdio (mcp-demo --stdio);
#   5. prints a summary table, the wall time and `N passed, M failed` over the steps.
# The server is killed on exit. Exit 1 on any required failure.
# Env: INTEROP_OUT (run directory; default target/interop/run-<time>), CONF_TIMEOUT,
#      CLIENT_TIMEOUT, MCP_INTEROP_HOME (install cache), MCP_DEMO_BIN (test that
#      binary instead of building; for debugging these scripts).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
cd "$ROOT"
# shellcheck source=common.sh
source "$HERE/common.sh"
export CARGO_TERM_COLOR=never

job_start=$(date +%s)
out="${INTEROP_OUT:-$ROOT/target/interop/run-$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
PY="$(command -v python3 || true)"

names=()
results=()
details=()
required_failed=0
# record NAME PASS|FAIL DETAIL
record() {
  names+=("$1")
  results+=("$2")
  details+=("$3")
  [[ "$2" == PASS ]] || required_failed=$((required_failed + 1))
  echo "== result: $1: $2 - $3"
}

summary() {
  local i wall=$(($(date +%s) - job_start)) passed=0
  echo
  echo "== interop summary (results in $out)"
  printf '%-40s %-6s %s\n' "step" "result" "detail"
  for i in "${!names[@]}"; do
    printf '%-40s %-6s %s\n' "${names[$i]}" "${results[$i]}" "${details[$i]}"
    [[ "${results[$i]}" == PASS ]] && passed=$((passed + 1))
  done
  echo "wall time: ${wall} s"
  echo "$passed passed, $required_failed failed"
}

server_pid=""
stop_server() {
  [[ -n "$server_pid" ]] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$server_pid" 2>/dev/null || true
  fi
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
trap stop_server EXIT
trap 'exit 130' INT TERM

# fatal NAME DETAIL: a step the rest depends on failed; print the summary and stop.
fatal() {
  record "$1" FAIL "$2"
  summary
  exit 1
}

[[ -n "$PY" ]] || fatal "setup" "python3 not found"
command -v curl >/dev/null || fatal "setup" "curl not found"

# --- 1. install ------------------------------------------------------------------------------
echo "== install (cache: $MCP_INTEROP_HOME)"
t0=$(date +%s)
bash "$HERE/install.sh" || fatal "install" "install.sh failed"
record "install" PASS "$(($(date +%s) - t0)) s"

# --- 2. build --------------------------------------------------------------------------------
t0=$(date +%s)
if [[ -n "${MCP_DEMO_BIN:-}" ]]; then
  # Debugging aid: test a given binary (same --http/--stdio flags) without building.
  bin="$MCP_DEMO_BIN"
  [[ -x "$bin" ]] || fatal "build mcp-demo" "MCP_DEMO_BIN=$bin is not executable"
  record "build mcp-demo" PASS "skipped: MCP_DEMO_BIN=$bin"
else
  echo "== cargo build --release --bin mcp-demo --locked"
  cargo build --release --bin mcp-demo --locked || fatal "build mcp-demo" "cargo build failed"
  bin="$ROOT/target/release/mcp-demo"
  [[ -x "$bin" ]] || fatal "build mcp-demo" "$bin missing after the build"
  record "build mcp-demo" PASS "$(($(date +%s) - t0)) s"
fi

# --- 3. start the HTTP server ------------------------------------------------------------------
port="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
url="http://127.0.0.1:$port/mcp"
echo "== starting $bin --http 127.0.0.1:$port (log: $out/server.log)"
"$bin" --http "127.0.0.1:$port" >"$out/server.log" 2>&1 </dev/null &
server_pid=$!
t0=$(date +%s)
up=0
for _ in $(seq 1 120); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    tail -n 30 "$out/server.log" >&2 || true
    fatal "start server" "mcp-demo exited during start-up"
  fi
  code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" || true)"
  if [[ -n "$code" && "$code" != 000 ]]; then
    up=1
    break
  fi
  (($(date +%s) - t0 < 30)) || break
  sleep 0.25
done
[[ $up -eq 1 ]] || fatal "start server" "no HTTP answer on $url within 30 s"
record "start server" PASS "HTTP $code on $url after $(($(date +%s) - t0)) s"

server_alive() {
  kill -0 "$server_pid" 2>/dev/null
}

# judge MODE SUMMARY_JSON: prints "PASS|FAIL<TAB>detail", then more lines to show.
judge() {
  "$PY" - "$@" <<'PY'
import json, sys
mode, path = sys.argv[1], sys.argv[2]
try:
    d = json.load(open(path))
except Exception as e:
    print(f"FAIL\tno summary.json ({e})")
    sys.exit(0)
t = d["totals"]
nums = f"{t['passed']} passed, {t['failed']} failed, {t['warnings']} warnings"
extra = []
if not d["completed"]:
    print(f"FAIL\t{nums}; run incomplete: {d.get('run_problem')}")
    sys.exit(0)
scored = [s for s in d["scenarios"] if s["scored"]]
failing = [s["name"] for s in scored if s["failed"] > 0 or s["crashed"]]
if mode == "at-least-44":
    if t["passed"] >= 44 and t["failed"] == 0 and t["warnings"] == 0:
        print(f"PASS\t{nums}")
    else:
        why = []
        if t["failed"]:
            why.append("failing: " + ", ".join(failing))
        warned = [s["name"] for s in scored if s["warnings"]]
        if t["warnings"]:
            why.append("warnings in: " + ", ".join(warned))
        if t["passed"] < 44:
            why.append(f"expected at least 44 passed, got {t['passed']}")
            # Checks per scenario when all pass (0.1.16 --suite all); 1 where not listed.
            # A check can also come out INFO instead of SUCCESS (e.g. the second
            # server-sse-multiple-streams check when every reply is JSON, not SSE).
            full = {"json-schema-2020-12": 4, "elicitation-sep1034-defaults": 5, "server-sse-polling": 0,
                    "server-sse-multiple-streams": 2, "elicitation-sep1330-enums": 5,
                    "dns-rebinding-protection": 2}
            short = [f"{s['name']} {s['passed']}/{full.get(s['name'], 1)}"
                     for s in scored if s["passed"] < full.get(s["name"], 1)]
            if short:
                why.append("fewer passing checks than the full count in: " + ", ".join(short))
        print(f"FAIL\t{nums} (want at least 44 passed, 0 failed, 0 warnings): " + "; ".join(why))
elif mode == "alpha-2025-11-25":
    lc = [s for s in d["scenarios"] if s["name"] == "server-session-lifecycle"]
    why = []
    if t["failed"]:
        why.append("failing: " + ", ".join(failing))
    if t["passed"] < 70:
        why.append(f"expected at least 70 passed (the reference server's count), got {t['passed']}")
    if not lc:
        why.append("server-session-lifecycle was not run")
    elif not lc[0]["ok"]:
        why.append(f"server-session-lifecycle did not pass ({lc[0]['passed']} passed, {lc[0]['failed']} failed)")
    lc_note = "; server-session-lifecycle passed" if lc and lc[0]["ok"] else ""
    if why:
        print(f"FAIL\t{nums}: " + "; ".join(why))
    else:
        print(f"PASS\t{nums}{lc_note}")
elif mode == "alpha-2026-07-28":
    def pending(name):
        return name.startswith("input-required-result") or "subscription" in name or "listen" in name
    later = [n for n in failing if pending(n)]
    bad = [n for n in failing if not pending(n)]
    ns = d["not_scored_totals"]
    unscored = sum(1 for s in d["scenarios"] if not s["scored"])
    detail = f"{nums}; not scored: {unscored} scenarios ({ns['passed']} passed, {ns['failed']} failed)"
    if later:
        detail += f"; not yet supported: {len(later)} failing"
        extra.append("not yet supported (allowed to fail): " + ", ".join(later))
    if bad:
        print(f"FAIL\t{detail}; failing beyond MRTR/subscriptions: " + ", ".join(bad))
    else:
        print(f"PASS\t{detail}")
for line in extra:
    print(line)
PY
}

# conformance_step NAME MODE VERSION DIR ARGS...
conformance_step() {
  local name="$1" mode="$2" version="$3" dir="$4" verdict status detail
  shift 4
  echo
  echo "== $name"
  CONF_VERSION="$version" bash "$HERE/conformance.sh" "$url" "$out/$dir" "$@" || true
  verdict="$(judge "$mode" "$out/$dir/summary.json")"
  status="$(head -n 1 <<<"$verdict" | cut -f 1)"
  detail="$(head -n 1 <<<"$verdict" | cut -f 2-)"
  tail -n +2 <<<"$verdict"
  server_alive || { status=FAIL; detail="$detail; mcp-demo exited during this step"; }
  record "$name" "$status" "$detail"
}

# clients_step NAME TARGET...
clients_step() {
  local name="$1" rc=0 last
  shift
  echo
  echo "== $name"
  CLIENTS_LOG_DIR="$out/$name" bash "$HERE/clients.sh" "$@" | tee "$out/$name.txt" || rc=$?
  last="$(tail -n 1 "$out/$name.txt")"
  if [[ $rc -eq 0 ]]; then
    record "$name" PASS "$last"
  else
    record "$name" FAIL "$last; failed: $(grep '^FAIL ' "$out/$name.txt" | cut -d' ' -f2 | paste -sd, -)"
  fi
}

# --- 4. the checks --------------------------------------------------------------------------------
conformance_step "conformance $CONF_STABLE_VERSION all" at-least-44 "$CONF_STABLE_VERSION" \
  "conf-$CONF_STABLE_VERSION-all" --suite all
conformance_step "conformance $CONF_ALPHA_VERSION 2025-11-25" alpha-2025-11-25 "$CONF_ALPHA_VERSION" \
  "conf-$CONF_ALPHA_VERSION-2025-11-25" --requirements 2025-11-25
conformance_step "conformance $CONF_ALPHA_VERSION 2026-07-28" alpha-2026-07-28 "$CONF_ALPHA_VERSION" \
  "conf-$CONF_ALPHA_VERSION-2026-07-28" --requirements 2026-07-28

if server_alive; then
  clients_step "clients-http" "$url"
else
  record "clients-http" FAIL "mcp-demo is no longer running (see $out/server.log)"
fi
stop_server
clients_step "clients-stdio" stdio "$bin" --stdio

summary
[[ $required_failed -eq 0 ]]
