#!/usr/bin/env bash
# Writes Sources/tunnelvision/hot-functions.order: the functions export, verify, import, record,
# `flows` and `--help` run, from callgrind profiles of the release build on the benchmark's
# workload at a tenth. Run it when those commands change much; a stale list only costs memory
# (the names it lacks are linked where they fall), never correctness. Needs valgrind; takes
# about a minute and a half. docs/performance.md, "Hot code together".
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "hot-functions.sh needs valgrind (apt install valgrind)." >&2; exit 1; }
swift build -c release --static-swift-stdlib --product tunnelvision
swift build -c release --static-swift-stdlib --product tunnelvision-bench
work=$(mktemp -d)
kept=""
# The profiles and the benchmark's workload go, however the script ends.
trap 'rm -rf "$work" ${kept:+"$kept"}' EXIT
# Valgrind reads the symbol table, not this toolchain's DWARF 5: profile a copy without it.
objcopy --strip-debug .build/release/tunnelvision "$work/tunnelvision"
kept=$(.build/release/tunnelvision-bench --scale 0.1 --repeat 1 --keep 2>&1 >/dev/null \
  | sed -n 's/^Kept //p')
[ -d "$kept/full" ] || { echo "The benchmark kept no workload." >&2; exit 1; }
workload="$kept/full"
export TUNNELVISION_FONTS="$PWD/Fonts"
profile() {
  local name=$1
  shift
  valgrind --tool=callgrind --demangle=no --dump-instr=no \
    --callgrind-out-file="$work/$name.callgrind" "$work/tunnelvision" "$@" >/dev/null 2>"$work/$name.log" \
    || { echo "Profiling '$name' failed:" >&2; tail -n 5 "$work/$name.log" >&2; exit 1; }
}
# The sample's session 3 (its release 2.4.0), the one the benchmark exports.
profile export --store "$workload/store" export 3 -o "$work/bundle.zip" --json
profile verify verify "$work/bundle.zip" --json
capture=$(ls "$workload"/import-store/captures/*.pcap | head -n 1)
"$work/tunnelvision" --store "$work/import" project new Profile >/dev/null
profile import --store "$work/import" import "$capture" --project Profile --baseline --json
profile record --store "$work/record" record --read "$capture" --quiet --json
profile flows --store "$work/import" flows
profile help --help
scripts/hot-functions.py tunnelvision "$work"/*.callgrind > Sources/tunnelvision/hot-functions.order
echo "Wrote Sources/tunnelvision/hot-functions.order ($(wc -l < Sources/tunnelvision/hot-functions.order) functions)." >&2
