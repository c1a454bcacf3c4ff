#!/usr/bin/env bash
# install.sh: installs the pinned third-party MCP tools the interop tests use,
# into ${MCP_INTEROP_HOME:-$HOME/.cache/mcp-interop}, from the npm registry and PyPI:
#   * Node 22 (npm package node-linux-<arch>) unless the system node is >= 22;
#     the conformance CLI does not start on Node 20 (fs.globSync);
#   * @modelcontextprotocol/conformance, the stable and the alpha release, each
#     in its own directory with @modelcontextprotocol/sdk pinned beside it and
#     forced by an npm override (the suite's own range for the SDK floats otherwise);
#   * the TS SDK and the Inspector CLI, for the client scripts;
#   * a Python venv with the `mcp` package.
# The five parts install in parallel. Idempotent: a part whose stamp file matches
# its pinned spec is skipped. Prints where everything is. Versions live in common.sh.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$HERE/common.sh"

mkdir -p "$MCP_INTEROP_HOME"
# Two jobs sharing one cache must not install into the same directory at once.
exec 9>"$MCP_INTEROP_HOME/.install.lock"
flock 9

start=$(date +%s)
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

# npm_project DIR PACKAGE_JSON: (re)installs DIR from PACKAGE_JSON unless its stamp
# says the same spec is already installed.
npm_project() {
  local dir="$1" pkg="$2" stamp="$1/.interop-installed"
  if [[ -f "$stamp" && -d "$dir/node_modules" ]] && [[ "$(cat "$stamp")" == "$pkg" ]]; then
    echo "present: $dir"
    return 0
  fi
  echo "installing: $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  printf '%s\n' "$pkg" >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error) || {
    echo "npm install failed in $dir" >&2
    return 1
  }
  printf '%s\n' "$pkg" >"$stamp"
}

# Every copy of the SDK under DIR must be the pinned version; a nested, newer copy
# would mean the suite runs against an SDK other than the one we pinned.
check_sdk_pin() {
  local dir="$1" bad=0 f v
  while IFS= read -r f; do
    v="$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$f" | head -n 1)"
    if [[ "$v" != "$TS_SDK_VERSION" ]]; then
      echo "error: $f is SDK $v, expected $TS_SDK_VERSION" >&2
      bad=1
    fi
  done < <(find "$dir/node_modules" -path '*/@modelcontextprotocol/sdk/package.json' -not -path '*/dist/*')
  return "$bad"
}

part_node22() {
  local sys_node arch
  sys_node="$(command -v node 2>/dev/null || true)"
  if [[ -n "$sys_node" && "$(node_major "$sys_node")" -ge 22 ]]; then
    echo "present: system node $("$sys_node" --version) is >= 22"
    return 0
  fi
  arch="$(interop_arch)"
  npm_project "$MCP_INTEROP_HOME/node22" "{
  \"name\": \"mcp-interop-node22\",
  \"private\": true,
  \"dependencies\": { \"node-linux-$arch\": \"$NODE22_VERSION\" }
}"
}

part_conformance() {
  local ver="$1" dir
  dir="$(conf_dir "$ver")"
  npm_project "$dir" "{
  \"name\": \"mcp-interop-conformance\",
  \"private\": true,
  \"dependencies\": {
    \"@modelcontextprotocol/conformance\": \"$ver\",
    \"@modelcontextprotocol/sdk\": \"$TS_SDK_VERSION\"
  },
  \"overrides\": { \"@modelcontextprotocol/sdk\": \"\$@modelcontextprotocol/sdk\" }
}"
  check_sdk_pin "$dir"
  [[ -f "$(conf_cli "$ver")" ]] || { echo "error: $(conf_cli "$ver") missing" >&2; return 1; }
}

part_clients() {
  npm_project "$CLIENTS_DIR" "{
  \"name\": \"mcp-interop-clients\",
  \"private\": true,
  \"dependencies\": {
    \"@modelcontextprotocol/sdk\": \"$TS_SDK_VERSION\",
    \"@modelcontextprotocol/inspector\": \"$INSPECTOR_VERSION\"
  }
}"
  check_sdk_pin "$CLIENTS_DIR"
  [[ -f "$INSPECTOR_BIN" ]] || { echo "error: Inspector entry point missing: $INSPECTOR_BIN" >&2; return 1; }
}

part_python() {
  local spec="mcp==$PY_MCP_VERSION"
  if [[ -x "$VENV_PYTHON" && -f "$VENV_DIR/.interop-installed" ]] &&
    [[ "$(cat "$VENV_DIR/.interop-installed")" == "$spec" ]]; then
    echo "present: $VENV_DIR"
    return 0
  fi
  echo "installing: $VENV_DIR"
  rm -rf "$VENV_DIR"
  "${PYTHON:-python3}" -m venv "$VENV_DIR"
  "$VENV_PYTHON" -m pip install --quiet --disable-pip-version-check "$spec" || {
    echo "pip install $spec failed" >&2
    return 1
  }
  "$VENV_PYTHON" -c 'from mcp import Client; import mcp_types' || return 1
  printf '%s\n' "$spec" >"$VENV_DIR/.interop-installed"
}

# Parts in parallel (separate directories; npm's cache is safe to share), each with
# its own log; the logs of the parts that fail are shown.
parts=("node22" "conformance $CONF_STABLE_VERSION" "conformance $CONF_ALPHA_VERSION" "clients" "python")
pids=()
logs=()
for part in "${parts[@]}"; do
  log="$MCP_INTEROP_HOME/.install-${part// /-}.log"
  logs+=("$log")
  read -r -a call <<<"$part"
  "part_${call[0]}" "${call[@]:1}" >"$log" 2>&1 &
  pids+=($!)
done
failed=0
for i in "${!parts[@]}"; do
  if wait "${pids[$i]}"; then
    grep -E '^(present|installing):' "${logs[$i]}" || true
  else
    failed=1
    echo "error: installing ${parts[$i]} failed; the end of ${logs[$i]}:" >&2
    tail -n 40 "${logs[$i]}" | sed 's/^/    /' >&2
  fi
done
[[ $failed -eq 0 ]] || exit 1
NODE22="$(node22_path)" || { echo "error: no Node >= 22 after install" >&2; exit 1; }

# --- where things are ----------------------------------------------------------------
cat <<EOF
MCP_INTEROP_HOME    $MCP_INTEROP_HOME
node (>= 22)        $NODE22 ($("$NODE22" --version))
conformance         $(conf_cli "$CONF_STABLE_VERSION")
conformance alpha   $(conf_cli "$CONF_ALPHA_VERSION")
TS SDK $TS_SDK_VERSION       $CLIENTS_DIR/node_modules/@modelcontextprotocol/sdk
Inspector $INSPECTOR_VERSION    $INSPECTOR_BIN
python (mcp $PY_MCP_VERSION)  $VENV_PYTHON
install time        $(($(date +%s) - start)) s
EOF
