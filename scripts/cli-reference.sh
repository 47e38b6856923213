#!/usr/bin/env bash
# Writes docs/CLI.md again from the built `remodel`'s own help (every subcommand's `--help`, 80 columns wide):
# run it after changing a subcommand, and commit the file. CI fails when the file is stale
# (CommandLineReferenceTests, which this runs with REMODEL_WRITE_CLI_REFERENCE=1).
#
#   scripts/cli-reference.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
REMODEL_WRITE_CLI_REFERENCE=1 swift test --skip-build --filter CommandLineReferenceTests/theReferenceIsTheCommandsHelp
git diff --stat -- docs/CLI.md
