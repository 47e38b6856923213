#!/usr/bin/env bash
# The floor of an app's build on `Remodel` alone (issue 42 item 5, docs/BENCHMARK.md "Session 18"): a throwaway
# copy of this checkout's HEAD without what an app does not run at launch, more than the issue allows (the Xcode
# mapping models, which DESIGN says `Store.launch` reads; JSON export and import, `Store.create(seed:)` throwing
# instead; the recognition of Core Data stores; `add-version`'s writing; the CLI's progress bar; the diff's text),
# stubbed where launch code calls it. Then `scripts/app-build-time.sh --apps "remodel grdb"`, one round for the
# copy and one for this checkout, alternated ROUNDS times. An experiment, never merged: when the stubs no longer
# apply, edit scripts/launch-floor.patch.
#
#   scripts/launch-floor.sh [ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
floor=$(mktemp -d /tmp/remodel-floor.XXXXXX)
trap 'git -C "$root" worktree remove --force "$floor" >/dev/null 2>&1 || rm -rf "$floor"' EXIT
git -C "$root" worktree add --detach "$floor" HEAD >/dev/null
cd "$floor/Sources/Remodel"
rm -rf XcodeMapping CoreData Store/JSON Store/Store+JSON.swift Store/StoreInspector+CoreData.swift \
    Inference/ModelDiff+Description.swift Inference/ModelDiff+Output.swift \
    Migration/Planning/MappingCatalog+Xcode.swift ModelFiles Progress/ProgressBar.swift
cd "$floor"
git apply "$root/scripts/launch-floor.patch"
for _ in $(seq "${1:-2}"); do
    echo "floor (HEAD less what an app does not run at launch):"
    "$floor/scripts/app-build-time.sh" --apps "remodel grdb" --rounds 1 | grep clean
    echo "this checkout:"
    "$root/scripts/app-build-time.sh" --apps "remodel grdb" --rounds 1 | grep clean
done
