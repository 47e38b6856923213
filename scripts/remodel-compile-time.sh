#!/usr/bin/env bash
# Times Remodel's own debug compile as SwiftPM compiles it for an app (the `swiftc` command of
# docs/BENCHMARK.md, "An app's first build": 13 batch jobs, `-Onone -g -enable-testing`): `RemodelModel`, then
# `Remodel` on it (a tree from before the split compiles `Remodel` alone). It prints the CPU seconds (user +
# system, every job of both modules), the wall seconds and the load before and after.
#
#   scripts/remodel-compile-time.sh [ROOT]          # ROOT's Sources/Remodel (default: this checkout), -j2
#   scripts/remodel-compile-time.sh --pair A B [N]  # A's and B's sources compiled side by side, N times
#
# `--pair` compiles the two trees at the same time, each with one job at a time (`-j1`, still 13 batches),
# so both see the same load from whatever else runs on the machine: on a busy machine the CPU seconds of one
# compile move by ±5 % from run to run, and only the ratio within a pair says which tree compiles faster.
# Each line ends with B's CPU seconds over A's.
set -euo pipefail

module() { # ROOT DIR NAME JOBS: compiles Sources/NAME into DIR (modules it imports are in DIR), appends "user system"
    local root=$1 dir=$2 name=$3 jobs=$4
    find "$root/Sources/$name" -name '*.swift' | sort >"$dir/$name.files"
    /usr/bin/time -f '%U %S' -a -o "$dir/time" swiftc -module-name "$name" -package-name remodel -parse-as-library \
        -Onone -g -enable-testing -swift-version 6 -D SWIFT_PACKAGE -D DEBUG \
        -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
        -I /usr/include/libxml2 -Xcc -fmodule-map-file="$root/Sources/RemodelLibXML2/module.modulemap" \
        -Xcc -fmodule-map-file="$root/Sources/RemodelSQLite/module.modulemap" -module-cache-path "$dir/mc" \
        -I "$dir" -j"$jobs" -enable-batch-mode -driver-batch-count 13 -c -emit-module \
        -emit-module-path "$dir/$name.swiftmodule" -working-directory "$dir" @"$dir/$name.files" >"$dir/log" 2>&1 \
        || { cat "$dir/log" >&2; return 1; }
}

compile() { # ROOT JOBS -> "cpu wall loadBefore loadAfter": RemodelModel, then Remodel on it, as an app's build does
    local root=$1 jobs=$2 dir
    dir=$(mktemp -d /tmp/remodel-compile.XXXXXX)
    local before after start
    before=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s.%N)
    local modules=(Remodel)
    [ -d "$root/Sources/RemodelModel" ] && modules=(RemodelModel Remodel)
    for name in "${modules[@]}"; do
        module "$root" "$dir" "$name" "$jobs" || { rm -rf "$dir"; return 1; }
    done
    after=$(cut -d' ' -f1 /proc/loadavg)
    local cpu wall
    cpu=$(awk '{ s += $1 + $2 } END { print s }' "$dir/time")
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    rm -rf "$dir"
    echo "$cpu $wall $before $after"
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
