#!/usr/bin/env bash
# The main job on the bundled sample: creates the sample store when it is absent, then shows it.
set -euo pipefail
store="${1:-out/sample-store}"
tv() { .build/release/tunnelvision --store "$store" "$@"; }
if [ ! -f "$store/history.sqlite" ]; then
  echo "Creating the sample store in $store" >&2
  tv project new "Example Health" --bundle-id de.example.health \
     --allow "api.example-health.de=backend" --allow "*.example-cdn.net=images and fonts" \
     --allow "crash.example.org=crash reporting" >/dev/null
  tv session start "Example Health" --baseline --device-model "Pixel 8" --os-version "Android 15" >/dev/null
  tv session end >/dev/null
  tv session start "Example Health" --version 2.4.0 --build 187 --device-model "Pixel 8" --os-version "Android 15" \
     --inspection --ca-trusted >/dev/null
  tv mark consent-given >/dev/null
  tv mark logged-in >/dev/null
  tv mark logged-out >/dev/null
  tv session end >/dev/null
fi
tv project show "Example Health"
session=$(tv session list "Example Health" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
echo
tv session show "$session"
