#!/usr/bin/env python3
"""Writes the release link's symbol ordering file from callgrind profiles of the commands.

Each profile (callgrind's output, run with --demangle=no) names the functions of the executable
that ran. They are written once each, most instructions first, so that lld places the code the
commands run side by side: a process then maps the pages of that code, and not the pages of every
function that happens to sit beside it (docs/performance.md, "Hot code together").
"""
import os
import re
import subprocess
import sys
from collections import Counter

DEFINITION = re.compile(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$")


def costs(path, executable):
    """Instructions per function of `executable` in one callgrind output file."""
    objects, functions, result = {}, {}, Counter()
    current_object = current_function = None
    with open(path, errors="replace") as lines:
        for line in lines:
            line = line.rstrip("\n")
            match = DEFINITION.match(line)
            if match:
                kind, index, name = match.groups()
                table = objects if kind.endswith("ob") else functions
                if name:
                    table[index] = name
                if kind == "ob":
                    current_object = objects.get(index)
                elif kind == "fn":
                    current_function = functions.get(index)
                continue
            if (
                line[:1].isdigit()
                and current_function
                and current_object
                and current_object.endswith(executable)
            ):
                fields = line.split()
                if len(fields) >= 2:
                    result[current_function] += int(fields[1])
    return result


def own_module(name, modules):
    """Whether `name` is a Swift symbol of one of the package's modules (Sources/*)."""
    match = re.match(r"\$s(\d+)", name)
    if not match:
        return False
    start = match.end()
    return name[start : start + int(match.group(1))] in modules


def symbol(name):
    """The symbol callgrind names: without the mark of a recursion level ('2)."""
    return re.sub(r"'\d+$", "", name)


def check(binary, order_file):
    """Fails unless `binary` was linked as Package.swift asks for a release: relative relocations
    packed, and the functions the order file names found and placed at the start of .text."""
    sections = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True).stdout
    if ".relr.dyn" not in sections:
        sys.exit(f"{binary}: no .relr.dyn: its relative relocations are not packed.")
    text = next(
        (int(f[3], 16), int(f[5], 16))
        for f in (line.replace("[ ", "[").split() for line in sections.splitlines())
        if len(f) > 5 and f[1] == ".text"
    )
    addresses = {}
    symbols = subprocess.run(
        ["nm", "--defined-only", binary], capture_output=True, text=True
    ).stdout
    for line in symbols.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            addresses[fields[2]] = int(fields[0], 16)
    with open(order_file) as names:
        ordered = [name.strip() for name in names if name.strip()]
    found = sum(1 for name in ordered if name in addresses)
    if found < 0.8 * len(ordered):
        sys.exit(
            f"{order_file}: only {found} of its {len(ordered)} functions are in {binary}: "
            "run scripts/hot-functions.sh to write it again."
        )
    named = set(ordered)
    first = sorted(
        (address, name)
        for name, address in addresses.items()
        if text[0] <= address < text[0] + text[1]
    )[:200]
    hot = sum(1 for _, name in first if name in named)
    if hot < 0.8 * len(first):
        sys.exit(
            f"{binary}: {hot} of the first {len(first)} functions of .text are in {order_file}: "
            "the hot functions were not placed first."
        )
    print(
        f"{binary}: {found} of {len(ordered)} hot functions found, {hot} of the first "
        f"{len(first)} in .text hot; relative relocations packed."
    )


def main(arguments):
    if len(arguments) == 4 and arguments[1] == "--check":
        return check(arguments[2], arguments[3])
    if len(arguments) < 3:
        sys.exit(
            "usage: hot-functions.py EXECUTABLE-NAME CALLGRIND-OUT... > ORDER-FILE\n"
            "       hot-functions.py --check BINARY ORDER-FILE"
        )
    executable, paths = arguments[1], arguments[2:]
    total = Counter()
    for path in paths:
        found = costs(path, executable)
        if not found:
            sys.exit(f"{path}: no function of {executable} in this profile")
        for name, cost in found.items():
            total[symbol(name)] += cost
    # The package's own functions first, each in a section of its own: they start .text side by
    # side; then the runtime's and Foundation's, whose sections often hold many functions.
    modules = set(os.listdir(os.path.join(os.path.dirname(__file__), "..", "Sources")))
    for name, _ in sorted(
        total.items(), key=lambda item: (not own_module(item[0], modules), -item[1], item[0])
    ):
        if name.startswith("(") or name.startswith("0x"):
            continue
        print(name)


if __name__ == "__main__":
    main(sys.argv)
