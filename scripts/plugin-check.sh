#!/usr/bin/env bash
# Proves the two plugins work for an app that uses them, as docs/TYPED-ACCESS.md shows: a throwaway package in a
# temporary folder that depends on Remodel by path (`traits: []`, as an app of the libraries does) and on GRDB.
#
# - Target `LibraryApp` holds Models/Library.xcdatamodeld and names the build-tool plugin `RemodelRecords`: the
#   build must generate `LibraryRecords.swift` and compile it; the app then launches a store through
#   `Store.launchQueue` with the generated `LibrarySchema.check`, inserts a Person through the generated record
#   and reads it back.
# - Target `Committed` holds the same model and no plugin: the command plugin
#   `swift package --allow-writing-to-package-directory generate-records --target Committed` must write the records
#   into `Sources/Committed/Generated/Library/`, and a second build compiles them.
#
# - Target `Configured` holds Tests/RemodelTests/Fixtures/Generation/Shop.xcdatamodel and a `remodel-records.json`
#   naming its configuration `Cloud` and public access: the build must generate `ShopCloudSchema`, public.
#
# It builds GRDB, so it takes minutes: `.ci/run` runs it, `swift test` does not. REMODEL_PLUGIN_CHECK_DIR=DIR
# keeps the package there (removed otherwise).
#
#   scripts/plugin-check.sh
set -euo pipefail
# The app is built as an app's author builds it: without .ci/run's REMODEL_DOCS (which would add the DocC plugin to
# Remodel's graph, and so to the app's).
unset REMODEL_DOCS

root=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${REMODEL_PLUGIN_CHECK_DIR:-}" ]; then
    app=$REMODEL_PLUGIN_CHECK_DIR
    rm -rf "$app/Sources" "$app/Package.swift"
    mkdir -p "$app"
else
    app=$(mktemp -d /tmp/remodel-plugin-check.XXXXXX)
    trap 'rm -rf "$app"' EXIT
fi
mkdir -p "$app/Sources/LibraryApp" "$app/Sources/Committed" "$app/Sources/Configured"
cp -R "$root/Tests/RemodelTests/Fixtures/Generation/Shop.xcdatamodel" "$app/Sources/Configured/"
echo '{"Shop.xcdatamodel": {"configuration": "Cloud", "access": "public"}}' >"$app/Sources/Configured/remodel-records.json"
cp -R "$root/Models/Library.xcdatamodeld" "$app/Sources/LibraryApp/"
cp -R "$root/Models/Library.xcdatamodeld" "$app/Sources/Committed/"
cat >"$app/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "PluginCheck",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "$root", traits: []),
        .package(url: "https://github.com/groue/GRDB.swift", "7.10.0"..<"8.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "LibraryApp",
            dependencies: [
                .product(name: "RemodelGRDB", package: "$(basename "$root")"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Library.xcdatamodeld")],
            plugins: [.plugin(name: "RemodelRecords", package: "$(basename "$root")")]
        ),
        .target(
            name: "Configured",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Shop.xcdatamodel", "remodel-records.json"],
            plugins: [.plugin(name: "RemodelRecords", package: "$(basename "$root")")]
        ),
        .target(
            name: "Committed",
            dependencies: [.product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["Library.xcdatamodeld"]
        ),
    ]
)
MANIFEST
cat >"$app/Sources/LibraryApp/main.swift" <<'SOURCE'
import Foundation
import GRDB
import Remodel
import RemodelGRDB

let bundle = try ModelBundle(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let path = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-check-\(getpid()).sqlite").path
let (queue, _) = try await Store.launchQueue(at: path, bundle: bundle, check: LibrarySchema.check)
let names = try queue.write { db -> [String] in
    var person = Person(fullName: "Ada")
    try person.insert(db)
    return try Person.fetchAll(db).map(\.fullName)
}
print(LibrarySchema.versionName, names)
try queue.close()
try FileManager.default.removeItem(atPath: path)
SOURCE
echo "public let committedPlaceholder = 0" >"$app/Sources/Committed/Placeholder.swift"
echo 'public let cloudConfiguration = ShopCloudSchema.configurationName' >"$app/Sources/Configured/Configuration.swift"

cd "$app"
swift build >"$app/build.log" 2>&1 || { cat "$app/build.log"; exit 1; }
grep -q "Generating records for Library.xcdatamodeld" "$app/build.log" || {
    cat "$app/build.log"
    echo "plugin-check: the build did not run RemodelRecords" >&2
    exit 1
}
output=$("$app/.build/debug/LibraryApp" "$app/Sources/LibraryApp/Library.xcdatamodeld")
[ "$output" = 'Library 3 ["Ada"]' ] || {
    echo "plugin-check: LibraryApp printed '$output', expected 'Library 3 [\"Ada\"]'" >&2
    exit 1
}
echo "RemodelRecords: generated, compiled and ran ($output)"
grep -q "Generating records for Shop.xcdatamodel" "$app/build.log" \
    && grep -rq "public enum ShopCloudSchema" "$app/.build/plugins/outputs/" || {
    cat "$app/build.log"
    echo "plugin-check: remodel-records.json did not give Configured the public records of configuration Cloud" >&2
    exit 1
}
echo "RemodelRecords: remodel-records.json gave Configured the public records of configuration Cloud"

swift package --allow-writing-to-package-directory generate-records --target Committed >"$app/generate.log" 2>&1 \
    || { cat "$app/generate.log"; exit 1; }
generated=$(find "$app/Sources/Committed/Generated/Library" -name '*.swift' | wc -l)
[ "$generated" -gt 0 ] || {
    cat "$app/generate.log"
    echo "plugin-check: generate-records wrote nothing into Sources/Committed/Generated/Library" >&2
    exit 1
}
swift build --target Committed >>"$app/build.log" 2>&1 || { cat "$app/build.log"; exit 1; }
echo "generate-records: wrote $generated files into Sources/Committed/Generated/Library, which compile"
