# common.sh: sourced (not run) by the interop scripts in this directory.
# Holds the pinned versions of every third-party tool and the paths inside
# the install cache, so install.sh and the runners agree on one layout:
#
#   $MCP_INTEROP_HOME/node22/            node-linux-<arch>@$NODE22_VERSION (only if system node < 22)
#   $MCP_INTEROP_HOME/conformance-<ver>/ @modelcontextprotocol/conformance@<ver> + pinned SDK
#   $MCP_INTEROP_HOME/clients/           TS SDK + Inspector CLI (client side)
#   $MCP_INTEROP_HOME/venv/              Python venv with the `mcp` package
#
# shellcheck shell=bash
# shellcheck disable=SC2034  # the pinned versions are used by the scripts that source this

MCP_INTEROP_HOME="${MCP_INTEROP_HOME:-${HOME:-/tmp}/.cache/mcp-interop}"
export MCP_INTEROP_HOME

# Pinned versions. Change them here only. (Used by the scripts that source this file.)
NODE22_VERSION=22.23.5
CONF_STABLE_VERSION=0.1.16
CONF_ALPHA_VERSION=0.2.0-alpha.12
TS_SDK_VERSION=1.32.2
INSPECTOR_VERSION=2.12.0
PY_MCP_VERSION=2.3.0

CLIENTS_DIR="$MCP_INTEROP_HOME/clients"
VENV_DIR="$MCP_INTEROP_HOME/venv"
VENV_PYTHON="$VENV_DIR/bin/python"
INSPECTOR_BIN="$CLIENTS_DIR/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js"

interop_arch() {
  case "$(uname -m)" in
    x86_64 | amd64) echo x64 ;;
    aarch64 | arm64) echo arm64 ;;
    *) echo "unsupported machine: $(uname -m)" >&2; return 1 ;;
  esac
}

# Major version of a node binary, or 0 when it is missing or broken.
node_major() {
  local v
  v="$("$1" -p 'process.versions.node' 2>/dev/null)" || { echo 0; return; }
  echo "${v%%.*}"
}

# Path of a Node >= 22: the system one if new enough, else the npm-packaged one.
# Prints nothing (and returns 1) when neither is there yet.
node22_path() {
  local sys arch bundled
  sys="$(command -v node 2>/dev/null || true)"
  if [[ -n "$sys" && "$(node_major "$sys")" -ge 22 ]]; then
    echo "$sys"
    return 0
  fi
  arch="$(interop_arch)" || return 1
  bundled="$MCP_INTEROP_HOME/node22/node_modules/node-linux-$arch/bin/node"
  if [[ -x "$bundled" && "$(node_major "$bundled")" -ge 22 ]]; then
    echo "$bundled"
    return 0
  fi
  return 1
}

conf_dir() { echo "$MCP_INTEROP_HOME/conformance-$1"; }
conf_cli() { echo "$(conf_dir "$1")/node_modules/@modelcontextprotocol/conformance/dist/index.js"; }

# Runs install.sh (output to stderr) unless everything it installs is already there.
ensure_installed() {
  if node22_path >/dev/null 2>&1 &&
    [[ -f "$(conf_cli "$CONF_STABLE_VERSION")" && -f "$(conf_cli "$CONF_ALPHA_VERSION")" ]] &&
    [[ -f "$INSPECTOR_BIN" && -x "$VENV_PYTHON" && -f "$VENV_DIR/.interop-installed" ]]; then
    return 0
  fi
  bash "$(dirname "${BASH_SOURCE[0]}")/install.sh" >&2
}
