#!/usr/bin/env bash
# The public API of the libraries an app can depend on, compared with docs/api/<Module>.txt, and the `package`
# declarations the package's modules share, compared with docs/api/<Module>.package.txt, so that either surface
# changes only on purpose: a change fails CI until the file is updated in the same commit.
#
#   scripts/check-api.sh            # compare (CI)
#   scripts/check-api.sh --update   # write the files anew after a deliberate change
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
graphs=$(swift build --show-bin-path)/../symbolgraph
public=$(mktemp -d)
trap 'rm -rf "$public"' EXIT
swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
cp "$graphs"/*.symbols.json "$public"/
swift package dump-symbol-graph --minimum-access-level package >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
rm -f "$log"
status=0
# compare NAME FILE: the surface just listed (FILE) against docs/api/NAME, or written there with --update.
compare() {
    if [ "$update" = 1 ]; then
        mv "$2" "docs/api/$1"
    elif ! diff -u "docs/api/$1" "$2"; then
        echo "error: docs/api/$1 changed; if that is deliberate, run scripts/check-api.sh --update and commit it" >&2
        status=1
        rm -f "$2"
    else
        rm -f "$2"
    fi
}
update=0
if [ "${1:-}" = "--update" ]; then update=1; fi
for module in Remodel RemodelTesting RemodelGeneration RemodelCoreData RemodelGRDB; do
    current=$(mktemp)
    python3 scripts/api-surface.py "$public/$module.symbols.json" "$public/$module"@*.symbols.json >"$current"
    compare "$module.txt" "$current"
    current=$(mktemp)
    python3 scripts/api-surface.py --package "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json >"$current"
    if [ -s "$current" ] || [ -f "docs/api/$module.package.txt" ]; then
        compare "$module.package.txt" "$current"
    else
        rm -f "$current"
    fi
done
exit $status
