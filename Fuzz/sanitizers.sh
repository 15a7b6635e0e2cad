#!/usr/bin/env bash
# The whole test suite under AddressSanitizer (with LeakSanitizer) or ThreadSanitizer, each in its own build folder
# (.build-asan, .build-tsan). Set VERIFY_SERVER_TEST_POSTGRES_URL to include the PostgreSQL tests, as .ci/run does.
#
#   Fuzz/sanitizers.sh address|thread
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    address)
        swift build --build-tests --sanitize=address --scratch-path .build-asan
        # Fuzz/lsan-tests.supp: what XCTest and Foundation leave at exit (Fuzz/README.md, "Sanitizer test runs").
        LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan-tests.supp" SWIFT_BACKTRACE=enable=no \
            swift test --skip-build --sanitize=address --scratch-path .build-asan ;;
    thread)
        swift build --build-tests --sanitize=thread --scratch-path .build-tsan
        SWIFT_BACKTRACE=enable=no swift test --skip-build --sanitize=thread --scratch-path .build-tsan ;;
    *)
        echo "usage: Fuzz/sanitizers.sh address|thread" >&2
        exit 2 ;;
esac
