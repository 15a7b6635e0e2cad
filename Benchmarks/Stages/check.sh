#!/usr/bin/env bash
# Runs the package-benchmark suite (release build) and checks each stage's malloc count against the committed
# thresholds in Thresholds/. Exit 0 when every count is within its tolerance or only improved (then say so: update
# the thresholds), non-zero on a regression or a failure to run.
#
#   Benchmarks/Stages/check.sh            check
#   Benchmarks/Stages/check.sh update     record the current counts as the new thresholds (commit Thresholds/)
set -uo pipefail
cd "$(dirname "$0")"
if [ "${1:-}" = update ]; then
    swift package --allow-writing-to-package-directory benchmark thresholds update --no-progress || exit 1
    # Keep the malloc counts only: times are not stable on a shared machine, so they are never checked.
    python3 - <<'PY'
import glob, json
for path in glob.glob("Thresholds/*.json"):
    thresholds = json.load(open(path))
    json.dump({"mallocCountTotal": thresholds["mallocCountTotal"]}, open(path, "w"), indent=2, sort_keys=True)
PY
    exit 0
fi
# `swift package` turns the tool's own exit codes (2 regression, 4 improvement) into 1, so the verdict is read from
# its summary line.
output=$(mktemp)
trap 'rm -f "$output"' EXIT
swift package benchmark thresholds check --no-progress 2>&1 | tee "$output"
status=${PIPESTATUS[0]}
if grep -q "is WORSE than the defined thresholds" "$output"; then
    echo "package-benchmark: malloc counts regressed (see the deviations above)"; exit 1
elif grep -q "is BETTER than the defined thresholds" "$output"; then
    echo "package-benchmark: malloc counts improved; record them with Benchmarks/Stages/check.sh update"
elif [ "$status" -eq 0 ] && grep -q "is EQUAL to the defined thresholds" "$output"; then
    echo "package-benchmark: malloc counts equal to the thresholds"
else
    echo "package-benchmark: the suite did not run to a verdict (exit $status)"; exit 1
fi
