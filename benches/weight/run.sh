#!/usr/bin/env bash
# run.sh: what a one-tool server weighs, in one run: the cold release build
# time, the number of crates built and the binary's size, for
#   - ours-stdio: the template's server (templates/server) served over stdio
#     only, mcp-server without features;
#   - ours-http: the template's server as a new project has it (its own
#     main.rs, mcp-server with `http`), stdio or Streamable HTTP;
#   - rmcp-stdio and rmcp-http: the same server written with rmcp (the
#     version the HTTP benchmark pins): its server, macros and stdio
#     transport, then with its Streamable HTTP server too.
# Each is a cargo project of its own (benches/weight/*), built with the same
# profile (release, thin LTO) into a fresh target directory, one after the
# other, after its sources are fetched, so that the time is compiling only.
# The framework's projects take the workspace's Cargo.lock (the versions CI
# tests); rmcp's take benches/http/rmcp-peer/Cargo.lock. The table goes to
# stdout and benches/weight/results.md.
#
#   benches/weight/run.sh            # about 6 minutes on 2 cores
#   ROUNDS=3 benches/weight/run.sh   # each build three times, the median kept
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS="${ROUNDS:-1}"
RESULTS="${RESULTS:-benches/weight/results.md}"
work="$(mktemp -d "${TMPDIR:-/tmp}/mcp-weight.XXXXXX")"
trap 'rm -rf "$work"' EXIT

projects=(ours-stdio rmcp-stdio ours-http rmcp-http)
cp Cargo.lock benches/weight/ours-stdio/Cargo.lock
cp Cargo.lock benches/weight/ours-http/Cargo.lock
cp benches/http/rmcp-peer/Cargo.lock benches/weight/rmcp-stdio/Cargo.lock
cp benches/http/rmcp-peer/Cargo.lock benches/weight/rmcp-http/Cargo.lock

declare -A seconds crates size
for project in "${projects[@]}"; do
  manifest="benches/weight/$project/Cargo.toml"
  cargo fetch -q --manifest-path "$manifest"
  # Crates built: every package of the graph for this machine, the project
  # itself and build-time crates (proc macros, build scripts' dependencies)
  # included, each version once.
  crates[$project]="$(cargo tree -q --offline --manifest-path "$manifest" -e normal,build --prefix none \
    | sed 's/ (\*)$//; s/ (proc-macro)$//; s/ (\/.*)$//' | sort -u | wc -l)"
  times=()
  for round in $(seq "$ROUNDS"); do
    rm -rf "$work/target"
    start="$(date +%s.%N)"
    CARGO_TARGET_DIR="$work/target" cargo build -q --offline --release --manifest-path "$manifest"
    end="$(date +%s.%N)"
    times+=("$(echo "$end - $start" | bc)")
  done
  seconds[$project]="$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (ROUNDS + 1) / 2 ))p")"
  binary="$work/target/release/weight-$project"
  size[$project]="$(stat -c %s "$binary")"
  printf '%-11s %4d crates  %6.1f s  %5.2f MiB\n' "$project" "${crates[$project]}" "${seconds[$project]}" \
    "$(echo "${size[$project]} / 1048576" | bc -l)" >&2
done

ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
mib() { printf '%.2f' "$(echo "$1 / 1048576" | bc -l)"; }
{
  echo "# What a one-tool server weighs"
  echo
  echo "\`benches/weight/run.sh\`, $(date -u +%Y-%m-%d), $(nproc) cores, $(rustc --version | cut -d' ' -f1-2),"
  echo "release with thin LTO, cold target directory, median of $ROUNDS build(s)."
  echo "Ratios are ours over rmcp's: below 1.00 is lighter."
  echo
  echo "| server | crates | cold build | binary |"
  echo "|---|---|---|---|"
  for project in "${projects[@]}"; do
    echo "| $project | ${crates[$project]} | $(printf '%.1f' "${seconds[$project]}") s | $(mib "${size[$project]}") MiB |"
  done
  echo
  echo "| ours / rmcp | crates | cold build | binary |"
  echo "|---|---|---|---|"
  for kind in stdio http; do
    echo "| $kind | $(ratio "${crates[ours-$kind]}" "${crates[rmcp-$kind]}") | $(ratio "${seconds[ours-$kind]}" "${seconds[rmcp-$kind]}") | $(ratio "${size[ours-$kind]}" "${size[rmcp-$kind]}") |"
  done
} | tee "$RESULTS"
