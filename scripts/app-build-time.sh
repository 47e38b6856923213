#!/usr/bin/env bash
# Times a clean debug build of a small app that depends on Remodel by path, as a new user's first
# build of their own app: a throwaway package in a temporary folder with one `Store.launch` call,
# built with a fresh scratch path and a fresh package cache. The app depends on the `Remodel` library
# as docs/API.md says to, leaving out the `CommandLineTool` trait (`traits: []`); `--default-traits`
# keeps it, as an app that does not say so gets it. Prints the build's wall and CPU time and
# the load average before and after (the figure means little on a busy machine), runs the app once,
# and removes the folder. It also names the modules and plugins the build compiled (an app that depends
# only on the `Remodel` product must compile nothing else); REMODEL_APP_BUILD_LOG=FILE keeps the log.
#
#   scripts/app-build-time.sh [--default-traits]
set -euo pipefail

traits=", traits: []"
if [ "${1:-}" = "--default-traits" ]; then traits=""; fi

root=$(cd "$(dirname "$0")/.." && pwd)
app=$(mktemp -d /tmp/remodel-app-build.XXXXXX)
trap 'if [ -n "${REMODEL_APP_BUILD_LOG:-}" ] && [ -f "$app/build.log" ]; then cp "$app/build.log" "$REMODEL_APP_BUILD_LOG"; fi; rm -rf "$app"' EXIT
mkdir -p "$app/Sources/LibraryApp"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "LibraryApp",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "$root"$traits)],
    targets: [
        .executableTarget(name: "LibraryApp", dependencies: [.product(name: "Remodel", package: "$(basename "$root")")])
    ]
)
MANIFEST
cat > "$app/Sources/LibraryApp/main.swift" <<SOURCE
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
cd "$app"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
time swift build --scratch-path "$app/.build-clean" --cache-path "$app/.cache-clean" >"$app/build.log" 2>&1 || { cat "$app/build.log"; exit 1; }
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# `Compiling Remodel File.swift`, `Compiling plugin GenerateManual`, `Emitting module X`: what was built.
echo "compiled: $(grep -oE '(Compiling plugin [A-Za-z0-9_-]+|Compiling [A-Za-z0-9_]+ |Emitting module [A-Za-z0-9_]+)' "$app/build.log" \
    | sed -E 's/^Compiling plugin /plugin /; s/^Compiling //; s/^Emitting module //; s/ $//' | sort -u | tr '\n' ' ')"
"$app/.build-clean/debug/LibraryApp"
