#!/usr/bin/env bash
# run.sh: the runtime catalog against the catalog of boot, in process
# through MemoryClient, both measured in the same run:
#   - full tools/list walks per second over TOOLS tools added at runtime,
#     against as many tools assembled at boot (goal: at least 0.5x);
#   - tools/call per second with CALLERS concurrent callers while the
#     runtime catalog changes CHANGES times a second, against the same
#     calls while it does not (goal: at least 0.8x).
#
#   benches/catalog/run.sh                       # 3 s per rate, 10,000 tools, 32 callers, 100 changes/s
#   SECONDS_PER_RATE=5 TOOLS=1000 CALLERS=64 CHANGES=500 benches/catalog/run.sh
#
# Builds the release binary; exits with failure when a call failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --locked -p catalog-bench >&2
exec "${CARGO_TARGET_DIR:-target}/release/catalog-bench" "$@"
