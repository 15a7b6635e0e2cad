#!/usr/bin/env bash
# Builds the libFuzzer binary under AddressSanitizer and runs each target for a bounded time on a copy of its
# committed corpus (Fuzz/corpus/<target>). A crash, a leak, a timeout or an allocation over the ceiling fails the
# run and prints the reproducer. See Fuzz/README.md.
#
#   Fuzz/run.sh [--seconds N] [--grow] [--log FILE] [target…]
#     --seconds N  time per target (default 30)
#     --grow       merge what the run found into Fuzz/corpus/<target> (libFuzzer -merge=1: only new coverage)
#     --log FILE   append each target's final statistics to FILE (the campaign record)
#     --release    build the fuzzer optimized (about 4× the executions per second; the campaign uses it)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=30 grow=0 log="" configuration=debug
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --grow) grow=1; shift ;;
        --log) log=$2; shift 2 ;;
        --release) configuration=release; shift ;;
        *) break ;;
    esac
done

# The target list and each target's -max_len come from the plain (replay) build of the same harness.
swift build --product fuzz-verifier >/dev/null
replay="$(swift build --show-bin-path)/fuzz-verifier"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <("$replay" list | cut -f1)

# swiftc keeps only the last -sanitize= flag, so fuzzer and address go in one; -DFUZZING swaps the replay main
# for libFuzzer's entry points. The C code (the CBOR walker, the OpenSSL and X.509 shims) also runs under
# UndefinedBehaviorSanitizer, which stops at the first finding; swiftc offers no UBSan for Swift code on Linux
# (Swift traps on overflow and out-of-bounds access itself).
flags=(-c "$configuration" --scratch-path .build-fuzz --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
       -Xcc -fsanitize=address,undefined -Xcc -fno-sanitize-recover=undefined -Xcc -fno-sanitize=vptr -Xswiftc -DFUZZING)
swift build "${flags[@]}" --product fuzz-verifier 2>&1 | grep -E "error|warning: unre|Compiling fuzz|Build complete" || true
fuzzer="$(swift build "${flags[@]}" --show-bin-path)/fuzz-verifier"
[ -x "$fuzzer" ] || { echo "the fuzz build failed" >&2; exit 1; }

work=$(mktemp -d /tmp/fuzz-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
export SWIFT_BACKTRACE=enable=no   # libFuzzer and ASan print the stack; Swift's backtracer would hang the run
export ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=64:malloc_context_size=20
# Swift's lazily initialized globals live for the process; LeakSanitizer cannot see pointers Swift keeps in enum
# payloads' spare bits, so it reports them. Only allocations made under swift_once are suppressed.
export LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0
failed=()
for target in "${targets[@]}"; do
    max_len=$("$replay" list | awk -F'\t' -v t="$target" '$1 == t { print $2 }')
    [ -n "$max_len" ] || { echo "no fuzz target $target" >&2; exit 2; }
    mkdir -p "$work/$target/new" "$work/$target/artifacts" "Fuzz/corpus/$target"
    # Ceilings: no single allocation above 64 × the largest input plus 16 MiB; 2 GiB of RSS (ASan's shadow and
    # quarantine included); 10 s per input.
    malloc_limit=$(( (max_len * 64) / 1048576 + 16 ))
    echo "== $target: ${seconds}s, max_len $max_len, malloc_limit ${malloc_limit} MB"
    set +e
    FUZZ_TARGET=$target "$fuzzer" "$work/$target/new" "Fuzz/corpus/$target" \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb="$malloc_limit" \
        -artifact_prefix="$work/$target/artifacts/" -print_final_stats=1 -close_fd_mask=1 \
        >"$work/$target/log" 2>&1
    status=$?
    set -e
    grep -E "^stat::(number_of_executed_units|average_exec_per_sec|new_units_added|peak_rss_mb)|^#[0-9]+[[:space:]]+DONE" "$work/$target/log" || true
    if [ -n "$log" ]; then
        { echo "== $target $(date -u +%FT%TZ) ${seconds}s exit $status"; grep -E "^stat::|^#[0-9]+[[:space:]]+DONE" "$work/$target/log" || true; } >>"$log"
    fi
    if [ $status -ne 0 ]; then
        failed+=("$target")
        echo "!! $target failed (exit $status):"
        grep -E -A40 "ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)|runtime error:|Fatal error|fuzz invariant" "$work/$target/log" | head -n 80 || true
        if ! ls "$work/$target/artifacts"/* >/dev/null 2>&1; then
            echo "-- no reproducer was written (the target broke before its first input: replay it on an empty file)"
        fi
        mkdir -p .build-fuzz/findings/"$target"
        for artifact in "$work/$target/artifacts"/*; do
            [ -e "$artifact" ] || continue
            cp "$artifact" .build-fuzz/findings/"$target"/   # kept after the run (.build-fuzz is not in git)
            echo "-- reproducer $(basename "$artifact") ($(wc -c <"$artifact") bytes), base64:"
            base64 -w0 "$artifact" | head -c 8192; echo
            echo "   replay: swift run fuzz-verifier replay $target <file>  (add it under Tests/FuzzRegressionTests/Regressions/$target/)"
        done
    elif [ $grow -eq 1 ]; then
        FUZZ_TARGET=$target "$fuzzer" -merge=1 -max_len="$max_len" "Fuzz/corpus/$target" "$work/$target/new" >/dev/null 2>&1
        echo "   corpus: $(ls "Fuzz/corpus/$target" | wc -l) files"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed targets: ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} targets ran ${seconds}s each with no finding"
