#!/usr/bin/env bash
# run.sh: the task stores of mcp-tasks (memory, then SQLite), in process
# through MemoryClient, against ordinary tools/call measured in the same run:
# tasks created per second and tasks/get per second with CALLERS concurrent
# callers (ratios to ordinary tools/call/s), and TASKS tasks of a tool that
# sleeps NAP_MS started at once and polled until all completed (wall time,
# and its ratio to as many ordinary calls of the same sleep).
#
#   benches/tasks/run.sh                 # 2 s per rate, 32 callers, 1,000 tasks of 1 s
#   benches/tasks/run.sh 5               # 5 s per rate
#   SECONDS_PER_RATE=5 CALLERS=64 TASKS=5000 benches/tasks/run.sh
#   STORES=sqlite benches/tasks/run.sh  # one store (STORES=sqlite,memory: the other order)
#
# Builds the release binary; exits with failure when a call failed or a
# task did not complete.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked -p tasks-bench >&2
exec "${CARGO_TARGET_DIR:-target}/release/tasks-bench" "$@"
