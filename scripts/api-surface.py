#!/usr/bin/env python3
"""Prints the public API of one module, one declaration a line, sorted, from SwiftPM's symbol graph;
with --package first, its `package` declarations instead (what the package's other modules use).

    swift package dump-symbol-graph --minimum-access-level public
    scripts/api-surface.py .build/x86_64-unknown-linux-gnu/symbolgraph/Remodel*.symbols.json
    swift package dump-symbol-graph --minimum-access-level package
    scripts/api-surface.py --package .build/x86_64-unknown-linux-gnu/symbolgraph/Remodel*.symbols.json

Only declarations written in the package's sources are listed (not the members a type gets from a
protocol's extension), each as its path and its declaration, so a renamed parameter, a new
requirement or a changed type shows as a changed line.
"""
import json
import sys

arguments = sys.argv[1:]
package = arguments[:1] == ["--package"]
if package:
    arguments = arguments[1:]
lines = set()
symbols = []
for path in arguments:
    # `Module@Other.symbols.json` holds the module's extensions of another module's types.
    try:
        symbols += json.load(open(path))["symbols"]
    except FileNotFoundError:
        pass
for symbol in symbols:
    location = symbol.get("location", {}).get("uri", "")
    if "/Sources/" not in location:
        continue
    if package and symbol.get("accessLevel") != "package":
        continue
    path = ".".join(symbol["pathComponents"])
    declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
    declaration = " ".join(declaration.split())
    lines.add(f"{path}: {declaration}")
for line in sorted(lines):
    print(line)
