#!/usr/bin/env bash
# first-hour.sh: a stranger's first hour, as docs/getting-started.md tells
# it, outside the workspace: the page's commands make a new project beside
# the checkout, the page's main.rs (templates/server/src/main.rs) goes in,
# and the server it builds answers `greet` over stdio and Streamable HTTP.
# It shares the workspace's target directory and lock file, so only the new
# crate and the framework's own crates (at the paths the page's project
# names them by) compile. Fails when a
# command of the page fails, when the page and the template part, or when
# the tool does not answer.
#
#   .ci/first-hour/run.sh        (from anywhere; cargo and python3 on PATH)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/.ci/first-hour"
page="$ROOT/docs/getting-started.md"
template="$ROOT/templates/server"

# The commands, exactly as the page gives them.
commands=(
  "cargo new my-server"
  "cd my-server"
  "cargo add mcp-server --path ../mcp-framework/mcp-server --features http"
  "cargo add tokio@1 --features macros,rt-multi-thread"
)
for command in "${commands[@]}"; do
  grep -qxF "$command" "$page" || {
    echo "error: docs/getting-started.md no longer says \`$command\`; change .ci/first-hour/run.sh with it" >&2
    exit 1
  }
done
python3 "$HERE/page_shows.py" "$page" "$template/src/main.rs" "$template/Cargo.toml"

# Outside the workspace, and always the same place, so that a second run
# finds the framework's crates compiled at the same paths.
target="${CARGO_TARGET_DIR:-$ROOT/target}"
work="${TMPDIR:-/tmp}/mcp-first-hour"
rm -rf "$work"
mkdir -p "$work"
ln -s "$ROOT" "$work/mcp-framework"
cd "$work"
for command in "${commands[@]}"; do
  echo "\$ $command"
  eval "$command"
done
cp "$template/src/main.rs" src/main.rs
diff -u "$template/Cargo.toml" Cargo.toml || {
  echo "error: the page's commands make another Cargo.toml than templates/server's (above)" >&2
  exit 1
}
# The workspace's versions, and its compiled dependencies.
cp "$ROOT/Cargo.lock" Cargo.lock
# The workspace's profile for dependencies, so that they are not compiled again.
CARGO_TARGET_DIR="$target" cargo build --config 'profile.dev.package."*".opt-level=1'
python3 "$HERE/call.py" stdio "$target/debug/my-server"
python3 "$HERE/call.py" http "$target/debug/my-server"
