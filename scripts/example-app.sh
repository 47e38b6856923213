#!/usr/bin/env bash
# Builds Examples/NotesApp, an app that ships its model and mapping files as resources of its target
# (`Bundle.module`, `.copy("Notes.xcdatamodeld")`, `.copy("Mappings")`) and depends on this clone by path
# whatever its folder is called (`.package(name: "Remodel", path: …)`), then runs it twice: on a store of the
# older version, which its launch migrates with the mapping file, and on the migrated store, which it opens.
# Fails when either run does not say so. The app's build is kept in .build/examples (incremental next time).
#
#   scripts/example-app.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/remodel-example-app.XXXXXX)
trap 'rm -rf "$work"' EXIT
app="$root/Examples/NotesApp"
cd "$root"
swift build --product remodel
remodel="$(swift build --show-bin-path)/remodel"
"$remodel" validate "$app/Sources/NotesApp"
printf '{"Note": [{"_pk": 1, "title": "Groceries", "body": "eggs, flour"}]}\n' >"$work/seed.json"
"$remodel" create "$work/notes.sqlite" --model "$app/Sources/NotesApp/Notes.xcdatamodeld" --version Notes \
    --seed "$work/seed.json"
swift build --package-path "$app" --scratch-path "$root/.build/examples"
notes="$root/.build/examples/debug/NotesApp"
"$notes" "$work/notes.sqlite" | tee "$work/first.txt"
grep -q "^Migrated $work/notes.sqlite from Notes to Notes 2 in 1 step" "$work/first.txt"
"$notes" "$work/notes.sqlite" | tee "$work/second.txt"
grep -q "^The store was at the current version: it was opened as it was.$" "$work/second.txt"
"$remodel" export "$work/notes.sqlite" --model "$app/Sources/NotesApp/Notes.xcdatamodeld" | tee "$work/export.json"
grep -q '"text": "eggs, flour"' "$work/export.json"
echo "example-app: built, migrated at launch, then opened"
