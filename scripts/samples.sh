#!/usr/bin/env bash
# Regenerates what Samples/ holds: the sample store, its 2.4.0 evidence bundle, and the report's
# pages as PNG. Deterministic: the same build writes the same store, bundle and report.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product tunnelvision >/dev/null
tv=.build/release/tunnelvision
# The sample compares its hosts with no installed tracker list: its bytes are the same on any machine.
export TUNNELVISION_SHARE_DIR=/nonexistent
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$tv --store "$work/store" sample >/dev/null
session=$($tv --store "$work/store" session list "Example Health" --json | python3 -c '
import json, sys
print(next(s["id"] for s in json.load(sys.stdin) if (s.get("release") or {}).get("version") == "2.4.0"))')
rm -rf Samples/example-health-store Samples/report
mkdir -p Samples/report
cp -r "$work/store" Samples/example-health-store
$tv --store "$work/store" export "$session" --at 2026-10-07T09:00:00Z --force -o Samples/example-health-2.4.0-evidence.zip >/dev/null
unzip -o -q Samples/example-health-2.4.0-evidence.zip report.pdf -d Samples/report
pdftoppm -r 72 -png Samples/report/report.pdf Samples/report/page
ls Samples Samples/report
