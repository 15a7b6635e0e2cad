#!/usr/bin/env bash
# Memory soak of verify-server on loopback: a closed-loop run measures the throughput, then an open loop at half of
# it runs for SOAK_SECONDS (default 600) and the RSS after warm-up and at the end is printed. Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product verify-server-load
exec .build/release/verify-server-load --count 3000 --concurrency 8 --bench-seconds 0 --soak-seconds "${SOAK_SECONDS:-600}" "$@"
