#!/usr/bin/env bash
# Times Remodel's own debug compile as SwiftPM compiles it for an app (the `swiftc` command of
# docs/BENCHMARK.md, "An app's first build": 13 batch jobs, `-Onone -g -enable-testing`), and prints the
# CPU seconds (user + system, every job), the wall seconds and the load before and after.
#
#   scripts/remodel-compile-time.sh [ROOT]          # ROOT's Sources/Remodel (default: this checkout), -j2
#   scripts/remodel-compile-time.sh --pair A B [N]  # A's and B's sources compiled side by side, N times
#
# `--pair` compiles the two trees at the same time, each with one job at a time (`-j1`, still 13 batches),
# so both see the same load from whatever else runs on the machine: on a busy machine the CPU seconds of one
# compile move by ±5 % from run to run, and only the ratio within a pair says which tree compiles faster.
# Each line ends with B's CPU seconds over A's.
set -euo pipefail

compile() { # ROOT JOBS -> "cpu wall loadBefore loadAfter"
    local root=$1 jobs=$2 dir
    dir=$(mktemp -d /tmp/remodel-compile.XXXXXX)
    find "$root/Sources/Remodel" -name '*.swift' | sort >"$dir/files"
    local before after
    before=$(cut -d' ' -f1 /proc/loadavg)
    /usr/bin/time -f '%U %S %e' -o "$dir/time" swiftc -module-name Remodel -package-name remodel -parse-as-library \
        -Onone -g -enable-testing -swift-version 6 -D SWIFT_PACKAGE -D DEBUG \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -I /usr/include/libxml2 -Xcc -fmodule-map-file="$root/Sources/RemodelLibXML2/module.modulemap" \
        -Xcc -fmodule-map-file="$root/Sources/RemodelSQLite/module.modulemap" -module-cache-path "$dir/mc" \
        -j"$jobs" -enable-batch-mode -driver-batch-count 13 -c -emit-module \
        -emit-module-path "$dir/Remodel.swiftmodule" -working-directory "$dir" @"$dir/files" >"$dir/log" 2>&1 \
        || { cat "$dir/log" >&2; rm -rf "$dir"; return 1; }
    after=$(cut -d' ' -f1 /proc/loadavg)
    read -r user system wall <"$dir/time"
    rm -rf "$dir"
    echo "$(echo "$user + $system" | bc) $wall $before $after"
}

if [ "${1:-}" = "--pair" ]; then
    a=$(cd "$2" && pwd)
    b=$(cd "$3" && pwd)
    for _ in $(seq "${4:-3}"); do
        out=$(mktemp)
        compile "$a" 1 >"$out.a" &
        compile "$b" 1 >"$out.b" &
        wait
        read -r cpuA wallA loadA loadA2 <"$out.a"
        read -r cpuB wallB _ _ <"$out.b"
        rm -f "$out" "$out.a" "$out.b"
        echo "A $cpuA CPU-s ${wallA} s wall | B $cpuB CPU-s ${wallB} s wall | load $loadA -> $loadA2 | B/A $(echo "scale=3; $cpuB / $cpuA" | bc)"
    done
else
    root=$(cd "${1:-$(dirname "$0")/..}" && pwd)
    read -r cpu wall before after < <(compile "$root" 2)
    echo "$cpu CPU-s, $wall s wall (load $before -> $after)"
fi
