#!/usr/bin/env bash
# inspector.sh: drives an MCP server with the Inspector CLI
# (@modelcontextprotocol/inspector 2.12.0, `--cli`, legacy protocol era), one
# process per call:
#   tools/list                     test_simple_text listed, every tool described
#   tools/call test_simple_text    non-empty text, not isError
#   resources/read test://template/42/data      text mentions 42
#   resources/list                 the sales chart View listed as an MCP App
#   resources/read ui://mcp-demo/sales-chart    an HTML document of MIME type text/html;profile=mcp-app
#   prompts/get test_prompt_with_arguments --prompt-args arg1=.. arg2=..  both values echoed
# Usage: inspector.sh URL
#        inspector.sh stdio CMD [ARGS...]     (or just CMD [ARGS...])
# Prints `ok: <call>` or `FAIL: <call>: <why>` per call; exit 1 if any failed.
# The Inspector runs with HOME set to a scratch directory, so ~/.mcp-inspector is not
# written to the real home; a stdio server it starts gets the real HOME back (-e).
# Env: INSPECTOR_CALL_TIMEOUT (s, default 60).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source-path=SCRIPTDIR/..
# shellcheck source=common.sh
source "$HERE/common.sh"

if [[ $# -lt 1 ]]; then
  echo "usage: $0 URL | stdio CMD [ARGS...]" >&2
  exit 2
fi
if [[ "$1" == "stdio" ]]; then
  shift
  [[ $# -ge 1 ]] || { echo "stdio needs a command" >&2; exit 2; }
fi
target=("$@")
# The Inspector gets a scratch HOME; a stdio server it starts keeps the real one.
server_env=()
if [[ ! "$1" =~ ^https?:// ]]; then
  server_env=(-e "HOME=${HOME:-/tmp}")
fi

NODE22="$(node22_path)" || { echo "FAIL: setup: no Node >= 22; run .ci/interop/install.sh" >&2; exit 1; }
[[ -f "$INSPECTOR_BIN" ]] || { echo "FAIL: setup: Inspector not installed; run .ci/interop/install.sh" >&2; exit 1; }
PY="$(command -v python3 || true)"
[[ -n "$PY" ]] || PY="$VENV_PYTHON"

scratch="$(mktemp -d "${TMPDIR:-/tmp}/mcp-inspector.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
call_timeout="${INSPECTOR_CALL_TIMEOUT:-60}"
failed=0

# The checks, by kind: each reads the call's JSON output and prints why it fails, or nothing.
CHECKER='
import json, sys
kind, path = sys.argv[1], sys.argv[2]
try:
    doc = json.load(open(path))
except Exception as e:
    print(f"output is not JSON ({e}): {open(path).read()[:300]!r}")
    sys.exit(0)
r = doc.get("result") if isinstance(doc, dict) else None
if not isinstance(r, dict):
    print(f"no result object in {json.dumps(doc)[:300]}")
    sys.exit(0)
def text_of(items):
    return " ".join(str(i.get("text", "")) for i in items or [] if isinstance(i, dict))
if kind == "tools-list":
    tools = r.get("tools") or []
    names = [t.get("name") for t in tools]
    bare = [t.get("name") for t in tools if not str(t.get("description") or "").strip()]
    if "test_simple_text" not in names:
        print(f"test_simple_text missing from {names}")
    elif bare:
        print(f"tools without a description: {bare}")
elif kind == "simple-text":
    if r.get("isError"):
        print(f"isError result: {json.dumps(r)[:300]}")
    elif not text_of(r.get("content")).strip():
        print(f"no text content: {json.dumps(r)[:300]}")
elif kind == "template-42":
    if "42" not in text_of(r.get("contents")):
        print(f"42 not in the contents: {json.dumps(r)[:300]}")
elif kind == "view-listed":
    views = [x for x in r.get("resources") or [] if x.get("uri") == "ui://mcp-demo/sales-chart"]
    if not views or views[0].get("mimeType") != "text/html;profile=mcp-app":
        print(f"the sales chart View is not listed as an MCP App: {views}")
elif kind == "view-read":
    items = r.get("contents") or [{}]
    if items[0].get("mimeType") != "text/html;profile=mcp-app":
        print(f"MIME type {items[0].get('mimeType')!r}")
    elif not str(items[0].get("text", "")).startswith("<!DOCTYPE html>"):
        print(f"not an HTML document: {str(items[0].get('text'))[:120]!r}")
elif kind == "prompt-args":
    said = " ".join(str((m.get("content") or {}).get("text", "")) for m in r.get("messages") or [])
    if "first-value" not in said or "second-value" not in said:
        print(f"arguments not in the prompt: {said[:300]!r}")
else:
    print(f"unknown check {kind}")
'

# inspect NAME CHECK -- INSPECTOR_OPTIONS...: one Inspector call, then the CHECK on its output.
inspect() {
  local name="$1" check="$2" rc=0 why
  shift 3
  local out="$scratch/out.json" err="$scratch/err.txt"
  HOME="$scratch" timeout --kill-after=5 "$call_timeout" "$NODE22" "$INSPECTOR_BIN" --cli \
    "$@" ${server_env[@]+"${server_env[@]}"} --format json -q --stored-auth-only --connect-timeout 15000 \
    -- "${target[@]}" \
    >"$out" 2>"$err" </dev/null || rc=$?
  if [[ $rc -ne 0 ]]; then
    why="exit $rc$([[ $rc -eq 124 ]] && echo " (timed out after ${call_timeout}s)"): $(tail -c 600 "$err" | tr '\n' ' ')"
  else
    why="$("$PY" -c "$CHECKER" "$check" "$out" 2>&1)" || why="checker crashed: $why"
  fi
  if [[ -z "$why" ]]; then
    echo "ok: $name"
  else
    echo "FAIL: $name: $why" >&2
    failed=$((failed + 1))
  fi
}

echo "inspector $INSPECTOR_VERSION, target=${target[*]}"
inspect "tools/list" tools-list -- --method tools/list
inspect "tools/call test_simple_text" simple-text -- --method tools/call --tool-name test_simple_text
inspect "resources/read test://template/42/data" template-42 -- --method resources/read --uri test://template/42/data
inspect "resources/list" view-listed -- --method resources/list
inspect "resources/read ui://mcp-demo/sales-chart" view-read -- --method resources/read --uri ui://mcp-demo/sales-chart
inspect "prompts/get test_prompt_with_arguments" prompt-args -- \
  --method prompts/get --prompt-name test_prompt_with_arguments --prompt-args arg1=first-value arg2=second-value

if [[ $failed -ne 0 ]]; then
  echo "inspector: $failed call(s) failed" >&2
  exit 1
fi
