#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer, each in its own
# scratch path (.build-asan, .build-tsan; git-ignored), at low priority.
#
#   scripts/sanitizers.sh [address|thread]...   (default: both)
#
# Extra `swift test` arguments can go in SWIFT_TEST_ARGS (for example "--filter Reliability").
# Exits non-zero when a run fails; the logs are in .build-asan/test.log and .build-tsan/test.log.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
sanitizers=("$@")
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(address thread)

# The crash-injection and hostile-store tests run the `remodel` binary: build the product in the
# same scratch path so that they find the sanitized binary beside the test bundle.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1}
status=0
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        address) scratch=.build-asan ;;
        thread) scratch=.build-tsan ;;
        *) echo "unknown sanitizer '$sanitizer': use address or thread" >&2; exit 2 ;;
    esac
    mkdir -p "$scratch"
    echo "== swift test --sanitize=$sanitizer (scratch path $scratch)" >&2
    # shellcheck disable=SC2086
    nice -n 10 swift build --scratch-path "$scratch" --sanitize="$sanitizer" --build-tests >"$scratch/build.log" 2>&1 \
        && nice -n 10 swift test --scratch-path "$scratch" --sanitize="$sanitizer" --skip-build ${SWIFT_TEST_ARGS:-} >"$scratch/test.log" 2>&1
    result=$?
    reports=$(grep -cE "ERROR: AddressSanitizer|WARNING: ThreadSanitizer|runtime error:" "$scratch/test.log" 2>/dev/null || true)
    echo "   exit $result, sanitizer reports: ${reports:-0} (log: $scratch/test.log)" >&2
    grep -E "✘|Test run with|ERROR: AddressSanitizer|WARNING: ThreadSanitizer|SUMMARY:" "$scratch/test.log" 2>/dev/null | sort | uniq -c | sort -rn | head -20 >&2
    [ "$result" -eq 0 ] && [ "${reports:-0}" -eq 0 ] || status=1
done
exit $status
