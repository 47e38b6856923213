#!/usr/bin/env bash
# The public API of the libraries an app can depend on, compared with docs/api/<Module>.txt, so the
# surface changes only on purpose: a change fails CI until the file is updated in the same commit.
#
#   scripts/check-api.sh            # compare (CI)
#   scripts/check-api.sh --update   # write the files anew after a deliberate change
set -euo pipefail
cd "$(dirname "$0")/.."

log=$(mktemp)
swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
rm -f "$log"
graphs=$(swift build --show-bin-path)/../symbolgraph
status=0
for module in Remodel RemodelTesting RemodelGeneration RemodelCoreData RemodelGRDB; do
    current=$(mktemp)
    python3 scripts/api-surface.py "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json >"$current"
    if [ "${1:-}" = "--update" ]; then
        mv "$current" "docs/api/$module.txt"
    elif ! diff -u "docs/api/$module.txt" "$current"; then
        echo "error: the public API of $module changed; if that is deliberate, run scripts/check-api.sh --update and commit docs/api/$module.txt" >&2
        status=1
        rm -f "$current"
    else
        rm -f "$current"
    fi
done
exit $status
