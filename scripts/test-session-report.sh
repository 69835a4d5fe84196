#!/usr/bin/env bash
# Draws the pages of a test session's report into Samples/test-session/: the session
# PersonalDataNamespaceTests records (real traffic through mitmproxy in a network namespace, the
# test account's values planted, a consent marker), exported as the test exports it. Needs root
# (the namespace) and a debug build of the tests; its times are those of the run, so its pages
# differ from run to run in their times and digests only.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests >/dev/null
out=Samples/test-session
rm -rf "$out"
mkdir -p "$out"
TUNNELVISION_KEEP_REPORT="$PWD/$out/report.pdf" CI=true \
  swift test --skip-build --filter PersonalDataNamespaceTests >/dev/null
test -s "$out/report.pdf"
pdftoppm -r 72 -png "$out/report.pdf" "$out/page"
ls "$out"
