#!/usr/bin/env bash
# Generates the GRDB records of the current version of every model under a folder (default: the shared corpus,
# ../shared/corpus), compiles them all in one scratch package (Swift 6, warnings as errors, each model a module of
# its own, public access), then round-trips a seeded store of each: `remodel seed` + `remodel create --seed`, every
# object read through the records and written back with `update`, and `remodel export` before and after compared
# byte for byte. Skips (exit 0) when the folder is absent. Used by .ci/run; any folder of models works:
#
#   scripts/generated-records-check.sh [MODELS_FOLDER] [OBJECTS_PER_ENTITY]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
models=${1:-"$root/../shared/corpus"}
objects=${2:-5}
if [ ! -d "$models" ]; then
    echo "generated-records-check: $models is absent; skipped."
    exit 0
fi
models=$(cd "$models" && pwd)
remodel="$root/.build/debug/remodel"
[ -x "$remodel" ] || (cd "$root" && swift build --product remodel >/dev/null)

work=${RECORDS_CHECK_DIR:-"$root/.build-records-check"}
rm -rf "$work/Sources" "$work/stores"
mkdir -p "$work/Sources/RoundTrip" "$work/stores"

# Every .xcdatamodeld bundle, and every .xcdatamodel folder that is not inside one.
mapfile -t found < <(find "$models" \( -name '*.xcdatamodeld' -o -name '*.xcdatamodel' \) -prune -print | sort)
targets=()
main="$work/Sources/RoundTrip/main.swift"
{
    echo "import Foundation"
    echo "import GRDB"
} >"$main"
cases=""
index=0
for model in "${found[@]}"; do
    case "$model" in *.xcdatamodeld/*) continue ;; esac
    index=$((index + 1))
    target="Model$index"
    "$remodel" generate "$model" --output "$work/Sources/$target" --access public -q
    schema=$(basename "$(ls "$work/Sources/$target"/*Schema.swift)" .swift)
    targets+=("$target")
    echo "import $target" >>"$main"
    cases+="    \"$target\": ($target.$schema.recordTypes, $target.$schema.check),"$'\n'
    printf '%s\t%s\n' "$target" "$model" >>"$work/stores/models.tsv"
done

cat >>"$main" <<'SWIFT'

typealias Records = [any (FetchableRecord & MutablePersistableRecord & TableRecord).Type]

let schemas: [String: (Records, @Sendable (Database) throws -> Void)] = [
SWIFT
printf '%s' "$cases" >>"$main"
cat >>"$main" <<'SWIFT'
]

func rewrite<Record: FetchableRecord & MutablePersistableRecord & TableRecord>(_ type: Record.Type, _ db: Database) throws -> Int {
    let records = try Record.fetchAll(db)
    for record in records { try record.update(db) }
    return records.count
}

// RoundTrip TARGET STORE: checks the store, then reads every object and writes it back.
let arguments = CommandLine.arguments
guard arguments.count == 3, let (types, check) = schemas[arguments[1]] else {
    FileHandle.standardError.write(Data("usage: RoundTrip TARGET STORE\n".utf8))
    exit(64)
}
let queue = try DatabaseQueue(path: arguments[2])
let count = try queue.write { db in
    try check(db)
    return try types.reduce(0) { $0 + (try rewrite($1, db)) }
}
print(count)
SWIFT

# Records of a model with typed transformable attributes import Remodel's archive coding (docs/TYPED-ACCESS.md): only
# their targets depend on this package, so a corpus without such a model builds GRDB alone.
archived=()
for target in "${targets[@]}"; do
    if grep -q '^import [a-z]* Remodel\.' "$work/Sources/$target"/*.swift; then archived+=("$target"); fi
done
{
    echo "// swift-tools-version:6.1"
    echo "import PackageDescription"
    echo "let grdb: Target.Dependency = .product(name: \"GRDB\", package: \"GRDB.swift\")"
    echo "let remodel: Target.Dependency = .product(name: \"Remodel\", package: \"$(basename "$root")\")"
    echo "let models = [$(printf '"%s", ' "${targets[@]}")]"
    echo "let archived: Set<String> = [$(printf '"%s", ' "${archived[@]}")]"
    echo "let package = Package("
    echo "    name: \"RecordsCheck\", platforms: [.macOS(.v13)],"
    echo "    dependencies: [.package(url: \"https://github.com/groue/GRDB.swift\", \"7.10.0\"..<\"8.0.0\")]"
    if [ ${#archived[@]} -gt 0 ]; then echo "        + [.package(path: \"$root\")],"; else echo "        ,"; fi
    echo "    targets: models.map { .target(name: \$0, dependencies: archived.contains(\$0) ? [grdb, remodel] : [grdb]) }"
    echo "        + [.executableTarget(name: \"RoundTrip\", dependencies: [grdb] + models.map { .target(name: \$0) })]"
    echo ")"
} >"$work/Package.swift"
if [ ${#archived[@]} -gt 0 ]; then
    echo "generated-records-check: ${#archived[@]} models' records import Remodel (typed transformable attributes)."
fi

echo "generated-records-check: ${#targets[@]} models under $models; building their records."
start=$SECONDS
(cd "$work" && swift build -Xswiftc -warnings-as-errors >/dev/null 2>&1) || {
    echo "generated-records-check: the generated records do not compile"
    (cd "$work" && swift build -Xswiftc -warnings-as-errors 2>&1 | grep -E "error|warning" | head -40)
    exit 1
}
echo "generated-records-check: compiled in $((SECONDS - start)) s; round-tripping a seeded store of each."
binary="$work/.build/debug/RoundTrip"
failures=0
passed=0
while IFS=$'\t' read -r target model; do
    store="$work/stores/$target.sqlite"
    seed="$work/stores/$target.json"
    # The version the records are of, from the generated header: `… from the model "M", version "V" (Remodel …).`
    current=$(head -1 "$work/Sources/$target"/*Schema.swift | sed -n 's/.*, version "\(.*\)" (Remodel.*/\1/p')
    "$remodel" seed "$model" --version "$current" --objects "$objects" --output "$seed" >/dev/null 2>"$work/stores/$target.seed.err"
    "$remodel" create "$store" --model "$model" --version "$current" --seed "$seed" -q
    "$remodel" export "$store" --model "$model" -q -o "$work/stores/$target.before.json"
    count=$("$binary" "$target" "$store")
    "$remodel" export "$store" --model "$model" -q -o "$work/stores/$target.after.json"
    if cmp -s "$work/stores/$target.before.json" "$work/stores/$target.after.json"; then
        passed=$((passed + 1))
        echo "  ok  $count objects  $model ($current)"
    else
        failures=$((failures + 1))
        echo "  FAILED  $model ($current): the export changed after the records wrote every object back"
        diff "$work/stores/$target.before.json" "$work/stores/$target.after.json" | head -6
    fi
done <"$work/stores/models.tsv"
echo "generated-records-check: $passed passed, $failures failed"
[ "$failures" -eq 0 ]
