#!/usr/bin/env bash
# The main job on the bundled sample: creates the sample store when it is absent, exports the
# 2.4.0 session's evidence bundle (with report.pdf) and prints the evidence sheet.
set -euo pipefail
store="${1:-out/sample-store}"
out="${2:-out}"
at="${EXPORT_AT:-2026-10-07T09:00:00Z}"   # a fixed instant: the same store gives the same bytes
tv() { .build/release/tunnelvision --store "$store" "$@"; }
if [ ! -f "$store/history.sqlite" ]; then
  tv sample
  echo
fi
session=$(tv session list "Example Health" --json | python3 -c '
import json, sys
print(next(s["id"] for s in json.load(sys.stdin) if (s.get("release") or {}).get("version") == "2.4.0"))')
mkdir -p "$out"
tv export "$session" --at "$at" --force -o "$out/example-health-2.4.0-evidence.zip"
echo
tv verify "$out/example-health-2.4.0-evidence.zip"
