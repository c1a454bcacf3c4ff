#!/usr/bin/env bash
# run.sh: the whole MCP interoperability job for CI, from the repo root:
#   1. install.sh (pinned Node 22, conformance suites, TS SDK, Inspector, Python SDK);
#   2. cargo build --release --bin mcp-demo --locked;
#   3. starts `target/release/mcp-demo --http 127.0.0.1:PORT` on a free port (log in
#      the run directory) and waits up to 30 s for any HTTP answer on /mcp;
#   4. runs, recording one result each:
#      (a) conformance 0.1.16 --suite all;
#      (b) conformance 0.2.0-alpha.12 --requirements 2025-11-25;
#      (c) conformance 0.2.0-alpha.12 --requirements 2026-07-28, then each scenario of
#          the skills extension (sep-2640-skills-*) at 2026-07-28 and at 2025-11-25;
#      (d) clients.sh over HTTP; (e) clients.sh over stdio (mcp-demo --stdio);
#      (f) clients/ts_oauth.mjs: the TS SDK with a bearer token against mcp-demo
#          configured as an OAuth resource server (its own JWKS on a free port);
#      (g) clients/ts_interceptors.mjs: the TS SDK lists and invokes the demo's
#          interceptors and calls the tools they guard (its own mcp-demo);
#      (h) clients/ts_stamp.mjs: the TS SDK receives the progress notifications of
#          acme-stamp-server, stamped in `_meta` by a third-party sending
#          interceptor, each before the tool's result;
#      (i) clients/ts_catalog.mjs: the TS SDK hears tools/list_changed and sees a new
#          tool when the demo's catalog file gains one (its own mcp-demo);
#      (j) clients/ts_skills.mjs: the TS SDK lists and gets the demo's skill with raw
#          skills/list and skills/get requests, reads every file of it and checks each
#          against the digest and size of its manifest (its own mcp-demo);
#   5. prints a summary table, the known (expected) problems, the wall time and
#      `N passed, M failed` over the steps.
# (a)-(c) are judged alike by judge.py against expected.json, which lists for each
# selection, by exact scenario name and check id with the reason, every check expected
# to come out FAILURE, WARNING or SKIPPED, in scored and unscored scenarios alike. A
# selection passes iff the run completed and the FAILURE / WARNING / SKIPPED checks are
# exactly the listed ones: a new one fails the step, and so does a listed one that no
# longer occurs (it now passes: remove it from expected.json). No name patterns. Also
# checked: a minimum of passed checks per selection (0.1.16: 44, 2025-11-25: 70) and
# scenarios that must pass (server-session-lifecycle, run but "not scored" for
# 2025-11-25), both in expected.json. `python3 .ci/interop/judge.py RUNDIR` judges
# a saved run directory again.
# The server is killed on exit. Exit 1 on any required failure.
# Env: INTEROP_OUT (run directory; default target/interop/run-<time>), CONF_TIMEOUT,
#      CLIENT_TIMEOUT, MCP_INTEROP_HOME (install cache), MCP_DEMO_BIN and
#      ACME_STAMP_BIN (test those binaries instead of building; for debugging these
#      scripts).
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
known=() # `step: known problems`, from judge.py
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
  if [[ ${#known[@]} -gt 0 ]]; then
    echo "known problems still present (listed in .ci/interop/expected.json):"
    printf '  %s\n' "${known[@]}"
  fi
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
  # acme-stamp-server (a stranger's sending interceptor, step h) in the same
  # build, so both share one resolution of the workspace's features.
  echo "== cargo build --release -p mcp-demo -p acme-stamp --bin mcp-demo --bin acme-stamp-server --locked"
  cargo build --release -p mcp-demo -p acme-stamp --bin mcp-demo --bin acme-stamp-server --locked \
    || fatal "build mcp-demo" "cargo build failed"
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

# conformance_step NAME DIR VERSION ARGS...: runs one selection into $out/DIR and
# judges it with judge.py (its verdict also goes to $out/DIR/judge.txt).
conformance_step() {
  local name="$1" dir="$2" version="$3" verdict first status detail line
  shift 3
  echo
  echo "== $name"
  CONF_VERSION="$version" bash "$HERE/conformance.sh" "$url" "$out/$dir" "$@" || true
  verdict="$("$PY" "$HERE/judge.py" "$out" "$dir" 2>&1 || true)"
  mkdir -p "$out/$dir"
  printf '%s\n' "$verdict" >"$out/$dir/judge.txt"
  first="$(head -n 1 <<<"$verdict")"
  case "$first" in
    "PASS $dir: "*) status=PASS ;;
    *) status=FAIL ;;
  esac
  detail="${first#* "$dir": }"
  # The lines between the verdict and judge.py's last line (`N passed, M failed`).
  sed -e '1d' -e '$d' <<<"$verdict"
  while IFS= read -r line; do
    known+=("$name:${line#  known:}")
  done < <(grep '^  known: ' <<<"$verdict" || true)
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
# The directory names are the selections' keys in expected.json.
conformance_step "conformance $CONF_STABLE_VERSION all" "conf-$CONF_STABLE_VERSION-all" \
  "$CONF_STABLE_VERSION" --suite all
conformance_step "conformance $CONF_ALPHA_VERSION 2025-11-25" "conf-$CONF_ALPHA_VERSION-2025-11-25" \
  "$CONF_ALPHA_VERSION" --requirements 2025-11-25
conformance_step "conformance $CONF_ALPHA_VERSION 2026-07-28" "conf-$CONF_ALPHA_VERSION-2026-07-28" \
  "$CONF_ALPHA_VERSION" --requirements 2026-07-28
# The skills extension (SEP-2640): its three scenarios are in no revision's
# requirements, so each runs alone, at 2026-07-28 and, forced, at 2025-11-25.
for scenario in sep-2640-skills-enumeration sep-2640-skills-manifest sep-2640-skills-directory; do
  conformance_step "conformance $CONF_ALPHA_VERSION $scenario" "conf-$CONF_ALPHA_VERSION-$scenario" \
    "$CONF_ALPHA_VERSION" --scenario "$scenario"
  conformance_step "conformance $CONF_ALPHA_VERSION $scenario 2025-11-25" \
    "conf-$CONF_ALPHA_VERSION-$scenario-2025-11-25" \
    "$CONF_ALPHA_VERSION" --scenario "$scenario" --spec-version 2025-11-25 --force
done

if server_alive; then
  clients_step "clients-http" "$url"
else
  record "clients-http" FAIL "mcp-demo is no longer running (see $out/server.log)"
fi
stop_server
clients_step "clients-stdio" stdio "$bin" --stdio

# script_step NAME SCRIPT ARG: one scripted client of clients/, which starts its
# own server from ARG; passes when it exits 0, counting its `ok:` lines.
script_step() {
  local name="$1" script="$2" arg="$3" t0 rc=0
  echo
  echo "== $name"
  t0=$(date +%s)
  timeout --kill-after=10 "${CLIENT_TIMEOUT:-180}" "$(node22_path)" "$HERE/clients/$script" "$arg" \
    >"$out/$name.log" 2>&1 || rc=$?
  cat "$out/$name.log"
  if [[ $rc -eq 0 ]]; then
    record "$name" PASS "$(grep -c '^ok: ' "$out/$name.log") checks in $(($(date +%s) - t0)) s"
  else
    record "$name" FAIL "$(grep -m1 '^FAIL' "$out/$name.log" || echo "exit $rc")"
  fi
}

script_step oauth-ts ts_oauth.mjs "$bin"
script_step interceptors-ts ts_interceptors.mjs "$bin"
script_step stamp-ts ts_stamp.mjs "${ACME_STAMP_BIN:-$ROOT/target/release/acme-stamp-server}"
script_step catalog-ts ts_catalog.mjs "$bin"
script_step skills-ts ts_skills.mjs "$bin"

summary
[[ $required_failed -eq 0 ]]
