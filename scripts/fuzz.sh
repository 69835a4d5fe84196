#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, with AddressSanitizer) and runs each on its committed seed
# corpus: FUZZ_RUNS inputs each (default 20000), or FUZZ_SECONDS each when given. A crash, a
# leak, an input over the time or memory bound fails the run; its input is kept in
# out/fuzz/artifacts to become a regression test. Growing corpora stay in out/fuzz/corpus.
# FUZZ_BUILD=release (the default) optimises the targets: three to four times the inputs a second,
# for a build two minutes longer; CI's short run takes FUZZ_BUILD=debug, whose build is quicker.
#   scripts/fuzz.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out/fuzz/artifacts
runs="${FUZZ_RUNS:-20000}"
seconds="${FUZZ_SECONDS:-}"
configuration="${FUZZ_BUILD:-release}"
case "$configuration" in
  debug | release) ;;
  *) echo "FUZZ_BUILD is debug or release, not '$configuration'" >&2; exit 64 ;;
esac
build=(swift build -c "$configuration" --package-path Fuzz -Xswiftc -sanitize=fuzzer,address
  -Xswiftc -parse-as-library)
"${build[@]}" >out/fuzz-build.log 2>&1 || { tail -20 out/fuzz-build.log >&2; exit 1; }
bin=$("${build[@]}" --show-bin-path)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzCapture FuzzBundle FuzzInspectionLog FuzzCatalogue FuzzJSON FuzzKey FuzzSessionRecord FuzzTrackerList FuzzHAR FuzzHTTP1 FuzzContentDecoder FuzzTestsslReport FuzzAddressDatabase)
declare -A dictionary=([FuzzCapture]=capture [FuzzBundle]=zip [FuzzInspectionLog]=json
  [FuzzCatalogue]=json [FuzzJSON]=json [FuzzKey]=pem [FuzzSessionRecord]=json
  [FuzzTrackerList]=trackers [FuzzHAR]=json [FuzzHTTP1]=http [FuzzContentDecoder]=compressed
  [FuzzTestsslReport]=json [FuzzAddressDatabase]=mmdb)
# A bomb or a quadratic loop shows as memory or time: 2 GB and 10 s an input are far above any
# input of these sizes. libFuzzer's per-input leak check is off: the Swift runtime's caches look
# like a leak after each input, and scanning the heap for them took 40% of the time; the memory
# bound still stops real growth.
bounds=(-rss_limit_mb=2048 -timeout=10 -max_len=65536 -detect_leaks=0 -print_final_stats=1)
# Leaks in system libraries that fuzzing found and that are not this project's to fix.
export LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
failed=0
for target in "${targets[@]}"; do
  corpus="out/fuzz/corpus/$target"
  mkdir -p "$corpus"
  if [ -n "$seconds" ]; then limit=(-max_total_time="$seconds"); else limit=(-runs="$runs"); fi
  echo "== $target (${seconds:+$seconds s}${seconds:-$runs runs}, $configuration build)"
  started=$(date +%s.%N)
  if ! "$bin/$target" "${bounds[@]}" "${limit[@]}" -dict="Fuzz/Dictionaries/${dictionary[$target]}.dict" \
      -artifact_prefix="out/fuzz/artifacts/$target-" "$corpus" "Fuzz/Corpus/$target" \
      >"out/fuzz/$target.log" 2>&1; then
    echo "$target failed: see out/fuzz/$target.log and out/fuzz/artifacts/" >&2
    grep -E "ERROR|SUMMARY" "out/fuzz/$target.log" | head -5 >&2 || true
    failed=1
  fi
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|DONE|cov:" "out/fuzz/$target.log" | tail -3
  # The rate over the whole run, the seeds' first reading included (libFuzzer's own exec/s is
  # rounded to whole seconds).
  awk -v started="$started" -v ended="$(date +%s.%N)" -v target="$target" \
    '/^stat::number_of_executed_units/ { printf "%s: %d inputs in %.1f s, %.0f inputs/s\n", target, $2, ended - started, $2 / (ended - started) }' \
    "out/fuzz/$target.log"
done
exit $failed
