#!/usr/bin/env bash
# The main job on the bundled sample: creates the sample store when it is absent, then shows it.
set -euo pipefail
store="${1:-out/sample-store}"
tv() { .build/release/tunnelvision --store "$store" "$@"; }
if [ ! -f "$store/history.sqlite" ]; then
  tv sample
fi
tv project show "Example Health"
echo
tv storage
