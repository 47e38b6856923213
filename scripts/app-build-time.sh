#!/usr/bin/env bash
# Times clean debug builds of small apps, as a new user's first build of their own app, alternated in one run so
# that every app sees the same machine: throwaway packages in a temporary folder, each timed build with a fresh
# scratch path, their dependencies resolved beforehand (one package cache shared by every app and fetched once,
# then `swift package resolve` into each fresh scratch path, untimed). The apps:
#
# - `remodel`: one `Store.launch` call on Models/Library.xcdatamodeld; depends on the `Remodel` product alone,
#   by path, leaving out the `CommandLineTool` trait (`traits: []`) as docs/API.md says (`--default-traits`
#   keeps it, as an app that does not say so gets it).
# - `grdb`: the same app on GRDB 7 alone, one GRDB query in place of `Store.launch`.
# - `plugin`: a target holding the model, depending on `RemodelGRDB` and GRDB and naming the `RemodelRecords`
#   build-tool plugin; it launches a store and inserts and reads a record. After the clean build, two
#   incremental builds: `null` (nothing changed) and `touched` (the app's main.swift touched, no model changed).
# - `committed`: the same app with the plugin's generated file committed into the target instead (taken from the
#   first `plugin` build), and the same two incremental builds.
#
# Each build prints its wall, user and system seconds and the load average before and after (the figure means
# little on a busy machine), and the modules and plugins the build compiled with how many files each
# (`Compiling Remodel File.swift` lines). Each app runs once after its first build. REMODEL_APP_BUILD_KEEP=DIR
# keeps the logs and packages there (removed otherwise).
#
#   scripts/app-build-time.sh [--rounds N] [--apps "remodel grdb plugin committed"] [--default-traits]
set -euo pipefail
unset REMODEL_DOCS

traits=", traits: []"
rounds=2
apps="remodel grdb plugin committed"
while [ $# -gt 0 ]; do
    case "$1" in
        --default-traits) traits="" ;;
        --rounds) rounds=$2; shift ;;
        --apps) apps=$2; shift ;;
        *) echo "usage: $0 [--rounds N] [--apps LIST] [--default-traits]" >&2; exit 64 ;;
    esac
    shift
done

root=$(cd "$(dirname "$0")/.." && pwd)
remodel=$(basename "$root")
work=${REMODEL_APP_BUILD_KEEP:-$(mktemp -d /tmp/remodel-app-build.XXXXXX)}
mkdir -p "$work"
if [ -z "${REMODEL_APP_BUILD_KEEP:-}" ]; then trap 'rm -rf "$work"' EXIT; fi
cache=$work/cache
grdb='.package(url: "https://github.com/groue/GRDB.swift", "7.10.0"..<"8.0.0")'

manifest() { # APP DEPENDENCIES PRODUCTS EXTRA
    cat >"$work/$1/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "LibraryApp",
    platforms: [.macOS(.v13)],
    dependencies: [$2],
    targets: [
        .executableTarget(name: "LibraryApp", dependencies: [$3]$4)
    ]
)
MANIFEST
}

for app in remodel grdb plugin committed; do mkdir -p "$work/$app/Sources/LibraryApp"; done
manifest remodel ".package(path: \"$root\"$traits)" ".product(name: \"Remodel\", package: \"$remodel\")" ""
cat >"$work/remodel/Sources/LibraryApp/main.swift" <<SOURCE
import Foundation
import Remodel

let root = URL(fileURLWithPath: "$root")
let bundle = try ModelBundle(contentsOf: root.appendingPathComponent("Models/Library.xcdatamodeld"))
let store = FileManager.default.temporaryDirectory.appendingPathComponent("library-app-\(getpid()).sqlite")
let (opened, outcome) = try await Store.launch(
    at: store, bundle: bundle, options: MigrationOptions(mappingsDirectory: root.appendingPathComponent("Mappings")))
print(outcome, opened.version.name)
try FileManager.default.removeItem(at: store)
SOURCE
manifest grdb "$grdb" ".product(name: \"GRDB\", package: \"GRDB.swift\")" ""
cat >"$work/grdb/Sources/LibraryApp/main.swift" <<'SOURCE'
import Foundation
import GRDB

let store = FileManager.default.temporaryDirectory.appendingPathComponent("library-app-\(getpid()).sqlite")
let queue = try DatabaseQueue(path: store.path)
let tables = try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0 }
print("tables", tables)
try queue.close()
try FileManager.default.removeItem(at: store)
SOURCE
for app in plugin committed; do
    extra=""
    if [ "$app" = plugin ]; then extra=", plugins: [.plugin(name: \"RemodelRecords\", package: \"$remodel\")]"; fi
    manifest "$app" ".package(path: \"$root\"$traits), $grdb" \
        ".product(name: \"RemodelGRDB\", package: \"$remodel\"), .product(name: \"GRDB\", package: \"GRDB.swift\")" \
        ", exclude: [\"Library.xcdatamodeld\"]$extra"
    cp -R "$root/Models/Library.xcdatamodeld" "$work/$app/Sources/LibraryApp/"
    cat >"$work/$app/Sources/LibraryApp/main.swift" <<SOURCE
import Foundation
import GRDB
import Remodel
import RemodelGRDB

let bundle = try ModelBundle(contentsOf: URL(fileURLWithPath: "$root/Models/Library.xcdatamodeld"))
let path = FileManager.default.temporaryDirectory.appendingPathComponent("library-app-\(getpid()).sqlite").path
let (queue, _) = try await Store.launchQueue(at: path, bundle: bundle, check: LibrarySchema.check)
let names = try await queue.write { db -> [String] in
    var person = Person(fullName: "Ada")
    try person.insert(db)
    return try Person.fetchAll(db).map(\.fullName)
}
print(LibrarySchema.versionName, names)
try queue.close()
try FileManager.default.removeItem(atPath: path)
SOURCE
done

load() { cut -d' ' -f1-3 /proc/loadavg; }

# What a build compiled: each module and plugin with its number of `Compiling` lines.
compiled() {
    grep -oE '^\[[0-9]+/[0-9]+\] (Compiling plugin [A-Za-z0-9_-]+|Compiling [A-Za-z0-9_]+ |Emitting module [A-Za-z0-9_]+)' "$1" \
        | sed -E 's/^\[[0-9]+\/[0-9]+\] //; s/^Compiling plugin /plugin:/; s/^Compiling //; s/^Emitting module //; s/ $//' \
        | sort | uniq -c | awk '{ printf "%s(%d) ", $2, $1 }'
}

timed() { # APP SCRATCH LABEL LOG
    local before times
    before=$(load)
    TIMEFORMAT="%R %U %S"
    { time swift build --scratch-path "$2" --cache-path "$cache" >"$4" 2>&1; } 2>"$4.time" \
        || { cat "$4"; exit 1; }
    read -r wall user system <"$4.time"
    printf '%-9s %-8s wall %6.1f s  cpu %6.1f s (user %.1f, sys %.1f)  load %s -> %s\n' \
        "$1" "$3" "$wall" "$(echo "$user + $system" | bc)" "$user" "$system" "$before" "$(load)"
    echo "          compiled: $(compiled "$4")"
}

# Dependencies fetched once into the shared cache, untimed.
for app in $apps; do
    (cd "$work/$app" && swift package --scratch-path "$work/$app/.build-resolve" --cache-path "$cache" resolve \
        >"$work/$app/resolve.log" 2>&1) || { cat "$work/$app/resolve.log"; exit 1; }
    rm -rf "$work/$app/.build-resolve"
done

echo "apps: $apps; $rounds rounds; $(nproc) cores; Remodel at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "${REMODEL_APP_BUILD_REVISION:-a copy}")"
for round in $(seq "$rounds"); do
    for app in $apps; do
        cd "$work/$app"
        if [ "$app" = committed ] && [ ! -f Sources/LibraryApp/LibraryRecords.swift ]; then
            generated=$(find "$work/plugin" -path '*/plugins/outputs/*' -name LibraryRecords.swift | head -1)
            if [ -z "$generated" ]; then echo "committed needs a plugin build before it" >&2; exit 1; fi
            cp "$generated" Sources/LibraryApp/LibraryRecords.swift
        fi
        scratch=$work/$app/.build-$round
        rm -rf "$work/$app"/.build-*
        swift package --scratch-path "$scratch" --cache-path "$cache" resolve >"$work/$app/resolve.log" 2>&1 \
            || { cat "$work/$app/resolve.log"; exit 1; }
        timed "$app" "$scratch" "clean" "$work/$app/build-$round.log"
        if [ "$app" = plugin ] || [ "$app" = committed ]; then
            timed "$app" "$scratch" "null" "$work/$app/build-$round-null.log"
            touch Sources/LibraryApp/main.swift
            timed "$app" "$scratch" "touched" "$work/$app/build-$round-touched.log"
        fi
        if [ "$round" = 1 ]; then echo "          ran: $("$scratch/debug/LibraryApp" 2>&1 | tail -1)"; fi
    done
done
