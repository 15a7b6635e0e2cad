#!/usr/bin/env bash
# Chaos soak of verify-server (issue 40): two instances on a throwaway PostgreSQL cluster, the kit's wallet answering
# requests of every format, seeded faults, invariants checked afterwards. Loopback only; run as root.
#   Benchmarks/chaos/run.sh --minutes 60 --seed 1      # exit 1 when an invariant broke
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/chaos.py" "$@"
